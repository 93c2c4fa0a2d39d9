package io.dta.appliance.demo;

/**
 * The demo's virtual time: it only moves forward, from one event to the next; it remembers whether the timers ran
 * at the current time (so that one still due then waits for the next event rather than stopping the clock) and when
 * the first report came.
 */
final class VirtualClock
{
    /** Further than any timer: about 73 years, so that "now" plus it cannot overflow. */
    private static final long FAR_NANOS = Long.MAX_VALUE / 4;

    private long now;
    private boolean timersCurrent;
    private long firstReportNanos = Long.MIN_VALUE;

    /**
     * @return the current virtual time, in nanoseconds.
     */
    long now()
    {
        return now;
    }

    /**
     * @param t a time; the clock moves there when it is later than now (the timers are then no longer current).
     */
    void moveTo(final long t)
    {
        if (t > now)
        {
            now = t;
            timersCurrent = false;
        }
    }

    /**
     * The timers ran at the current time.
     */
    void timersRan()
    {
        timersCurrent = true;
    }

    /**
     * @return a limit for the engine's timers this side of overflow (it compares times by their difference).
     */
    long far()
    {
        return now + FAR_NANOS;
    }

    /**
     * @param next the earliest deadline of every timer.
     * @return it, or {@link Long#MAX_VALUE} for one due now when the timers already ran now.
     */
    long pending(final long next)
    {
        return timersCurrent && next <= now ? Long.MAX_VALUE : next;
    }

    /**
     * @param t the time of a report; the first one's is remembered.
     */
    void report(final long t)
    {
        if (Long.MIN_VALUE == firstReportNanos)
        {
            firstReportNanos = t;
        }
    }

    /**
     * @return virtual time from the first report to now (0 before any).
     */
    long sinceFirstReport()
    {
        return Long.MIN_VALUE == firstReportNanos ? 0 : now - firstReportNanos;
    }
}
