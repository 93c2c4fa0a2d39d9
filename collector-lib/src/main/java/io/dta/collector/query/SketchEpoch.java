package io.dta.collector.query;

import io.dta.config.SketchType;

/**
 * One epoch of a sketch as read from collector memory by {@link SketchQuery#read(long)}.
 *
 * @param type            sketch kind (from the configuration).
 * @param epoch           the epoch asked for.
 * @param state           what the read found.
 * @param rows            rows.
 * @param columns         columns.
 * @param switches        switches expected, from the header (0 when absent).
 * @param contributors    switches that sent every column, from the header.
 * @param completeColumns columns every switch contributed to, from the header.
 * @param contributorIds  the switches whose bitmap bit is set, ascending.
 * @param cells           the cells as raw 32-bit words, column-major like memory ({@code cells[c * rows + r]});
 *                        empty for {@link SketchEpochState#ABSENT} and {@link SketchEpochState#INVALID}.
 * @param areaEpoch       the epoch number the area's header holds (differs from {@code epoch} when absent).
 * @param areaState       the area header's state byte.
 * @param attempts        header-cells-header read attempts made.
 * @param problem         why the state is INVALID or TORN, else null.
 */
public record SketchEpoch(
    SketchType type,
    long epoch,
    SketchEpochState state,
    int rows,
    int columns,
    int switches,
    int contributors,
    long completeColumns,
    int[] contributorIds,
    int[] cells,
    long areaEpoch,
    int areaState,
    int attempts,
    String problem)
{
    /**
     * @return true when cells were read (every state but ABSENT and INVALID).
     */
    public boolean hasCells()
    {
        return cells.length == rows * columns && cells.length > 0;
    }

    /**
     * @return true when the epoch is {@link SketchEpochState#COMPLETE}.
     */
    public boolean complete()
    {
        return state == SketchEpochState.COMPLETE;
    }

    /**
     * A counter as a number: Count sketch cells are signed, Count-Min counters and HyperLogLog registers
     * unsigned.
     *
     * @param row    the row.
     * @param column the column.
     * @return the cell's value.
     */
    public long counter(final int row, final int column)
    {
        final int raw = cells[column * rows + row];
        return type == SketchType.COUNT_SKETCH ? raw : raw & 0xFFFF_FFFFL;
    }

    /**
     * @param row a row.
     * @return that row's counters, column 0 first.
     */
    public long[] row(final int row)
    {
        final long[] out = new long[columns];
        for (int c = 0; c < columns; c++)
        {
            out[c] = counter(row, c);
        }
        return out;
    }

    /**
     * @return the merged matrix, rows × columns ({@code matrix[r][c]}).
     */
    public long[][] matrix()
    {
        final long[][] out = new long[rows][];
        for (int r = 0; r < rows; r++)
        {
            out[r] = row(r);
        }
        return out;
    }
}
