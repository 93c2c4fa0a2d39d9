package io.dta.appliance.dpdk;

import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.HeldFrame;
import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.SendOutcome;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.EthQueue;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.Mempool;
import org.agrona.MutableDirectBuffer;

/**
 * A {@link FrameSink} whose frames are written straight into mbufs: {@link #claim(int)} hands out the data room
 * of a fresh mbuf (taken from a stash refilled with one bulk allocation per burst), {@link #commit} sets its
 * length and queues it, and a full burst (or {@link #flush()}, once per duty cycle) goes out with one tx burst.
 * <p>
 * Two policies for a tx queue that takes fewer than offered: a live data plane drops the rest (counted by
 * {@link #framesDropped()}), a replay ({@code lossless}) retries until the device took everything.
 */
public final class MbufFrameSink implements FrameSink, AutoCloseable
{
    private final EthQueue port;
    private final boolean lossless;
    private final MbufStash stash;
    private final MbufArray tx;
    private FrameTimeLog timeLog;
    private int txCount;
    private long framesSent;
    private long framesDropped;

    /**
     * @param pool     where frame mbufs come from.
     * @param port     where frames go (tx queue 0).
     * @param burst    mbufs per bulk allocation and per tx burst.
     * @param lossless retry a partial tx burst until everything is sent, instead of dropping the rest.
     */
    public MbufFrameSink(final Mempool pool, final EthPort port, final int burst, final boolean lossless)
    {
        this(pool, port.queue(0), burst, lossless);
    }

    /**
     * @param pool     where frame mbufs come from.
     * @param queue    where frames go: one tx queue of a port (a worker's own).
     * @param burst    mbufs per bulk allocation and per tx burst.
     * @param lossless retry a partial tx burst until everything is sent, instead of dropping the rest.
     */
    public MbufFrameSink(final Mempool pool, final EthQueue queue, final int burst, final boolean lossless)
    {
        this.port = queue;
        this.lossless = lossless;
        this.stash = new MbufStash(pool, burst);
        this.tx = new MbufArray(burst);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public MutableDirectBuffer buffer()
    {
        return stash.buffer();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int claim(final int maxLength)
    {
        return stash.claim(maxLength);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public SendOutcome commit(
        final int offset, final int length, final long timeNanos, final OutFrameKind kind, final int reports)
    {
        noteTime(timeNanos);
        enqueue(stash.take(length));
        return SendOutcome.SENT;
    }

    /**
     * Lends the held frame an mbuf of its own: it is built there and never copied.
     */
    @Override
    public boolean claimHeld(final HeldFrame frame, final int maxLength)
    {
        return stash.lend(frame, maxLength);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public SendOutcome commitHeld(final HeldFrame frame, final int length, final long timeNanos, final int reports)
    {
        noteTime(timeNanos);
        enqueue(stash.takeLent(frame, length));
        return SendOutcome.SENT;
    }

    /**
     * Notes the engine clock of every frame from now on (replay: the output capture is re-stamped with them).
     *
     * @param log where the times go.
     */
    void logTimes(final FrameTimeLog log)
    {
        timeLog = log;
    }

    private void noteTime(final long timeNanos)
    {
        if (null != timeLog)
        {
            timeLog.record(timeNanos);
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void abandonHeld(final HeldFrame frame)
    {
        stash.giveBack(frame);
    }

    private void enqueue(final long mbuf)
    {
        tx.set(txCount++, mbuf);
        if (txCount == tx.capacity())
        {
            flush();
        }
    }

    /**
     * Sends the queued frames (call once per duty cycle so that a partial burst never waits).
     *
     * @return frames handed to the device.
     */
    public int flush()
    {
        final int count = txCount;
        if (0 == count)
        {
            return 0;
        }
        txCount = 0;
        if (!lossless)
        {
            final int sent = port.txBurstOrFree(tx, count);
            framesSent += sent;
            framesDropped += count - sent;
            return sent;
        }
        int left = count;
        while (true)
        {
            final int sent = port.txBurst(tx, left);
            left -= sent;
            if (0 == left)
            {
                break;
            }
            // Rare (replay only): move the unsent tail to the front and offer it again.
            for (int i = 0; i < left; i++)
            {
                tx.set(i, tx.get(sent + i));
            }
            Thread.onSpinWait();
        }
        framesSent += count;
        return count;
    }

    /**
     * @return frames the device accepted.
     */
    public long framesSent()
    {
        return framesSent;
    }

    /**
     * @return frames dropped because the tx queue was full (live mode only).
     */
    public long framesDropped()
    {
        return framesDropped;
    }

    /**
     * @return claims refused because the pool was empty.
     */
    public long claimFailures()
    {
        return stash.claimFailures();
    }

    /**
     * Sends what is queued and returns the unused stash to the pool.
     */
    @Override
    public void close()
    {
        flush();
        stash.close();
    }
}
