package io.dta.config;

/**
 * Postcard aggregation, shared by every postcard store.
 *
 * @param hops            hops per path H, 1..{@link #MAX_HOPS}, default 5.
 * @param idleFlushMicros a flow's partial record is written after this long without a new postcard, default 1000.
 * @param cacheEntries    flows the translator aggregates at once per postcard store (a direct-mapped cache: a flow
 *                        whose entry another flow takes is written early, partial), a power of two
 *                        1..{@link #MAX_CACHE_ENTRIES}, default {@link #DEFAULT_CACHE_ENTRIES}.
 */
public record PostcardsConfig(int hops, long idleFlushMicros, int cacheEntries)
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

    /**
     * Default cache size: enough for a few thousand concurrent flows per store (about 200 KB with 6 hops).
     */
    public static final int DEFAULT_CACHE_ENTRIES = 4096;

    /**
     * Largest cache: 2^20 flows, about 50 MB of heap per postcard store with 6 hops, preallocated at start.
     */
    public static final int MAX_CACHE_ENTRIES = 1 << 20;

    /**
     * The settings with the default cache size.
     *
     * @param hops            hops per path.
     * @param idleFlushMicros idle flush of a partial record.
     */
    public PostcardsConfig(final int hops, final long idleFlushMicros)
    {
        this(hops, idleFlushMicros, DEFAULT_CACHE_ENTRIES);
    }
}
