package io.dta.dpdk;

import io.dta.dpdk.ffi.dpdk_h;

/**
 * One rx and tx queue pair of an open {@link EthPort}: what a shared-nothing worker holds, so that it bursts its own
 * queues only. DPDK's bursts are not thread-safe per queue, so one thread uses a queue; different queues of a port
 * may be burst from different lcores at once. Each burst is one critical downcall, allocation-free, as
 * {@link EthPort}'s.
 */
public final class EthQueue
{
    private final EthPort port;
    private final short portId;
    private final short queueId;

    EthQueue(final EthPort port, final int queueId)
    {
        this.port = port;
        this.portId = (short)port.portId();
        this.queueId = (short)queueId;
    }

    /**
     * @return the port the queue belongs to.
     */
    public EthPort port()
    {
        return port;
    }

    /**
     * @return the port's id.
     */
    public int portId()
    {
        return portId & 0xFFFF;
    }

    /**
     * @return the queue's id, 0 to {@code port().queues() - 1}.
     */
    public int queueId()
    {
        return queueId & 0xFFFF;
    }

    /**
     * Receives up to {@code max} packets from this rx queue into {@code mbufs[0..n)}; the caller owns them afterwards.
     *
     * @param mbufs where the mbuf addresses go.
     * @param max   at most this many (at most {@code mbufs.capacity()}).
     * @return the number received.
     * @throws IllegalArgumentException when {@code max} exceeds the array.
     */
    public int rxBurst(final MbufArray mbufs, final int max)
    {
        checkBurst(max, mbufs.capacity());
        return dpdk_h.dta_rx_burst(portId, queueId, mbufs.segment(), (short)max) & 0xFFFF;
    }

    /**
     * Receives up to {@code max} packets from this rx queue into {@code mbufs}, and where each one's data starts and
     * how long it is into {@code frames}, with each packet's first cache line prefetched.
     *
     * @param mbufs  where the mbuf pointers go.
     * @param frames where the packets' data addresses and lengths go (capacity at least {@code max}).
     * @param max    most packets to take.
     * @return the number received.
     * @throws IllegalArgumentException when {@code max} exceeds either array.
     */
    public int rxBurst(final MbufArray mbufs, final RxFrames frames, final int max)
    {
        checkBurst(max, Math.min(mbufs.capacity(), frames.capacity()));
        return dpdk_h.dta_rx_burst_frames(portId, queueId, mbufs.segment(), (short)max, frames.segment()) & 0xFFFF;
    }

    /**
     * Transmits {@code mbufs[0..count)} on this tx queue. The device owns the sent ones; the unsent ones
     * ({@code mbufs[sent..count)}) stay the caller's.
     *
     * @param mbufs the packets.
     * @param count how many.
     * @return the number sent.
     */
    public int txBurst(final MbufArray mbufs, final int count)
    {
        return dpdk_h.dta_tx_burst(portId, queueId, mbufs.segment(), (short)count) & 0xFFFF;
    }

    /**
     * Transmits {@code mbufs[0..count)} on this tx queue and frees those the device did not take (one downcall).
     *
     * @param mbufs the packets.
     * @param count how many.
     * @return the number sent; {@code count - sent} were dropped.
     */
    public int txBurstOrFree(final MbufArray mbufs, final int count)
    {
        return dpdk_h.dta_tx_burst_or_free(portId, queueId, mbufs.segment(), (short)count) & 0xFFFF;
    }

    static void checkBurst(final int max, final int capacity)
    {
        // The device writes up to max entries into native arrays: more than they hold would corrupt memory.
        if (max < 0 || max > capacity)
        {
            throw new IllegalArgumentException("burst of " + max + " into arrays of " + capacity);
        }
    }

    @Override
    public String toString()
    {
        return port.name() + " queue " + queueId();
    }
}
