package io.dta.appliance.engine;

import io.dta.appliance.engine.primitive.AppendList;
import io.dta.appliance.engine.primitive.PostcardHandler;
import io.dta.appliance.engine.primitive.SketchMergeHandler;
import io.dta.appliance.state.ResumeStateFile;

/**
 * The engine's work that time, not a frame, starts: idle Append batches, idle postcards, sketch epoch timeouts and
 * NACK retries, held frames, ACK timeouts and grace ends; the clock of a replayed capture; and the end of a run
 * (flush, the last grace ends, WRITEs still waiting for room, the PSNs recorded at a clean stop). Each method is
 * {@link TranslatorEngine}'s of the same name, which documents it.
 */
final class EngineTimers
{
    private final EngineRoutes routes;
    private final EngineCounters counters;
    private final WorkerHandOffs handOffs;
    private final ResumeStateFile listState;
    private long nextTimerNanos;
    private boolean timersArmed;
    // The last time given to advanceTo (a replay's or the demo's clock), so that no timer runs before it.
    private long replayClockNanos;
    private boolean replayClockSet;

    EngineTimers(
        final EngineRoutes routes,
        final EngineCounters counters,
        final WorkerHandOffs handOffs,
        final ResumeStateFile listState)
    {
        this.routes = routes;
        this.counters = counters;
        this.handOffs = handOffs;
        this.listState = listState;
    }

    int poll(final long nowNanos)
    {
        final int handedOver = handOffs.take(nowNanos);
        // No sentinel start value: "now - Long.MIN_VALUE" overflows to a negative number for any positive clock,
        // which kept the timers from ever running.
        if (timersArmed && nowNanos - nextTimerNanos < 0)
        {
            return handedOver;
        }
        timersArmed = true;
        nextTimerNanos = nowNanos + TranslatorEngine.TIMER_GRANULARITY_NANOS;
        int work = handedOver;
        // Senders first: a frame held past the idle time leaves with AckReq before an idle flush queues a new
        // frame behind it, which would otherwise push it out without one.
        for (final QueuePairSender sender : routes.senders)
        {
            work += sender.poll(nowNanos);
        }
        for (final AppendList list : routes.lists)
        {
            work += list.poll(nowNanos);
        }
        for (final PostcardHandler handler : routes.postcardHandlers)
        {
            work += handler.poll(nowNanos);
        }
        for (final SketchMergeHandler handler : routes.sketchHandlers)
        {
            work += handler.poll(nowNanos);
        }
        return work;
    }

    long nextTimerNanos(final long limitNanos)
    {
        long due = limitNanos;
        for (final QueuePairSender sender : routes.senders)
        {
            due = sender.nextTimerNanos(due);
        }
        for (final AppendList list : routes.lists)
        {
            due = list.nextTimerNanos(due);
        }
        for (final PostcardHandler handler : routes.postcardHandlers)
        {
            due = handler.nextTimerNanos(due);
        }
        for (final SketchMergeHandler handler : routes.sketchHandlers)
        {
            due = handler.nextTimerNanos(due);
        }
        return due;
    }

    void responsesEnded()
    {
        for (final QueuePairSender sender : routes.senders)
        {
            sender.stopAckTimeouts();
        }
    }

    void advanceTo(final long nowNanos)
    {
        boolean first = true;
        long last = 0;
        while (true)
        {
            long due = nextTimerNanos(nowNanos + 1);
            if (due - nowNanos > 0)
            {
                poll(nowNanos);
                break;
            }
            // Never before the time already given (every deadline is set at or after it, so this only guards).
            if (replayClockSet && due - replayClockNanos < 0)
            {
                due = replayClockNanos;
            }
            if (!first && due - last <= 0)
            {
                // A timer that stays due after running (none should) must not spin; what is due runs at nowNanos.
                pollNow(nowNanos);
                break;
            }
            pollNow(due);
            last = due;
            first = false;
        }
        replayClockNanos = nowNanos;
        replayClockSet = true;
    }

    void flush(final long nowNanos)
    {
        while (handOffs.take(nowNanos) > 0)
        {
            // What other workers handed over before the flush is flushed with the rest.
        }
        for (final AppendList list : routes.lists)
        {
            if (list.pending() > 0)
            {
                counters.increment(EngineCounter.APPEND_PARTIAL_FLUSHES);
            }
            list.flush(nowNanos);
        }
        for (final PostcardHandler handler : routes.postcardHandlers)
        {
            handler.flush(nowNanos);
        }
        for (final SketchMergeHandler handler : routes.sketchHandlers)
        {
            handler.flush(nowNanos);
        }
        for (final QueuePairSender sender : routes.senders)
        {
            sender.flush(nowNanos);
        }
        counters.publish();
    }

    void recordNextPsns()
    {
        if (null == listState)
        {
            return;
        }
        for (final QueuePairSender sender : routes.senders)
        {
            if (QueuePairSender.State.ERROR != sender.state())
            {
                listState.recordNextPsn(sender.path().localQpn(), sender.nextPsn());
            }
        }
    }

    long finish(final long nowNanos)
    {
        flush(nowNanos);
        long end = nowNanos;
        for (final QueuePairSender sender : routes.senders)
        {
            final long graceEnd = sender.graceEndNanos();
            if (Long.MIN_VALUE != graceEnd && graceEnd - end > 0)
            {
                end = graceEnd;
            }
        }
        if (end != nowNanos)
        {
            flush(end);
        }
        // Nothing more will answer and no timer runs after this: sketch WRITEs still waiting for room are accounted.
        abandonPendingWrites(end);
        return end;
    }

    int pollNow(final long nowNanos)
    {
        nextTimerNanos = nowNanos;
        return poll(nowNanos);
    }

    boolean isQuiescent()
    {
        if (!handOffs.idle())
        {
            return false;
        }
        for (final QueuePairSender sender : routes.senders)
        {
            if (!sender.isQuiescent() && QueuePairSender.State.ERROR != sender.state())
            {
                return false;
            }
        }
        for (final SketchMergeHandler handler : routes.sketchHandlers)
        {
            if (!handler.isQuiescent())
            {
                return false;
            }
        }
        return true;
    }

    void abandonPendingWrites(final long nowNanos)
    {
        boolean any = false;
        for (final SketchMergeHandler handler : routes.sketchHandlers)
        {
            if (0 != handler.pendingAreas())
            {
                handler.abandonPendingWrites(nowNanos);
                any = true;
            }
        }
        if (any)
        {
            for (final QueuePairSender sender : routes.senders)
            {
                sender.flush(nowNanos);
            }
            counters.publish();
        }
    }
}
