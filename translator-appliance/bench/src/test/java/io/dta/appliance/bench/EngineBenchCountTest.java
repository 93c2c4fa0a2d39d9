package io.dta.appliance.bench;

import io.dta.appliance.engine.EngineCounter;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code dta bench --reports N} measures exactly N reports, also when N is not a multiple of the burst (it was
 * rounded up to whole bursts of 32: {@code --reports 1} measured and printed 32).
 */
class EngineBenchCountTest
{
    @Test
    void shouldMeasureExactlyTheReportsAskedFor()
    {
        for (final long n : new long[] { 1, 10, 31, 33, 64, 1000 })
        {
            for (final BenchPrimitive primitive :
                new BenchPrimitive[] { BenchPrimitive.KEYWRITE, BenchPrimitive.APPEND })
            {
                final EngineBench bench = new EngineBench(primitive, ConfigDefaults.load(), 1, 16, 1);
                final EngineBench.Result result = bench.run(0, n);
                assertEquals(n, result.reports(), primitive + " N=" + n);
                assertEquals(n, bench.engine().counters().get(EngineCounter.REPORTS_IN), primitive + " N=" + n);
            }
        }
    }
}
