package io.dta.appliance.dpdk;

import io.dta.dpdk.Mbuf;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.Mempool;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Fresh mbufs for frames built in place: a stash refilled with one bulk allocation, one mbuf claimed at a time
 * and its data room exposed as an Agrona buffer. The frame sinks of replay, bench and the live data plane share
 * it; they differ only in where a finished mbuf goes. Zero allocation per frame.
 */
public final class MbufStash implements AutoCloseable
{
    private final Mempool pool;
    private final MbufArray stash;
    private final Mbuf mbuf = new Mbuf();
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private int stashIndex;
    private int stashCount;
    private long claimed;
    private long claimFailures;

    /**
     * @param pool  where mbufs come from.
     * @param burst mbufs per bulk allocation.
     */
    public MbufStash(final Mempool pool, final int burst)
    {
        this.pool = pool;
        this.stash = new MbufArray(burst);
    }

    /**
     * @return the claimed mbuf's data room (valid after a successful {@link #claim(int)}).
     */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * Claims an mbuf with room for {@code maxLength} bytes; claiming again before {@link #take(int)} reuses it.
     *
     * @param maxLength the most bytes the frame may take.
     * @return 0 (the frame's offset in {@link #buffer()}), or -1 when the pool is empty or the room too small.
     */
    public int claim(final int maxLength)
    {
        if (0 == claimed)
        {
            if (stashIndex == stashCount)
            {
                stashIndex = 0;
                stashCount = 0;
                if (!pool.allocBulk(stash, stash.capacity()))
                {
                    claimFailures++;
                    return -1;
                }
                stashCount = stash.capacity();
            }
            claimed = stash.get(stashIndex++);
        }
        mbuf.wrap(claimed);
        if (mbuf.room() < maxLength)
        {
            claimFailures++;
            return -1;
        }
        mbuf.wrapRoom(buffer);
        return 0;
    }

    /**
     * Finishes the claimed frame: sets its length and hands the mbuf over (to a tx queue, which frees it).
     *
     * @param length the frame's length.
     * @return the mbuf's address.
     */
    public long take(final int length)
    {
        final long address = claimed;
        mbuf.wrap(address).length(length);
        claimed = 0;
        return address;
    }

    /**
     * @return claims refused because the pool was empty or an mbuf too small (frames dropped).
     */
    public long claimFailures()
    {
        return claimFailures;
    }

    /**
     * Returns the unused stash, and a claimed mbuf never taken, to the pool.
     */
    @Override
    public void close()
    {
        if (0 != claimed)
        {
            Mempool.free(claimed);
            claimed = 0;
        }
        while (stashIndex < stashCount)
        {
            Mempool.free(stash.get(stashIndex++));
        }
    }
}
