package io.dta.collector.layout;

import io.dta.codec.KeyHash;
import io.dta.config.SketchConfig;
import io.dta.config.SketchType;

/**
 * The Sketch-Merge region (docs/sketch.md, "Collector memory"): {@code epochs} epoch areas back to back, epoch E in
 * area {@code E mod epochs}; each area a {@value #HEADER_LENGTH}-byte header ({@link SketchEpochHeader}) followed
 * by {@code columns} columns of {@code rows} little-endian 4-byte cells, column-major: cell (r, c) at
 * {@code 64 + (c × rows + r) × 4}, so a run of whole columns is one contiguous WRITE.
 * <p>
 * Also the hashes that reporters use and point queries assume (LE(key) = the key's 4 bytes little-endian):
 * Count-Min / Count sketch row r uses column {@code CRC32(LE(key) ‖ r) & (columns − 1)}; the Count sketch sign of
 * row r is +1 when {@code CRC32(LE(key) ‖ (0x80 | r))} is even, else −1; HyperLogLog uses
 * {@code h = CRC32(LE(key) ‖ 0xFE) << 32 | CRC32(LE(key) ‖ 0xFF)}, register = top log2(columns) bits of h, rank =
 * leading zeros of the remaining bits + 1.
 */
public final class SketchLayout
{
    /** Bytes of the header in front of every epoch area. */
    public static final int HEADER_LENGTH = SketchConfig.EPOCH_HEADER_BYTES;

    /** Bytes per cell. */
    public static final int CELL_LENGTH = SketchConfig.CELL_BYTES;

    /** Header state: the area was never written. */
    public static final int STATE_EMPTY = 0;

    /** Header state: the epoch is being written; its cells are not yet trustworthy. */
    public static final int STATE_OPEN = 1;

    /** Header state: every switch sent every column. */
    public static final int STATE_COMPLETE = 2;

    /** Header state: closed by timeout or by a newer epoch needing the area. */
    public static final int STATE_INCOMPLETE = 3;

    /** Header type code of Count-Min. */
    public static final int TYPE_COUNT_MIN = 1;

    /** Header type code of the Count sketch. */
    public static final int TYPE_COUNT_SKETCH = 2;

    /** Header type code of HyperLogLog. */
    public static final int TYPE_HYPERLOGLOG = 3;

    /** Byte added to the row to get the Count sketch sign hash's last byte. */
    public static final int SIGN_HASH_BASE = 0x80;

    /** Last byte of the high half of the HyperLogLog hash. */
    public static final int HLL_HASH_HIGH = 0xFE;

    /** Last byte of the low half of the HyperLogLog hash. */
    public static final int HLL_HASH_LOW = 0xFF;

    private final SketchType type;
    private final int rows;
    private final int columns;
    private final int epochs;
    private final int columnBits;

    /**
     * @param type    sketch kind.
     * @param rows    rows (1 for HyperLogLog).
     * @param columns columns, a power of two.
     * @param epochs  epoch areas in the ring.
     */
    public SketchLayout(final SketchType type, final int rows, final int columns, final int epochs)
    {
        if (rows < 1 || rows > SketchConfig.MAX_ROWS || columns < 1 || columns > SketchConfig.MAX_COLUMNS ||
            Integer.bitCount(columns) != 1 || epochs < 1 || epochs > SketchConfig.MAX_EPOCHS)
        {
            throw new IllegalArgumentException("bad sketch shape: rows " + rows + ", columns " + columns +
                ", epochs " + epochs);
        }
        this.type = type;
        this.rows = rows;
        this.columns = columns;
        this.epochs = epochs;
        this.columnBits = Integer.numberOfTrailingZeros(columns);
    }

    /**
     * @param sketch a configured sketch.
     * @return its layout.
     */
    public static SketchLayout of(final SketchConfig sketch)
    {
        return new SketchLayout(sketch.type(), sketch.rows(), sketch.columns(), sketch.epochs());
    }

    /**
     * @return sketch kind.
     */
    public SketchType type()
    {
        return type;
    }

    /**
     * @return rows.
     */
    public int rows()
    {
        return rows;
    }

    /**
     * @return columns.
     */
    public int columns()
    {
        return columns;
    }

    /**
     * @return epoch areas in the ring.
     */
    public int epochs()
    {
        return epochs;
    }

    /**
     * @return bytes of one epoch area: header plus cells.
     */
    public long epochBytes()
    {
        return SketchConfig.epochBytes(rows, columns);
    }

    /**
     * @return bytes the whole ring needs.
     */
    public long regionBytes()
    {
        return epochs * epochBytes();
    }

    /**
     * @param epoch an epoch number (u32).
     * @return its area index, {@code epoch mod epochs}.
     */
    public int area(final long epoch)
    {
        return (int)((epoch & 0xFFFF_FFFFL) % epochs);
    }

    /**
     * @param epoch an epoch number.
     * @return offset of its area's header from the region base.
     */
    public long areaOffset(final long epoch)
    {
        return area(epoch) * epochBytes();
    }

    /**
     * @param column a column.
     * @param row    a row.
     * @return offset of cell (row, column) from the start of an epoch area.
     */
    public long cellOffset(final int column, final int row)
    {
        return HEADER_LENGTH + ((long)column * rows + row) * CELL_LENGTH;
    }

    /**
     * @param epoch  an epoch number.
     * @param column a column.
     * @param row    a row.
     * @return offset of the epoch's cell (row, column) from the region base.
     */
    public long cellOffset(final long epoch, final int column, final int row)
    {
        return areaOffset(epoch) + cellOffset(column, row);
    }

    /**
     * @param type a sketch kind.
     * @return its header type code (1, 2, 3).
     */
    public static int typeCode(final SketchType type)
    {
        return switch (type)
        {
            case COUNT_MIN -> TYPE_COUNT_MIN;
            case COUNT_SKETCH -> TYPE_COUNT_SKETCH;
            case HYPERLOGLOG -> TYPE_HYPERLOGLOG;
        };
    }

    /**
     * @param code a header type code.
     * @return the kind, or null for an unknown code.
     */
    public static SketchType typeOf(final int code)
    {
        return switch (code)
        {
            case TYPE_COUNT_MIN -> SketchType.COUNT_MIN;
            case TYPE_COUNT_SKETCH -> SketchType.COUNT_SKETCH;
            case TYPE_HYPERLOGLOG -> SketchType.HYPERLOGLOG;
            default -> null;
        };
    }

    // ---------------------------------------------------------------------------------------------------------
    // Hashes.

    /**
     * Count-Min / Count sketch column of a key in a row.
     *
     * @param hash    a (per-thread) key hash.
     * @param key     the key (u32).
     * @param row     the row, 0..63.
     * @param columns columns, a power of two.
     * @return {@code CRC32(LE(key) ‖ row) & (columns − 1)}.
     */
    public static int column(final KeyHash hash, final long key, final int row, final int columns)
    {
        return hash.slotIndex(key & 0xFFFF_FFFFL, row, columns);
    }

    /**
     * Count sketch sign of a key in a row.
     *
     * @param hash a key hash.
     * @param key  the key.
     * @param row  the row, 0..63 (the hash byte is {@code 0x80 | row}).
     * @return +1 when {@code CRC32(LE(key) ‖ (0x80 | row))} is even, else −1.
     */
    public static int sign(final KeyHash hash, final long key, final int row)
    {
        return 0 == (hash.slotHash(key & 0xFFFF_FFFFL, SIGN_HASH_BASE | row) & 1) ? 1 : -1;
    }

    /**
     * HyperLogLog's 64-bit hash of a key.
     *
     * @param hash a key hash.
     * @param key  the key.
     * @return {@code CRC32(LE(key) ‖ 0xFE) << 32 | CRC32(LE(key) ‖ 0xFF)}.
     */
    public static long hllHash(final KeyHash hash, final long key)
    {
        final long k = key & 0xFFFF_FFFFL;
        return hash.slotHash(k, HLL_HASH_HIGH) << 32 | hash.slotHash(k, HLL_HASH_LOW);
    }

    /**
     * @param h       a HyperLogLog hash.
     * @param columns registers, a power of two.
     * @return the register: the top log2(columns) bits of h (0 when there is one register).
     */
    public static int hllRegister(final long h, final int columns)
    {
        final int p = Integer.numberOfTrailingZeros(columns);
        return 0 == p ? 0 : (int)(h >>> (64 - p));
    }

    /**
     * @param h       a HyperLogLog hash.
     * @param columns registers, a power of two.
     * @return leading zeros of the remaining {@code 64 − log2(columns)} bits, plus 1 (at most 65 − log2(columns),
     * when those bits are all zero).
     */
    public static int hllRank(final long h, final int columns)
    {
        final int p = Integer.numberOfTrailingZeros(columns);
        final long rest = h << p;
        return 0 == rest ? 64 - p + 1 : Long.numberOfLeadingZeros(rest) + 1;
    }

    /**
     * @return log2(columns).
     */
    public int columnBits()
    {
        return columnBits;
    }

    @Override
    public String toString()
    {
        return "SketchLayout{" + type.text() + ", rows=" + rows + ", columns=" + columns + ", epochs=" + epochs + '}';
    }
}
