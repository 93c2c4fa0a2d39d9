package io.dta.config;

/**
 * Grace period after a NAK PSN Sequence Error: the QP's non-essential reports are dropped while it lasts. A zero
 * field is disabled; both zero disables the grace period. When both are set the period ends as soon as either
 * bound is reached, so a quiet QP is never held paused waiting for a packet count (the reference's failure).
 *
 * @param graceMicros      length in time, default 1000, 0 = not time-bound.
 * @param gracePackets     number of reports to drop, default 0 = off (the reference used 100000).
 * @param maxRnrWaitMicros the longest pause an RNR NAK may impose on its QP, 0..655360, default
 *                         {@value #DEFAULT_MAX_RNR_WAIT_MICROS}: the RNR timer a responder names runs up to 655.36 ms,
 *                         which would stop the QP's non-essential traffic for that long.
 */
public record ResyncConfig(long graceMicros, long gracePackets, long maxRnrWaitMicros)
{
    /**
     * Default grace time.
     */
    public static final long DEFAULT_GRACE_MICROS = 1000;

    /**
     * Default grace packet count (off).
     */
    public static final long DEFAULT_GRACE_PACKETS = 0;

    /**
     * Default limit on an RNR NAK's pause.
     */
    public static final long DEFAULT_MAX_RNR_WAIT_MICROS = 10_000;

    /**
     * The longest RNR timer (code 0).
     */
    public static final long MAX_RNR_WAIT_MICROS = 655_360;

    /**
     * With the default RNR wait limit.
     *
     * @param graceMicros  see the record.
     * @param gracePackets see the record.
     */
    public ResyncConfig(final long graceMicros, final long gracePackets)
    {
        this(graceMicros, gracePackets, DEFAULT_MAX_RNR_WAIT_MICROS);
    }
}
