package io.dta.config;

/**
 * Grace period after a NAK PSN Sequence Error: the QP's non-essential reports are dropped while it lasts. A zero
 * field is disabled; both zero disables the grace period. When both are set the period ends as soon as either
 * bound is reached, so a quiet QP is never held paused waiting for a packet count (the reference's failure).
 *
 * @param graceMicros  length in time, default 1000, 0 = not time-bound.
 * @param gracePackets number of reports to drop, default 0 = off (the reference used 100000).
 */
public record ResyncConfig(long graceMicros, long gracePackets)
{
    /**
     * Default grace time.
     */
    public static final long DEFAULT_GRACE_MICROS = 1000;

    /**
     * Default grace packet count (off).
     */
    public static final long DEFAULT_GRACE_PACKETS = 0;
}
