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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames longer than an mbuf's default 2048-byte data room: a collector on path MTU 4096 whose sketch writes runs of
 * 8192 bytes (WRITE First and Last of 4096 bytes each). The DPDK replay's pool is sized for the configuration's largest
 * frame, so every such frame goes out whole and the output equals the Java replay's; with the default data room
 * they could not be built at all. In a JVM of its own (one EAL per process).
 */
class DpdkLargeFrameReplayEalTest
{
    private static final long SEED = 0x4096_2048L;
    private static final int REPORTS = 8000;

    @TempDir
    Path dir;

    @Test
    void shouldSendFramesLongerThanTheDefaultDataRoomLikeTheJavaReplay() throws Exception
    {
        final String yaml = ConfigDefaults.yaml()
            .replace("pathMtu: 1024", "pathMtu: 4096")
            .replace("backlog: 16384", "backlog: 256")
            .replace("        columns: 1024\n        localQpn: 0x00053e",
                "        columns: 1024\n        batchColumns: 512\n        localQpn: 0x00053e");
        final ApplianceConfig config = ConfigLoader.load(yaml);
        assertEquals(4096, config.collectors().get(0).pathMtu());
        assertEquals(512, config.collectors().get(0).sketches().get(0).batchColumns());

        final Path reports = dir.resolve("reports.pcap");
        final GeneratorSettings settings = new GeneratorSettings().seed(SEED).mix("sketch=90,keywrite=10")
            .spacingNanos(500);
        GeneratedReports.write(reports, config, settings, REPORTS);

        final TranslatorEngine java = Replay.run(config, reports, null, dir.resolve("java.pcap"));
        final TranslatorEngine dpdk = DpdkReplay.run(config, reports, null, dir.resolve("dpdk.pcap"), List.of());

        final List<byte[]> frames =
            ReplayOutputs.assertSameReplay(java, dir.resolve("java.pcap"), dpdk, dir.resolve("dpdk.pcap"),
                "seed " + SEED);
        final long fullPackets = frames.stream().filter(f -> f.length > 4096).count();
        assertTrue(fullPackets > 0, "some frames must carry a full 4096-byte payload");
        assertTrue(dpdk.counters().get(EngineCounter.SKETCH_COLUMN_WRITES) > 0);
        assertEquals(0, dpdk.counters().totalDrops(), "nothing may be dropped for want of room");
    }
}
