package io.dta.config;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code workers} and the per-worker QPs of regions: a static region lists them, a negotiated one derives them.
 */
class WorkerConfigTest
{
    private static final String CONFIG = """
        translator:
          mac: "02:00:0a:00:00:65"
          ip: 10.0.0.101
        workers:
          count: %d
        collectors:
          - mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            keyWrite:
              localQpn: 0x539
              qpn: 0x456
              rkey: 0x1234
              address: 0x7f0000000000
              length: 2048
              startPsn: 0x100
              workerQueuePairs:
                - { localQpn: 0x1539, qpn: 0x1456, startPsn: 0x200 }
                - { localQpn: 0x2539, qpn: 0x2456, udpSourcePort: 50000 }
            lists:
              - id: 0
                localQpn: 0x53a
                servicePort: 1338
                length: 1024
        """;

    @Test
    void shouldDefaultToOneWorker()
    {
        final ApplianceConfig config = ConfigLoader.load(CONFIG.replace("workers:\n  count: %d\n", "")
            .formatted());
        assertEquals(1, config.workers().count());
        assertEquals(WorkersConfig.DEFAULT_HAND_OFF_QUEUE_BYTES, config.workers().handOffQueueBytes());
    }

    @Test
    void shouldGiveEachWorkerItsOwnQueuePair()
    {
        final ApplianceConfig config = ConfigLoader.load(CONFIG.formatted(3));
        assertEquals(3, config.workers().count());
        final RegionConfig kw = config.collectors().get(0).keyWrite().region();
        assertEquals(2, kw.workerQueuePairs().size());

        final RegionConfig w0 = config.forWorker(0).collectors().get(0).keyWrite().region();
        assertEquals(0x539, w0.localQpn());
        assertEquals(0x456, w0.qpn());
        assertEquals(0x100, w0.startPsn());
        final RegionConfig w1 = config.forWorker(1).collectors().get(0).keyWrite().region();
        assertEquals(0x1539, w1.localQpn());
        assertEquals(0x1456, w1.qpn());
        assertEquals(0x200, w1.startPsn());
        assertEquals(RegionConfig.defaultUdpSourcePort(0x1539), w1.udpSourcePort());
        assertEquals(kw.address(), w1.address());
        assertEquals(kw.rkey(), w1.rkey());
        assertEquals(kw.length(), w1.length());
        final RegionConfig w2 = config.forWorker(2).collectors().get(0).keyWrite().region();
        assertEquals(0x2539, w2.localQpn());
        assertEquals(0, w2.startPsn());
        assertEquals(50000, w2.udpSourcePort());

        // A negotiated region derives its workers' local QPNs; the service port is shared.
        final RegionConfig list2 = config.forWorker(2).collectors().get(0).lists().get(0).region();
        assertEquals(0x53a + (2 << 16), list2.localQpn());
        assertEquals(1338, list2.servicePort());
        assertEquals(RegionConfig.defaultUdpSourcePort(0x53a + (2 << 16)), list2.udpSourcePort());
    }

    @Test
    void shouldRefuseTooFewWorkerQueuePairsWithTheKeyPath()
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(CONFIG.formatted(4)));
        assertTrue(ex.getMessage().contains("collectors[0].keyWrite.workerQueuePairs: 2 queue pair(s) for workers " +
            "1..3"), ex.getMessage());
        // --workers on the command line is checked the same way.
        final ApplianceConfig config = ConfigLoader.load(CONFIG.formatted(1));
        final List<String> problems = config.workerProblems(5);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("collectors[0].keyWrite.workerQueuePairs:"), problems.toString());
        assertEquals(List.of(), config.workerProblems(3));
    }

    @Test
    void shouldRefuseAWorkerQpnThatAnotherQueuePairHas()
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(
            CONFIG.formatted(3).replace("localQpn: 0x2539", "localQpn: 0x53a")));
        assertTrue(ex.getMessage().contains("collectors[0].lists[0].localQpn: local QPN 0x53a is also that of " +
            "collectors[0].keyWrite (worker 2)"),
            ex.getMessage());
    }

    @Test
    void shouldRefuseWorkerQueuePairsOnANegotiatedRegionAndBadCounts()
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(
            CONFIG.formatted(1).replace("        servicePort: 1338\n",
                "        servicePort: 1338\n        workerQueuePairs: [ { localQpn: 7, qpn: 8 } ]\n")));
        assertTrue(ex.getMessage().contains("collectors[0].lists[0].workerQueuePairs: not allowed with servicePort"),
            ex.getMessage());
        final ConfigException zero = assertThrows(ConfigException.class, () -> ConfigLoader.load(CONFIG.formatted(0)));
        assertTrue(zero.getMessage().contains("workers.count"), zero.getMessage());
        final ConfigException queue = assertThrows(ConfigException.class, () -> ConfigLoader.load(
            CONFIG.formatted(1).replace("  count: 1\n", "  count: 1\n  handOffQueueBytes: 5000\n")));
        assertTrue(queue.getMessage().contains("workers.handOffQueueBytes: 5000 is not a power of two"),
            queue.getMessage());
    }
}
