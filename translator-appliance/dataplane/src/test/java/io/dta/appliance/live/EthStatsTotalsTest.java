package io.dta.appliance.live;

import io.dta.dpdk.EthStats;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Port statistics a driver resets ({@code net_memif} when its peer disconnects) still add up to the run's totals.
 */
class EthStatsTotalsTest
{
    @Test
    void shouldPassSamplesThroughWhileTheyOnlyGrow()
    {
        final EthStatsTotals totals = new EthStatsTotals();
        assertEquals(stats(0, 0), totals.add(stats(0, 0)));
        assertEquals(stats(10, 4), totals.add(stats(10, 4)));
        assertEquals(stats(10, 4), totals.add(stats(10, 4)));
        assertEquals(stats(25, 9), totals.add(stats(25, 9)));
        assertEquals(0, totals.resets());
    }

    @Test
    void shouldKeepWhatWasCountedBeforeAReset()
    {
        final EthStatsTotals totals = new EthStatsTotals();
        totals.add(stats(100, 40));
        // The peer left: memif zeroed its counters.
        assertEquals(stats(100, 40), totals.add(stats(0, 0)));
        assertEquals(stats(103, 41), totals.add(stats(3, 1)));
        // A second reset, to values not yet zero when sampled.
        assertEquals(stats(105, 41), totals.add(stats(2, 0)));
        assertEquals(stats(112, 42), totals.add(stats(9, 1)));
        assertTrue(totals.resets() >= 2, "resets " + totals.resets());
    }

    @Test
    void shouldKeepEachFieldMonotonicOnItsOwn()
    {
        final EthStatsTotals totals = new EthStatsTotals();
        totals.add(new EthStats(5, 6, 500, 600, 1, 2, 3, 7));
        // rx_nombuf is ethdev's own and survives a PMD's reset: it must not be counted twice.
        assertEquals(new EthStats(5, 6, 500, 600, 1, 2, 3, 7), totals.add(new EthStats(0, 0, 0, 0, 0, 0, 0, 7)));
        assertEquals(new EthStats(6, 8, 600, 800, 2, 4, 6, 8), totals.add(new EthStats(1, 2, 100, 200, 1, 2, 3, 8)));
    }

    @Test
    void shouldMatchTheTrueTotalsWhenEveryResetIsSampledBeforeNewTrafficPassesTheOldCount()
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        for (int run = 0; run < 2_000; run++)
        {
            final EthStatsTotals totals = new EthStatsTotals();
            long device = 0;
            long truth = 0;
            EthStats last = null;
            final int samples = random.nextInt(1, 60);
            for (int i = 0; i < samples; i++)
            {
                if (random.nextInt(8) == 0 && device > 0)
                {
                    // A reset, sampled while the new count is still below the old one.
                    device = random.nextLong(0, device);
                    truth += device;
                }
                else
                {
                    final long more = random.nextLong(0, 1_000);
                    device += more;
                    truth += more;
                }
                last = totals.add(stats(device, device / 2));
                assertTrue(last.inPackets() >= 0, "seed " + seed);
            }
            assertEquals(truth, last.inPackets(), "seed " + seed + ", run " + run);
        }
    }

    private static EthStats stats(final long rx, final long tx)
    {
        return new EthStats(rx, tx, 100 * rx, 100 * tx, 0, 0, 0, 0);
    }
}
