package io.dta.config;

/**
 * Timing of negotiated connection set-up (translation.md §8), advertised in the appliance's CM REQ and used by
 * both sides. Timeouts are IBA exponents: {@code 4.096 µs × 2^value}.
 *
 * @param cmResponseTimeout CM response timeout exponent, 0..31, default 16 (268 ms): how long a CM message waits
 *                          for its answer before it is sent again.
 * @param maxCmRetries      how often an unanswered CM message (REQ, RTU, REP) is sent again, 0..15, default 7.
 * @param localAckTimeout   transport ACK timeout exponent, 0..31, default 14 (67 ms): how long the collector waits
 *                          for the ACK of its metadata SEND.
 * @param retryCount        how often the collector re-sends the unacknowledged metadata SEND, 0..7, default 7.
 * @param reconnectAttempts how often the appliance tries to connect a negotiated region again, in a row without
 *                          progress, after its QP went to the error state (a fatal NAK), 0..1000, default 5; 0
 *                          leaves such a QP in the error state as a static region's.
 * @param reconnectBackoffMillis wait before the second attempt in a row, doubled for every further one (at most
 *                          64 times), 1..60000, default 100; the first attempt starts at once.
 * @param silenceTimeoutMillis how long a negotiated region's collector may leave every probe unanswered before its
 *                          QP is taken for dead (a QP that died without a NAK: a restarted collector, a reset
 *                          NIC) and treated as in the error state, hence reconnected; 0..3600000, default 100; 0:
 *                          probe for ever, as for a static region.
 */
public record ConnectionConfig(
    int cmResponseTimeout,
    int maxCmRetries,
    int localAckTimeout,
    int retryCount,
    int reconnectAttempts,
    long reconnectBackoffMillis,
    long silenceTimeoutMillis)
{
    /** Default CM response timeout exponent. */
    public static final int DEFAULT_CM_RESPONSE_TIMEOUT = 16;
    /** Default max CM retries. */
    public static final int DEFAULT_MAX_CM_RETRIES = 7;
    /** Default local ACK timeout exponent. */
    public static final int DEFAULT_LOCAL_ACK_TIMEOUT = 14;
    /** Default transport retry count. */
    public static final int DEFAULT_RETRY_COUNT = 7;
    /** Default reconnection attempts in a row. */
    public static final int DEFAULT_RECONNECT_ATTEMPTS = 5;
    /** Default first back-off between reconnection attempts. */
    public static final long DEFAULT_RECONNECT_BACKOFF_MILLIS = 100;
    /** Default silence after which a negotiated region's QP is taken for dead. */
    public static final long DEFAULT_SILENCE_TIMEOUT_MILLIS = 100;
    /** The back-off doubles up to this factor of {@code reconnectBackoffMillis}. */
    public static final int MAX_BACKOFF_FACTOR = 64;
    /** The defaults. */
    public static final ConnectionConfig DEFAULT = new ConnectionConfig(
        DEFAULT_CM_RESPONSE_TIMEOUT, DEFAULT_MAX_CM_RETRIES, DEFAULT_LOCAL_ACK_TIMEOUT, DEFAULT_RETRY_COUNT);

    /**
     * The set-up timing with the default reconnection policy.
     *
     * @param cmResponseTimeout CM response timeout exponent.
     * @param maxCmRetries      max CM retries.
     * @param localAckTimeout   local ACK timeout exponent.
     * @param retryCount        transport retry count.
     */
    public ConnectionConfig(
        final int cmResponseTimeout, final int maxCmRetries, final int localAckTimeout, final int retryCount)
    {
        this(cmResponseTimeout, maxCmRetries, localAckTimeout, retryCount, DEFAULT_RECONNECT_ATTEMPTS,
            DEFAULT_RECONNECT_BACKOFF_MILLIS, DEFAULT_SILENCE_TIMEOUT_MILLIS);
    }

    /**
     * @return {@link #silenceTimeoutMillis()} in nanoseconds (0: never).
     */
    public long silenceTimeoutNanos()
    {
        return silenceTimeoutMillis * 1_000_000L;
    }

    /**
     * @param exponent an IBA timeout exponent.
     * @return {@code 4096 ns × 2^exponent}.
     */
    public static long nanos(final int exponent)
    {
        return 4096L << exponent;
    }

    /**
     * @return the CM response timeout in nanoseconds.
     */
    public long cmResponseTimeoutNanos()
    {
        return nanos(cmResponseTimeout);
    }

    /**
     * @return the local ACK timeout in nanoseconds.
     */
    public long localAckTimeoutNanos()
    {
        return nanos(localAckTimeout);
    }

    /**
     * The wait before a reconnection attempt.
     *
     * @param failuresInARow attempts in a row that made no progress so far (0 for the first attempt).
     * @return 0 for the first attempt, then {@code reconnectBackoffMillis × 2^(failuresInARow - 1)} (capped at
     * {@link #MAX_BACKOFF_FACTOR} times) in nanoseconds.
     */
    public long reconnectBackoffNanos(final int failuresInARow)
    {
        if (failuresInARow <= 0)
        {
            return 0;
        }
        final long factor = Math.min(MAX_BACKOFF_FACTOR, 1L << Math.min(30, failuresInARow - 1));
        return reconnectBackoffMillis * factor * 1_000_000L;
    }
}
