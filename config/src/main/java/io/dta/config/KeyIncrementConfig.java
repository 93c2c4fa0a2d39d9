package io.dta.config;

/**
 * Key-Increment counter store of a collector.
 *
 * @param region                the region and its QP; 8-byte counters.
 * @param maxOutstandingAtomics unanswered FETCH_ADDs allowed on the QP, 1..255, default 16.
 * @param atomicQueueSize       reports waiting for an atomic credit, 1..2^20, default 1024; overflow drops and
 *                              counts.
 */
public record KeyIncrementConfig(RegionConfig region, int maxOutstandingAtomics, int atomicQueueSize)
{
    /**
     * Bytes per counter.
     */
    public static final int COUNTER_BYTES = 8;

    /**
     * Default outstanding atomics (what common RNICs grant as responder resources).
     */
    public static final int DEFAULT_MAX_OUTSTANDING_ATOMICS = 16;

    /**
     * Largest outstanding atomics (the 8-bit limit of the CM's responder resources).
     */
    public static final int MAX_OUTSTANDING_ATOMICS = 255;

    /**
     * Default waiting queue size.
     */
    public static final int DEFAULT_ATOMIC_QUEUE_SIZE = 1024;

    /**
     * Largest waiting queue size.
     */
    public static final int MAX_ATOMIC_QUEUE_SIZE = 1 << 20;

    /**
     * Number of counters, a power of two.
     *
     * @return {@code length / 8}.
     */
    public long slots()
    {
        return region.length() / COUNTER_BYTES;
    }
}
