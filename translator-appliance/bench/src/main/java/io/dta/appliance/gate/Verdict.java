package io.dta.appliance.gate;

/**
 * What the gate concludes from the ratio of medians and its interval, against the regression allowed, and the exit
 * status that says it.
 */
public enum Verdict
{
    /** The candidate's median is no slower than the allowance (it may be faster): exit 0. */
    NO_REGRESSION(0),

    /** The candidate is slower than allowed, and so is the whole interval: exit 3. */
    REGRESSION(3),

    /** The candidate's median is slower than allowed but the interval reaches back into the allowance: exit 4. */
    INCONCLUSIVE(4);

    private final int exitStatus;

    Verdict(final int exitStatus)
    {
        this.exitStatus = exitStatus;
    }

    /**
     * @return the exit status of {@code dta bench --baseline}.
     */
    public int exitStatus()
    {
        return exitStatus;
    }

    /**
     * @param interval              candidate / baseline, with its interval.
     * @param maxRegressionPercent  how much slower the candidate may be, in percent.
     * @return the verdict.
     */
    public static Verdict of(final RatioInterval interval, final double maxRegressionPercent)
    {
        final double floor = floor(maxRegressionPercent);
        if (interval.high() < floor)
        {
            return REGRESSION;
        }
        return interval.ratio() >= floor ? NO_REGRESSION : INCONCLUSIVE;
    }

    /**
     * @param maxRegressionPercent how much slower the candidate may be, in percent.
     * @return the lowest ratio allowed: 0.95 for 5 %.
     */
    public static double floor(final double maxRegressionPercent)
    {
        return 1 - maxRegressionPercent / 100;
    }
}
