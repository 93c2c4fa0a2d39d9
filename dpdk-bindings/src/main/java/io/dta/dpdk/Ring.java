package io.dta.dpdk;

import io.dta.dpdk.ffi.DpdkLayout;
import io.dta.dpdk.ffi.dpdk_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * A DPDK {@code rte_ring} of mbuf pointers: a lock-free FIFO between lcores (or processes), and the backing
 * store of the {@code net_ring} device.
 */
public final class Ring implements AutoCloseable
{
    /** Single producer. */
    public static final int SINGLE_PRODUCER = DpdkLayout.RING_F_SP_ENQ;
    /** Single consumer. */
    public static final int SINGLE_CONSUMER = DpdkLayout.RING_F_SC_DEQ;

    private final String name;
    private final MemorySegment ring;
    private final int capacity;
    private boolean closed;

    private Ring(final String name, final MemorySegment ring, final int capacity)
    {
        this.name = name;
        this.ring = ring;
        this.capacity = capacity;
    }

    /**
     * @param name  unique name.
     * @param count size, a power of two (holds {@code count - 1} entries).
     * @param flags {@link #SINGLE_PRODUCER} | {@link #SINGLE_CONSUMER} or 0.
     * @return the ring.
     * @throws DpdkException when it cannot be created.
     */
    public static Ring create(final String name, final int count, final int flags)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment ring = dpdk_h.rte_ring_create(arena.allocateFrom(name), count,
                DpdkLayout.SOCKET_ID_ANY, flags);
            if (MemorySegment.NULL.equals(ring))
            {
                final int errno = dpdk_h.dta_errno();
                throw new DpdkException("cannot create ring " + name + ": " + Eal.strerror(errno), errno);
            }
            return new Ring(name, ring, count - 1);
        }
    }

    /**
     * @return the ring's name.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return the {@code struct rte_ring *}.
     */
    public MemorySegment segment()
    {
        return ring;
    }

    /**
     * @param objects the pointers to enqueue, {@code objects[0..count)}.
     * @param count   how many.
     * @return how many were enqueued (the rest did not fit).
     */
    public int enqueueBurst(final MbufArray objects, final int count)
    {
        return dpdk_h.dta_ring_enqueue_burst(ring, objects.segment(), count);
    }

    /**
     * @param objects where to put the dequeued pointers.
     * @param max     at most this many.
     * @return how many were dequeued.
     */
    public int dequeueBurst(final MbufArray objects, final int max)
    {
        return dpdk_h.dta_ring_dequeue_burst(ring, objects.segment(), max);
    }

    /**
     * @return entries in the ring now.
     */
    public int count()
    {
        return dpdk_h.dta_ring_count(ring);
    }

    /**
     * Makes this ring a {@code net_ring} ethdev ({@code rte_eth_from_ring}): one rx and one tx queue, both this ring,
     * so what is sent to the port is received from it, and what is enqueued into the ring is received too. The port
     * is named after the ring; configure and start it with {@link EthPort#open}, and close it before the ring.
     *
     * @return the new port's id.
     * @throws DpdkException when the port cannot be created.
     */
    public int createEthDevice()
    {
        final int port = dpdk_h.rte_eth_from_ring(ring);
        if (port < 0)
        {
            final int errno = dpdk_h.dta_errno();
            throw new DpdkException("cannot create a net_ring port over ring " + name + ": " + Eal.strerror(errno),
                errno);
        }
        return port;
    }

    /**
     * Makes one {@code net_ring} ethdev over several rings ({@code rte_eth_from_rings}): rx queue {@code i} and tx
     * queue {@code i} are {@code rings.get(i)}, so each queue is fed by what is enqueued into its own ring (and what
     * is sent on tx queue {@code i} comes back on rx queue {@code i}). The device has no RSS: a packet is received on
     * the queue of the ring it was put in. Configure and start the port with
     * {@link EthPort#open(int, int, Mempool, int, int, boolean, int)} and {@code rings.size()} queues, and close it
     * before the rings.
     *
     * @param name  the port's name is {@code net_ring_} followed by it; unique among the ports.
     * @param rings its queues, at least one.
     * @return the new port's id.
     * @throws DpdkException when the port cannot be created.
     */
    public static int createEthDevice(final String name, final List<Ring> rings)
    {
        if (rings.isEmpty())
        {
            throw new IllegalArgumentException("a net_ring port needs at least one ring: " + name);
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment queues = arena.allocate(ValueLayout.ADDRESS, rings.size());
            for (int i = 0; i < rings.size(); i++)
            {
                queues.setAtIndex(ValueLayout.ADDRESS, i, rings.get(i).segment());
            }
            final int port = dpdk_h.rte_eth_from_rings(arena.allocateFrom(name), queues, rings.size(), queues,
                rings.size(), DpdkLayout.SOCKET_ID_ANY);
            if (port < 0)
            {
                final int errno = dpdk_h.dta_errno();
                throw new DpdkException("cannot create a net_ring port " + name + " over " + rings.size() +
                    " rings: " + Eal.strerror(errno), errno);
            }
            return port;
        }
    }

    /**
     * @return entries the ring can hold.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * Frees the ring.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            dpdk_h.rte_ring_free(ring);
        }
    }
}
