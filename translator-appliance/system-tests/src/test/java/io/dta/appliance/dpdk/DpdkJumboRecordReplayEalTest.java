package io.dta.appliance.dpdk;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.replay.Replay;
import io.dta.codec.pcap.PcapFormat;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Records longer than the replay pool's mbuf data room (jumbo frames, a 64 KB one, ones longer than 65 535 bytes)
 * among the reports: {@code net_pcap} receives such a record as a chain of mbufs, of which the replay read only the
 * first segment and stopped with "frame N ... does not match its capture record (length 2048 vs ...)", exit 1, where
 * the Java replay counts them and goes on. The DPDK replay reads the whole chain, so the output is the Java
 * replay's byte for byte. In a JVM of its own (one EAL per process).
 */
class DpdkJumboRecordReplayEalTest
{
    private static final long SEED = 0x9000_1500L;
    private static final int REPORTS = 3000;
    private static final int[] LENGTHS =
        { 1519, 2049, 2200, 4300, 9018, 16_000, 65_535, 70_000, 131_072, 131_130, 196_608, 200_000, 262_144 };

    @TempDir
    Path dir;

    @Test
    void shouldReplayRecordsLongerThanAnMbufLikeTheJavaReplay() throws Exception
    {
        final ApplianceConfig config = ConfigLoader.load(ConfigDefaults.yaml());
        final Path generated = GeneratedReports.write(dir.resolve("generated.pcap"), config,
            new GeneratorSettings().seed(SEED).spacingNanos(700), REPORTS);
        final Path reports = dir.resolve("reports.pcap");
        final SplittableRandom random = new SplittableRandom(SEED);
        final UnsafeBuffer big = new UnsafeBuffer(new byte[PcapFormat.MAX_CAPTURED_LENGTH]);
        int jumbos = 0;
        try (PcapReader in = PcapReader.open(generated);
            PcapWriter out = new PcapWriter(reports, true, PcapFormat.MAX_CAPTURED_LENGTH,
                PcapWriter.DEFAULT_BUFFER_CAPACITY + PcapFormat.MAX_CAPTURED_LENGTH))
        {
            while (in.next())
            {
                out.write(in.timestampNanos(), in.buffer(), in.offset(), in.capturedLength());
                if (0 == random.nextInt(40))
                {
                    // The report itself followed by padding: a frame a switch would never send, which both paths
                    // must treat alike, whatever that is.
                    final int length = LENGTHS[jumbos++ % LENGTHS.length];
                    for (int i = 0; i < length; i++)
                    {
                        big.putByte(i, (byte)random.nextInt(256));
                    }
                    big.putBytes(0, in.buffer(), in.offset(), in.capturedLength());
                    out.write(in.timestampNanos(), big, 0, length);
                }
            }
        }
        assertTrue(jumbos >= LENGTHS.length, "every length must be in the capture, seed " + SEED);

        final TranslatorEngine java = Replay.run(config, reports, null, dir.resolve("java.pcap"));
        final TranslatorEngine dpdk = DpdkReplay.run(config, reports, null, dir.resolve("dpdk.pcap"), List.of());

        ReplayOutputs.assertSameReplay(java, dir.resolve("java.pcap"), dpdk, dir.resolve("dpdk.pcap"),
            "seed " + SEED);
        assertTrue(dpdk.counters().get(EngineCounter.FRAMES_IN) >= REPORTS + jumbos, "seed " + SEED);
    }
}
