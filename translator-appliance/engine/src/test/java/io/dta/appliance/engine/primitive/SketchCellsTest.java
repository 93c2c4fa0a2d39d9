package io.dta.appliance.engine.primitive;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.codec.SketchColumnFlyweight;
import io.dta.config.RegionConfig;
import io.dta.config.SketchConfig;
import io.dta.config.SketchType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The merge of columns per sketch type, against a plain computation of the same cells.
 */
class SketchCellsTest
{
    private static final int ROWS = 3;
    private static final int COLUMNS = 4;
    private static final int EPOCHS = 2;

    private static SketchConfig config(final SketchType type)
    {
        return new SketchConfig(7, type, ROWS, COLUMNS, 4, 2, EPOCHS, 1_000,
            new RegionConfig("collectors[0].sketches[0]", 0x600, 0x700, 0x1234, 0x10000,
                EPOCHS * (SketchConfig.EPOCH_HEADER_BYTES + ROWS * COLUMNS * 4L), 0, 49152));
    }

    private static SketchColumnFlyweight column(final int[] counters)
    {
        final UnsafeBuffer b = new UnsafeBuffer(new byte[SketchColumnFlyweight.length(ROWS)]);
        final SketchColumnFlyweight column = new SketchColumnFlyweight().wrap(b, 0);
        column.rows(ROWS);
        for (int r = 0; r < ROWS; r++)
        {
            column.counter(r, counters[r]);
        }
        return column;
    }

    private static int[] cells(final SketchCells cells, final int area)
    {
        final UnsafeBuffer run = new UnsafeBuffer(new byte[ROWS * COLUMNS * SketchConfig.CELL_BYTES]);
        assertEquals(run.capacity(), cells.encodeRun(area, 0, COLUMNS, run));
        final int[] out = new int[ROWS * COLUMNS];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = run.getInt(i * SketchConfig.CELL_BYTES, ByteOrder.LITTLE_ENDIAN);
        }
        return out;
    }

    @Test
    void shouldMergeEachTypeAsAPlainComputationDoes()
    {
        final SplittableRandom random = new SplittableRandom(0x5CE7C4);
        for (final SketchType type : SketchType.values())
        {
            final EngineCounters counters = new EngineCounters();
            final SketchCells cells = new SketchCells(config(type), counters);
            final long[] expected = new long[ROWS * COLUMNS];
            long saturated = 0;
            for (int report = 0; report < 200; report++)
            {
                final int c = random.nextInt(COLUMNS);
                final int[] values = new int[ROWS];
                for (int r = 0; r < ROWS; r++)
                {
                    // Large values, so that sums saturate and signs mix.
                    values[r] = random.nextInt() | (random.nextBoolean() ? 0x4000_0000 : 0);
                    final int at = c * ROWS + r;
                    switch (type)
                    {
                        case COUNT_MIN ->
                        {
                            final long sum = expected[at] + (values[r] & 0xFFFF_FFFFL);
                            saturated += sum > 0xFFFF_FFFFL ? 1 : 0;
                            expected[at] = Math.min(sum, 0xFFFF_FFFFL);
                        }
                        case COUNT_SKETCH -> expected[at] += values[r];
                        default -> expected[at] = Math.max(expected[at], values[r] & 0xFFFF_FFFFL);
                    }
                }
                cells.merge(1, c * ROWS, column(values));
            }
            final int[] merged = cells(cells, 1);
            long clamped = 0;
            for (int i = 0; i < merged.length; i++)
            {
                final long want = SketchType.COUNT_SKETCH == type ?
                    Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, expected[i])) : expected[i];
                clamped += SketchType.COUNT_SKETCH == type && want != expected[i] ? 1 : 0;
                assertEquals((int)want, merged[i], type + " cell " + i);
            }
            assertEquals(SketchType.COUNT_MIN == type ? saturated : clamped,
                counters.get(EngineCounter.SKETCH_CELLS_SATURATED), type + ": cells counted as saturated");
            assertEquals(0, cells(cells, 0)[0], "the other area is untouched");
            cells.clear(1);
            assertEquals(0, java.util.Arrays.stream(cells(cells, 1)).filter(v -> 0 != v).count(), "cleared");
        }
    }

    @Test
    void shouldCountContributionsPerColumnAndRun()
    {
        final SketchCells cells = new SketchCells(config(SketchType.COUNT_MIN), new EngineCounters());
        assertEquals(1, cells.contribute(0, 2));
        assertEquals(2, cells.contribute(0, 2));
        assertEquals(1, cells.contribute(0, 3));
        assertEquals(1, cells.contribute(1, 2), "per area");
        assertEquals(2, cells.contributors(0, 2));
        assertEquals(3, cells.carried(0, 2, 2));
        assertEquals(0, cells.carried(0, 0, 2));
        cells.clear(0);
        assertEquals(0, cells.carried(0, 0, COLUMNS));
        assertEquals(1, cells.contributors(1, 2));
    }
}
