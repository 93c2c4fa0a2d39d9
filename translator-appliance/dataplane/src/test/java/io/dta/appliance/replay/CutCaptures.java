package io.dta.appliance.replay;

import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Captures cut short, as a copy taken while tcpdump was still writing leaves them, and the captures they stand for
 * (the same without the incomplete record), for the tests of every command that reads captures.
 */
public final class CutCaptures
{
    private CutCaptures()
    {
    }

    /**
     * File byte offsets of the records of a capture (pcapng: of its packet blocks), as {@link PcapReader} finds them.
     *
     * @param capture classic pcap or pcapng.
     * @return the offsets in file order.
     * @throws IOException if the capture cannot be read.
     */
    public static List<Long> recordOffsets(final Path capture) throws IOException
    {
        final List<Long> offsets = new ArrayList<>();
        try (PcapReader reader = PcapReader.open(capture))
        {
            while (reader.next())
            {
                offsets.add(reader.recordOffset());
            }
        }
        return offsets;
    }

    /**
     * Write the first {@code length} bytes of a capture to another file.
     *
     * @param capture the capture.
     * @param length  bytes to keep.
     * @param out     file to write.
     * @return out.
     * @throws IOException if a file cannot be read or written.
     */
    public static Path prefix(final Path capture, final long length, final Path out) throws IOException
    {
        try (InputStream in = Files.newInputStream(capture))
        {
            Files.write(out, in.readNBytes(Math.toIntExact(length)));
        }
        return out;
    }

    /**
     * A classic capture with microsecond timestamps of the same packets (their timestamps rounded down).
     *
     * @param pcap a capture.
     * @param out  file to write.
     * @return out.
     * @throws IOException if a file cannot be read or written.
     */
    public static Path toMicroseconds(final Path pcap, final Path out) throws IOException
    {
        try (PcapReader reader = PcapReader.open(pcap); PcapWriter writer = new PcapWriter(out, false))
        {
            while (reader.next())
            {
                writer.write(reader.timestampNanos(), reader.buffer(), reader.offset(), reader.capturedLength());
            }
        }
        return out;
    }

    /**
     * A little-endian pcapng of the same packets: a section, a name resolution block, one Ethernet interface with
     * {@code if_tsresol} 10^-tsresol s, then an Enhanced Packet Block per packet.
     *
     * @param pcap    a capture whose timestamps are whole units of 10^-tsresol s.
     * @param out     file to write.
     * @param tsresol 6 (microseconds) or 9 (nanoseconds).
     * @return out.
     * @throws IOException if a file cannot be read or written.
     */
    public static Path toPcapng(final Path pcap, final Path out, final int tsresol) throws IOException
    {
        final long unit = 6 == tsresol ? 1_000L : 1L;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        block(bytes, 0x0A0D0D0A, body(16).putInt(0x1A2B3C4D).putShort((short)1).putShort((short)0).putLong(-1));
        block(bytes, 4, body(4).putInt(0));
        block(bytes, 1, body(16).putShort((short)1).putShort((short)0).putInt(0)
            .putShort((short)9).putShort((short)1).put((byte)tsresol).put(new byte[3]));
        try (PcapReader reader = PcapReader.open(pcap))
        {
            while (reader.next())
            {
                final int length = reader.capturedLength();
                final long units = reader.timestampNanos() / unit;
                final byte[] data = new byte[(length + 3) & ~3];
                reader.buffer().getBytes(reader.offset(), data, 0, length);
                block(bytes, 6, body(20 + data.length).putInt(0).putInt((int)(units >>> 32)).putInt((int)units)
                    .putInt(length).putInt(reader.originalLength()).put(data));
            }
        }
        Files.write(out, bytes.toByteArray());
        return out;
    }

    /**
     * Overwrite a little-endian 32-bit field of a file, to damage it.
     *
     * @param file   the file.
     * @param offset byte offset of the field.
     * @param value  its new value.
     * @throws IOException if the file cannot be read or written.
     */
    public static void putIntLittleEndian(final Path file, final long offset, final int value) throws IOException
    {
        final byte[] bytes = Files.readAllBytes(file);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(Math.toIntExact(offset), value);
        Files.write(file, bytes);
    }

    private static ByteBuffer body(final int length)
    {
        return ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void block(final ByteArrayOutputStream out, final int type, final ByteBuffer body)
    {
        final int total = 12 + body.position();
        final ByteBuffer block = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        block.putInt(type).putInt(total).put(body.array(), 0, body.position()).putInt(total);
        out.writeBytes(block.array());
    }
}
