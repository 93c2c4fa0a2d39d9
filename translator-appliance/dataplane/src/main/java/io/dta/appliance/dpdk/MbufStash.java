package io.dta.appliance.dpdk;

import io.dta.appliance.engine.HeldFrame;
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
            claimed = next();
            if (0 == claimed)
            {
                return -1;
            }
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
     * Lends a fresh mbuf to a held frame, which may wait while other frames are claimed and taken.
     *
     * @param frame     the held frame, pointed at the mbuf's data room.
     * @param maxLength the most bytes the frame may take.
     * @return false when the pool is empty or the room too small (counted in {@link #claimFailures()}).
     */
    public boolean lend(final HeldFrame frame, final int maxLength)
    {
        final long address = next();
        if (0 == address)
        {
            return false;
        }
        mbuf.wrap(address);
        final int room = mbuf.room();
        if (room < maxLength)
        {
            Mempool.free(address);
            claimFailures++;
            return false;
        }
        frame.lend(address, mbuf.dataAddress(), room);
        return true;
    }

    /**
     * Finishes a held frame: sets its mbuf's length and hands the mbuf over (to a tx queue, which frees it).
     *
     * @param frame  a frame lent an mbuf by {@link #lend}.
     * @param length the frame's length.
     * @return the mbuf's address.
     */
    public long takeLent(final HeldFrame frame, final int length)
    {
        final long address = frame.handle();
        mbuf.wrap(address).length(length);
        return address;
    }

    /**
     * Returns the mbuf of a held frame that will not be sent.
     *
     * @param frame a frame lent an mbuf by {@link #lend}.
     */
    public void giveBack(final HeldFrame frame)
    {
        Mempool.free(frame.handle());
    }

    private long next()
    {
        if (stashIndex == stashCount)
        {
            stashIndex = 0;
            stashCount = 0;
            if (!pool.allocBulk(stash, stash.capacity()))
            {
                claimFailures++;
                return 0;
            }
            stashCount = stash.capacity();
        }
        return stash.get(stashIndex++);
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
