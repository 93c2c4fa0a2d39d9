package io.dta.appliance.engine;

/**
 * Lets a repeated log line through at most once per interval of the engine clock, counting the ones held back so
 * the next line that passes can say how many there were. Never on the per-report path: for rare events whose
 * repetition (a misbehaving peer) must not flood stderr.
 */
final class LogLimiter
{
    /** One line per second. */
    static final long DEFAULT_INTERVAL_NANOS = 1_000_000_000L;

    private final long intervalNanos;
    private boolean logged;
    private long lastNanos;
    private long suppressed;

    /**
     * @param intervalNanos the shortest time between two lines.
     */
    LogLimiter(final long intervalNanos)
    {
        this.intervalNanos = intervalNanos;
    }

    /**
     * @param nowNanos engine clock.
     * @return true when a line may be printed now; false when it is held back (and counted).
     */
    boolean allow(final long nowNanos)
    {
        if (logged && nowNanos - lastNanos < intervalNanos)
        {
            suppressed++;
            return false;
        }
        logged = true;
        lastNanos = nowNanos;
        return true;
    }

    /**
     * @return lines held back since the last one that passed; resets the count.
     */
    long takeSuppressed()
    {
        final long n = suppressed;
        suppressed = 0;
        return n;
    }
}
