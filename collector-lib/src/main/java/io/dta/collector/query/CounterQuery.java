package io.dta.collector.query;

import io.dta.codec.KeyHash;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Reads the Key-Increment counter store: key {@code k} with redundancy {@code N} was added to the 8-byte
 * little-endian counters at {@code CRC32(LE(k) ‖ n) & (slots − 1)}; its estimate is their minimum (count-min:
 * collisions only ever add, so the smallest counter is the closest upper bound).
 */
public final class CounterQuery
{
    private final DirectBuffer region;
    private final int slots;
    private final KeyHash hash = new KeyHash();

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
     * @param key        the key (low 32 bits).
     * @param redundancy counters to look at, N ≥ 1.
     * @return the minimum of the N counters as an unsigned 64-bit value (use {@link Long#toUnsignedString}).
     */
    public long value(final long key, final int redundancy)
    {
        return valuesByRedundancy(key, redundancy)[redundancy - 1];
    }

    /**
     * The estimate for every N up to {@code redundancy}: the store cannot tell which N a reporter used, and where the
     * running minimum drops (to other keys' counts, or to 0 for copies never incremented) hints at it.
     *
     * @param key        the key (low 32 bits).
     * @param redundancy the largest N, ≥ 1.
     * @return element {@code i} is the minimum of the first {@code i + 1} counters, as unsigned 64-bit values.
     */
    public long[] valuesByRedundancy(final long key, final int redundancy)
    {
        if (redundancy < 1 || redundancy > 256)
        {
            throw new IllegalArgumentException("redundancy must be 1..256: " + redundancy);
        }
        final long[] minima = new long[redundancy];
        long min = -1L;
        for (int n = 0; n < redundancy; n++)
        {
            final long v = region.getLong(hash.slotIndex(key & 0xFFFF_FFFFL, n, slots) * 8, ByteOrder.LITTLE_ENDIAN);
            if (Long.compareUnsigned(v, min) < 0)
            {
                min = v;
            }
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
}
