package io.dta.collector.query;

import io.dta.codec.KeyHash;
import io.dta.collector.layout.PostcardLayout;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Reads the postcard store (docs/layouts.md): the record of flow {@code k} lives in slot
 * {@code CRC32(LE(k) ‖ 0) & (slots − 1)} and carries the flow key, a hop mask and one word per hop. A different key
 * in the slot means a colliding flow overwrote (or took) it; an empty slot (mask 0) means not found.
 */
public final class PostcardQuery
{
    private final DirectBuffer region;
    private final int slots;
    private final int hops;
    private final KeyHash hash = new KeyHash();

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
     * @return the flow's record, a collision, or not found.
     */
    public PostcardResult path(final long key)
    {
        final long k = key & 0xFFFF_FFFFL;
        final int offset = hash.slotIndex(k, 0, slots) * PostcardLayout.SLOT_LENGTH;
        final long stored = region.getInt(offset + PostcardLayout.KEY_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
        final int mask = region.getInt(offset + PostcardLayout.HOP_MASK_OFFSET, ByteOrder.LITTLE_ENDIAN) &
            ((1 << hops) - 1);
        final long[] values = new long[hops];
        if (0 == mask)
        {
            return new PostcardResult(k, false, false, 0, 0, values);
        }
        if (stored != k)
        {
            return new PostcardResult(k, false, true, stored, 0, values);
        }
        for (int h = 1; h <= hops; h++)
        {
            if (0 != (mask & (1 << (h - 1))))
            {
                values[h - 1] = region.getInt(offset + PostcardLayout.hopOffset(h), ByteOrder.LITTLE_ENDIAN) &
                    0xFFFF_FFFFL;
            }
        }
        return new PostcardResult(k, true, false, k, mask, values);
    }
}
