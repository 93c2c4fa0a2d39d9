package io.dta.codec;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The IEEE/zlib CRC-32 as plain Java arithmetic on the <em>register</em>: start from {@link #INITIAL}, feed bytes,
 * and {@link #value(int)} gives what {@code java.util.zip.CRC32.getValue()} would. Feeding works on values already
 * in CPU registers as well as on buffers, so a caller can CRC a header it is composing, or a header with some
 * fields masked, without storing it to memory first.
 * <p>
 * Why not the JDK's intrinsic: for the 40 to 100 bytes of a RoCEv2 frame its fixed cost (argument checks, buffer
 * position bookkeeping, loading the folding constants) dominates; the slicing-by-8 tables here do 8 bytes in a
 * handful of independent loads and win below a few hundred bytes.
 * <p>
 * CRC-32 is linear over GF(2) once the initial value and the final inversion are taken out: {@link #zeros(int, int)}
 * advances a register over zero bytes in O(log n) matrix-free steps, which is what lets a frame builder precompute
 * the contribution of a frame's constant bytes and add only the variant ones per frame.
 */
public final class Crc32Register
{
    /** The register before the first byte. */
    public static final int INITIAL = -1;

    private static final int POLYNOMIAL = 0xEDB88320;

    private static final int[] T0 = new int[256];
    private static final int[] T1 = new int[256];
    private static final int[] T2 = new int[256];
    private static final int[] T3 = new int[256];
    private static final int[] T4 = new int[256];
    private static final int[] T5 = new int[256];
    private static final int[] T6 = new int[256];
    private static final int[] T7 = new int[256];

    static
    {
        for (int i = 0; i < 256; i++)
        {
            int c = i;
            for (int k = 0; k < 8; k++)
            {
                c = 0 != (c & 1) ? POLYNOMIAL ^ (c >>> 1) : c >>> 1;
            }
            T0[i] = c;
        }
        final int[][] tables = { T0, T1, T2, T3, T4, T5, T6, T7 };
        for (int t = 1; t < tables.length; t++)
        {
            for (int i = 0; i < 256; i++)
            {
                final int previous = tables[t - 1][i];
                tables[t][i] = (previous >>> 8) ^ T0[previous & 0xFF];
            }
        }
    }

    private Crc32Register()
    {
    }

    /**
     * @param register the register after the last byte.
     * @return the CRC-32 value as an int (the u32 {@code CRC32.getValue()} narrowed).
     */
    public static int value(final int register)
    {
        return ~register;
    }

    /**
     * Feeds 8 bytes given as a little-endian long: the byte at the lowest address is the long's lowest byte.
     *
     * @param register register before.
     * @param bytes    the 8 bytes.
     * @return register after.
     */
    public static int updateLong(final int register, final long bytes)
    {
        final long v = bytes ^ (register & 0xFFFF_FFFFL);
        final int lo = (int)v;
        final int hi = (int)(v >>> 32);
        return T7[lo & 0xFF] ^ T6[(lo >>> 8) & 0xFF] ^ T5[(lo >>> 16) & 0xFF] ^ T4[lo >>> 24] ^
            T3[hi & 0xFF] ^ T2[(hi >>> 8) & 0xFF] ^ T1[(hi >>> 16) & 0xFF] ^ T0[hi >>> 24];
    }

    /**
     * Feeds 4 bytes given as a little-endian int.
     *
     * @param register register before.
     * @param bytes    the 4 bytes.
     * @return register after.
     */
    public static int updateInt(final int register, final int bytes)
    {
        final int v = bytes ^ register;
        return T3[v & 0xFF] ^ T2[(v >>> 8) & 0xFF] ^ T1[(v >>> 16) & 0xFF] ^ T0[v >>> 24];
    }

    /**
     * Feeds one byte.
     *
     * @param register register before.
     * @param b        the byte (low 8 bits used).
     * @return register after.
     */
    public static int updateByte(final int register, final int b)
    {
        return T0[(register ^ b) & 0xFF] ^ (register >>> 8);
    }

    /**
     * Feeds {@code length} bytes of a buffer.
     *
     * @param register register before.
     * @param buffer   the bytes.
     * @param offset   first byte.
     * @param length   byte count.
     * @return register after.
     */
    public static int update(final int register, final DirectBuffer buffer, final int offset, final int length)
    {
        int crc = register;
        int i = offset;
        final int end = offset + length;
        while (end - i >= 8)
        {
            crc = updateLong(crc, buffer.getLong(i, ByteOrder.LITTLE_ENDIAN));
            i += 8;
        }
        if (end - i >= 4)
        {
            crc = updateInt(crc, buffer.getInt(i, ByteOrder.LITTLE_ENDIAN));
            i += 4;
        }
        while (i < end)
        {
            crc = updateByte(crc, buffer.getByte(i));
            i++;
        }
        return crc;
    }

    /**
     * Feeds {@code count} zero bytes. Linear in the register: for a raw register r (no initial value),
     * {@code zeros(r, n)} is r times x^(8n) modulo the polynomial, computed here by square-and-multiply in
     * O(log n) carry-less multiplications. Meant for precomputation, not for the per-frame path.
     *
     * @param register register before.
     * @param count    zero bytes to feed, at least 0.
     * @return register after.
     */
    public static int zeros(final int register, final int count)
    {
        // In the reflected representation bit 31 is x^0; multiplying by x^(8n) mod P.
        int result = register;
        int power = 0x0080_0000; // x^8 in the reflected representation (bit 31 - 8).
        int n = count;
        while (n > 0)
        {
            if (0 != (n & 1))
            {
                result = multiply(result, power);
            }
            power = multiply(power, power);
            n >>>= 1;
        }
        return result;
    }

    /**
     * The contribution table of one byte position: entry b is what byte b, followed by {@code distance} more bytes,
     * adds to the register at the end, all else being equal. CRC-32 without its initial value and final inversion
     * is linear, so a message's register is the register of the message with that byte zeroed, XOR this entry:
     * frame builders use such tables to patch a precomputed register for the few bytes that vary per frame.
     *
     * @param distance bytes that follow the position.
     * @return a new 256-entry table.
     */
    public static int[] distanceTable(final int distance)
    {
        final int[] table = new int[256];
        for (int b = 0; b < 256; b++)
        {
            table[b] = zeros(T0[b], distance);
        }
        return table;
    }

    /**
     * @param a a polynomial in the reflected representation (bit 31 is x^0).
     * @param b another.
     * @return a × b mod P, reflected.
     */
    static int multiply(final int a, final int b)
    {
        int product = 0;
        int x = a;
        for (int bit = 31; bit >= 0; bit--)
        {
            if (0 != ((b >>> bit) & 1))
            {
                product ^= x;
            }
            // x = x * X mod P: in the reflected representation a right shift, reducing the bit that falls off.
            x = 0 != (x & 1) ? (x >>> 1) ^ POLYNOMIAL : x >>> 1;
        }
        return product;
    }
}
