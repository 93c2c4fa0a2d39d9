package io.dta.appliance.bench;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta bench} open loop (the default: nobody answers, as in a replay) and closed loop ({@code --closed-loop}:
 * the collector's answers reach the engine).
 */
class EngineBenchLoopTest
{
    private static final int REPORTS = 5000;

    @Test
    void shouldAnswerEveryFetchAddInTheClosedLoop()
    {
        final EngineBench bench =
            new EngineBench(BenchPrimitive.KEYINCREMENT, ConfigDefaults.load(), 1, 16, 8, false, 1);
        final EngineBench.Result result = bench.run(0, REPORTS);
        final EngineCounters counters = bench.engine().counters();

        assertFalse(bench.openLoop());
        assertTrue(bench.engine().closedLoop());
        // The QP's newest frame is held until another one leaves (docs/performance.md, held frames).
        assertEquals(REPORTS - 1, result.frames());
        // Answers are handed back every eight reports: all but the last few FETCH_ADDs were answered.
        final long answered = counters.get(EngineCounter.ATOMIC_ACKS_IN);
        assertTrue(answered > REPORTS - EngineBench.ACK_EVERY && answered <= REPORTS, "answered " + answered);
        assertEquals(0, counters.totalDrops());
    }

    @Test
    void shouldTranslateEveryReportWithNoAnswerInTheOpenLoop()
    {
        for (final BenchPrimitive primitive : new BenchPrimitive[] {
            BenchPrimitive.KEYWRITE, BenchPrimitive.KEYINCREMENT, BenchPrimitive.APPEND, BenchPrimitive.POSTCARD })
        {
            final EngineBench bench = new EngineBench(primitive, ConfigDefaults.load(), 1, 16, 8, true, 1);
            final EngineBench.Result result = bench.run(0, REPORTS);
            final EngineCounters counters = bench.engine().counters();

            assertTrue(bench.openLoop(), primitive.name());
            assertFalse(bench.engine().closedLoop(), primitive.name());
            assertEquals(0, counters.get(EngineCounter.ACKS_IN) + counters.get(EngineCounter.ATOMIC_ACKS_IN),
                primitive.name());
            assertEquals(REPORTS, counters.get(EngineCounter.REPORTS_IN), primitive.name());
            assertEquals(0, counters.totalDrops(), primitive.name());
            if (BenchPrimitive.KEYINCREMENT == primitive || BenchPrimitive.KEYWRITE == primitive)
            {
                // One frame per report (N = 1), the newest held: for Key-Increment far more than the sixteen
                // outstanding atomics a closed loop allows without answers.
                assertEquals(REPORTS - 1, result.frames(), primitive.name());
            }
            else
            {
                assertTrue(result.frames() > 0, primitive.name());
            }
        }
    }
}
