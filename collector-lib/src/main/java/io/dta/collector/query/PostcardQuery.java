package io.dta.collector.query;

import io.dta.codec.KeyHash;
import io.dta.collector.layout.PostcardLayout;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Reads the postcard store (docs/layouts.md): the record of flow {@code k} lives in slot
 * {@code CRC32(LE(k) ‖ 0) & (slots − 1)} and carries the flow key, a hop mask and one word per hop. A different key
 * in the slot means a colliding flow overwrote (or took) it; an empty slot (mask 0) means not found. Not
 * thread-safe: one instance per thread.
 */
public final class PostcardQuery
{
    private final DirectBuffer region;
    private final int slots;
    private final int hops;
    private final KeyHash hash = new KeyHash();
    private final PostcardAnswer own = new PostcardAnswer();

    /**
     * @param region the postcard store's memory.
     * @param hops   hops per path ({@code postcards.hops}).
     */
    public PostcardQuery(final DirectBuffer region, final int hops)
    {
        final int count = region.capacity() / PostcardLayout.SLOT_LENGTH;
        if (Integer.bitCount(count) != 1)
        {
            throw new IllegalArgumentException("slot count must be a power of two: " + count);
        }
        if (hops < 1 || hops > PostcardLayout.MAX_HOPS)
        {
            throw new IllegalArgumentException("hops must be 1.." + PostcardLayout.MAX_HOPS + ": " + hops);
        }
        this.region = region;
        this.slots = count;
        this.hops = hops;
    }

    /**
     * @param key the flow key (low 32 bits).
     * @return the flow's record, a collision, or not found (allocates; {@link #path(long, PostcardAnswer)} does not).
     */
    public PostcardResult path(final long key)
    {
        path(key, own);
        return own.toResult();
    }

    /**
     * Allocation-free.
     *
     * @param key    the flow key (low 32 bits).
     * @param answer receives the flow's record, a collision, or not found.
     */
    public void path(final long key, final PostcardAnswer answer)
    {
        final long k = key & 0xFFFF_FFFFL;
        final int offset = hash.slotIndex(k, 0, slots) * PostcardLayout.SLOT_LENGTH;
        final long stored = region.getInt(offset + PostcardLayout.KEY_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
        final int mask = region.getInt(offset + PostcardLayout.HOP_MASK_OFFSET, ByteOrder.LITTLE_ENDIAN) &
            ((1 << hops) - 1);
        final long[] values = answer.hopBuffer();
        java.util.Arrays.fill(values, 0L);
        if (0 == mask)
        {
            answer.set(k, false, false, 0, 0, hops);
            return;
        }
        if (stored != k)
        {
            answer.set(k, false, true, stored, 0, hops);
            return;
        }
        for (int h = 1; h <= hops; h++)
        {
            if (0 != (mask & (1 << (h - 1))))
            {
                values[h - 1] = region.getInt(offset + PostcardLayout.hopOffset(h), ByteOrder.LITTLE_ENDIAN) &
                    0xFFFF_FFFFL;
            }
        }
        answer.set(k, true, false, k, mask, hops);
    }
}
