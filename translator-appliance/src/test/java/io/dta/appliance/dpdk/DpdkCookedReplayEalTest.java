package io.dta.appliance.dpdk;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.gen.ReportGenerator;
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

    private static ByteBuffer le(final int length)
    {
        return ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    }
}
