package io.dta.appliance.cli;

import io.dta.appliance.connect.ConnectionCounter;
import io.dta.appliance.connect.ConnectionManager;
import io.dta.appliance.connect.RegionConnection;
import io.dta.appliance.connect.WorkerConnections;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code connections} object of {@code dta run --json} and {@code dta demo --json}: one shape for both, so that a
 * script reads a negotiated region the same way from the demo and from the live appliance. Numbers are JSON numbers,
 * as in the rest of the summaries (the region's 64-bit address unsigned), and counters are named as the engine's are
 * in JSON (camelCase), every one, 0 included.
 */
final class ConnectionJson
{
    private ConnectionJson()
    {
    }

    /**
     * @param connections every worker's connection set-up after the run.
     * @return keys {@code summary}, {@code counters} (summed over the workers) and {@code regions}: for each region of
     * each worker {@code region} (its configuration path), {@code worker} (with several workers), {@code servicePort},
     * {@code state}, {@code attempts}, {@code collectorQpn}, {@code rkey}, {@code address}, {@code length} (advertised
     * by the collector), {@code startPsn}, for a region with atomics {@code maxOutstandingAtomics} and
     * {@code grantedAtomics}, and {@code failure} when it failed.
     */
    static Map<String, Object> of(final WorkerConnections connections)
    {
        final Map<String, Object> root = new LinkedHashMap<>();
        root.put("summary", connections.summary());
        final Map<String, Long> counters = new LinkedHashMap<>();
        for (final ConnectionCounter c : ConnectionCounter.values())
        {
            counters.put(EngineSummary.camel(c.name()), connections.counter(c));
        }
        root.put("counters", counters);
        final List<Map<String, Object>> regions = new ArrayList<>();
        final List<ConnectionManager> managers = connections.managers();
        for (int w = 0; w < managers.size(); w++)
        {
            for (final RegionConnection c : managers.get(w).connections())
            {
                regions.add(region(c, managers.size() > 1 ? w : -1));
            }
        }
        root.put("regions", regions);
        return root;
    }

    private static Map<String, Object> region(final RegionConnection c, final int worker)
    {
        final Map<String, Object> region = new LinkedHashMap<>();
        region.put("region", c.region().path());
        if (worker >= 0)
        {
            region.put("worker", worker);
        }
        region.put("servicePort", c.region().servicePort());
        region.put("state", c.state().name());
        region.put("attempts", c.attempts());
        region.put("collectorQpn", c.remoteQpn());
        region.put("rkey", c.rkey());
        region.put("address", new BigInteger(Long.toUnsignedString(c.address())));
        region.put("length", c.advertisedLength());
        region.put("startPsn", c.startPsn());
        if (c.atomics() > 0)
        {
            region.put("maxOutstandingAtomics", c.atomics());
            region.put("grantedAtomics", c.atomicsLimit());
        }
        if (null != c.failure())
        {
            region.put("failure", c.failure());
        }
        return region;
    }
}
