package io.dta.appliance.gate;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The ratio of two sides' median rates (candidate / baseline: above 1 the candidate is faster) with a confidence
 * interval by percentile bootstrap over rounds: each side's rounds resampled with replacement, the ratio of the
 * resamples' medians taken, many times, from a fixed seed (the same rounds give the same interval).
 *
 * @param ratio median of the candidate's rates over median of the baseline's.
 * @param low   lower end of the interval.
 * @param high  upper end of the interval.
 */
public record RatioInterval(double ratio, double low, double high)
{
    /** Confidence of the interval. */
    public static final double CONFIDENCE = 0.95;

    /** Bootstrap resamples. */
    public static final int RESAMPLES = 10_000;

    /** The seed of the resampling: a gate run is repeatable from its rounds. */
    public static final long SEED = 0x5EED_DA7AL;

    /**
     * @param candidate the candidate's rate in each round (at least one).
     * @param baseline  the baseline's rate in each round (at least one).
     * @return the ratio of medians and its 95 % interval.
     */
    public static RatioInterval bootstrap(final double[] candidate, final double[] baseline)
    {
        if (0 == candidate.length || 0 == baseline.length)
        {
            throw new IllegalArgumentException("each side needs at least one round");
        }
        final SplittableRandom random = new SplittableRandom(SEED);
        final double[] ratios = new double[RESAMPLES];
        final double[] c = new double[candidate.length];
        final double[] b = new double[baseline.length];
        for (int i = 0; i < RESAMPLES; i++)
        {
            resample(candidate, c, random);
            resample(baseline, b, random);
            ratios[i] = median(c) / median(b);
        }
        Arrays.sort(ratios);
        final double tail = (1 - CONFIDENCE) / 2;
        return new RatioInterval(median(candidate.clone()) / median(baseline.clone()),
            ratios[(int)Math.floor(tail * (RESAMPLES - 1))], ratios[(int)Math.ceil((1 - tail) * (RESAMPLES - 1))]);
    }

    /**
     * @param values rates (reordered).
     * @return their median (the mean of the middle two for an even count).
     */
    public static double median(final double[] values)
    {
        Arrays.sort(values);
        final int n = values.length;
        return 0 == n % 2 ? (values[n / 2 - 1] + values[n / 2]) / 2 : values[n / 2];
    }

    private static void resample(final double[] from, final double[] to, final SplittableRandom random)
    {
        for (int i = 0; i < to.length; i++)
        {
            to[i] = from[random.nextInt(from.length)];
        }
    }
}
