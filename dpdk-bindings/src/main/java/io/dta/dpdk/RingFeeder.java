package io.dta.dpdk;

import io.dta.dpdk.ffi.dpdk_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * A traffic source without copies: a {@code net_ring} port over a {@link Ring} pre-filled with mbufs whose data was
 * written once, recycled for ever (the benchmark's {@code --input ring}). Each mbuf keeps a reference of the
 * feeder's own, so the data plane's normal free after processing only drops the ring's reference and leaves the mbuf
 * and its data untouched; {@link #feed()}, called once per duty cycle after the burst was freed, enqueues the
 * consumed mbufs again, in their order, taking the reference again ({@code dta_ring_feed} in the shim). A C loop
 * calls the same function through {@link #feedFunction()} and {@link #segment()}, so both pay the same recycling.
 * <p>
 * The ring holds every mbuf, so a duty cycle that takes at most a burst never finds it short as long as the feeder
 * runs between bursts; {@link #dry()} counts the feeds that found it empty anyway. Nothing may be sent to the ring
 * port (its tx queue is the same ring). One thread uses a feeder.
 * <p>
 * {@link #createQueues(String, List, int[])} makes one {@code net_ring} port with Q queues, each over a ring of its
 * own with a feeder of its own ({@link #queue()}): worker {@code i} bursts rx queue {@code i} and feeds its feeder,
 * from its own lcore, sharing nothing with the other workers.
 */
public final class RingFeeder implements AutoCloseable
{
    private static final int ENOMEM = 12;

    private final Ring ring;
    private final int portId;
    private final int queue;
    private final int count;
    private final MemorySegment feeder;
    // Shared: the statistics may be read from another thread than the one that made the feeder (a worker's lcore).
    private final Arena arena = Arena.ofShared();
    private final MemorySegment stats;
    private boolean closed;

    private RingFeeder(final Ring ring, final int portId, final int queue, final int count, final MemorySegment feeder)
    {
        this.ring = ring;
        this.portId = portId;
        this.queue = queue;
        this.count = count;
        this.feeder = feeder;
        this.stats = arena.allocate(4 * Long.BYTES, 8);
    }

    /**
     * Creates the ring (single producer and consumer, room for every mbuf), its {@code net_ring} port, and the
     * feeder, which takes over the mbufs (each with the one reference it was allocated with, its data and length
     * written) and enqueues them all.
     *
     * @param name   unique name of the ring and of the port.
     * @param mbufs  the mbufs, {@code mbufs[0..count)}, received in this order, round after round.
     * @param count  how many (at least 1).
     * @return the feeder; open the port with {@link EthPort#open} on {@link #portId()}.
     * @throws DpdkException when the ring, the port or the feeder cannot be created (the mbufs are then the
     *                       caller's still).
     */
    public static RingFeeder create(final String name, final MbufArray mbufs, final int count)
    {
        if (count < 1 || count > mbufs.capacity())
        {
            throw new IllegalArgumentException("count must be 1.." + mbufs.capacity() + ": " + count);
        }
        return create(name, mbufs.segment(), count);
    }

    /**
     * As {@link #create(String, MbufArray, int)}, the mbufs given as a native array of any length ({@link MbufArray}
     * holds at most 65535, a burst's count): the feeder copies the pointers, so the array may be freed afterwards.
     *
     * @param name   unique name of the ring and of the port.
     * @param mbufs  {@code struct rte_mbuf *[count]}: the mbufs, received in this order, round after round.
     * @param count  how many (at least 1).
     * @return the feeder; open the port with {@link EthPort#open} on {@link #portId()}.
     * @throws DpdkException when the ring, the port or the feeder cannot be created (the mbufs are then the
     *                       caller's still).
     */
    public static RingFeeder create(final String name, final MemorySegment mbufs, final int count)
    {
        checkCount(mbufs, count);
        final Ring ring = ringFor(name, count);
        int portId = -1;
        try
        {
            portId = ring.createEthDevice();
            return new RingFeeder(ring, portId, 0, count, feederOf(ring, mbufs, count));
        }
        catch (final RuntimeException ex)
        {
            if (portId >= 0)
            {
                // The net_ring port points at the ring about to be freed: release it first (never started).
                dpdk_h.rte_eth_dev_close((short)portId);
            }
            ring.close();
            throw ex;
        }
    }

    /**
     * One {@code net_ring} port with {@code mbufs.size()} queues, each over a ring of its own (named {@code name_q<i>})
     * pre-filled by a feeder of its own, as {@link #create(String, MemorySegment, int)} does for one: rx queue
     * {@code i} receives {@code mbufs.get(i)[0..counts[i])}, in order, round after round, and the feeder of queue
     * {@code i} (the {@code i}-th of the list) recycles them. Open the port ({@link #portId()}, the same for all) with
     * {@link EthPort#open(int, int, Mempool, int, int, boolean, int)} and as many queues; the device has no RSS.
     *
     * @param name   unique name of the port ({@code net_ring_<name>}) and prefix of its rings' names.
     * @param mbufs  per queue, {@code struct rte_mbuf *[counts[i]]} (for instance {@link MbufArray#segment()}):
     *               mbufs with their data and length written, each with the one reference it was allocated with.
     * @param counts per queue, how many (at least 1).
     * @return the feeders, queue 0 first.
     * @throws DpdkException when a ring, the port or a feeder cannot be created (nothing is left behind, and the
     *                       mbufs are the caller's still).
     */
    public static List<RingFeeder> createQueues(final String name, final List<MemorySegment> mbufs, final int[] counts)
    {
        if (mbufs.isEmpty() || mbufs.size() != counts.length)
        {
            throw new IllegalArgumentException("one count per queue: " + mbufs.size() + " queues, " + counts.length +
                " counts");
        }
        for (int q = 0; q < counts.length; q++)
        {
            checkCount(mbufs.get(q), counts[q]);
        }
        final List<Ring> rings = new ArrayList<>();
        final List<MemorySegment> feeders = new ArrayList<>();
        int portId = -1;
        try
        {
            for (int q = 0; q < counts.length; q++)
            {
                rings.add(ringFor(name + "_q" + q, counts[q]));
            }
            portId = Ring.createEthDevice(name, rings);
            for (int q = 0; q < counts.length; q++)
            {
                feeders.add(feederOf(rings.get(q), mbufs.get(q), counts[q]));
            }
            final List<RingFeeder> queues = new ArrayList<>();
            for (int q = 0; q < counts.length; q++)
            {
                queues.add(new RingFeeder(rings.get(q), portId, q, counts[q], feeders.get(q)));
            }
            return List.copyOf(queues);
        }
        catch (final RuntimeException ex)
        {
            feeders.forEach(dpdk_h::dta_ring_feeder_release);
            if (portId >= 0)
            {
                dpdk_h.rte_eth_dev_close((short)portId);
            }
            rings.forEach(Ring::close);
            throw ex;
        }
    }

    private static void checkCount(final MemorySegment mbufs, final int count)
    {
        if (count < 1 || mbufs.byteSize() < (long)count * ValueLayout.ADDRESS.byteSize())
        {
            throw new IllegalArgumentException("count must be 1.." + mbufs.byteSize() / ValueLayout.ADDRESS.byteSize() +
                ": " + count);
        }
    }

    /** A ring with room for every mbuf (a power of two above the count), single producer and consumer. */
    private static Ring ringFor(final String name, final int count)
    {
        return Ring.create(name, Integer.highestOneBit(count) << 1, Ring.SINGLE_PRODUCER | Ring.SINGLE_CONSUMER);
    }

    private static MemorySegment feederOf(final Ring ring, final MemorySegment mbufs, final int count)
    {
        final MemorySegment feeder = dpdk_h.dta_ring_feeder_create(ring.segment(), mbufs, count);
        if (MemorySegment.NULL.equals(feeder))
        {
            throw new DpdkException("cannot create the feeder of ring " + ring.name() + " (out of memory, or a ring " +
                "that is too small or not empty)", ENOMEM);
        }
        return feeder;
    }

    /**
     * @return the rx queue of {@link #portId()} that this feeder fills (0 for a feeder made by {@code create}).
     */
    public int queue()
    {
        return queue;
    }

    /**
     * @return the {@code net_ring} port's id.
     */
    public int portId()
    {
        return portId;
    }

    /**
     * @return the mbufs it recycles.
     */
    public int count()
    {
        return count;
    }

    /**
     * Once per duty cycle, after the received burst was freed: enqueues again what was consumed since the last call.
     *
     * @return how many mbufs were enqueued.
     */
    public int feed()
    {
        return dpdk_h.dta_ring_feed(feeder);
    }

    /**
     * @return the native feeder ({@code struct dta_ring_feeder *}), the argument of {@link #feedFunction()}.
     */
    public MemorySegment segment()
    {
        return feeder;
    }

    /**
     * @return the address of {@code uint32_t dta_ring_feed(struct dta_ring_feeder *)}, for C loops that feed the ring
     *         as {@link #feed()} does.
     */
    public static MemorySegment feedFunction()
    {
        return dpdk_h.dta_ring_feed$address();
    }

    /**
     * @return calls of {@link #feed()} (or of the feed function from C).
     */
    public long feeds()
    {
        return stat(0);
    }

    /**
     * @return mbufs enqueued again since the ring was filled.
     */
    public long fed()
    {
        return stat(1);
    }

    /**
     * @return feeds that found the ring empty: a burst before them may have come back short (the input ran dry).
     */
    public long dry()
    {
        return stat(2);
    }

    /**
     * @return the fewest mbufs a feed found in the ring.
     */
    public int lowest()
    {
        return (int)stat(3);
    }

    private long stat(final int index)
    {
        dpdk_h.dta_ring_feeder_stats(feeder, stats);
        return stats.getAtIndex(ValueLayout.JAVA_LONG, index);
    }

    /**
     * Gives the mbufs back to their pool and frees the ring. Close the port first.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            dpdk_h.dta_ring_feeder_free(feeder);
            ring.close();
            arena.close();
        }
    }
}
