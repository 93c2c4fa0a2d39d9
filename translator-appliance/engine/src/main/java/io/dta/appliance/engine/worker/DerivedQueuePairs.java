package io.dta.appliance.engine.worker;

import io.dta.config.ApplianceConfig;
import io.dta.config.RegionConfig;
import io.dta.config.WorkerQueuePair;

import java.util.ArrayList;
import java.util.List;

/**
 * Worker QPs for the commands that host their own collector or none ({@code dta demo}, whose soft collector hosts a
 * QP for every worker of every region, and {@code dta bench}, whose frames go to a null device): a static region that
 * lists fewer {@code workerQueuePairs} than workers 1..W-1 is given the missing ones the way a negotiated region's
 * are derived: worker {@code w}'s local QPN and collector QPN are the region's own plus {@code w << 16} (modulo
 * 2^24), its starting PSN the region's, its UDP source port the default for its QPN. A configuration that lists them
 * keeps its own. {@code dta run} never derives them: the real collector must have been told.
 */
public final class DerivedQueuePairs
{
    private DerivedQueuePairs()
    {
    }

    /**
     * @param config  a configuration.
     * @param workers how many workers will run it.
     * @return the configuration with enough worker QPs on every static region.
     */
    public static ApplianceConfig withWorkerQueuePairs(final ApplianceConfig config, final int workers)
    {
        if (workers <= 1)
        {
            return config;
        }
        return config.withRegions((collector, region) ->
        {
            if (region.negotiated() || region.workerQueuePairs().size() >= workers - 1)
            {
                return region;
            }
            final List<WorkerQueuePair> pairs = new ArrayList<>(region.workerQueuePairs());
            for (int w = pairs.size() + 1; w < workers; w++)
            {
                final int localQpn = RegionConfig.workerLocalQpn(region.localQpn(), w);
                pairs.add(new WorkerQueuePair(localQpn, RegionConfig.workerLocalQpn(region.qpn(), w),
                    region.startPsn(), RegionConfig.defaultUdpSourcePort(localQpn)));
            }
            return new RegionConfig(region.path(), region.localQpn(), region.qpn(), region.rkey(), region.address(),
                region.length(), region.startPsn(), region.udpSourcePort(), region.servicePort(), pairs);
        }).withWorkers(workers);
    }
}
