package io.dta.appliance.dpdk;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.replay.Replay;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Capture times from 2038 on: the seconds of a classic pcap record are an unsigned 32-bit field (read so by
 * {@code PcapReader} and Wireshark, up to 2106), which libpcap, and so {@code net_pcap}'s mbuf timestamp, takes as
 * signed. The DPDK replay's check of each mbuf against its record took the first record after 2^31 s (2038-01-19)
 * for a mismatch and stopped, exit 1; the two readings differ by exactly 2^32 s, which the check allows. In a JVM
 * of its own (one EAL per process).
 */
class DpdkLateTimestampReplayEalTest
{
    private static final long SEED = 0x2038_0119L;
    private static final int REPORTS = 3000;

    @TempDir
    Path dir;

    @Test
    void shouldReplayCapturesAfter2038LikeTheJavaReplay() throws Exception
    {
        final ApplianceConfig config = ConfigLoader.load(ConfigDefaults.yaml());
        final Path reports = GeneratedReports.write(dir.resolve("reports.pcap"), config,
            new GeneratorSettings().seed(SEED).startTimeSeconds((1L << 31) - 1).spacingNanos(1_000_001L), REPORTS);

        final TranslatorEngine java = Replay.run(config, reports, null, dir.resolve("java.pcap"));
        final TranslatorEngine dpdk = DpdkReplay.run(config, reports, null, dir.resolve("dpdk.pcap"), List.of());

        ReplayOutputs.assertSameReplay(java, dir.resolve("java.pcap"), dpdk, dir.resolve("dpdk.pcap"),
            "seed " + SEED);
        assertEquals(REPORTS, dpdk.counters().get(EngineCounter.FRAMES_IN), "seed " + SEED);
    }
}
