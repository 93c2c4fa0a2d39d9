package io.dta.appliance.dpdk;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.gen.ReportGenerator;
import io.dta.appliance.replay.Replay;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
            frame.getBytes(6, packet, header.position(), 6); // the sender's MAC, then 2 bytes of padding
            frame.getBytes(12, packet, 14, length - 12); // the EtherType as the protocol, then the payload
            sll.writeBytes(le(16).putInt((int)(nanos / 1_000_000_000L)).putInt((int)(nanos % 1_000_000_000L))
                .putInt(packet.length).putInt(packet.length).array());
            sll.writeBytes(packet);
        }
        final Path reports = dir.resolve("reports-sll.pcap");
        Files.write(reports, sll.toByteArray());
        final Path out = Files.createDirectory(dir.resolve("out"));

        final TranslatorEngine java = Replay.run(config, reports, null, dir.resolve("java.pcap"));
        final TranslatorEngine dpdk = DpdkReplay.run(config, reports, null, out.resolve("dpdk.pcap"), List.of());

        final List<byte[]> expected = frames(dir.resolve("java.pcap"));
        final List<byte[]> actual = frames(out.resolve("dpdk.pcap"));
        assertTrue(expected.size() > REPORTS / 2, "frames out: " + expected.size());
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++)
        {
            final int index = i;
            assertArrayEquals(expected.get(i), actual.get(i), () -> "frame " + index + " differs, seed " + SEED +
                "\njava " + HexFormat.of().formatHex(expected.get(index)) +
                "\ndpdk " + HexFormat.of().formatHex(actual.get(index)));
        }
        assertEquals(expected.size(), actual.size(), "frame count, seed " + SEED);
        for (final EngineCounter counter : EngineCounter.values())
        {
            assertEquals(java.counters().get(counter), dpdk.counters().get(counter), counter + ", seed " + SEED);
        }
        assertEquals(REPORTS, dpdk.counters().get(EngineCounter.FRAMES_IN));
        assertTrue(dpdk.counters().get(EngineCounter.REPORTS_IN) > REPORTS * 9 / 10, "the SLL packets are reports");
        try (var left = Files.list(out))
        {
            assertEquals(List.of(out.resolve("dpdk.pcap")), left.toList(), "the Ethernet copy is deleted");
        }
    }

    private static ByteBuffer le(final int length)
    {
        return ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static List<byte[]> frames(final Path capture) throws IOException
    {
        final List<byte[]> frames = new ArrayList<>();
        try (PcapReader reader = new PcapReader(capture))
        {
            while (reader.next())
            {
                final byte[] bytes = new byte[reader.capturedLength()];
                reader.buffer().getBytes(reader.offset(), bytes);
                frames.add(bytes);
            }
        }
        return frames;
    }
}
