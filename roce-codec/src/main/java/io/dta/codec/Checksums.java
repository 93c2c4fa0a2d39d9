package io.dta.codec;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Internet (RFC 1071) ones'-complement checksum helpers shared by the IPv4 and UDP flyweights.
 */
public final class Checksums
{
    private Checksums()
    {
    }

    /**
     * Add {@code length} bytes to a running ones'-complement sum. An odd trailing byte is padded with zero.
     * The returned sum is not folded; call {@link #fold(long)} before using it.
     *
     * @param buffer  the bytes.
     * @param offset  first byte.
     * @param length  number of bytes.
     * @param initial running sum to add to.
     * @return the unfolded sum.
     */
    public static long sum(final DirectBuffer buffer, final int offset, final int length, final long initial)
    {
        long sum = initial;
        int i = 0;
        // Four bytes at a time: two 16-bit words per read, folded later, so a long cannot overflow.
        for (; i + 4 <= length; i += 4)
        {
            sum += buffer.getInt(offset + i, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
        }
        for (; i + 2 <= length; i += 2)
        {
            sum += buffer.getShort(offset + i, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        if (i < length)
        {
            sum += (buffer.getByte(offset + i) & 0xFF) << 8;
        }

        return sum;
    }

    /**
     * Fold a running sum to 16 bits (ones' complement addition of carries), without the final inversion.
     * <p>
     * A fixed sequence of four end-around-carry folds rather than a loop until the carries stop: the loop's trip
     * count depends on the data, and its mispredicted exit showed as 6 % of the engine's samples (two sums per
     * report: the report's header check and the frame's header checksum). Each fold keeps the value congruent
     * modulo 0xFFFF and a non-zero value non-zero, so the result is the one the loop gives.
     *
     * @param sum the unfolded sum (any 64-bit value, read as unsigned).
     * @return the folded 16-bit sum.
     */
    public static int fold(final long sum)
    {
        long s = (sum & 0xFFFF_FFFFL) + (sum >>> 32); // < 2^33
        s = (s & 0xFFFF) + (s >>> 16);                // <= 0x2FFFE
        s = (s & 0xFFFF) + (s >>> 16);                // <= 0x10001
        s = (s & 0xFFFF) + (s >>> 16);                // <= 0xFFFF
        return (int)s;
    }
}
