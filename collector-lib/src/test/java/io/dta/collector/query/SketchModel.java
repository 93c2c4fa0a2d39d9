package io.dta.collector.query;

import io.dta.config.SketchType;

import java.util.zip.CRC32;

/**
 * An independent sketch model for tests: hashes with {@link java.util.zip.CRC32} straight from docs/sketch.md
 * (not {@code KeyHash}), cells column-major as in collector memory.
 */
final class SketchModel
{
    private SketchModel()
    {
    }

    static long crc(final long key, final int last)
    {
        final CRC32 crc = new CRC32();
        crc.update(new byte[]{ (byte)key, (byte)(key >>> 8), (byte)(key >>> 16), (byte)(key >>> 24), (byte)last });
        return crc.getValue();
    }

    static int column(final long key, final int row, final int columns)
    {
        return (int)(crc(key, row) & (columns - 1));
    }

    static int sign(final long key, final int row)
    {
        return (crc(key, 0x80 | row) & 1) == 0 ? 1 : -1;
    }

    static long hllHash(final long key)
    {
        return crc(key, 0xFE) << 32 | crc(key, 0xFF);
    }

    static void add(final SketchType type, final int rows, final int columns, final int[] cells, final long key)
    {
        switch (type)
        {
            case COUNT_MIN ->
            {
                for (int r = 0; r < rows; r++)
                {
                    cells[column(key, r, columns) * rows + r]++;
                }
            }
            case COUNT_SKETCH ->
            {
                for (int r = 0; r < rows; r++)
                {
                    cells[column(key, r, columns) * rows + r] += sign(key, r);
                }
            }
            case HYPERLOGLOG ->
            {
                final long h = hllHash(key);
                final int p = Integer.numberOfTrailingZeros(columns);
                final int register = p == 0 ? 0 : (int)(h >>> (64 - p));
                // The bits after the index, counted one by one (no shortcut shared with the code under test).
                int rank = 1;
                for (int bit = 63 - p; bit >= 0 && ((h >>> bit) & 1) == 0; bit--)
                {
                    rank++;
                }
                cells[register] = Math.max(cells[register], rank);
            }
        }
    }
}
