package io.dta.appliance.gen;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ZipfSamplerTest
{
    @ParameterizedTest
    @ValueSource(doubles = { 0.7, 1.0, 1.1, 1.5, 2.5 })
    void shouldGiveRankOneAboutTwoToTheSTimesRankTwo(final double exponent)
    {
        final long seed = 0x5EEDL + Double.doubleToLongBits(exponent);
        final SplittableRandom random = new SplittableRandom(seed);
        final ZipfSampler sampler = new ZipfSampler(10_000, exponent);
        final long[] counts = new long[3];
        final int samples = 400_000;
        for (int i = 0; i < samples; i++)
        {
            final long rank = sampler.sample(random);
            assertTrue(rank >= 1 && rank <= 10_000, "rank " + rank + " out of range, seed " + seed);
            if (rank <= 2)
            {
                counts[(int)rank]++;
            }
        }
        final double ratio = counts[1] / (double)counts[2];
        final double expected = Math.pow(2, exponent);
        assertEquals(expected, ratio, expected * 0.05,
            "rank1/rank2 = " + counts[1] + "/" + counts[2] + " for s=" + exponent + ", seed " + seed);
    }

    @Test
    void shouldMatchTheExactProbabilitiesOfASmallSpace()
    {
        final long seed = 42;
        final SplittableRandom random = new SplittableRandom(seed);
        final int n = 20;
        final double exponent = 1.1;
        final ZipfSampler sampler = new ZipfSampler(n, exponent);
        final long[] counts = new long[n + 1];
        final int samples = 500_000;
        for (int i = 0; i < samples; i++)
        {
            counts[(int)sampler.sample(random)]++;
        }
        double chiSquare = 0.0;
        for (int rank = 1; rank <= n; rank++)
        {
            final double expected = samples * ZipfSampler.probability(rank, n, exponent);
            chiSquare += (counts[rank] - expected) * (counts[rank] - expected) / expected;
        }
        // 19 degrees of freedom: the 99.9th percentile of chi-square is 43.8.
        assertTrue(chiSquare < 43.8, "chi-square " + chiSquare + " too large, seed " + seed);
    }

    @Test
    void shouldSampleTheWholeU32KeySpaceWithoutATable()
    {
        final SplittableRandom random = new SplittableRandom(7);
        final ZipfSampler sampler = new ZipfSampler(1L << 32, 0.9);
        long max = 0;
        for (int i = 0; i < 100_000; i++)
        {
            final long rank = sampler.sample(random);
            assertTrue(rank >= 1 && rank <= (1L << 32), "rank " + rank);
            max = Math.max(max, rank);
        }
        assertTrue(max > 1_000_000, "a flat-ish Zipf over 2^32 should reach far ranks, max " + max);
    }

    @Test
    void shouldAlwaysReturnOneForASingleRank()
    {
        final SplittableRandom random = new SplittableRandom(3);
        final ZipfSampler sampler = new ZipfSampler(1, 1.1);
        for (int i = 0; i < 1000; i++)
        {
            assertEquals(1, sampler.sample(random));
        }
    }

    @Test
    void shouldRefuseBadParameters()
    {
        assertThrows(IllegalArgumentException.class, () -> new ZipfSampler(0, 1.0));
        assertThrows(IllegalArgumentException.class, () -> new ZipfSampler(10, 0.0));
        assertThrows(IllegalArgumentException.class, () -> new ZipfSampler(10, Double.NaN));
    }
}
