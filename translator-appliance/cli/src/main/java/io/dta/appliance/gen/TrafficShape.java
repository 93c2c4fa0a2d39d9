package io.dta.appliance.gen;

import io.dta.config.ApplianceConfig;

import java.util.SplittableRandom;

/**
 * The shape of the generated traffic, drawn from the generator's one random source: keys by distribution, the
 * redundancy N of each report, the reporter sending it, and postcard flows, each hop in turn from the next reporter
 * (hops lost at {@code --postcard-loss} skipped). Not thread-safe.
 */
final class TrafficShape
{
    private final SplittableRandom random;
    private final KeyDistribution keyDistribution;
    private final long keySpace;
    private final ZipfSampler zipf;
    private final int redundancyMin;
    private final int redundancySpan;
    private final int hops;
    private final double postcardLoss;
    private final int reporters;

    private long sequentialKey;
    private boolean flowActive;
    private long flowKey;
    private int flowCollector;
    private int flowReporterBase;
    private int flowNextHop;
    private long postcardFlows;
    private long postcardHopsSkipped;

    /**
     * @param random   the generator's random source.
     * @param config   the configuration ({@code redundancy.max}, {@code postcards.hops}).
     * @param settings the traffic asked for.
     * @throws GeneratorSettingsException ({@code --hops}, {@code --redundancy}) when it exceeds the configuration.
     */
    TrafficShape(final SplittableRandom random, final ApplianceConfig config, final GeneratorSettings settings)
    {
        this.random = random;
        keyDistribution = settings.keyDistribution();
        keySpace = settings.keySpace();
        zipf = keyDistribution == KeyDistribution.ZIPF ? new ZipfSampler(keySpace, settings.zipfExponent()) : null;
        postcardLoss = settings.postcardLoss();
        reporters = settings.reporters();
        hops = settings.hops() != 0 ? settings.hops() : config.postcards().hops();
        if (hops > config.postcards().hops())
        {
            // The translator drops hops past postcards.hops (bad hop), so they could not count as valid reports.
            throw new GeneratorSettingsException("--hops", hops + " hops per flow exceed postcards.hops " +
                config.postcards().hops() + " of the configuration");
        }
        final int configRedundancyMax = config.redundancy().max();
        if (settings.redundancyMin() < 0)
        {
            redundancyMin = Math.min(GeneratorSettings.DEFAULT_REDUNDANCY, configRedundancyMax);
            redundancySpan = 1;
        }
        else
        {
            if (settings.redundancyMax() > configRedundancyMax)
            {
                throw new GeneratorSettingsException("--redundancy", "N up to " + settings.redundancyMax() +
                    " exceeds redundancy.max " + configRedundancyMax + " of the configuration (--bad makes invalid N)");
            }
            redundancyMin = settings.redundancyMin();
            redundancySpan = settings.redundancyMax() - settings.redundancyMin() + 1;
        }
    }

    /**
     * @return the next key (or flow ID), 0 .. key space - 1.
     */
    long nextKey()
    {
        switch (keyDistribution)
        {
            case SEQUENTIAL:
            {
                final long key = sequentialKey;
                sequentialKey = key + 1 == keySpace ? 0 : key + 1;
                return key;
            }
            case ZIPF:
                return zipf.sample(random) - 1;
            default:
                return random.nextLong(keySpace);
        }
    }

    /**
     * @return the redundancy N of a valid Key-Write or Key-Increment report.
     */
    int pickRedundancy()
    {
        return redundancySpan == 1 ? redundancyMin : redundancyMin + random.nextInt(redundancySpan);
    }

    /**
     * @return a reporter's index, uniformly.
     */
    int pickReporter()
    {
        return reporters == 1 ? 0 : random.nextInt(reporters);
    }

    /**
     * @param choices indexes to choose from, at least one.
     * @return one of them, uniformly.
     */
    int pick(final int[] choices)
    {
        return choices.length == 1 ? choices[0] : choices[random.nextInt(choices.length)];
    }

    /**
     * Moves to the next postcard hop to send: the flow in progress, or a new one (a key, a collector of
     * {@code postcardCollectors}, a first reporter) once every hop of it was sent or lost.
     *
     * @param postcardCollectors the collectors taking postcards.
     */
    void advanceFlow(final int[] postcardCollectors)
    {
        while (true)
        {
            if (!flowActive || flowNextHop > hops)
            {
                flowActive = true;
                flowKey = nextKey();
                flowCollector = pick(postcardCollectors);
                flowReporterBase = reporters == 1 ? 0 : random.nextInt(reporters);
                flowNextHop = 1;
                postcardFlows++;
            }
            while (flowNextHop <= hops && postcardLoss > 0.0 && random.nextDouble() < postcardLoss)
            {
                flowNextHop++;
                postcardHopsSkipped++;
            }
            if (flowNextHop <= hops)
            {
                return;
            }
        }
    }

    /**
     * @return the hop {@link #advanceFlow(int[])} moved to, now taken (the next call moves past it).
     */
    int takeHop()
    {
        return flowNextHop++;
    }

    /**
     * @param hop a hop of the flow in progress.
     * @return the reporter sending it.
     */
    int flowReporter(final int hop)
    {
        return (flowReporterBase + hop - 1) % reporters;
    }

    /**
     * @return the collector of the flow in progress.
     */
    int flowCollector()
    {
        return flowCollector;
    }

    /**
     * @return the flow ID (key) of the flow in progress.
     */
    long flowKey()
    {
        return flowKey;
    }

    /**
     * @return postcard hops per flow.
     */
    int hops()
    {
        return hops;
    }

    /**
     * @return postcard flows started.
     */
    long postcardFlows()
    {
        return postcardFlows;
    }

    /**
     * @return postcard hops left out by the configured loss.
     */
    long postcardHopsSkipped()
    {
        return postcardHopsSkipped;
    }
}
