package io.dta.appliance.connect;

import io.dta.appliance.engine.FrameCollector;
import io.dta.collector.responder.ResponderCounter;
import io.dta.collector.responder.ResponderQp;
import io.dta.collector.responder.SoftResponder;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import io.dta.config.RegionConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The translator's connection set-up run once per worker ({@link ApplianceConfig#forWorker(int)}: local QPN
 * {@code localQpn + (w << 16)}) against one soft collector: every worker's REQ to a region's service port gets a
 * connection of its own, with a collector QPN of its own, over the region's one memory, R_Key and address.
 */
class WorkerConnectionsTest
{
    private static final String YAML = """
        translator:
          mac: "02:00:0a:00:00:65"
          ip: 10.0.0.101
        workers:
          count: 3
        collectors:
          - name: c
            mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            keyWrite:
              localQpn: 0x539
              servicePort: 1337
              length: 2048
            keyIncrement:
              localQpn: 0x53a
              servicePort: 1339
              length: 2048
            lists:
              - id: 1
                localQpn: 0x53d
                qpn: 0x45a
                rkey: 0x1238
                address: 0x7f0000400000
                length: 4096
                workerQueuePairs:
                  - localQpn: 0x1053d
                    qpn: 0x55a
                  - localQpn: 0x2053d
                    qpn: 0x65a
        """;
    private static final int WORKERS = 3;
    private static final long STEP_NANOS = 100_000;

    private final ApplianceConfig config = ConfigLoader.load(YAML);
    private final ApplianceConfig collectorSide = NegotiatedRegions.assign(config);
    private final SoftResponder responder = new SoftResponder(collectorSide,
        (c, r) -> new UnsafeBuffer(new byte[(int)r.length()]));

    @Test
    void shouldConnectEveryWorkersQpOfEveryNegotiatedRegionWithACollectorQpOfItsOwn()
    {
        final ConnectionManager[] managers = new ConnectionManager[WORKERS];
        final FrameCollector[] toCollector = new FrameCollector[WORKERS];
        final int[] taken = new int[WORKERS];
        for (int w = 0; w < WORKERS; w++)
        {
            toCollector[w] = new FrameCollector();
            managers[w] = new ConnectionManager(config.forWorker(w), toCollector[w], 0x5EED + w);
            managers[w].start(0);
        }
        final ConnectionManagerTest.Frames toTranslator = new ConnectionManagerTest.Frames();
        int delivered = 0;
        // Until every worker is connected and the collector has had the ACKs of its metadata SENDs.
        for (long now = 0; now < 1_000_000_000L && !(allConnected(managers) && allTaken(toCollector, taken));
            now += STEP_NANOS)
        {
            for (int w = 0; w < WORKERS; w++)
            {
                final List<FrameCollector.Frame> frames = toCollector[w].frames();
                for (; taken[w] < frames.size(); taken[w]++)
                {
                    final byte[] f = frames.get(taken[w]).bytes();
                    responder.onFrame(new UnsafeBuffer(f), 0, f.length, now, toTranslator);
                }
            }
            // Each response goes to every worker, as on one link: the one whose IDs or QPN it names takes it.
            for (; delivered < toTranslator.frames.size(); delivered++)
            {
                final byte[] f = toTranslator.frames.get(delivered);
                for (final ConnectionManager manager : managers)
                {
                    manager.onFrame(new UnsafeBuffer(f), 0, f.length, now);
                }
            }
            for (final ConnectionManager manager : managers)
            {
                manager.poll(now);
            }
            responder.poll(now, toTranslator);
        }
        assertTrue(allConnected(managers), managers[0].summary());

        final Set<Integer> collectorQpns = new HashSet<>();
        for (final String path : List.of("collectors[0].keyWrite", "collectors[0].keyIncrement"))
        {
            final RegionConfig assigned = region(collectorSide, path);
            final List<ResponderQp> qps = responder.qps(assigned);
            assertEquals(WORKERS, qps.size(), path);
            for (int w = 0; w < WORKERS; w++)
            {
                final RegionConfig connected = region(managers[w].connectedConfig(), path);
                assertEquals(RegionConfig.workerLocalQpn(region(config, path).localQpn(), w), connected.localQpn());
                assertEquals(assigned.address(), connected.address(), path);
                assertEquals(assigned.rkey(), connected.rkey(), path);
                assertTrue(collectorQpns.add(connected.qpn()), "collector QPN 0x" +
                    Integer.toHexString(connected.qpn()) + " given twice");
                final ResponderQp qp = responder.qp(0x0A000033, connected.qpn());
                assertEquals(connected.localQpn(), qp.peerQpn());
                assertEquals(ResponderQp.Connection.ESTABLISHED, qp.connection());
            }
        }
        assertEquals(2 * WORKERS, responder.counter(ResponderCounter.CM_REQS_ACCEPTED));
        assertEquals(0, responder.counter(ResponderCounter.CM_REQS_REJECTED));
        // The static list hosts its own QP and the two workers' QPs; none needed a connection.
        assertEquals(WORKERS, responder.qps(region(collectorSide, "collectors[0].lists[0]")).size());
    }

    private static boolean allConnected(final ConnectionManager[] managers)
    {
        for (final ConnectionManager manager : managers)
        {
            if (!manager.allConnected())
            {
                return false;
            }
        }
        return true;
    }

    private static boolean allTaken(final FrameCollector[] toCollector, final int[] taken)
    {
        for (int w = 0; w < toCollector.length; w++)
        {
            if (taken[w] < toCollector[w].size())
            {
                return false;
            }
        }
        return true;
    }

    private static RegionConfig region(final ApplianceConfig config, final String path)
    {
        return config.collectors().get(0).regions().stream().filter(r -> r.path().equals(path)).findFirst()
            .orElseThrow(() -> new AssertionError("no region " + path));
    }
}
