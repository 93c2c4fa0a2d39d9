package io.dta.appliance.engine;

import io.dta.codec.ShortCopy;
import org.agrona.DirectBuffer;

/**
 * A queue pair's frames on their way into the {@link FrameSink}: a held frame committed where it was built or
 * copied into a claim, a probe copied into a claim, with the QP's frame and byte counts (every frame committed to
 * the sink). What became of each frame and its reports is {@link Delivery}'s to count. Engine thread only.
 */
final class QpOutput
{
    private final FrameSink sink;
    private final EngineCounters counters;
    private final Delivery delivery;
    private long framesOut;
    private long bytesOut;

    QpOutput(final FrameSink sink, final EngineCounters counters, final Delivery delivery)
    {
        this.sink = sink;
        this.counters = counters;
        this.delivery = delivery;
    }

    long framesOut()
    {
        return framesOut;
    }

    long bytesOut()
    {
        return bytesOut;
    }

    /**
     * Sends the held frame just released.
     *
     * @param held     the hold.
     * @param nowNanos engine clock.
     */
    void sendHeld(final FrameHold held, final long nowNanos)
    {
        final int reports = held.reports();
        if (held.bySink())
        {
            final SendOutcome outcome = sink.commitHeld(held.frame(), held.length(), nowNanos, reports);
            sent(held.length());
            delivery.committed(OutFrameKind.REQUEST, reports, outcome);
            return;
        }
        transmit(held.buffer(), held.offset(), held.length(), reports, nowNanos);
    }

    /**
     * Copies a frame into a claim of the sink and sends it; {@link Delivery} counts what became of it.
     */
    void transmit(
        final DirectBuffer frame, final int frameOffset, final int length, final int reports, final long nowNanos)
    {
        final int offset = sink.claim(length);
        if (offset < 0)
        {
            delivery.refused(OutFrameKind.REQUEST, reports);
            return;
        }
        ShortCopy.copy(sink.buffer(), offset, frame, frameOffset, length);
        final SendOutcome outcome = sink.commit(offset, length, nowNanos, OutFrameKind.REQUEST, reports);
        sent(length);
        delivery.committed(OutFrameKind.REQUEST, reports, outcome);
    }

    /**
     * Open loop: an essential operation's frame left, and nothing will ever acknowledge it.
     *
     * @param reports reports its ring entry carried.
     */
    void deliveredOpenLoop(final int reports)
    {
        delivery.delivered(reports);
    }

    /**
     * A probe or restart test went to {@link #transmit}.
     */
    void probeSent()
    {
        counters.increment(EngineCounter.PROBES_OUT);
    }

    private void sent(final int length)
    {
        framesOut++;
        bytesOut += length;
    }
}
