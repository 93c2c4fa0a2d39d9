package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Copies of a few dozen bytes (frame headers, report payloads, a frame into its sink) in word-sized loads and
 * stores. {@code putBytes} goes through {@code Unsafe.copyMemory}, which calls a copy stub out of line: for the
 * 8-100 bytes of a frame its fixed cost was the larger part of the copy (docs/performance.md).
 */
public final class ShortCopy
{
    private ShortCopy()
    {
    }

    /**
     * Copies {@code length} bytes; the two ranges must not overlap.
     *
     * @param dst       destination buffer.
     * @param dstOffset where the copy starts in it.
     * @param src       source buffer.
     * @param srcOffset where the bytes start in it.
     * @param length    how many bytes.
     */
    public static void copy(
        final MutableDirectBuffer dst,
        final int dstOffset,
        final DirectBuffer src,
        final int srcOffset,
        final int length)
    {
        int i = 0;
        for (final int words = length & ~7; i < words; i += 8)
        {
            dst.putLong(dstOffset + i, src.getLong(srcOffset + i));
        }
        if (0 != (length & 4))
        {
            dst.putInt(dstOffset + i, src.getInt(srcOffset + i));
            i += 4;
        }
        if (0 != (length & 2))
        {
            dst.putShort(dstOffset + i, src.getShort(srcOffset + i));
            i += 2;
        }
        if (0 != (length & 1))
        {
            dst.putByte(dstOffset + i, src.getByte(srcOffset + i));
        }
    }
}
