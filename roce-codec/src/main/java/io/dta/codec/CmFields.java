package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Big-endian bit-field helpers shared by the CM MAD flyweights, whose layouts pack 24-bit numbers and 1- to 5-bit
 * fields into words (IBA vol. 1, chapter 12).
 */
final class CmFields
{
    private CmFields()
    {
    }

    static int u24(final DirectBuffer buffer, final int at)
    {
        return ((buffer.getByte(at) & 0xFF) << 16) | (buffer.getShort(at + 1, ByteOrder.BIG_ENDIAN) & 0xFFFF);
    }

    static void u24(final MutableDirectBuffer buffer, final int at, final int value)
    {
        buffer.putByte(at, (byte)(value >>> 16));
        buffer.putShort(at + 1, (short)value, ByteOrder.BIG_ENDIAN);
    }

    static int bits(final DirectBuffer buffer, final int at, final int shift, final int width)
    {
        return ((buffer.getByte(at) & 0xFF) >>> shift) & ((1 << width) - 1);
    }

    static void bits(final MutableDirectBuffer buffer, final int at, final int shift, final int width, final int value)
    {
        final int mask = ((1 << width) - 1) << shift;
        final int old = buffer.getByte(at) & 0xFF;
        buffer.putByte(at, (byte)((old & ~mask) | ((value << shift) & mask)));
    }

    static long u32(final DirectBuffer buffer, final int at)
    {
        return buffer.getInt(at, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    static void u32(final MutableDirectBuffer buffer, final int at, final long value)
    {
        buffer.putInt(at, (int)value, ByteOrder.BIG_ENDIAN);
    }

    /**
     * Writes an IPv4-mapped IPv6 address {@code ::ffff:a.b.c.d} (16 bytes): the RoCEv2 GID of an IPv4 address.
     */
    static void ipv4MappedGid(final MutableDirectBuffer buffer, final int at, final int ipv4)
    {
        buffer.setMemory(at, 10, (byte)0);
        buffer.putShort(at + 10, (short)0xFFFF, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + 12, ipv4, ByteOrder.BIG_ENDIAN);
    }

    static boolean isIpv4MappedGid(final DirectBuffer buffer, final int at)
    {
        return 0 == buffer.getLong(at, ByteOrder.BIG_ENDIAN) &&
            0xFFFF == (buffer.getInt(at + 8, ByteOrder.BIG_ENDIAN));
    }
}
