package io.dta.appliance.engine.primitive;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.codec.SketchColumnFlyweight;
import io.dta.config.SketchConfig;
import io.dta.config.SketchType;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The merged cells of one sketch's epoch areas (an int per cell, column-major as in collector memory; a Count
 * Sketch's as exact 64-bit sums) and, per column, how many switches contributed: the merge of a column by the
 * sketch's type, and the cells of a run of columns as the collector stores them.
 */
final class SketchCells
{
    private final SketchType type;
    private final int rows;
    private final int[][] cells;
    private final long[][] sums;
    private final int[][] contributions;
    private final EngineCounters counters;

    SketchCells(final SketchConfig config, final EngineCounters counters)
    {
        this.type = config.type();
        this.rows = config.rows();
        this.counters = counters;
        final int epochs = config.epochs();
        final int columns = config.columns();
        cells = new int[epochs][];
        sums = new long[epochs][];
        contributions = new int[epochs][];
        try
        {
            for (int a = 0; a < epochs; a++)
            {
                // Count sketch sums mix signs, so saturating step by step would depend on arrival order: they are
                // kept exact in 64 bits (256 switches x 2^31 cannot overflow) and clamped when written.
                if (SketchType.COUNT_SKETCH == type)
                {
                    sums[a] = new long[rows * columns];
                }
                else
                {
                    cells[a] = new int[rows * columns];
                }
                contributions[a] = new int[columns];
            }
        }
        catch (final OutOfMemoryError ex)
        {
            // Configuration keeps all sketches within SketchConfig.MAX_TRANSLATOR_STATE_BYTES; a JVM with a smaller
            // heap than that still cannot start: say what needs the memory and the remedy, not the JVM's bare error.
            throw new IllegalStateException("cannot allocate " + config.translatorStateBytes() + " bytes of heap for " +
                config.region().path() + "'s merge state (" + epochs + " epochs x " + columns + " columns x (" + rows +
                " rows x " + SketchConfig.translatorCellBytes(type) + " + " + SketchConfig.CELL_BYTES + ") bytes): " +
                "give the JVM a larger heap with DTA_JAVA_OPTS=-Xmx... or lower the sketch's epochs, rows or columns",
                ex);
        }
    }

    /**
     * Zeroes an area as its epoch opens (not at close, so columns nobody contributed to are written as zeros over
     * an older epoch).
     */
    void clear(final int area)
    {
        if (SketchType.COUNT_SKETCH == type)
        {
            Arrays.fill(sums[area], 0);
        }
        else
        {
            Arrays.fill(cells[area], 0);
        }
        Arrays.fill(contributions[area], 0);
    }

    /**
     * Counts one more switch in a column.
     *
     * @return the switches that contributed to it now.
     */
    int contribute(final int area, final int column)
    {
        return ++contributions[area][column];
    }

    /**
     * @return the switches that contributed to a column.
     */
    int contributors(final int area, final int column)
    {
        return contributions[area][column];
    }

    /**
     * @return the column reports merged into a run of columns.
     */
    int carried(final int area, final int firstColumn, final int count)
    {
        final int[] contributed = contributions[area];
        int carried = 0;
        for (int c = firstColumn, end = firstColumn + count; c < end; c++)
        {
            carried += contributed[c];
        }
        return carried;
    }

    /**
     * Merges a column into the area's cells from cell {@code at}: a Count-Min sums (unsigned, saturating), a Count
     * Sketch sums exactly, a HyperLogLog keeps each register's maximum.
     */
    void merge(final int area, final int at, final SketchColumnFlyweight column)
    {
        final int[] merged = cells[area];
        switch (type)
        {
            case COUNT_MIN ->
            {
                for (int r = 0; r < rows; r++)
                {
                    // Unsigned sum saturating at 2^32 - 1: a wrapped sum would make a Count-Min undercount.
                    final long sum = (merged[at + r] & 0xFFFF_FFFFL) + (column.counter(r) & 0xFFFF_FFFFL);
                    if (sum > 0xFFFF_FFFFL)
                    {
                        merged[at + r] = -1;
                        counters.increment(EngineCounter.SKETCH_CELLS_SATURATED);
                    }
                    else
                    {
                        merged[at + r] = (int)sum;
                    }
                }
            }
            case COUNT_SKETCH ->
            {
                final long[] exact = sums[area];
                for (int r = 0; r < rows; r++)
                {
                    exact[at + r] += column.counter(r);
                }
            }
            default ->
            {
                for (int r = 0; r < rows; r++)
                {
                    final int register = column.counter(r);
                    if (Integer.compareUnsigned(register, merged[at + r]) > 0)
                    {
                        merged[at + r] = register;
                    }
                }
            }
        }
    }

    /**
     * Puts the cells of a run of columns into {@code run} as the collector stores them (little-endian ints; a Count
     * Sketch's sums clamped to an int, counted as saturated when they do not fit).
     *
     * @return the run's bytes.
     */
    int encodeRun(final int area, final int firstColumn, final int count, final MutableDirectBuffer run)
    {
        final int from = firstColumn * rows;
        final int cellCount = count * rows;
        if (SketchType.COUNT_SKETCH == type)
        {
            final long[] exact = sums[area];
            for (int i = 0; i < cellCount; i++)
            {
                final long sum = exact[from + i];
                final int value = (int)Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, sum));
                if (value != sum)
                {
                    counters.increment(EngineCounter.SKETCH_CELLS_SATURATED);
                }
                run.putInt(i * SketchConfig.CELL_BYTES, value, ByteOrder.LITTLE_ENDIAN);
            }
        }
        else
        {
            final int[] merged = cells[area];
            for (int i = 0; i < cellCount; i++)
            {
                run.putInt(i * SketchConfig.CELL_BYTES, merged[from + i], ByteOrder.LITTLE_ENDIAN);
            }
        }
        return cellCount * SketchConfig.CELL_BYTES;
    }
}
