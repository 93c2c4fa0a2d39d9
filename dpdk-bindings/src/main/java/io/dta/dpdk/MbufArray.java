package io.dta.dpdk;

import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A native array of mbuf pointers ({@code struct rte_mbuf *[capacity]}), allocated once and reused for every
 * burst: rx and tx bursts, bulk allocation and bulk free all fill or read it, so the data plane passes the same
 * segment to every downcall and never allocates.
 */
public final class MbufArray
{
    private final MemorySegment segment;
    // The same memory for the per-packet reads and writes: a segment access checks its arena's liveness, bounds
    // and alignment each time, which showed in the data-plane profile; the segment keeps the memory alive.
    private final UnsafeBuffer elements;
    private final int capacity;

    /**
     * @param capacity number of pointers (a burst is usually 32).
     */
    public MbufArray(final int capacity)
    {
        if (capacity < 1 || capacity > 0xFFFF)
        {
            throw new IllegalArgumentException("capacity must be 1..65535: " + capacity);
        }
        this.capacity = capacity;
        // An automatic arena: any thread may pass it to a downcall, and it lives as long as this object.
        // Whole cache lines of its own: the arrays of two workers' lcores must not share a line (each burst writes
        // them).
        segment = Arena.ofAuto().allocate(Eal.cacheLines(ValueLayout.ADDRESS.byteSize() * capacity), Eal.CACHE_LINE)
            .asSlice(0, ValueLayout.ADDRESS.byteSize() * capacity);
        elements = new UnsafeBuffer(segment.address(), (int)segment.byteSize());
    }

    /**
     * @return number of pointers.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * @return the native array, to pass to a downcall.
     */
    public MemorySegment segment()
    {
        return segment;
    }

    /**
     * @param index element index (checked only while Agrona's bounds checks are on).
     * @return the mbuf address at {@code index}.
     */
    public long get(final int index)
    {
        return elements.getLong(index * Long.BYTES);
    }

    /**
     * @param index   element index (checked only while Agrona's bounds checks are on).
     * @param address mbuf address to store.
     * @return this.
     */
    public MbufArray set(final int index, final long address)
    {
        elements.putLong(index * Long.BYTES, address);
        return this;
    }

    /**
     * @param index first element.
     * @return the native address of element {@code index}, for downcalls that take {@code &array[index]}.
     */
    public MemorySegment from(final int index)
    {
        return 0 == index ? segment : segment.asSlice((long)index * Long.BYTES);
    }
}
