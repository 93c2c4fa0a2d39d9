package io.dta.collector.query;

import java.util.Arrays;

/**
 * A caller-owned, reusable answer of a list read ({@link ListReader#read(long, ListEntries)},
 * {@link ListReader#poll(ListEntries)}): room for every entry the list retains, filled in place.
 */
public final class ListEntries
{
    private final long[] entries;
    private int count;
    private long cursor;
    private boolean lapped;
    private long lostBatches;

    /**
     * @param capacity entries it can hold: the list's retained entries ({@link ListReader#newEntries()}).
     */
    public ListEntries(final int capacity)
    {
        entries = new long[capacity];
    }

    long[] buffer()
    {
        return entries;
    }

    void set(final int count, final long cursor, final boolean lapped, final long lostBatches)
    {
        this.count = count;
        this.cursor = cursor;
        this.lapped = lapped;
        this.lostBatches = lostBatches;
    }

    /**
     * @return entries in this answer.
     */
    public int count()
    {
        return count;
    }

    /**
     * @param index below {@link #count()}.
     * @return that entry (unsigned 32-bit), oldest first.
     */
    public long entry(final int index)
    {
        if (index < 0 || index >= count)
        {
            throw new IndexOutOfBoundsException("entry " + index + " of " + count);
        }
        return entries[index];
    }

    /**
     * @return the cursor to pass as {@code since} next time (see {@link ListReadResult#cursor()}).
     */
    public long cursor()
    {
        return cursor;
    }

    /**
     * @return the writer overwrote batches after {@code since} before they were read.
     */
    public boolean lapped()
    {
        return lapped;
    }

    /**
     * @return batches after {@code since} and up to the cursor that are not in the answer.
     */
    public long lostBatches()
    {
        return lostBatches;
    }

    /**
     * @return the answer as an immutable record (allocates).
     */
    public ListReadResult toResult()
    {
        return new ListReadResult(Arrays.copyOf(entries, count), cursor, lapped, lostBatches);
    }
}
