package io.dta.appliance.dpdk;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.replay.Replay;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta replay --io dpdk} of a Linux cooked (SLL) capture, which {@code net_pcap} would pass on as it is: the
 * replay must feed it an Ethernet copy and give the frames and counters of {@code --io java}, and leave no copy
 * behind. In a JVM of its own (one EAL per process).
 */
class DpdkCookedReplayEalTest
{
    private static final long SEED = 0x5111_2025L;
    private static final int REPORTS = 2000;

    @TempDir
    Path dir;

    @Test
    void shouldGiveTheSameFramesAsTheJavaReplayFromAnSllCapture() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final Path reports = SllCaptures.write(config, SEED, REPORTS, dir.resolve("reports-sll.pcap"));
        final Path out = Files.createDirectory(dir.resolve("out"));

        final TranslatorEngine java = Replay.run(config, reports, null, dir.resolve("java.pcap"));
        final TranslatorEngine dpdk = DpdkReplay.run(config, reports, null, out.resolve("dpdk.pcap"), List.of());

        final List<byte[]> expected =
            ReplayOutputs.assertSameReplay(java, dir.resolve("java.pcap"), dpdk, out.resolve("dpdk.pcap"), "seed " + SEED);
        assertTrue(expected.size() > REPORTS / 2, "frames out: " + expected.size());
        assertEquals(REPORTS, dpdk.counters().get(EngineCounter.FRAMES_IN));
        assertTrue(dpdk.counters().get(EngineCounter.REPORTS_IN) > REPORTS * 9 / 10, "the SLL packets are reports");
        try (var left = Files.list(out))
        {
            assertEquals(List.of(out.resolve("dpdk.pcap")), left.toList(), "the Ethernet copy is deleted");
        }
    }
}
