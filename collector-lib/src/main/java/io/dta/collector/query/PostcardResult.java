package io.dta.collector.query;

/**
 * Answer of a postcard query for one flow.
 *
 * @param key       the flow key asked for (unsigned 32-bit).
 * @param found     the flow's slot holds this flow's record.
 * @param collision the slot holds another flow's record (the colliding flow's key is {@code storedKey}).
 * @param storedKey the key found in the slot (unsigned), 0 for an empty slot.
 * @param hopMask   bit h−1 set when hop h was reported (0 unless found).
 * @param hops      hop data (unsigned 32-bit), index h−1 for hop h; meaningful only where the mask bit is set.
 */
public record PostcardResult(long key, boolean found, boolean collision, long storedKey, int hopMask, long[] hops)
{
    /**
     * @param hop hop number, 1-based.
     * @return true if that hop reported.
     */
    public boolean hasHop(final int hop)
    {
        return found && 0 != (hopMask & (1 << (hop - 1)));
    }
}
