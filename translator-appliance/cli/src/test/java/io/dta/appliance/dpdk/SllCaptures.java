package io.dta.appliance.dpdk;

import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.gen.ReportGenerator;
import io.dta.config.ApplianceConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Linux cooked (SLL, link type 113) nanosecond capture of generated mixed reports, as {@code tcpdump -i any} writes
 * one: every primitive, essential and retransmittable reports, a few bad ones, sub-microsecond spacing.
 */
final class SllCaptures
{
    private SllCaptures()
    {
    }

    /**
     * @param config  configuration the reports are generated for.
     * @param seed    generator seed.
     * @param reports how many.
     * @param file    where to write the capture.
     * @return {@code file}.
     * @throws IOException if it cannot be written.
     */
    static Path write(final ApplianceConfig config, final long seed, final int reports, final Path file)
        throws IOException
    {
        final GeneratorSettings settings = new GeneratorSettings().seed(seed)
            .mix("keywrite=40,keyincrement=20,append=20,postcard=20").redundancy("1-4").reporters(5)
            .essentialFraction(0.2).retransmittable(true).badFraction(0.02).spacingNanos(333);
        final ReportGenerator generator = new ReportGenerator(config, settings);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[ReportGenerator.MAX_FRAME_LENGTH]);
        final ByteArrayOutputStream sll = new ByteArrayOutputStream();
        sll.writeBytes(le(24).putInt(0xA1B23C4D).putShort((short)2).putShort((short)4).putInt(0).putInt(0)
            .putInt(262144).putInt(113).array());
        for (int i = 0; i < reports; i++)
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
        return Files.write(file, sll.toByteArray());
    }

    private static ByteBuffer le(final int length)
    {
        return ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    }
}
