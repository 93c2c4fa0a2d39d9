package io.dta.appliance.engine.primitive;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.config.SketchConfig;

import java.util.Arrays;

/**
 * The NACKs of one sketch to its switches, per (epoch area, switch) slot: the rate limit on NACKing a gap again
 * ({@link SketchMergeHandler#NACK_REARM_NANOS}), the timer's retries of a gap's NACK (doubling the interval, up to
 * {@code nackRetries} times), and the watch for a missing tail (looks on a grid of {@code nackRetryMicros} on the
 * engine clock; a switch that made no progress between two looks is NACKed from its next expected column). The
 * addressing of the report that was NACKed, or that opened the switch's progress, is kept per slot in preallocated
 * arrays; {@link SketchMergeHandler} describes the whole policy.
 */
final class SketchNackRetries
{
    // What the timer does for a slot: nothing; re-send the NACK of an open gap when due (progress, seen per column,
    // restarts the interval); or watch for a missing tail (progress read by the timer at each look).
    private static final byte RETRY_OFF = 0;
    private static final byte RETRY_GAP = 1;
    private static final byte RETRY_TAIL = 2;

    private final SketchAreas areas;
    private final EngineCounters counters;
    private final SketchNackSink nackSink;
    private final int sketchId;
    private final long retryNanos;
    private final int maxRetries;
    private final boolean[] nackArmed;
    private final long[] nackNanos;
    // Per slot: the end of the gap (one past the highest column seen from the switch, or columns once its tail was
    // NACKed; the gap is open while nextColumn is below it), what the timer does for it, retries sent, when it is due
    // next, the next expected column at the last look of a tail watch, and the addressing of the report that was
    // NACKed or that opened the switch's progress.
    private final int[] seenEnd;
    private final byte[] retryState;
    private final int[] retriesSent;
    private final int[] tailMark;
    private final long[] retryDueNanos;
    private final long[] replyMac;
    private final int[] replyIp;
    private final int[] replyTagCount;
    private final long[] replyTags;
    private int armedRetries;
    private long nextRetryNanos;
    private int replySlot = -1;

    SketchNackRetries(
        final SketchConfig config, final SketchAreas areas, final EngineCounters counters,
        final SketchNackSink nackSink)
    {
        this.areas = areas;
        this.counters = counters;
        this.nackSink = nackSink;
        this.sketchId = (int)config.id();
        this.retryNanos = config.nackRetryMicros() * 1000;
        this.maxRetries = config.nackRetries();
        final int slots = areas.epochs * areas.switches;
        nackArmed = new boolean[slots];
        nackNanos = new long[slots];
        seenEnd = new int[slots];
        retryState = new byte[slots];
        retriesSent = new int[slots];
        tailMark = new int[slots];
        retryDueNanos = new long[slots];
        replyMac = new long[slots];
        replyIp = new int[slots];
        replyTagCount = new int[slots];
        replyTags = new long[slots];
    }

    /**
     * @return slots the timer is armed for.
     */
    int armed()
    {
        return armedRetries;
    }

    /**
     * @return when the earliest armed slot is due (meaningful while {@link #armed()} is not 0).
     */
    long nextRetryNanos()
    {
        return nextRetryNanos;
    }

    /**
     * A column report arrived: no slot waits for its addressing any more.
     */
    void clearReplySlot()
    {
        replySlot = -1;
    }

    /**
     * An area opened: every switch of it may be NACKed at once, and has seen nothing.
     */
    void opened(final int area)
    {
        final int from = areas.firstSlot(area);
        Arrays.fill(nackArmed, from, from + areas.switches, true);
        Arrays.fill(seenEnd, from, from + areas.switches, 0);
    }

    /**
     * An area closed: its retries and tail watches end.
     */
    void closed(final int area)
    {
        if (0 != armedRetries)
        {
            for (int slot = areas.firstSlot(area), end = slot + areas.switches; slot < end; slot++)
            {
                if (RETRY_OFF != retryState[slot])
                {
                    disarm(slot);
                }
            }
        }
    }

    /**
     * A column beyond the switch's next expected one arrived (a gap).
     *
     * @return true when a NACK is due now (the slot then waits for the report's addressing).
     */
    boolean gap(final int slot, final int column, final long nowNanos)
    {
        if (column >= seenEnd[slot])
        {
            seenEnd[slot] = column + 1;
        }
        if (nackArmed[slot] || nowNanos - nackNanos[slot] >= SketchMergeHandler.NACK_REARM_NANOS)
        {
            nackArmed[slot] = false;
            nackNanos[slot] = nowNanos;
            replySlot = slot;
            return true;
        }
        return false;
    }

    /**
     * The switch's expected column was merged (its next expected column is now {@code column + 1}).
     *
     * @return true when it opened the switch's progress in the epoch and a tail watch wants the report's addressing.
     */
    boolean progress(final int slot, final int column, final long nowNanos)
    {
        nackArmed[slot] = true;
        final byte retry = retryState[slot];
        if (RETRY_GAP == retry)
        {
            if (column + 1 >= seenEnd[slot])
            {
                // The gap is filled; the switch may still stop short of its last column, so the watch goes on.
                if (column + 1 < areas.columns)
                {
                    tailMark[slot] = column + 1;
                    arm(slot, RETRY_TAIL, nextLook(nowNanos));
                }
                else
                {
                    disarm(slot);
                }
            }
            else
            {
                // The switch is answering: NACK again only if it stops short of the gap's end for a whole interval.
                // After backed-off retries that can be sooner than the retry was due, so the earliest may move.
                retriesSent[slot] = 0;
                final long due = nowNanos + retryNanos;
                retryDueNanos[slot] = due;
                if (due - nextRetryNanos < 0)
                {
                    nextRetryNanos = due;
                }
            }
        }
        else if (0 == column && RETRY_OFF == retry && 0 != maxRetries && 1 < areas.columns)
        {
            // The switch's progress opens: the engine hands its addressing to watchTail.
            replySlot = slot;
            return true;
        }
        return false;
    }

    /**
     * See {@link SketchMergeHandler#armNackRetry}.
     */
    void armNackRetry(final long mac, final int ip, final int vlanTagCount, final long vlanTags, final long nowNanos)
    {
        final int slot = replySlot;
        replySlot = -1;
        if (slot < 0 || 0 == maxRetries)
        {
            return;
        }
        keepReply(slot, mac, ip, vlanTagCount, vlanTags);
        arm(slot, RETRY_GAP, nowNanos + retryNanos);
    }

    /**
     * See {@link SketchMergeHandler#watchTail}.
     */
    void watchTail(final long mac, final int ip, final int vlanTagCount, final long vlanTags, final long nowNanos)
    {
        final int slot = replySlot;
        replySlot = -1;
        if (slot < 0)
        {
            return;
        }
        keepReply(slot, mac, ip, vlanTagCount, vlanTags);
        tailMark[slot] = areas.nextColumn[slot];
        arm(slot, RETRY_TAIL, nextLook(nowNanos));
    }

    private void keepReply(final int slot, final long mac, final int ip, final int vlanTagCount, final long vlanTags)
    {
        replyMac[slot] = mac;
        replyIp[slot] = ip;
        replyTagCount[slot] = vlanTagCount;
        replyTags[slot] = vlanTags;
    }

    private void arm(final int slot, final byte state, final long due)
    {
        retriesSent[slot] = 0;
        retryDueNanos[slot] = due;
        if (RETRY_OFF == retryState[slot])
        {
            armedRetries++;
        }
        retryState[slot] = state;
        // With one slot armed its due time is the earliest; otherwise the cached one stays a lower bound.
        if (1 == armedRetries || due - nextRetryNanos < 0)
        {
            nextRetryNanos = due;
        }
    }

    /**
     * The first look of a tail watch at least one interval after {@code nowNanos}: the next multiple of the interval
     * on the engine clock, so that the watches of every switch fall due together and one scan serves them all.
     */
    private long nextLook(final long nowNanos)
    {
        final long at = nowNanos + retryNanos;
        final long past = Math.floorMod(at, retryNanos);
        return 0 == past ? at : at - past + retryNanos;
    }

    /**
     * Runs the slots that are due: re-sends gap NACKs (or gives gaps up) and looks at watched tails.
     *
     * @return slots that came due.
     */
    int poll(final long nowNanos)
    {
        int work = 0;
        long earliest = 0;
        boolean any = false;
        // Closing an area disarms its slots, so only open areas can hold armed ones.
        for (int area = 0; area < areas.epochs; area++)
        {
            if (SketchMergeHandler.STATE_OPEN != areas.state[area])
            {
                continue;
            }
            for (int slot = areas.firstSlot(area), end = slot + areas.switches; slot < end; slot++)
            {
                final byte state = retryState[slot];
                if (RETRY_OFF == state)
                {
                    continue;
                }
                long due = retryDueNanos[slot];
                if (nowNanos - due >= 0)
                {
                    due = RETRY_GAP == state ? retryGap(slot, area, nowNanos) : lookAtTail(slot, area, nowNanos);
                    work++;
                    if (RETRY_OFF == retryState[slot])
                    {
                        continue;
                    }
                }
                if (!any || due - earliest < 0)
                {
                    earliest = due;
                    any = true;
                }
            }
        }
        nextRetryNanos = earliest;
        return work;
    }

    /**
     * A gap's retry is due: re-sends the NACK for the switch's current next expected column, or gives the gap up
     * after {@code nackRetries} retries.
     *
     * @return when the slot is due next (meaningless once disarmed).
     */
    private long retryGap(final int slot, final int area, final long nowNanos)
    {
        if (retriesSent[slot] >= maxRetries)
        {
            disarm(slot);
            counters.increment(EngineCounter.SKETCH_NACK_GAPS_ABANDONED);
            return nowNanos;
        }
        final long due;
        if (sendNack(slot, area, nowNanos))
        {
            counters.increment(EngineCounter.SKETCH_NACK_RETRIES);
            due = nowNanos + (retryNanos << ++retriesSent[slot]);
        }
        else
        {
            // Not sent (output full, counted by the sink): no retry used up, tried again after the same interval.
            due = nowNanos + (retryNanos << retriesSent[slot]);
        }
        retryDueNanos[slot] = due;
        return due;
    }

    /**
     * A look at a switch watched for a missing tail: done once it sent its last column; still watched when it made
     * progress since the previous look; otherwise, silent for at least one interval, NACKed from its next expected
     * column, after which the tail is a gap ending at the last column, retried as any gap.
     *
     * @return when the slot is due next (meaningless once disarmed).
     */
    private long lookAtTail(final int slot, final int area, final long nowNanos)
    {
        final int expected = areas.nextColumn[slot];
        if (expected == areas.columns)
        {
            disarm(slot);
            return nowNanos;
        }
        if (expected != tailMark[slot] || !sendNack(slot, area, nowNanos))
        {
            // Progress (or a NACK the output could not take, which counts for nothing): look again next interval.
            tailMark[slot] = expected;
            final long due = nextLook(nowNanos);
            retryDueNanos[slot] = due;
            return due;
        }
        counters.increment(EngineCounter.SKETCH_TAIL_NACKS);
        seenEnd[slot] = areas.columns;
        retryState[slot] = RETRY_GAP;
        retriesSent[slot] = 0;
        final long due = nowNanos + retryNanos;
        retryDueNanos[slot] = due;
        return due;
    }

    /**
     * Sends the timer's NACK for the switch's next expected column with the kept addressing. A NACK that went out is
     * a NACK of the rate limit's episode: gap columns right behind it are not NACKed once more.
     */
    private boolean sendNack(final int slot, final int area, final long nowNanos)
    {
        if (!nackSink.sendSketchNack(replyMac[slot], replyIp[slot], replyTagCount[slot], replyTags[slot], sketchId,
            slot - areas.firstSlot(area), areas.epoch[area], areas.nextColumn[slot], nowNanos))
        {
            return false;
        }
        nackArmed[slot] = false;
        nackNanos[slot] = nowNanos;
        return true;
    }

    private void disarm(final int slot)
    {
        retryState[slot] = RETRY_OFF;
        armedRetries--;
    }
}
