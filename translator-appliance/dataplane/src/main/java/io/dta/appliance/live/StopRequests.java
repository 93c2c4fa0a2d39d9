package io.dta.appliance.live;

import java.util.concurrent.TimeUnit;

/**
 * The data plane's stop requests and its first failure, written from any thread (a signal handler, a watcher) and
 * read by the agent's duty cycle. The first request drains; a second one stops at once (the drain and the closing
 * exchange cut short). A repeat within {@link #REPEAT_IGNORED_NANOS} of the first is the same stop delivered twice,
 * not a second one: GNU {@code timeout} signals the child and then its process group, so one {@code timeout -s INT}
 * arrives as two signals. A failure also asks for a stop; the first failure is the one kept.
 */
final class StopRequests
{
    /** A stop request this soon after the first is the same stop delivered twice. */
    static final long REPEAT_IGNORED_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private volatile boolean requested;
    private volatile boolean atOnce;
    private volatile long firstNanos;
    private volatile Throwable failure;

    /**
     * A stop request.
     *
     * @param nowNanos {@link System#nanoTime()} when it came.
     */
    void request(final long nowNanos)
    {
        if (requested)
        {
            if (nowNanos - firstNanos >= REPEAT_IGNORED_NANOS)
            {
                atOnce = true;
            }
            return;
        }
        firstNanos = nowNanos;
        requested = true;
    }

    /**
     * Records a failure (the first one wins) and requests a stop.
     *
     * @param error what went wrong.
     */
    void fail(final Throwable error)
    {
        if (null == failure)
        {
            failure = error;
        }
        requested = true;
    }

    /**
     * @return whether a stop was requested (or a failure recorded).
     */
    boolean requested()
    {
        return requested;
    }

    /**
     * @return whether a second request asked to stop at once.
     */
    boolean atOnce()
    {
        return atOnce;
    }

    /**
     * @return the first failure, or null.
     */
    Throwable failure()
    {
        return failure;
    }
}
