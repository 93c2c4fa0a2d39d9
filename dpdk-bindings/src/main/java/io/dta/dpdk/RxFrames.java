package io.dta.dpdk;

import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Where each received packet's data starts and how long it is, filled by {@link EthPort#rxBurst(MbufArray,
 * RxFrames, int)} alongside the mbuf pointers: the data plane reads this compact native array instead of each
 * mbuf's header. Allocated once and reused for every burst.
 */
public final class RxFrames
{
    private final MemorySegment segment;
    // The same memory for the per-packet reads and writes: a segment access checks its arena's liveness, bounds
    // and alignment each time, which showed in the data-plane profile; the segment keeps the memory alive.
    private final UnsafeBuffer elements;
    private final int capacity;

    /**
     * @param capacity packets per burst it can describe.
     */
    public RxFrames(final int capacity)
    {
        if (capacity < 1 || capacity > 0xFFFF)
        {
            throw new IllegalArgumentException("capacity must be 1..65535: " + capacity);
        }
        this.capacity = capacity;
        // Whole cache lines of its own, as MbufArray's.
        segment = Arena.ofAuto().allocate(Eal.cacheLines(16L * capacity), Eal.CACHE_LINE).asSlice(0, 16L * capacity);
        elements = new UnsafeBuffer(segment.address(), (int)segment.byteSize());
    }

    /**
     * @return packets it can describe.
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
     * @param index packet index in the burst (checked only while Agrona's bounds checks are on).
     * @return the address of the packet's first byte.
     */
    public long address(final int index)
    {
        return elements.getLong(index * 2 * Long.BYTES);
    }

    /**
     * @param index packet index in the burst (checked only while Agrona's bounds checks are on).
     * @return the packet's length in its first segment ({@code data_len}).
     */
    public int length(final int index)
    {
        return (int)elements.getLong((index * 2 + 1) * Long.BYTES);
    }
}
