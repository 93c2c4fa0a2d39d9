package io.dta.collector.store;

import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.RegionConfig;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The soft collector's choice of QPN, R_Key and base address for each negotiated region (one with a
 * {@code servicePort}), which a real collector makes when it accepts the connection and advertises in its REP and
 * metadata SEND.
 * <p>
 * The choice is a pure function of the configuration, so the collector that writes a store and the query process
 * that reads it agree on every region without talking to each other (the store manifest records the result):
 * <ul>
 *     <li>QPN: the lowest number from {@link #FIRST_QPN} up that no static region of the collector uses;</li>
 *     <li>R_Key: {@link #RKEY_BASE} | service port (unique, since service ports are unique per collector);</li>
 *     <li>address: consecutive, each aligned to {@link #ALIGNMENT}, from the end of the collector's highest static
 *     region, or from {@link #BASE_ADDRESS} when that is higher.</li>
 * </ul>
 * Static regions, and negotiated regions that already have a QPN, are returned unchanged.
 */
public final class NegotiatedRegions
{
    /** First QPN handed out. */
    public static final int FIRST_QPN = 0x100;
    /** High bits of every assigned R_Key. */
    public static final long RKEY_BASE = 0xD7A0_0000L;
    /** Lowest address handed out. */
    public static final long BASE_ADDRESS = 0x0000_7f00_0000_0000L;
    /** Alignment of every assigned address (1 MiB). */
    public static final long ALIGNMENT = 1L << 20;

    private NegotiatedRegions()
    {
    }

    /**
     * @param config a configuration, possibly with negotiated regions.
     * @return the same configuration with every negotiated region's QPN, R_Key and address assigned (service port
     * kept); the configuration itself when it has none.
     */
    public static ApplianceConfig assign(final ApplianceConfig config)
    {
        if (!config.hasNegotiatedRegions())
        {
            return config;
        }
        final Map<CollectorConfig, Map<RegionConfig, RegionConfig>> plan = new HashMap<>();
        for (final CollectorConfig collector : config.collectors())
        {
            plan.put(collector, plan(collector));
        }
        return config.withRegions((collector, region) -> plan.get(collector).getOrDefault(region, region));
    }

    private static Map<RegionConfig, RegionConfig> plan(final CollectorConfig collector)
    {
        final Set<Integer> used = new HashSet<>();
        long next = BASE_ADDRESS;
        for (final RegionConfig region : collector.regions())
        {
            // Static regions, and negotiated ones already placed (assign is idempotent), keep their place.
            if (!region.negotiated() || 0 != region.qpn())
            {
                used.add(region.qpn());
                if (Long.compareUnsigned(region.end(), next) > 0)
                {
                    next = region.end();
                }
            }
        }
        final Map<RegionConfig, RegionConfig> assigned = new HashMap<>();
        int qpn = FIRST_QPN;
        for (final RegionConfig region : collector.regions())
        {
            if (region.negotiated() && 0 == region.qpn())
            {
                while (used.contains(qpn))
                {
                    qpn++;
                }
                used.add(qpn);
                final long address = (next + ALIGNMENT - 1) & -ALIGNMENT;
                next = address + region.length();
                assigned.put(region, region.connected(qpn, RKEY_BASE | region.servicePort(), address));
            }
        }
        return assigned;
    }
}
