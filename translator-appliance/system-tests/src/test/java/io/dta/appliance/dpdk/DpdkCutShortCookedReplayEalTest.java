package io.dta.appliance.dpdk;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.replay.CutCaptures;
import io.dta.appliance.replay.CutShortCapture;
import io.dta.appliance.replay.Replay;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta replay --io dpdk} of a Linux cooked (SLL) capture cut short inside a record's data: the Ethernet copy
 * fed to {@code net_pcap} holds the whole records only, and the replay must give the frames, counters, output bytes
 * and reported cut of {@code --io java}, naming the capture as given, and leave no copy behind. In a JVM of its own
 * (one EAL per process).
 */
class DpdkCutShortCookedReplayEalTest
{
    private static final long SEED = 0x5C07_2025L;
    private static final int REPORTS = 2500;

    @TempDir
    Path dir;

    @Test
    void shouldEndAtTheCutOfAnSllCaptureAsTheJavaReplayDoes() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final Path full = SllCaptures.write(config, SEED, REPORTS, dir.resolve("reports-sll.pcap"));
        final int kept = REPORTS * 2 / 3;
        final long at = CutCaptures.recordOffsets(full).get(kept);
        final Path reports = CutCaptures.prefix(full, at + 16 + 20, dir.resolve("reports-sll-cut.pcap"));
        final Path out = Files.createDirectory(dir.resolve("out"));

        final List<CutShortCapture> javaCuts = new ArrayList<>();
        final TranslatorEngine java = Replay.run(config, reports, null, dir.resolve("java.pcap"), javaCuts);
        final List<CutShortCapture> dpdkCuts = new ArrayList<>();
        final TranslatorEngine dpdk =
            DpdkReplay.run(config, reports, null, out.resolve("dpdk.pcap"), List.of(), dpdkCuts);

        final List<byte[]> frames = ReplayOutputs.assertSameReplay(java, dir.resolve("java.pcap"), dpdk,
            out.resolve("dpdk.pcap"), "seed " + SEED);
        assertTrue(frames.size() > kept / 2, "frames out: " + frames.size());
        assertEquals(kept, dpdk.counters().get(EngineCounter.FRAMES_IN));
        assertEquals(List.of(new CutShortCapture(CutShortCapture.IN, reports, at, kept)), dpdkCuts);
        assertEquals(javaCuts, dpdkCuts);
        try (var left = Files.list(out))
        {
            assertEquals(List.of(out.resolve("dpdk.pcap")), left.toList(), "the Ethernet copy is deleted");
        }
    }
}
