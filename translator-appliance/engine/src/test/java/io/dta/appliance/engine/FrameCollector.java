package io.dta.appliance.engine;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Test {@link FrameSink} that keeps a copy of every committed frame with its timestamp, so tests can assert on
 * exactly what the engine put on the wire. {@link #refuseClaims(boolean)} simulates a full transmit queue.
 * <p>
 * Held frames are built in memory it lends, one slot per loan, as the DPDK sinks lend an mbuf each; it tracks
 * the loans so tests can check that every held frame was either sent or given back.
 * <p>
 * {@link #loseCommitted(EngineCounters, boolean)} simulates a live DPDK port whose tx burst does not take the frames
 * it was given (tx ring full, a link without a peer): committed frames vanish and go back to the engine's counters
 * as the live tx queue gives them back.
 */
public final class FrameCollector implements FrameSink
{
    /**
     * One frame that left the engine.
     *
     * @param bytes     the frame bytes (a private copy).
     * @param timeNanos engine clock at commit.
     */
    public record Frame(byte[] bytes, long timeNanos)
    {
    }

    private static final int LOAN_SLOT = 2048;
    private static final int LOAN_SLOTS = 256;

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024));
    private final UnsafeBuffer loans = new UnsafeBuffer(ByteBuffer.allocateDirect(LOAN_SLOT * LOAN_SLOTS));
    private final ArrayDeque<Integer> freeSlots = new ArrayDeque<>();
    private final List<Frame> frames = new ArrayList<>();
    private boolean refuse;
    private EngineCounters lateCounters;
    private boolean lose;
    private long lost;
    private long abandoned;

    /**
     * An empty collector.
     */
    public FrameCollector()
    {
        for (int i = 0; i < LOAN_SLOTS; i++)
        {
            freeSlots.add(i);
        }
    }

    /**
     * {@inheritDoc}
     */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * {@inheritDoc}
     */
    public int claim(final int maxLength)
    {
        return refuse ? -1 : 128;
    }

    /**
     * {@inheritDoc}
     */
    public void commit(final int offset, final int length, final long timeNanos)
    {
        final byte[] copy = new byte[length];
        buffer.getBytes(offset, copy);
        frames.add(new Frame(copy, timeNanos));
    }

    /**
     * Keeps the frame, or loses it after the fact when {@link #loseCommitted} says so.
     */
    public void commit(final int offset, final int length, final long timeNanos, final int carried)
    {
        if (lose)
        {
            lost++;
            lateCounters.frameNotTaken(carried);
            return;
        }
        commit(offset, length, timeNanos);
    }

    /**
     * {@inheritDoc}
     */
    public boolean claimHeld(final HeldFrame frame, final int maxLength)
    {
        if (refuse || maxLength > LOAN_SLOT || freeSlots.isEmpty())
        {
            return false;
        }
        final int slot = freeSlots.poll();
        frame.lend(slot + 1, loans.addressOffset() + (long)slot * LOAN_SLOT, LOAN_SLOT);
        return true;
    }

    /**
     * {@inheritDoc}
     */
    public void commitHeld(final HeldFrame frame, final int length, final long timeNanos)
    {
        final int slot = returnLoan(frame);
        final byte[] copy = new byte[length];
        loans.getBytes(slot * LOAN_SLOT, copy);
        frames.add(new Frame(copy, timeNanos));
    }

    /**
     * Keeps the frame, or loses it after the fact when {@link #loseCommitted} says so.
     */
    public void commitHeld(final HeldFrame frame, final int length, final long timeNanos, final int carried)
    {
        if (lose)
        {
            returnLoan(frame);
            lost++;
            lateCounters.frameNotTaken(carried);
            return;
        }
        commitHeld(frame, length, timeNanos);
    }

    /**
     * {@inheritDoc}
     */
    public void abandonHeld(final HeldFrame frame)
    {
        returnLoan(frame);
        abandoned++;
    }

    private int returnLoan(final HeldFrame frame)
    {
        final int slot = (int)frame.handle() - 1;
        if (slot < 0 || slot >= LOAN_SLOTS || freeSlots.contains(slot))
        {
            throw new IllegalStateException("not a loan of this sink: " + frame.handle());
        }
        freeSlots.add(slot);
        return slot;
    }

    /**
     * @return held frames built in lent memory and neither sent nor given back yet.
     */
    public int outstandingLoans()
    {
        return LOAN_SLOTS - freeSlots.size();
    }

    /**
     * @return held frames given back unsent.
     */
    public long abandoned()
    {
        return abandoned;
    }

    /**
     * @param refuse true to make every claim fail.
     */
    public void refuseClaims(final boolean refuse)
    {
        this.refuse = refuse;
    }

    /**
     * @param counters the engine's counters, which lost frames go back to.
     * @param lose     true to take every claim and commit but lose the committed frames (the engine's 4-argument
     *                 commits; its plain commits are kept).
     */
    public void loseCommitted(final EngineCounters counters, final boolean lose)
    {
        this.lateCounters = counters;
        this.lose = lose;
    }

    /**
     * @return frames committed and then lost ({@link #loseCommitted}).
     */
    public long lost()
    {
        return lost;
    }

    /**
     * @return every frame so far, in order.
     */
    public List<Frame> frames()
    {
        return frames;
    }

    /**
     * @return number of frames so far.
     */
    public int size()
    {
        return frames.size();
    }

    /**
     * Removes and returns every frame so far.
     *
     * @return the frames, in order.
     */
    public List<Frame> drain()
    {
        final List<Frame> out = new ArrayList<>(frames);
        frames.clear();
        return out;
    }

    /**
     * Removes and returns every frame so far, parsed as RoCEv2 requests.
     *
     * @return the requests, in order.
     */
    public List<TestFrames.Request> drainRequests()
    {
        final List<TestFrames.Request> out = new ArrayList<>();
        for (final Frame f : drain())
        {
            out.add(TestFrames.parseRequest(f.bytes()));
        }
        return out;
    }
}
