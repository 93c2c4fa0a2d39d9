package io.dta.collector.query;

import io.dta.codec.KeyHash;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Reads the Key-Increment counter store: key {@code k} with redundancy {@code N} was added to the 8-byte
 * little-endian counters at {@code CRC32(LE(k) ‖ n) & (slots − 1)}; its estimate is their minimum (count-min:
 * collisions only ever add, so the smallest counter is the closest upper bound). The store does not record N:
 * the caller must give the N the key was counted with, since the minimum over more counters than that reads other
 * keys' counters (or untouched zeros) and can undercount. Not thread-safe: one instance per thread.
 */
public final class CounterQuery
{
    private final DirectBuffer region;
    private final int slots;
    private final KeyHash hash = new KeyHash();
    private final int[] offsets = new int[KeyWriteQuery.TOUCH_AHEAD + KeyWriteQuery.MAX_REDUNDANCY];
    private long touched;

    /**
     * @param region the counter store's memory.
     */
    public CounterQuery(final DirectBuffer region)
    {
        final int count = region.capacity() / 8;
        if (Integer.bitCount(count) != 1)
        {
            throw new IllegalArgumentException("counter count must be a power of two: " + count);
        }
        this.region = region;
        this.slots = count;
    }

    /**
     * Allocation-free.
     *
     * @param key        the key (low 32 bits).
     * @param redundancy the N the key was counted with, 1..256: the minimum over more counters than the key was
     *                   added to would read other keys' counters.
     * @return the minimum of the N counters as an unsigned 64-bit value (use {@link Long#toUnsignedString}).
     */
    public long value(final long key, final int redundancy)
    {
        checkRedundancy(redundancy);
        final long k = key & 0xFFFF_FFFFL;
        long min = -1L;
        for (int n = 0; n < redundancy; n++)
        {
            min = unsignedMin(min, region.getLong(hash.slotIndex(k, n, slots) * 8, ByteOrder.LITTLE_ENDIAN));
        }
        return min;
    }

    /**
     * A batch of counter reads, allocation-free: every counter's address first, then a load of each, then the
     * minima (the random memory accesses overlap).
     *
     * @param keys       keys (low 32 bits each).
     * @param from       index of the first key.
     * @param count      keys to read.
     * @param redundancy the N the keys were counted with, 1..256.
     * @param values     {@code values[i]} receives the estimate of {@code keys[from + i]} (unsigned 64-bit).
     */
    public void values(final long[] keys, final int from, final int count, final int redundancy,
        final long[] values)
    {
        checkRedundancy(redundancy);
        if (from < 0 || count < 0 || from + count > keys.length || count > values.length)
        {
            throw new IndexOutOfBoundsException("batch of " + count + " keys from " + from + " of " + keys.length +
                " into " + values.length + " values");
        }
        final int step = Math.max(1, KeyWriteQuery.TOUCH_AHEAD / redundancy);
        for (int start = 0; start < count; start += step)
        {
            final int n = Math.min(step, count - start);
            long sum = 0;
            for (int i = 0; i < n * redundancy; i++)
            {
                offsets[i] = hash.slotIndex(keys[from + start + i / redundancy] & 0xFFFF_FFFFL, i % redundancy,
                    slots) * 8;
                sum += region.getLong(offsets[i]);
            }
            touched += sum;
            for (int i = 0; i < n; i++)
            {
                long min = -1L;
                for (int c = 0; c < redundancy; c++)
                {
                    min = unsignedMin(min, region.getLong(offsets[i * redundancy + c], ByteOrder.LITTLE_ENDIAN));
                }
                values[start + i] = min;
            }
        }
    }

    /**
     * The estimate for every N up to {@code redundancy}, a diagnostic: the store does not record which N a reporter
     * used, and only the estimate for that N reads the key's own counters alone.
     *
     * @param key        the key (low 32 bits).
     * @param redundancy the largest N, ≥ 1.
     * @return element {@code i} is the minimum of the first {@code i + 1} counters, as unsigned 64-bit values.
     */
    public long[] valuesByRedundancy(final long key, final int redundancy)
    {
        checkRedundancy(redundancy);
        final long[] minima = new long[redundancy];
        long min = -1L;
        for (int n = 0; n < redundancy; n++)
        {
            min = unsignedMin(min, region.getLong(hash.slotIndex(key & 0xFFFF_FFFFL, n, slots) * 8,
                ByteOrder.LITTLE_ENDIAN));
            minima[n] = min;
        }
        return minima;
    }

    /**
     * @return number of counters.
     */
    public int slots()
    {
        return slots;
    }

    private static long unsignedMin(final long a, final long b)
    {
        return Long.compareUnsigned(b, a) < 0 ? b : a;
    }

    private static void checkRedundancy(final int redundancy)
    {
        if (redundancy < 1 || redundancy > KeyWriteQuery.MAX_REDUNDANCY)
        {
            throw new IllegalArgumentException("redundancy must be 1..256: " + redundancy);
        }
    }
}
