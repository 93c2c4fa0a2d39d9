package io.dta.appliance.live;

import io.dta.appliance.dpdk.LatencySampler;
import io.dta.appliance.dpdk.WorkerAgent;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import java.io.FileNotFoundException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The latency of a live translator's reports, from every worker's {@link LatencySampler}: at each stats tick the
 * workers' intervals are added up; the percentiles since the start (p50, p99, p99.9 and the maximum, in nanoseconds)
 * are written into the counters file, where {@code dta stat} and the metrics read them; with a log file, each
 * interval is appended as an HdrHistogram interval log line ({@code HistogramLogWriter}), which the HdrHistogram
 * tools (HistogramLogProcessor, the plotters) read.
 */
public final class LatencyCounters implements AutoCloseable
{
    /** Agrona counter type id of the latency percentiles; the key's int at 0 is the quantile in thousandths. */
    public static final int TYPE_ID = 0x0D7A_0006;

    /** The quantiles published, in thousandths (1000: the maximum). */
    static final int[] QUANTILES = { 500, 990, 999, 1000 };

    private final LatencySampler[] samplers;
    private final Histogram[] recycled;
    private final Histogram total = new Histogram(LatencySampler.HIGHEST_NANOS, 3);
    private final Histogram interval = new Histogram(LatencySampler.HIGHEST_NANOS, 3);
    private final AtomicCounter[] counters = new AtomicCounter[QUANTILES.length];
    private final PrintStream logStream;
    private final HistogramLogWriter log;
    private long intervalStartMillis;

    /**
     * @param manager    the counters file's manager.
     * @param workers    the data plane's workers.
     * @param logFile    where the interval log goes, or null.
     * @param startMillis the run's start (Unix time, ms).
     */
    LatencyCounters(final CountersManager manager, final int workers, final Path logFile, final long startMillis)
    {
        samplers = new LatencySampler[workers];
        recycled = new Histogram[workers];
        for (int w = 0; w < workers; w++)
        {
            samplers[w] = new LatencySampler();
        }
        for (int i = 0; i < QUANTILES.length; i++)
        {
            final int quantile = QUANTILES[i];
            counters[i] = manager.newCounter(label(quantile), TYPE_ID, key -> key.putInt(0, quantile));
        }
        intervalStartMillis = startMillis;
        if (null == logFile)
        {
            logStream = null;
            log = null;
        }
        else
        {
            try
            {
                logStream = new PrintStream(logFile.toFile());
            }
            catch (final FileNotFoundException ex)
            {
                throw new IllegalStateException("cannot write the latency log " + logFile + ": " + ex.getMessage(),
                    ex);
            }
            log = new HistogramLogWriter(logStream);
            log.outputLogFormatVersion();
            log.outputStartTime(startMillis);
            log.setBaseTime(startMillis);
            log.outputLegend();
        }
    }

    /**
     * @param quantile a quantile in thousandths.
     * @return the counter's label.
     */
    static String label(final int quantile)
    {
        return 1000 == quantile ? "report latency max (ns)" :
            "report latency p" + (quantile % 10 == 0 ? Integer.toString(quantile / 10) : quantile / 10 + "." +
            quantile % 10) + " (ns)";
    }

    /**
     * @param worker a worker's index.
     * @return its sampler.
     */
    LatencySampler sampler(final int worker)
    {
        return samplers[worker];
    }

    /**
     * Gives each worker its sampler.
     *
     * @param agents the workers at their indexes.
     */
    void attach(final WorkerAgent[] agents)
    {
        for (int w = 0; w < agents.length; w++)
        {
            agents[w].sampleLatency(samplers[w]);
        }
    }

    /**
     * Adds up the workers' latest intervals, publishes the percentiles since the start and logs the interval.
     *
     * @param nowMillis the time (Unix time, ms).
     */
    void tick(final long nowMillis)
    {
        interval.reset();
        for (int w = 0; w < samplers.length; w++)
        {
            recycled[w] = samplers[w].interval(recycled[w]);
            interval.add(recycled[w]);
        }
        total.add(interval);
        for (int i = 0; i < QUANTILES.length; i++)
        {
            counters[i].setRelease(0 == total.getTotalCount() ? 0 : 1000 == QUANTILES[i] ? total.getMaxValue() :
                total.getValueAtPercentile(QUANTILES[i] / 10.0));
        }
        if (null != log && interval.getTotalCount() > 0)
        {
            interval.setStartTimeStamp(intervalStartMillis);
            interval.setEndTimeStamp(nowMillis);
            log.outputIntervalHistogram(interval);
            logStream.flush();
        }
        intervalStartMillis = nowMillis;
    }

    /**
     * Closes the log.
     */
    @Override
    public void close()
    {
        if (null != logStream)
        {
            logStream.close();
        }
    }
}
