package io.dta.appliance.engine;

import org.agrona.MutableDirectBuffer;

/**
 * A queue pair's newest frame, held (built, not yet sent) until the next frame of the QP comes or the QP has been
 * idle for {@code holdNanos}: that is how "the last packet before the QP goes idle" gets AckReq deterministically,
 * from the engine clock alone, whatever the I/O batching (translation.md §5).
 * <p>
 * The frame is built in memory the sink lends ({@link FrameSink#claimHeld}) or in the {@link HeldFrame}'s own
 * staging buffer. It keeps what the frame carries (its PSN, its reports, its periodic AckReq) in plain fields, so
 * holding allocates nothing. Engine thread only.
 */
final class FrameHold
{
    private final HeldFrame frame;
    private final FrameSink sink;
    private final long holdNanos;
    private boolean held;
    // The sink took the claim (FrameSink.claimHeld): the frame leaves through commitHeld or abandonHeld, not a copy.
    private boolean bySink;
    private int length;
    // Reports the frame carries: 0 for an essential operation, whose ring entry carries them.
    private int reports;
    private int psn;
    private boolean ackReq;
    private long sinceNanos;

    /**
     * @param sink      where the frame goes.
     * @param capacity  the largest frame built.
     * @param holdNanos how long an idle QP's frame is held.
     */
    FrameHold(final FrameSink sink, final int capacity, final long holdNanos)
    {
        this.frame = new HeldFrame(capacity);
        this.sink = sink;
        this.holdNanos = holdNanos;
    }

    /**
     * Claims room for the next frame: the sink's, else the staging buffer. Nothing may be held.
     *
     * @param maxLength the most bytes the frame may take.
     */
    void claim(final int maxLength)
    {
        bySink = sink.claimHeld(frame, maxLength);
        if (!bySink)
        {
            frame.useStaging();
        }
    }

    /**
     * @return the buffer the frame is built in.
     */
    MutableDirectBuffer buffer()
    {
        return frame.buffer();
    }

    /**
     * @return where the frame starts in {@link #buffer()}.
     */
    int offset()
    {
        return frame.offset();
    }

    /**
     * The claimed frame is built: it is held from now.
     *
     * @param psn      its PSN.
     * @param length   its length.
     * @param reports  reports it carries.
     * @param ackReq   whether it carries AckReq by the periodic rule.
     * @param nowNanos engine clock.
     */
    void hold(final int psn, final int length, final int reports, final boolean ackReq, final long nowNanos)
    {
        held = true;
        this.psn = psn;
        this.length = length;
        this.reports = reports;
        this.ackReq = ackReq;
        sinceNanos = nowNanos;
    }

    boolean isHeld()
    {
        return held;
    }

    /**
     * @param nowNanos engine clock.
     * @return true when a frame is held and the QP has been idle for the hold time.
     */
    boolean isDue(final long nowNanos)
    {
        return held && nowNanos - sinceNanos >= holdNanos;
    }

    /**
     * @param dueNanos the earliest timer so far.
     * @return when the held frame is due, if that is earlier, else {@code dueNanos}.
     */
    long earliestTimer(final long dueNanos)
    {
        return held && sinceNanos + holdNanos - dueNanos < 0 ? sinceNanos + holdNanos : dueNanos;
    }

    /**
     * Gives the held frame up unsent (the QP resynchronised or stopped): a lent claim goes back to the sink.
     *
     * @return reports it carried (now lost).
     */
    int abandon()
    {
        held = false;
        if (bySink)
        {
            sink.abandonHeld(frame);
        }
        return reports;
    }

    /**
     * The held frame leaves now; read it with the accessors before the next {@link #claim}.
     */
    void release()
    {
        held = false;
    }

    HeldFrame frame()
    {
        return frame;
    }

    boolean bySink()
    {
        return bySink;
    }

    int psn()
    {
        return psn;
    }

    int length()
    {
        return length;
    }

    int reports()
    {
        return reports;
    }

    boolean ackReq()
    {
        return ackReq;
    }
}
