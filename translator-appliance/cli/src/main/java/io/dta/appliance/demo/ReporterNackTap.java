package io.dta.appliance.demo;

import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.HeldFrame;
import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.SendOutcome;
import org.agrona.MutableDirectBuffer;

/**
 * The translator's output in the demo: everything goes to the collector link, except the NACKs to reporters, which
 * go to the {@link ResendingReporters} (reporters sit on their own, lossless, side of the translator).
 */
final class ReporterNackTap implements FrameSink
{
    private final LossyLink toCollector;
    private final ResendingReporters reporters;

    ReporterNackTap(final LossyLink toCollector, final ResendingReporters reporters)
    {
        this.toCollector = toCollector;
        this.reporters = reporters;
    }

    @Override
    public MutableDirectBuffer buffer()
    {
        return toCollector.buffer();
    }

    @Override
    public int claim(final int maxLength)
    {
        return toCollector.claim(maxLength);
    }

    @Override
    public SendOutcome commit(
        final int offset, final int length, final long timeNanos, final OutFrameKind kind, final int reports)
    {
        if (OutFrameKind.REPORTER_NACK == kind)
        {
            // The claimed slot is left uncommitted: the link never carries it.
            reporters.onNack(toCollector.buffer(), offset, length, timeNanos);
            return SendOutcome.SENT;
        }
        return toCollector.commit(offset, length, timeNanos, kind, reports);
    }

    @Override
    public boolean claimHeld(final HeldFrame frame, final int maxLength)
    {
        return toCollector.claimHeld(frame, maxLength);
    }

    @Override
    public SendOutcome commitHeld(final HeldFrame frame, final int length, final long timeNanos, final int reports)
    {
        return toCollector.commitHeld(frame, length, timeNanos, reports);
    }

    @Override
    public void abandonHeld(final HeldFrame frame)
    {
        toCollector.abandonHeld(frame);
    }
}
