package io.dta.appliance.gen;

import java.util.SplittableRandom;

/**
 * Zipf sampler over ranks 1..n with P(k) proportional to k^-s, by rejection-inversion (W. Hörmann and
 * G. Derflinger, "Rejection-inversion to generate variates from monotone discrete distributions", ACM TOMACS 6(3),
 * 1996), the method Apache Commons uses.
 * <p>
 * Constant memory and expected O(1) time for any n, so even a 2^32 key space needs no table, and no allocation per
 * sample. The acceptance rate is above 90 % for every exponent, so the loop rarely repeats.
 */
public final class ZipfSampler
{
    private final long n;
    private final double exponent;
    private final double hIntegralX1;
    private final double hIntegralN;
    private final double s;

    /**
     * @param n        number of ranks, at least 1.
     * @param exponent the exponent s, strictly positive.
     */
    public ZipfSampler(final long n, final double exponent)
    {
        if (n < 1)
        {
            throw new IllegalArgumentException("n must be at least 1: " + n);
        }
        if (!(exponent > 0.0) || Double.isInfinite(exponent))
        {
            throw new IllegalArgumentException("exponent must be positive and finite: " + exponent);
        }
        this.n = n;
        this.exponent = exponent;
        this.hIntegralX1 = hIntegral(1.5) - 1.0;
        this.hIntegralN = hIntegral(n + 0.5);
        this.s = 2.0 - hIntegralInverse(hIntegral(2.5) - h(2.0));
    }

    /**
     * @return number of ranks.
     */
    public long n()
    {
        return n;
    }

    /**
     * @return the exponent.
     */
    public double exponent()
    {
        return exponent;
    }

    /**
     * Draw one rank.
     *
     * @param random the source of randomness.
     * @return a rank in 1..n.
     */
    public long sample(final SplittableRandom random)
    {
        while (true)
        {
            // u is uniform in (hIntegralX1, hIntegralN]: inverting H maps it onto the continuous hat of the pmf.
            final double u = hIntegralN + random.nextDouble() * (hIntegralX1 - hIntegralN);
            final double x = hIntegralInverse(u);
            long k = (long)(x + 0.5);
            if (k < 1)
            {
                k = 1;
            }
            else if (k > n)
            {
                k = n;
            }

            // The first test accepts most samples without evaluating the exact hat area of k.
            if (k - x <= s || u >= hIntegral(k + 0.5) - h(k))
            {
                return k;
            }
        }
    }

    /**
     * Exact probability of a rank, for tests and documentation (O(n) per call).
     *
     * @param rank     the rank, 1..n.
     * @param n        number of ranks.
     * @param exponent the exponent.
     * @return P(rank).
     */
    public static double probability(final long rank, final long n, final double exponent)
    {
        double norm = 0.0;
        for (long k = n; k >= 1; k--)
        {
            norm += Math.pow(k, -exponent);
        }
        return Math.pow(rank, -exponent) / norm;
    }

    private double hIntegral(final double x)
    {
        final double logX = Math.log(x);
        return helper2((1.0 - exponent) * logX) * logX;
    }

    private double h(final double x)
    {
        return Math.exp(-exponent * Math.log(x));
    }

    private double hIntegralInverse(final double x)
    {
        double t = x * (1.0 - exponent);
        if (t < -1.0)
        {
            // Rounding can push t just below -1, where log1p is undefined.
            t = -1.0;
        }
        return Math.exp(helper1(t) * x);
    }

    /** log1p(x) / x, continuous at 0. */
    private static double helper1(final double x)
    {
        if (Math.abs(x) > 1e-8)
        {
            return Math.log1p(x) / x;
        }
        return 1.0 - x * (0.5 - x * (1.0 / 3.0 - x * 0.25));
    }

    /** expm1(x) / x, continuous at 0. */
    private static double helper2(final double x)
    {
        if (Math.abs(x) > 1e-8)
        {
            return Math.expm1(x) / x;
        }
        return 1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + x * 0.25));
    }
}
