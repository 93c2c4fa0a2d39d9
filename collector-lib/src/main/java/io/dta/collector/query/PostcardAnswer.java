package io.dta.collector.query;

import io.dta.collector.layout.PostcardLayout;

import java.util.Arrays;

/**
 * A caller-owned, reusable answer of a postcard query ({@link PostcardQuery#path(long, PostcardAnswer)}), filled
 * in place. Same meaning as {@link PostcardResult}.
 */
public final class PostcardAnswer
{
    private final long[] hops = new long[PostcardLayout.MAX_HOPS];
    private int hopCount;
    private long key;
    private boolean found;
    private boolean collision;
    private long storedKey;
    private int hopMask;

    void set(final long key, final boolean found, final boolean collision, final long storedKey, final int hopMask,
        final int hopCount)
    {
        this.key = key;
        this.found = found;
        this.collision = collision;
        this.storedKey = storedKey;
        this.hopMask = hopMask;
        this.hopCount = hopCount;
    }

    long[] hopBuffer()
    {
        return hops;
    }

    /**
     * @return the flow key asked for.
     */
    public long key()
    {
        return key;
    }

    /**
     * @return the flow's slot holds this flow's record.
     */
    public boolean found()
    {
        return found;
    }

    /**
     * @return the slot holds another flow's record.
     */
    public boolean collision()
    {
        return collision;
    }

    /**
     * @return the key found in the slot, 0 for an empty slot.
     */
    public long storedKey()
    {
        return storedKey;
    }

    /**
     * @return bit h−1 set when hop h was reported (0 unless found).
     */
    public int hopMask()
    {
        return hopMask;
    }

    /**
     * @param hop hop number, 1-based.
     * @return true if that hop reported.
     */
    public boolean hasHop(final int hop)
    {
        return found && 0 != (hopMask & (1 << (hop - 1)));
    }

    /**
     * @param hop hop number, 1..hops.
     * @return its data (unsigned 32-bit), 0 where the hop did not report.
     */
    public long hop(final int hop)
    {
        if (hop < 1 || hop > hopCount)
        {
            throw new IndexOutOfBoundsException("hop " + hop + " of " + hopCount);
        }
        return hops[hop - 1];
    }

    /**
     * @return the answer as an immutable record (allocates).
     */
    public PostcardResult toResult()
    {
        return new PostcardResult(key, found, collision, storedKey, hopMask, Arrays.copyOf(hops, hopCount));
    }
}
