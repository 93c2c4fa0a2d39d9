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
    ConnectionConfig connection)
{
    /**
     * Copies the collector list so the record stays immutable.
     */
    public ApplianceConfig
    {
        collectors = List.copyOf(collectors);
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
            translator, reports, redundancy, append, postcards, acks, resync, essential, mapped, connection);
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
