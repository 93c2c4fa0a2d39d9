package io.dta.config;

/**
 * Postcard aggregation, shared by every postcard store.
 *
 * @param hops            hops per path H, 1..{@link #MAX_HOPS}, default 5.
 * @param idleFlushMicros a flow's partial record is written after this long without a new postcard, default 1000.
 */
public record PostcardsConfig(int hops, long idleFlushMicros)
{
    /**
     * Default hop count.
     */
    public static final int DEFAULT_HOPS = 5;

    /**
     * Largest hop count: a 32-byte slot holds two 4-byte words of bookkeeping (flow checksum, hop presence)
     * and up to six 4-byte hop values.
     */
    public static final int MAX_HOPS = 6;

    /**
     * Default idle flush.
     */
    public static final long DEFAULT_IDLE_FLUSH_MICROS = 1000;
}
