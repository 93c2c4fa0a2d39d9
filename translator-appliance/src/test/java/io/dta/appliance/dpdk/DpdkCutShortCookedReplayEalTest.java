package io.dta.appliance.dpdk;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.gen.ReportGenerator;
import io.dta.appliance.replay.CutCaptures;
import io.dta.appliance.replay.CutShortCapture;
import io.dta.appliance.replay.Replay;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
        final GeneratorSettings settings = new GeneratorSettings().seed(SEED)
            .mix("keywrite=40,keyincrement=20,append=20,postcard=20").redundancy("1-4").reporters(5)
            .essentialFraction(0.2).retransmittable(true).badFraction(0.02).spacingNanos(333);
        final ReportGenerator generator = new ReportGenerator(config, settings);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[ReportGenerator.MAX_FRAME_LENGTH]);
        final ByteArrayOutputStream sll = new ByteArrayOutputStream();
        sll.writeBytes(le(24).putInt(0xA1B23C4D).putShort((short)2).putShort((short)4).putInt(0).putInt(0)
            .putInt(262144).putInt(113).array());
        for (int i = 0; i < REPORTS; i++)
        {
            final int length = generator.next(frame, 0);
            final long nanos = generator.timestampNanos();
            final byte[] packet = new byte[16 + length - 14];
            final ByteBuffer header = ByteBuffer.wrap(packet).order(ByteOrder.BIG_ENDIAN)
                .putShort((short)0).putShort((short)1).putShort((short)6);
            frame.getBytes(6, packet, header.position(), 6);
            frame.getBytes(12, packet, 14, length - 12);
            sll.writeBytes(le(16).putInt((int)(nanos / 1_000_000_000L)).putInt((int)(nanos % 1_000_000_000L))
                .putInt(packet.length).putInt(packet.length).array());
            sll.writeBytes(packet);
        }
        final Path full = dir.resolve("reports-sll.pcap");
        Files.write(full, sll.toByteArray());
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

    private static ByteBuffer le(final int length)
    {
        return ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    }
}
