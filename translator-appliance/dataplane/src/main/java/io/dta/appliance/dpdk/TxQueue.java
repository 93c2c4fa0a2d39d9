package io.dta.appliance.dpdk;

import io.dta.appliance.engine.Delivery;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.OutFrameKind;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.EthQueue;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.Mempool;

/**
 * The frames waiting for one tx queue of a port: filled one mbuf at a time, sent in one tx burst when full or at
 * the end of a duty cycle. A live data plane does not wait for a full tx ring: what one tx burst does not take is
 * freed and counted ({@link #notTaken()}), and so is what is queued for a port that is stopped (a {@code net_memif}
 * client between failed reconnection attempts, {@code ReconnectingLink}). A replay's queue ({@link #lossless}) offers
 * the unsent tail again until the device took everything: its output capture must hold every frame. (Offering the unsent tail again at once,
 * up to four bursts, was tried: it broke the two-process memif run of {@code LiveTwoProcessEalTest}, cause not
 * found, so it is not done.)
 * <p>
 * Each frame is queued with what the engine said it is and carries
 * ({@link io.dta.appliance.engine.FrameSink#commit}), in arrays beside the mbufs; a frame the device did not take
 * goes back to the engine's counters ({@link Delivery#notTaken}), so the engine's drop counters see it as they see a
 * frame its sink refused. Frames the engine did not build (ARP replies, a responder's ACKs; like connection set-up,
 * {@link OutFrameKind#CONTROL}) count only here.
 */
public final class TxQueue
{
    /**
     * What a tx queue needs of a device: a tx burst that leaves the unsent mbufs to the caller, and freeing them.
     */
    interface Device
    {
        /**
         * @param mbufs the packets.
         * @param count how many, from index 0.
         * @return how many the device took (from index 0); the rest stay the caller's.
         */
        int txBurst(MbufArray mbufs, int count);

        /**
         * @param mbufs the packets to free.
         * @param count how many, from index 0.
         */
        void free(MbufArray mbufs, int count);
    }

    private final EthPort port;
    private final Device device;
    private final boolean lossless;
    private final MbufArray tx;
    private final OutFrameKind[] kinds;
    private final int[] reports;
    private Delivery delivery;
    private int count;
    private long sent;
    private long notTaken;

    /**
     * @param port  the port.
     * @param burst frames per tx burst.
     */
    public TxQueue(final EthPort port, final int burst)
    {
        this(port.queue(0), burst);
    }

    /**
     * @param queue one tx queue of a port (a worker's own).
     * @param burst frames per tx burst.
     */
    public TxQueue(final EthQueue queue, final int burst)
    {
        this(queue.port(), device(queue), burst, false);
    }

    /**
     * A queue that never drops: a partial tx burst is offered again until the device took everything (a replay
     * into a capture file, whose device always makes progress).
     *
     * @param queue one tx queue of a port.
     * @param burst frames per tx burst.
     * @return the queue.
     */
    public static TxQueue lossless(final EthQueue queue, final int burst)
    {
        return new TxQueue(queue.port(), device(queue), burst, true);
    }

    private static Device device(final EthQueue queue)
    {
        return new Device()
        {
            public int txBurst(final MbufArray mbufs, final int count)
            {
                // A stopped port (a memif client between failed restarts) takes nothing; DPDK would log the call.
                return queue.port().started() ? queue.txBurst(mbufs, count) : 0;
            }

            public void free(final MbufArray mbufs, final int count)
            {
                Mempool.freeBulk(mbufs, count);
            }
        };
    }

    /**
     * @param port   the port (may be null in tests).
     * @param device its tx side.
     * @param burst  frames per tx burst.
     */
    TxQueue(final EthPort port, final Device device, final int burst)
    {
        this(port, device, burst, false);
    }

    private TxQueue(final EthPort port, final Device device, final int burst, final boolean lossless)
    {
        this.port = port;
        this.device = device;
        this.lossless = lossless;
        this.tx = new MbufArray(burst);
        this.kinds = new OutFrameKind[burst];
        this.reports = new int[burst];
    }

    /**
     * Gives the frames the engine built that the device does not take back to the engine's counters.
     *
     * @param counters the engine's counters (updated on this thread, before their next publication).
     */
    public void countEngineFramesIn(final EngineCounters counters)
    {
        delivery = new Delivery(counters);
    }

    /**
     * Queues one mbuf (its length set) that the engine did not build; sends the burst when it is full.
     *
     * @param mbuf the mbuf's address; the queue owns it now.
     */
    public void add(final long mbuf)
    {
        add(mbuf, OutFrameKind.CONTROL, 0);
    }

    /**
     * Queues one mbuf (its length set); sends the burst when it is full.
     *
     * @param mbuf         the mbuf's address; the queue owns it now.
     * @param kind         what the frame is ({@link io.dta.appliance.engine.FrameSink#commit}).
     * @param reportsCount reports it carries.
     */
    public void add(final long mbuf, final OutFrameKind kind, final int reportsCount)
    {
        if (kinds[count] != kind)
        {
            // Reference stores only on a change (G1's write barrier).
            kinds[count] = kind;
        }
        reports[count] = reportsCount;
        tx.set(count++, mbuf);
        if (count == tx.capacity())
        {
            flush();
        }
    }

    /**
     * Sends what is queued.
     *
     * @return frames the device took.
     */
    public int flush()
    {
        final int n = count;
        if (0 == n)
        {
            return 0;
        }
        count = 0;
        final int taken = lossless ? sendAll(n) : device.txBurst(tx, n);
        if (taken < n)
        {
            dropTail(taken, n - taken);
        }
        sent += taken;
        return taken;
    }

    private int sendAll(final int n)
    {
        int left = n;
        while (true)
        {
            final int sent = device.txBurst(tx, left);
            left -= sent;
            if (0 == left)
            {
                return n;
            }
            // Rare (a replay's capture device busy): move the unsent tail to the front and offer it again.
            for (int i = 0; i < left; i++)
            {
                tx.set(i, tx.get(sent + i));
            }
            Thread.onSpinWait();
        }
    }

    private void dropTail(final int taken, final int left)
    {
        // Rare: move the unsent tail to the front, where the bulk free and the give-back walk expect it.
        if (taken > 0)
        {
            for (int i = 0; i < left; i++)
            {
                tx.set(i, tx.get(taken + i));
                kinds[i] = kinds[taken + i];
                reports[i] = reports[taken + i];
            }
        }
        device.free(tx, left);
        notTaken += left;
        final Delivery engine = delivery;
        if (null != engine)
        {
            for (int i = 0; i < left; i++)
            {
                engine.notTaken(kinds[i], reports[i]);
            }
        }
    }

    /**
     * @return the port.
     */
    public EthPort port()
    {
        return port;
    }

    /**
     * @return frames the device accepted.
     */
    public long sent()
    {
        return sent;
    }

    /**
     * @return frames the device did not take (tx ring full, or a link that is down: a {@code net_memif} port without
     * a peer takes nothing), freed.
     */
    public long notTaken()
    {
        return notTaken;
    }
}
