package io.dta.appliance.connect;

import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.KeyIncrementConfig;

import java.util.ArrayList;
import java.util.List;

/**
 * The configuration the engine runs with once every negotiated region is connected: each negotiated region with the
 * QPN, R_Key and address learned and the starting PSN advertised in the REQ, and a Key-Increment region whose REP
 * granted fewer outstanding atomics with that grant as {@code maxOutstandingAtomics}.
 */
final class ConnectedConfig
{
    private ConnectedConfig()
    {
    }

    /**
     * @param config      the configuration the connections were made for.
     * @param connections its negotiated regions, every one connected.
     * @return the connected configuration.
     */
    static ApplianceConfig of(final ApplianceConfig config, final RegionConnection[] connections)
    {
        final ApplianceConfig connected = config.withRegions((collector, region) ->
        {
            for (final RegionConnection c : connections)
            {
                if (c.region == region)
                {
                    return c.connectedRegion();
                }
            }
            return region;
        });
        boolean reduced = false;
        for (final RegionConnection c : connections)
        {
            reduced |= c.atomicsReduced();
        }
        if (!reduced)
        {
            return connected;
        }
        final List<CollectorConfig> collectors = new ArrayList<>();
        for (final CollectorConfig collector : connected.collectors())
        {
            collectors.add(withGrantedAtomics(collector, connections));
        }
        return new ApplianceConfig(connected.translator(), connected.reports(), connected.redundancy(),
            connected.append(), connected.postcards(), connected.acks(), connected.resync(), connected.essential(),
            collectors, connected.connection());
    }

    /**
     * The collector with {@code keyIncrement.maxOutstandingAtomics} lowered to what its REP granted, if it did.
     */
    private static CollectorConfig withGrantedAtomics(
        final CollectorConfig collector, final RegionConnection[] connections)
    {
        final KeyIncrementConfig ki = collector.keyIncrement();
        if (null == ki)
        {
            return collector;
        }
        for (final RegionConnection c : connections)
        {
            if (c.atomicsReduced() && c.region.localQpn() == ki.region().localQpn() &&
                c.collector.ip() == collector.ip())
            {
                return new CollectorConfig(collector.name(), collector.mac(), collector.ip(), collector.pathMtu(),
                    collector.keyWrite(), new KeyIncrementConfig(ki.region(), c.atomicsLimit, ki.atomicQueueSize()),
                    collector.postcards(), collector.lists(), collector.sketches());
            }
        }
        return collector;
    }
}
