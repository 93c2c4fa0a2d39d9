package io.dta.config;

import java.util.List;

/**
 * The whole validated translator configuration, as {@link ConfigLoader} produces it.
 *
 * @param translator the appliance's identity and IPv4 marking.
 * @param reports    report reception.
 * @param redundancy Key-Write / Key-Increment redundancy.
 * @param append     Append batching.
 * @param postcards  postcard aggregation.
 * @param acks       ACK requests and timeouts.
 * @param resync     grace period after a PSN sequence error.
 * @param essential  essential report backlog.
 * @param collectors the collectors, at least one (immutable).
 * @param connection timing of negotiated connection set-up.
 */
public record ApplianceConfig(
    TranslatorConfig translator,
    ReportsConfig reports,
    RedundancyConfig redundancy,
    AppendConfig append,
    PostcardsConfig postcards,
    AcksConfig acks,
    ResyncConfig resync,
    EssentialConfig essential,
    List<CollectorConfig> collectors,
    ConnectionConfig connection,
    WorkersConfig workers)
{
    /**
     * Copies the collector list so the record stays immutable.
     */
    public ApplianceConfig
    {
        collectors = List.copyOf(collectors);
        workers = null == workers ? WorkersConfig.DEFAULT : workers;
    }

    /**
     * A configuration of one worker.
     *
     * @param translator the appliance's identity and IPv4 marking.
     * @param reports    report reception.
     * @param redundancy Key-Write / Key-Increment redundancy.
     * @param append     Append batching.
     * @param postcards  postcard aggregation.
     * @param acks       ACK requests and timeouts.
     * @param resync     grace period after a PSN sequence error.
     * @param essential  essential report backlog.
     * @param collectors the collectors.
     * @param connection connection set-up timing.
     */
    public ApplianceConfig(
        final TranslatorConfig translator,
        final ReportsConfig reports,
        final RedundancyConfig redundancy,
        final AppendConfig append,
        final PostcardsConfig postcards,
        final AcksConfig acks,
        final ResyncConfig resync,
        final EssentialConfig essential,
        final List<CollectorConfig> collectors,
        final ConnectionConfig connection)
    {
        this(translator, reports, redundancy, append, postcards, acks, resync, essential, collectors, connection,
            WorkersConfig.DEFAULT);
    }

    /**
     * A configuration with the default connection timing.
     *
     * @param translator the appliance's identity and IPv4 marking.
     * @param reports    report reception.
     * @param redundancy Key-Write / Key-Increment redundancy.
     * @param append     Append batching.
     * @param postcards  postcard aggregation.
     * @param acks       ACK requests and timeouts.
     * @param resync     grace period after a PSN sequence error.
     * @param essential  essential report backlog.
     * @param collectors the collectors.
     */
    public ApplianceConfig(
        final TranslatorConfig translator,
        final ReportsConfig reports,
        final RedundancyConfig redundancy,
        final AppendConfig append,
        final PostcardsConfig postcards,
        final AcksConfig acks,
        final ResyncConfig resync,
        final EssentialConfig essential,
        final List<CollectorConfig> collectors)
    {
        this(translator, reports, redundancy, append, postcards, acks, resync, essential, collectors,
            ConnectionConfig.DEFAULT);
    }

    /**
     * @return true if any region is negotiated (has a service port) and not yet connected.
     */
    public boolean hasUnconnectedRegions()
    {
        for (final CollectorConfig collector : collectors)
        {
            for (final RegionConfig region : collector.regions())
            {
                if (region.negotiated() && 0 == region.qpn())
                {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @return true if any region is negotiated (has a service port).
     */
    public boolean hasNegotiatedRegions()
    {
        for (final CollectorConfig collector : collectors)
        {
            for (final RegionConfig region : collector.regions())
            {
                if (region.negotiated())
                {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The same configuration with every region replaced by {@code mapper}'s answer (kinds, ids and sizes kept):
     * how connection set-up turns negotiated regions into connected ones.
     *
     * @param mapper gives the new region of each (collector, region).
     * @return a new configuration.
     */
    public ApplianceConfig withRegions(final RegionMapper mapper)
    {
        final java.util.ArrayList<CollectorConfig> mapped = new java.util.ArrayList<>();
        for (final CollectorConfig c : collectors)
        {
            mapped.add(c.withRegions(region -> mapper.map(c, region)));
        }
        return new ApplianceConfig(
            translator, reports, redundancy, append, postcards, acks, resync, essential, mapped, connection, workers);
    }

    /**
     * @param count workers (from {@code --workers}).
     * @return the same configuration run by {@code count} workers; check it with {@link #workerProblems(int)}.
     */
    public ApplianceConfig withWorkers(final int count)
    {
        return new ApplianceConfig(translator, reports, redundancy, append, postcards, acks, resync, essential,
            collectors, connection, workers.withCount(count));
    }

    /**
     * The configuration worker {@code worker} runs: every region written through that worker's own QP
     * ({@link RegionConfig#forWorker(int)}).
     *
     * @param worker the worker's index, 0..{@code workers().count() - 1}.
     * @return the worker's configuration.
     */
    public ApplianceConfig forWorker(final int worker)
    {
        return withRegions((collector, region) -> region.forWorker(worker));
    }

    /**
     * What keeps {@code count} workers from running this configuration, each with its key path: a static region
     * with fewer {@code workerQueuePairs} than workers 1.., or two QPs (of any regions and workers) with one local
     * QPN (responses are demultiplexed by it), or two of one collector's static QPs with one collector QPN.
     *
     * @param count workers.
     * @return the problems, empty when it can run.
     */
    public List<String> workerProblems(final int count)
    {
        final java.util.ArrayList<String> problems = new java.util.ArrayList<>();
        if (count < 1 || count > WorkersConfig.MAX_WORKERS)
        {
            problems.add("workers.count: " + count + " workers: must be 1.." + WorkersConfig.MAX_WORKERS);
            return problems;
        }
        final java.util.HashMap<Integer, String> localQpns = new java.util.HashMap<>();
        for (final CollectorConfig collector : collectors)
        {
            final java.util.HashMap<Integer, String> qpns = new java.util.HashMap<>();
            for (final RegionConfig region : collector.regions())
            {
                if (!region.negotiated() && region.workerQueuePairs().size() < count - 1)
                {
                    problems.add(region.path() + ".workerQueuePairs: " + region.workerQueuePairs().size() +
                        " queue pair(s) for workers 1.." + (count - 1) + ": a static region needs one for each " +
                        "worker after the first (" + (count - 1) + ")");
                    continue;
                }
                for (int w = 0; w < count; w++)
                {
                    final RegionConfig qp = region.forWorker(w);
                    final String where = 0 == w ? region.path() : region.path() + " (worker " + w + ")";
                    final String clash = localQpns.putIfAbsent(qp.localQpn(), where);
                    if (null != clash)
                    {
                        problems.add(workerKey(region, w, "localQpn") + ": local QPN 0x" +
                            Integer.toHexString(qp.localQpn()) + " is also that of " + clash +
                            " (responses are demultiplexed by it)");
                    }
                    if (!region.negotiated())
                    {
                        final String other = qpns.putIfAbsent(qp.qpn(), where);
                        if (null != other)
                        {
                            problems.add(workerKey(region, w, "qpn") + ": collector QPN 0x" +
                                Integer.toHexString(qp.qpn()) + " is also that of " + other + " on the same collector");
                        }
                    }
                }
            }
        }
        return problems;
    }

    private static String workerKey(final RegionConfig region, final int worker, final String key)
    {
        return 0 == worker || region.negotiated() ? region.path() + "." + key :
            region.path() + ".workerQueuePairs[" + (worker - 1) + "]." + key;
    }

    /**
     * Maps one region to its replacement.
     */
    @FunctionalInterface
    public interface RegionMapper
    {
        /**
         * @param collector the collector hosting the region.
         * @param region    the region.
         * @return the replacement (the same record to keep it).
         */
        RegionConfig map(CollectorConfig collector, RegionConfig region);
    }
}
