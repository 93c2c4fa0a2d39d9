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
 */
public record ConnectionConfig(int cmResponseTimeout, int maxCmRetries, int localAckTimeout, int retryCount)
{
    /** Default CM response timeout exponent. */
    public static final int DEFAULT_CM_RESPONSE_TIMEOUT = 16;
    /** Default max CM retries. */
    public static final int DEFAULT_MAX_CM_RETRIES = 7;
    /** Default local ACK timeout exponent. */
    public static final int DEFAULT_LOCAL_ACK_TIMEOUT = 14;
    /** Default transport retry count. */
    public static final int DEFAULT_RETRY_COUNT = 7;
    /** The defaults. */
    public static final ConnectionConfig DEFAULT = new ConnectionConfig(
        DEFAULT_CM_RESPONSE_TIMEOUT, DEFAULT_MAX_CM_RETRIES, DEFAULT_LOCAL_ACK_TIMEOUT, DEFAULT_RETRY_COUNT);

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
}
