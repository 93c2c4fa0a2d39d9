package io.dta.appliance.live;

import io.dta.appliance.dpdk.LatencySampler;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sampled latency of a live translator: one report in 1024 marks a sample whatever the bursts' sizes, the
 * percentiles since the start reach the counters file, and the interval log is what HdrHistogram's reader reads back.
 */
class LatencyCountersTest
{
    @TempDir
    Path dir;

    @Test
    void shouldMarkOneReportInEveryThousandAndTwentyFourWhateverTheBursts()
    {
        final SplittableRandom random = new SplittableRandom(7);
        final LatencySampler sampler = new LatencySampler();
        long reports = 0;
        int samples = 0;
        for (int burst = 0; burst < 100_000; burst++)
        {
            final int n = 1 + random.nextInt(32);
            reports += n;
            samples += sampler.due(n) ? 1 : 0;
        }
        assertEquals(reports / LatencySampler.EVERY, samples, 1);
        // A burst larger than the cadence marks one sample and keeps the cadence.
        final LatencySampler big = new LatencySampler();
        assertTrue(big.due(3000));
        assertTrue(big.due(1100));
    }

    @Test
    void shouldPublishThePercentilesSinceTheStartAndLogEachInterval() throws Exception
    {
        final CountersManager manager = new CountersManager(new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(8 * 1024)));
        final Path log = dir.resolve("latency.hlog");
        final Histogram expected = new Histogram(LatencySampler.HIGHEST_NANOS, 3);
        try (LatencyCounters latency = new LatencyCounters(manager, 2, log, 1_000_000L))
        {
            final LatencySamplerHolder workers = new LatencySamplerHolder(latency);
            final SplittableRandom random = new SplittableRandom(11);
            for (int tick = 1; tick <= 3; tick++)
            {
                for (int i = 0; i < 500; i++)
                {
                    final long nanos = 1_000 + random.nextInt(50_000);
                    workers.sampler(i % 2).record(nanos);
                    expected.recordValue(nanos);
                }
                latency.tick(1_000_000L + tick * 100L);
            }
            latency.tick(1_000_400L);
        }
        final Map<String, Long> counters = new HashMap<>();
        manager.forEach((id, label) -> counters.put(label, manager.getCounterValue(id)));
        assertEquals(expected.getValueAtPercentile(50), counters.get("report latency p50 (ns)"));
        assertEquals(expected.getValueAtPercentile(99), counters.get("report latency p99 (ns)"));
        assertEquals(expected.getValueAtPercentile(99.9), counters.get("report latency p99.9 (ns)"));
        assertEquals(expected.getMaxValue(), counters.get("report latency max (ns)"));

        final List<Histogram> intervals = new ArrayList<>();
        final HistogramLogReader reader = new HistogramLogReader(log.toFile());
        while (reader.hasNext())
        {
            intervals.add((Histogram)reader.nextIntervalHistogram());
        }
        // Three intervals with samples; the fourth tick had none and wrote nothing.
        assertEquals(3, intervals.size());
        final Histogram all = new Histogram(LatencySampler.HIGHEST_NANOS, 3);
        intervals.forEach(all::add);
        assertEquals(expected, all);
        assertFalse(intervals.get(0).getStartTimeStamp() == intervals.get(1).getStartTimeStamp());
    }

    /** Each worker's sampler, as the workers get them. */
    private static final class LatencySamplerHolder
    {
        private final LatencySampler[] samplers = new LatencySampler[2];

        LatencySamplerHolder(final LatencyCounters latency)
        {
            for (int w = 0; w < samplers.length; w++)
            {
                samplers[w] = latency.sampler(w);
            }
        }

        LatencySampler sampler(final int w)
        {
            return samplers[w];
        }
    }
}
