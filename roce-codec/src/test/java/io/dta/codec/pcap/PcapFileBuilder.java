package io.dta.codec.pcap;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Builds pcap file images byte by byte, independently of {@link PcapWriter}, so reader tests do not depend on the
 * writer being right.
 */
final class PcapFileBuilder
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteOrder order;

    PcapFileBuilder(final ByteOrder order)
    {
        this.order = order;
    }

    PcapFileBuilder globalHeader(final int magic, final int snapLength, final int linkType)
    {
        return globalHeader(magic, 2, 4, snapLength, linkType);
    }

    PcapFileBuilder globalHeader(
        final int magic, final int major, final int minor, final int snapLength, final int linkType)
    {
        final ByteBuffer header = ByteBuffer.allocate(24).order(order);
        header.putInt(magic).putShort((short)major).putShort((short)minor).putInt(0).putInt(0)
            .putInt(snapLength).putInt(linkType);
        out.writeBytes(header.array());
        return this;
    }

    PcapFileBuilder record(final long seconds, final long fraction, final byte[] packet)
    {
        return record(seconds, fraction, packet.length, packet.length, packet);
    }

    PcapFileBuilder record(
        final long seconds, final long fraction, final long included, final long original, final byte[] packet)
    {
        final ByteBuffer header = ByteBuffer.allocate(16).order(order);
        header.putInt((int)seconds).putInt((int)fraction).putInt((int)included).putInt((int)original);
        out.writeBytes(header.array());
        out.writeBytes(packet);
        return this;
    }

    PcapFileBuilder raw(final byte[] bytes)
    {
        out.writeBytes(bytes);
        return this;
    }

    int size()
    {
        return out.size();
    }

    byte[] toByteArray()
    {
        return out.toByteArray();
    }

    static byte[] pattern(final int length, final int seed)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(seed * 31 + i * 7);
        }
        return bytes;
    }
}
