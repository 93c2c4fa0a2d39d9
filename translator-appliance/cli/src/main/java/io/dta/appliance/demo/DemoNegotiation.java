package io.dta.appliance.demo;

import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.RegionConfig;

import java.util.HashSet;
import java.util.Set;

/**
 * {@code dta demo --negotiate}: turns the static regions of a configuration into negotiated ones, so the demo
 * exercises connection set-up with any configuration (the embedded one included).
 * <p>
 * The collector keeps hosting each region exactly where the static configuration put it (same QPN, R_Key and
 * address, so a store written this way is the store of the static configuration and {@code dta query} reads it
 * with that configuration); the translator forgets those three values and must learn them over the wire.
 */
public final class DemoNegotiation
{
    /** First service port handed to a converted region (the reference's Key-Write port). */
    public static final int FIRST_SERVICE_PORT = 1337;

    private DemoNegotiation()
    {
    }

    /**
     * @param config a configuration.
     * @return the collector's side: every static region given a service port (the lowest from
     * {@link #FIRST_SERVICE_PORT} free on its collector), QP parameters kept.
     */
    public static ApplianceConfig collectorSide(final ApplianceConfig config)
    {
        return config.withRegions(new io.dta.config.ApplianceConfig.RegionMapper()
        {
            private CollectorConfig current;
            private final Set<Integer> used = new HashSet<>();
            private int next;

            @Override
            public RegionConfig map(final CollectorConfig collector, final RegionConfig region)
            {
                if (collector != current)
                {
                    current = collector;
                    used.clear();
                    for (final RegionConfig r : collector.regions())
                    {
                        used.add(r.servicePort());
                    }
                    next = FIRST_SERVICE_PORT;
                }
                if (region.negotiated())
                {
                    return region;
                }
                while (used.contains(next))
                {
                    next++;
                }
                used.add(next);
                return new RegionConfig(region.path(), region.localQpn(), region.qpn(), region.rkey(),
                    region.address(), region.length(), region.startPsn(), region.udpSourcePort(), next);
            }
        });
    }

    /**
     * @param collectorSide a configuration whose negotiated regions have their QP parameters.
     * @return the translator's side: the same with the QPN, R_Key and address of every negotiated region zeroed,
     * as a configuration file with {@code servicePort} gives them.
     */
    public static ApplianceConfig translatorSide(final ApplianceConfig collectorSide)
    {
        return collectorSide.withRegions((collector, region) -> region.negotiated() ?
            region.connected(0, 0, 0) : region);
    }
}
