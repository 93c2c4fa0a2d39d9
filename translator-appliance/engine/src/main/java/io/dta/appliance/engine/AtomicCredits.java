package io.dta.appliance.engine;

import io.dta.codec.Psn;
import org.agrona.BitUtil;

/**
 * A queue pair's credit limit on unanswered FETCH_ADDs and the bounded queue of non-essential ones waiting for a
 * credit (translation.md §6): each FETCH_ADD sent holds a credit until an acknowledgement at or past its PSN.
 * <p>
 * Open loop (nothing will ever answer) no credit could come back, so there is no limit and nothing is tracked.
 * Both rings wrap by mask: they are a power of two long (a modulo costs an idiv per atomic). Engine thread only;
 * nothing here allocates except {@link #limit(int)} growing the ring.
 */
final class AtomicCredits
{
    private final boolean openLoop;
    private int limit;
    private int[] psns;
    private int mask;
    private int head;
    private int outstanding;

    private final long[] waitingVa;
    private final long[] waitingAdd;
    private final int[] waitingReports;
    private final int waitingMask;
    private final int waitingCapacity;
    private int waitingHead;
    private int waitingCount;

    /**
     * @param openLoop       true when no response will ever come (no limit then).
     * @param limit          unanswered FETCH_ADDs allowed.
     * @param queueCapacity  non-essential FETCH_ADDs that may wait for a credit (at least 1 is kept).
     */
    AtomicCredits(final boolean openLoop, final int limit, final int queueCapacity)
    {
        this.openLoop = openLoop;
        this.limit = openLoop ? Integer.MAX_VALUE : limit;
        this.psns = new int[BitUtil.findNextPositivePowerOfTwo(openLoop ? 1 : Math.max(1, limit))];
        this.mask = psns.length - 1;
        this.waitingCapacity = Math.max(1, queueCapacity);
        this.waitingVa = new long[BitUtil.findNextPositivePowerOfTwo(waitingCapacity)];
        this.waitingAdd = new long[waitingVa.length];
        this.waitingReports = new int[waitingVa.length];
        this.waitingMask = waitingVa.length - 1;
    }

    /**
     * @return unanswered FETCH_ADDs allowed ({@link Integer#MAX_VALUE} open loop).
     */
    int limit()
    {
        return limit;
    }

    /**
     * Changes the limit; a higher one than the ring was built for grows it (allocates). Ignored open loop.
     *
     * @param newLimit unanswered FETCH_ADDs allowed, at least 1 (the caller checks).
     * @return false when ignored (open loop).
     */
    boolean limit(final int newLimit)
    {
        if (openLoop)
        {
            return false;
        }
        if (newLimit > psns.length)
        {
            // The ring never shrinks, so it always holds what is outstanding, also above a lowered limit.
            final int[] grown = new int[BitUtil.findNextPositivePowerOfTwo(newLimit)];
            for (int i = 0; i < outstanding; i++)
            {
                grown[i] = psns[(head + i) & mask];
            }
            psns = grown;
            mask = grown.length - 1;
            head = 0;
        }
        limit = newLimit;
        return true;
    }

    /**
     * @return FETCH_ADDs sent and not answered yet.
     */
    int outstanding()
    {
        return outstanding;
    }

    /**
     * @return true when one more FETCH_ADD may go out now.
     */
    boolean hasCredit()
    {
        return outstanding < limit;
    }

    /**
     * @return true when a non-essential FETCH_ADD would be sent or queued, not refused for a full queue.
     */
    boolean canTake()
    {
        return 0 == limit || waitingCount < waitingCapacity || outstanding < limit;
    }

    /**
     * A FETCH_ADD left on {@code psn}: it holds a credit until acknowledged (not tracked open loop).
     *
     * @param psn its PSN.
     */
    void sent(final int psn)
    {
        if (!openLoop)
        {
            psns[(head + outstanding) & mask] = psn;
            outstanding++;
        }
    }

    /**
     * The responder executed everything up to {@code psn}: the credits of those FETCH_ADDs come back.
     *
     * @param psn the acknowledged PSN.
     */
    void acknowledge(final int psn)
    {
        while (outstanding > 0 && Psn.compare(psns[head], psn) <= 0)
        {
            head = (head + 1) & mask;
            outstanding--;
        }
    }

    /**
     * A resynchronisation: FETCH_ADDs at or before {@code executed} were executed; the responder dropped the rest, so
     * all credits come back.
     *
     * @param executed the last PSN the responder executed.
     */
    void resync(final int executed)
    {
        while (outstanding > 0)
        {
            if (Psn.compare(psns[head], executed) > 0)
            {
                outstanding = 0;
                break;
            }
            head = (head + 1) & mask;
            outstanding--;
        }
    }

    /**
     * A new responder QP: the old one's credits come back with it. FETCH_ADDs waiting for a credit stay.
     */
    void clear()
    {
        head = 0;
        outstanding = 0;
    }

    /**
     * @return FETCH_ADDs waiting for a credit.
     */
    int waiting()
    {
        return waitingCount;
    }

    /**
     * Queues a FETCH_ADD for a credit.
     *
     * @param address remote virtual address.
     * @param addend  value to add.
     * @param reports reports it carries.
     * @return false when the queue is full (nothing queued).
     */
    boolean enqueue(final long address, final long addend, final int reports)
    {
        if (waitingCount >= waitingCapacity)
        {
            return false;
        }
        final int i = (waitingHead + waitingCount) & waitingMask;
        waitingVa[i] = address;
        waitingAdd[i] = addend;
        waitingReports[i] = reports;
        waitingCount++;
        return true;
    }

    /**
     * Takes the oldest waiting FETCH_ADD out of the queue; its slot is read with {@link #waitingVa},
     * {@link #waitingAdd} and {@link #waitingReports} before the next {@link #enqueue}.
     *
     * @return its slot.
     */
    int takeWaiting()
    {
        final int i = waitingHead;
        waitingHead = (waitingHead + 1) & waitingMask;
        waitingCount--;
        return i;
    }

    long waitingVa(final int slot)
    {
        return waitingVa[slot];
    }

    long waitingAdd(final int slot)
    {
        return waitingAdd[slot];
    }

    int waitingReports(final int slot)
    {
        return waitingReports[slot];
    }
}
