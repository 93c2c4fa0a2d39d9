package io.dta.appliance.bench;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code dta bench --primitive sketch} drives whole epochs without a single drop: every column merges, every
 * epoch completes, and the WRITEs are exactly the runs and headers the epochs need.
 */
class SketchBenchTest
{
    @Test
    void shouldCompleteEveryEpochWithoutDrops()
    {
        final EngineBench bench = new EngineBench(BenchPrimitive.SKETCH, ConfigDefaults.load(), 1, 16, 8, 1);
        final int columnsPerEpoch = 8 * 1024;
        bench.feed(3L * (1 << 14) + columnsPerEpoch);
        final EngineCounters counters = bench.engine().counters();
        final StringBuilder all = new StringBuilder();
        for (final EngineCounter c : EngineCounter.values())
        {
            if (0 != counters.get(c))
            {
                all.append(c).append('=').append(counters.get(c)).append(' ');
            }
        }
        final String ctx = all.toString();
        assertEquals(0, counters.totalDrops(), ctx);
        final long columns = counters.get(EngineCounter.SKETCH_COLUMNS_MERGED);
        assertEquals(columns / columnsPerEpoch, counters.get(EngineCounter.SKETCH_EPOCHS_COMPLETED), ctx);
        assertEquals(columns / 8 / 8, counters.get(EngineCounter.SKETCH_COLUMN_WRITES), ctx);
    }
}
