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
    List<CollectorConfig> collectors)
{
    /**
     * Copies the collector list so the record stays immutable.
     */
    public ApplianceConfig
    {
        collectors = List.copyOf(collectors);
    }
}
