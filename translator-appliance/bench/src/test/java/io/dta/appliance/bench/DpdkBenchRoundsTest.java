package io.dta.appliance.bench;

import io.dta.appliance.engine.EngineCounter;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DpdkBench#overRounds}: the Java engine's {@code --compare-c} rounds as one result, every rate on the same
 * basis (the median of the rounds'), so that reports per second never exceed frames received per second. Frames in
 * over the total time beside the median of the report rates did: 576 556 reports/s against 568 992 frames in/s for a
 * capture of reports only.
 */
class DpdkBenchRoundsTest
{
    private static final int CASES = 5000;

    @Test
    void shouldNeverRateReportsAboveTheFramesReceivedTheyAreAmong()
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < CASES; i++)
        {
            final int count = 1 + random.nextInt(7);
            final DpdkBench.Result[] rounds = new DpdkBench.Result[count];
            final boolean reportsOnly = random.nextBoolean();
            final long framesIn = 32_768 + random.nextInt(100_000);
            for (int r = 0; r < count; r++)
            {
                final long reports = reportsOnly ? framesIn : random.nextLong(framesIn + 1);
                // Rounds of very different speeds, as on a shared machine.
                rounds[r] = round(reports, framesIn, reports / 2, 0.001 + random.nextDouble() * 0.5);
            }
            final DpdkBench.Result all = DpdkBench.overRounds(rounds, 0, -1);
            final String ctx = "seed " + seed + ", case " + i + ": " + all;
            assertTrue(all.reportsPerSecond() <= all.framesInPerSecond(), ctx);
            if (reportsOnly)
            {
                assertEquals(all.reportsPerSecond(), all.framesInPerSecond(), ctx);
            }
            assertEquals(count * framesIn, all.framesIn(), ctx);
            assertEquals(all.counters()[EngineCounter.REPORTS_IN.ordinal()], all.reports(), ctx);
        }
    }

    @Test
    void shouldTakeEveryRateFromTheMedianOfTheRounds()
    {
        // Three rounds of 100 000 reports (all the frames received) in 1, 2 and 4 s: the median rate is 50 000/s,
        // the total over the total time 42 857/s.
        final DpdkBench.Result all = DpdkBench.overRounds(new DpdkBench.Result[] {
            round(100_000, 100_000, 40_000, 1), round(100_000, 100_000, 40_000, 2),
            round(100_000, 100_000, 40_000, 4) }, 0, -1);
        assertEquals(50_000, all.reportsPerSecond(), 1e-6);
        assertEquals(50_000, all.framesInPerSecond(), 1e-6);
        assertEquals(20_000, all.framesPerSecond(), 1e-6);
        assertEquals(300_000, all.reports());
        assertEquals(120_000, all.frames());
        assertEquals(7, all.seconds(), 1e-9);
        assertEquals(0.5, all.allocatedBytesPerReport(), 1e-9);
        assertEquals(3, all.gcCount());
    }

    private static DpdkBench.Result round(final long reports, final long framesIn, final long frames, final double s)
    {
        final long[] counters = new long[EngineCounter.values().length];
        counters[EngineCounter.REPORTS_IN.ordinal()] = reports;
        counters[EngineCounter.FRAMES_IN.ordinal()] = framesIn;
        counters[EngineCounter.ROCE_FRAMES_OUT.ordinal()] = frames;
        return new DpdkBench.Result(reports, frames, s, reports / s, frames / s, framesIn / s, 0.5, 1, 0, 0, 0, -1,
            framesIn, counters);
    }
}
