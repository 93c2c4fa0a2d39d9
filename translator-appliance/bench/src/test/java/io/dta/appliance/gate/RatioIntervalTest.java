package io.dta.appliance.gate;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RatioIntervalTest
{
    @Test
    void shouldTakeTheMedianOfOddAndEvenCounts()
    {
        assertEquals(3.0, RatioInterval.median(new double[] { 5, 1, 3 }));
        assertEquals(2.5, RatioInterval.median(new double[] { 4, 1, 3, 2 }));
        assertEquals(7.0, RatioInterval.median(new double[] { 7 }));
    }

    @Test
    void shouldGiveOneAndAPointIntervalForEqualConstantSides()
    {
        final RatioInterval i = RatioInterval.bootstrap(new double[] { 10, 10, 10 }, new double[] { 10, 10, 10 });
        assertEquals(new RatioInterval(1, 1, 1), i);
    }

    @Test
    void shouldScaleWithTheCandidate()
    {
        final double[] base = { 9, 10, 11, 10.5, 9.5 };
        final double[] slower = base.clone();
        for (int k = 0; k < slower.length; k++)
        {
            slower[k] *= 0.75;
        }
        final RatioInterval i = RatioInterval.bootstrap(slower, base);
        assertEquals(0.75, i.ratio(), 1e-12);
        assertTrue(i.low() <= i.ratio() && i.ratio() <= i.high(), i.toString());
        // Every resample's median is one of the rounds: the interval cannot reach past the extreme ratios.
        assertTrue(i.low() >= 0.75 * 9 / 11 - 1e-12 && i.high() <= 0.75 * 11 / 9 + 1e-12, i.toString());
    }

    @Test
    void shouldBeRepeatableFromTheSameRoundsAndHoldTheRatio()
    {
        final SplittableRandom random = new SplittableRandom(42);
        for (int trial = 0; trial < 50; trial++)
        {
            final int n = 1 + random.nextInt(9);
            final double[] c = new double[n];
            final double[] b = new double[1 + random.nextInt(9)];
            for (int k = 0; k < c.length; k++)
            {
                c[k] = 1 + random.nextDouble() * 100;
            }
            for (int k = 0; k < b.length; k++)
            {
                b[k] = 1 + random.nextDouble() * 100;
            }
            final RatioInterval first = RatioInterval.bootstrap(c.clone(), b.clone());
            assertEquals(first, RatioInterval.bootstrap(c.clone(), b.clone()));
            assertTrue(first.low() <= first.high(), first.toString());
            assertEquals(RatioInterval.median(c.clone()) / RatioInterval.median(b.clone()), first.ratio(), 1e-12);
        }
    }

    @Test
    void shouldRefuseASideWithoutRounds()
    {
        assertThrows(IllegalArgumentException.class, () -> RatioInterval.bootstrap(new double[0], new double[] { 1 }));
    }
}
