package io.dta.appliance.dpdk;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * One worker's latency samples: one report in {@value #EVERY} marks its duty cycle, and the time from the start of
 * that cycle (before its rx bursts) to the end of its tx bursts is recorded, in nanoseconds, into an HdrHistogram
 * recorder that another thread reads interval by interval ({@link #interval}). A report whose frames leave in the same
 * cycle (Key-Write, Key-Increment, a full Append batch) is measured from rx burst to tx burst; a report that waits in
 * a partial batch or a postcard cache waits longer than its sample says (the engine's idle flush bounds that wait).
 * Recording allocates nothing; a sample beyond {@link #HIGHEST_NANOS} is recorded as that.
 */
public final class LatencySampler
{
    /** One report in this many marks a sample. */
    public static final int EVERY = 1024;

    /** The longest latency told apart: 10 s. */
    public static final long HIGHEST_NANOS = 10_000_000_000L;

    private final SingleWriterRecorder recorder = new SingleWriterRecorder(1, HIGHEST_NANOS, 3);
    private int countdown = EVERY;

    /**
     * Counts received reports (on the worker's thread).
     *
     * @param reports reports received in one burst.
     * @return true when the sample point fell among them.
     */
    public boolean due(final int reports)
    {
        countdown -= reports;
        if (countdown > 0)
        {
            return false;
        }
        countdown += EVERY * (1 + (-countdown) / EVERY);
        return true;
    }

    /**
     * Records one sample (on the worker's thread).
     *
     * @param nanos the sampled cycle's latency.
     */
    public void record(final long nanos)
    {
        recorder.recordValue(Math.max(1, Math.min(HIGHEST_NANOS, nanos)));
    }

    /**
     * The samples since the last call (on the reader's thread).
     *
     * @param recycle the histogram the previous call returned, or null.
     * @return the interval's histogram.
     */
    public Histogram interval(final Histogram recycle)
    {
        return null == recycle ? recorder.getIntervalHistogram() : recorder.getIntervalHistogram(recycle);
    }
}
