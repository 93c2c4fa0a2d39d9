package io.dta.config;

/**
 * Append batching, shared by every list.
 *
 * @param batchSize       entries per RDMA WRITE, one of 1, 2, 4, 8, 16; default 4.
 * @param idleFlushMicros a partial batch is written after this long without new entries, default 1000.
 */
public record AppendConfig(int batchSize, long idleFlushMicros)
{
    /**
     * Default batch size.
     */
    public static final int DEFAULT_BATCH_SIZE = 4;

    /**
     * Default idle flush.
     */
    public static final long DEFAULT_IDLE_FLUSH_MICROS = 1000;
}
