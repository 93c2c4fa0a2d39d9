package io.dta.config;

/**
 * Acknowledgement requests and loss detection on the collector QPs.
 *
 * @param requestInterval AckReq is set on every n-th packet of a QP, 1..65536, default 64.
 * @param timeoutMicros   an AckReq'd PSN not acknowledged within this long triggers a probe, default 500.
 */
public record AcksConfig(int requestInterval, long timeoutMicros)
{
    /**
     * Default AckReq interval.
     */
    public static final int DEFAULT_REQUEST_INTERVAL = 64;

    /**
     * Default ACK timeout.
     */
    public static final long DEFAULT_TIMEOUT_MICROS = 500;
}
