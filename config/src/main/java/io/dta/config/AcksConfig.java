package io.dta.config;

/**
 * Acknowledgement requests and loss detection on the collector QPs.
 *
 * @param requestInterval AckReq is set on every n-th packet of a QP, 1..65536, default 64.
 * @param timeoutMicros   an AckReq'd PSN not acknowledged within this long triggers a probe, default 500.
 * @param window          packets a QP may have sent and not yet acknowledged before its essential operations wait
 *                        for acknowledgements, 1..{@value #MAX_WINDOW}, default {@value #DEFAULT_WINDOW}: a loss
 *                        costs at most this many re-sends, and a QP's essential throughput is at most
 *                        {@code window / round-trip time} (256 packets over a 20 µs round trip: 12.8 M/s).
 */
public record AcksConfig(int requestInterval, long timeoutMicros, int window)
{
    /**
     * Default AckReq interval.
     */
    public static final int DEFAULT_REQUEST_INTERVAL = 64;

    /**
     * Default ACK timeout.
     */
    public static final long DEFAULT_TIMEOUT_MICROS = 500;

    /**
     * Default window of unacknowledged packets.
     */
    public static final int DEFAULT_WINDOW = 256;

    /**
     * Largest window: half the 24-bit PSN space less one, so every PSN in flight compares unambiguously.
     */
    public static final int MAX_WINDOW = (1 << 22);

    /**
     * With the default window.
     *
     * @param requestInterval see the record.
     * @param timeoutMicros   see the record.
     */
    public AcksConfig(final int requestInterval, final long timeoutMicros)
    {
        this(requestInterval, timeoutMicros, DEFAULT_WINDOW);
    }
}
