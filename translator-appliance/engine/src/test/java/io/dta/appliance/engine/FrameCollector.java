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
 * {@link #loseCommitted(boolean)} simulates an output that does not take the frames it was given (tx ring full, a
 * link without a peer): committed frames vanish and the sink answers {@link SendOutcome#LOST}, which the engine
 * counts as the live tx queue's frames given back ({@link Delivery#notTaken}).
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
     * Keeps the frame, or loses it when {@link #loseCommitted} says so (the engine's frames; a connection manager's
     * are kept).
     */
    public SendOutcome commit(
        final int offset, final int length, final long timeNanos, final OutFrameKind kind, final int reports)
    {
        if (lose && OutFrameKind.CONTROL != kind)
        {
            lost++;
            return SendOutcome.LOST;
        }
        final byte[] copy = new byte[length];
        buffer.getBytes(offset, copy);
        frames.add(new Frame(copy, timeNanos));
        return SendOutcome.SENT;
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
     * Keeps the frame, or loses it when {@link #loseCommitted} says so.
     */
    public SendOutcome commitHeld(final HeldFrame frame, final int length, final long timeNanos, final int reports)
    {
        final int slot = returnLoan(frame);
        if (lose)
        {
            lost++;
            return SendOutcome.LOST;
        }
        final byte[] copy = new byte[length];
        loans.getBytes(slot * LOAN_SLOT, copy);
        frames.add(new Frame(copy, timeNanos));
        return SendOutcome.SENT;
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
     * @param lose true to take every claim and commit but lose the committed frames (answering
     *             {@link SendOutcome#LOST}; a connection manager's frames are kept).
     */
    public void loseCommitted(final boolean lose)
    {
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
