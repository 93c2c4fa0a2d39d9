package io.dta.config;

/**
 * A Sketch-Merge sketch hosted by a collector. Memory holds {@code epochs} consecutive epoch areas, each a
 * {@link #EPOCH_HEADER_BYTES}-byte header followed by {@code columns} columns of {@code rows} 4-byte cells
 * (column-major, so a batch of whole columns is one contiguous WRITE).
 *
 * @param id                 sketch id, 0..{@link #MAX_ID}, unique within its collector.
 * @param type               sketch kind.
 * @param rows               rows, 1..{@link #MAX_ROWS} (HyperLogLog: exactly 1, default 1 for it).
 * @param columns            columns, a power of two, 1..{@link #MAX_COLUMNS}.
 * @param switches           reporting switches expected per column, 1..{@link #MAX_SWITCHES}, default 1.
 * @param batchColumns       completed columns per RDMA WRITE, a power of two not above columns, default
 *                           min(8, columns).
 * @param epochs             epoch areas in the ring, 1..{@link #MAX_EPOCHS}, default 2.
 * @param epochTimeoutMicros an epoch still incomplete after this long is closed with what it has, default
 *                           1000000.
 * @param nackRetryMicros    a switch whose column gap is still open this long after its NACK is NACKed again (the
 *                           NACK or the switch's resent columns may have been lost), the interval doubling with each
 *                           retry; 1..epochTimeoutMicros - 1, default {@link #defaultNackRetryMicros(long)}.
 * @param nackRetries        timer re-sends of a NACK before the gap is given up, 0..{@link #MAX_NACK_RETRIES}
 *                           (0: no timer re-sends), default {@link #DEFAULT_NACK_RETRIES}.
 * @param region             the region and its QP.
 */
public record SketchConfig(
    long id,
    SketchType type,
    int rows,
    int columns,
    int switches,
    int batchColumns,
    int epochs,
    long epochTimeoutMicros,
    long nackRetryMicros,
    int nackRetries,
    RegionConfig region)
{
    /**
     * Bytes of the header in front of every epoch area (epoch number, state, per-column contribution counts
     * summary; reserved to 64 so the cells stay cache-line aligned).
     */
    public static final int EPOCH_HEADER_BYTES = 64;

    /**
     * Bytes per cell (counter or register).
     */
    public static final int CELL_BYTES = 4;

    /**
     * Largest sketch id (16-bit in the Sketch-Merge sub-header).
     */
    public static final int MAX_ID = 0xFFFF;

    /**
     * Largest row count.
     */
    public static final int MAX_ROWS = 64;

    /**
     * Largest column count (the wire's column index is 16-bit).
     */
    public static final int MAX_COLUMNS = 1 << 16;

    /**
     * Largest epoch count.
     */
    public static final int MAX_EPOCHS = 1024;

    /**
     * Most switches per sketch: the epoch header's contributor bitmap has 256 bits.
     */
    public static final int MAX_SWITCHES = 256;

    /**
     * Default switches per column.
     */
    public static final int DEFAULT_SWITCHES = 1;

    /**
     * Default columns per WRITE (capped at the column count).
     */
    public static final int DEFAULT_BATCH_COLUMNS = 8;

    /**
     * Default epoch count (one being filled, one being read).
     */
    public static final int DEFAULT_EPOCHS = 2;

    /**
     * Default epoch timeout.
     */
    public static final long DEFAULT_EPOCH_TIMEOUT_MICROS = 1_000_000;

    /**
     * Default timer re-sends of a sketch NACK: with the default interval the fourth goes out at 15/32 of the epoch
     * timeout after the NACK, and the gap is given up at 31/32.
     */
    public static final int DEFAULT_NACK_RETRIES = 4;

    /**
     * Most timer re-sends of a sketch NACK (the interval doubles with each; 2^16 intervals outlast any epoch).
     */
    public static final int MAX_NACK_RETRIES = 16;

    /**
     * Most bytes of merge state the translator may hold for all sketches together (1 GiB, the order of the essential
     * rings' {@link EssentialConfig#MAX_RING_BYTES}): it preallocates every epoch area's cells on its heap, since
     * every area of the ring may hold an open epoch at once ({@link #translatorStateBytes()}).
     */
    public static final long MAX_TRANSLATOR_STATE_BYTES = 1L << 30;

    /**
     * Smallest epoch timeout: the NACK retry interval must be at least 1 us and below the timeout.
     */
    public static final long MIN_EPOCH_TIMEOUT_MICROS = 2;

    /**
     * The epoch timeout divided by this is the default NACK retry interval.
     */
    public static final int DEFAULT_NACK_RETRY_DIVISOR = 32;

    /**
     * A sketch with the other settings' defaults for the NACK retries ({@link #defaultNackRetryMicros(long)},
     * {@link #DEFAULT_NACK_RETRIES}).
     *
     * @param id                 see the record.
     * @param type               see the record.
     * @param rows               see the record.
     * @param columns            see the record.
     * @param switches           see the record.
     * @param batchColumns       see the record.
     * @param epochs             see the record.
     * @param epochTimeoutMicros see the record.
     * @param region             see the record.
     */
    public SketchConfig(
        final long id,
        final SketchType type,
        final int rows,
        final int columns,
        final int switches,
        final int batchColumns,
        final int epochs,
        final long epochTimeoutMicros,
        final RegionConfig region)
    {
        this(id, type, rows, columns, switches, batchColumns, epochs, epochTimeoutMicros,
            defaultNackRetryMicros(epochTimeoutMicros), DEFAULT_NACK_RETRIES, region);
    }

    /**
     * Default NACK retry interval for an epoch timeout: {@code max(1, epochTimeoutMicros / 32)}, so that the
     * default {@link #DEFAULT_NACK_RETRIES} doubling retries (at 1, 3, 7 and 15 intervals after the NACK, given up
     * at 31) all fall within the epoch timeout.
     *
     * @param epochTimeoutMicros the sketch's epoch timeout.
     * @return microseconds.
     */
    public static long defaultNackRetryMicros(final long epochTimeoutMicros)
    {
        return Math.max(1, epochTimeoutMicros / DEFAULT_NACK_RETRY_DIVISOR);
    }

    /**
     * Bytes the translator preallocates on its heap to merge this sketch: per epoch area, every cell (4 bytes; a
     * Count sketch keeps exact 8-byte sums) and a 4-byte contribution count per column.
     *
     * @return {@code epochs * columns * (rows * cellBytes + 4)}.
     */
    public long translatorStateBytes()
    {
        return (long)epochs * columns * ((long)rows * translatorCellBytes(type) + CELL_BYTES);
    }

    /**
     * Bytes the translator keeps per merged cell.
     *
     * @param type sketch type.
     * @return 8 for a Count sketch (exact signed sums, clamped when written), else 4.
     */
    public static int translatorCellBytes(final SketchType type)
    {
        return SketchType.COUNT_SKETCH == type ? 2 * CELL_BYTES : CELL_BYTES;
    }

    /**
     * Bytes of one run of completed columns, the payload of one column WRITE.
     *
     * @return {@code batchColumns * rows * 4}.
     */
    public long runBytes()
    {
        return (long)batchColumns * rows * CELL_BYTES;
    }

    /**
     * Bytes of one epoch area.
     *
     * @return {@code 64 + rows * columns * 4}.
     */
    public long epochBytes()
    {
        return epochBytes(rows, columns);
    }

    /**
     * Bytes of one epoch area for a shape.
     *
     * @param rows    rows.
     * @param columns columns.
     * @return {@code 64 + rows * columns * 4}.
     */
    public static long epochBytes(final int rows, final int columns)
    {
        return EPOCH_HEADER_BYTES + (long)rows * columns * CELL_BYTES;
    }
}
