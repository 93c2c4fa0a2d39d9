package io.dta.appliance.dpdk;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.replay.Replay;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta replay --io dpdk} against {@code --io java}: thousands of mixed reports (every primitive, both kinds of
 * essential and retransmittable reports, several reporters, some malformed) at sub-microsecond spacing in a
 * nanosecond capture go through a real EAL and {@code net_pcap}, and the RoCEv2 frames must be the same, in the
 * same order, with the same counters. In a JVM of its own (one EAL per process).
 */
class DpdkReplayEalTest
{
    private static final long SEED = 0xD9D_2025L;
    private static final int REPORTS = 6000;

    @TempDir
    Path dir;

    @Test
    void shouldGiveTheSameFramesAsTheJavaReplay() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final Path reports = dir.resolve("reports.pcap");
        final GeneratorSettings settings = new GeneratorSettings().seed(SEED)
            .mix("keywrite=40,keyincrement=20,append=20,postcard=20").redundancy("1-4").reporters(7)
            .essentialFraction(0.2).retransmittable(true).badFraction(0.02).spacingNanos(333);
        GeneratedReports.write(reports, config, settings, REPORTS);

        final TranslatorEngine java = Replay.run(config, reports, null, dir.resolve("java.pcap"));
        final TranslatorEngine dpdk = DpdkReplay.run(config, reports, null, dir.resolve("dpdk.pcap"), List.of());

        final Path dpdkOutput = dir.resolve("dpdk.pcap");
        final List<byte[]> expected =
            ReplayOutputs.assertSameReplay(java, dir.resolve("java.pcap"), dpdk, dpdkOutput, "seed " + SEED);
        assertTrue(expected.size() > REPORTS / 2, "frames out: " + expected.size());
        try (var left = Files.list(dir))
        {
            assertFalse(left.anyMatch(p -> p.getFileName().toString().startsWith(".dta-")),
                "temporary files of the re-stamping left behind");
        }
        assertEquals(REPORTS, dpdk.counters().get(EngineCounter.FRAMES_IN));
        assertTrue(dpdk.counters().get(EngineCounter.APPEND_PARTIAL_FLUSHES) + dpdk.counters().totalDrops() > 0,
            "the mix exercises flushes and drops");
        try (var runtime = Files.list(Path.of("/var/run/dpdk")))
        {
            assertFalse(runtime.anyMatch(p -> p.getFileName().toString().startsWith(
                "dta-replay" + ProcessHandle.current().pid())), "EAL runtime directory left behind");
        }
        catch (final java.nio.file.NoSuchFileException ignored)
        {
            // Nothing left at all.
        }
    }
}
