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
