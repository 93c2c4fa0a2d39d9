package io.dta.config;

/**
 * The data plane's workers: shared-nothing engines, one per core, each with its own receive queue on the reports
 * port, its own transmit queue on the collector port and its own queue pair to every region.
 *
 * @param count             workers, 1..{@link #MAX_WORKERS}, default 1.
 * @param handOffQueueBytes capacity of each hand-off queue between two workers (a report of an Append list, a
 *                          postcard flow or a sketch that another worker owns, or a response to another worker's QP,
 *                          crosses one), a power of two from {@link #MIN_HAND_OFF_QUEUE_BYTES} to
 *                          {@link #MAX_HAND_OFF_QUEUE_BYTES}, default {@link #DEFAULT_HAND_OFF_QUEUE_BYTES}; a full
 *                          queue drops the frame and counts it.
 */
public record WorkersConfig(int count, int handOffQueueBytes)
{
    /** Most workers. */
    public static final int MAX_WORKERS = 64;
    /** Smallest hand-off queue. */
    public static final int MIN_HAND_OFF_QUEUE_BYTES = 1 << 12;
    /** Largest hand-off queue. */
    public static final int MAX_HAND_OFF_QUEUE_BYTES = 1 << 26;
    /** Default hand-off queue: 1 MiB, about 8,000 frames of 128 bytes. */
    public static final int DEFAULT_HAND_OFF_QUEUE_BYTES = 1 << 20;
    /** One worker with the default queue size. */
    public static final WorkersConfig DEFAULT = new WorkersConfig(1, DEFAULT_HAND_OFF_QUEUE_BYTES);

    /**
     * @param count workers.
     * @return the same settings for {@code count} workers.
     */
    public WorkersConfig withCount(final int count)
    {
        return new WorkersConfig(count, handOffQueueBytes);
    }
}
