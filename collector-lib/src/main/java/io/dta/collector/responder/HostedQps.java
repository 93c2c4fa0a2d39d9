package io.dta.collector.responder;

import io.dta.config.CollectorConfig;
import io.dta.config.RegionConfig;
import io.dta.config.WorkerQueuePair;
import org.agrona.MutableDirectBuffer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The responder QPs a {@link SoftResponder} starts with: for every hosted region its own QP (the region's
 * {@code qpn}, peer {@code localQpn}, expected PSN {@code startPsn}) and, for a static region, one per
 * {@code workerQueuePairs} entry (that entry's {@code qpn}, {@code localQpn} and {@code startPsn}), all of a region
 * over its one memory. A negotiated region starts with one QP; its further connections get theirs as they come.
 */
public final class HostedQps
{
    private HostedQps()
    {
    }

    /**
     * @param collectors the collectors to host.
     * @param memory     the regions' memory (a region without any is not hosted).
     * @return the QPs, in configuration order (each region's own, then its workers').
     * @throws IllegalArgumentException when a region's memory is smaller than the region, or on one of
     *                                  {@link #problems}.
     */
    static ResponderQp[] of(final List<CollectorConfig> collectors, final RegionMemory memory)
    {
        final List<String> problems = problems(collectors);
        if (!problems.isEmpty())
        {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        final List<ResponderQp> list = new ArrayList<>();
        for (final CollectorConfig collector : collectors)
        {
            for (final RegionConfig region : collector.regions())
            {
                final MutableDirectBuffer buffer = memory.memory(collector, region);
                if (null == buffer)
                {
                    continue;
                }
                if (buffer.capacity() < region.length())
                {
                    throw new IllegalArgumentException("memory of " + region.path() + " is smaller than " +
                        region.length() + " bytes");
                }
                list.add(new ResponderQp(collector, region, buffer));
                for (int w = 1; w <= region.workerQueuePairs().size(); w++)
                {
                    final WorkerQueuePair pair = region.workerQueuePairs().get(w - 1);
                    list.add(new ResponderQp(collector, region, buffer, w, pair.qpn(), pair.localQpn(),
                        pair.startPsn()));
                }
            }
        }
        return list.toArray(new ResponderQp[0]);
    }

    /**
     * What keeps a responder from hosting these collectors: two static QPs of one collector (of any regions, own or
     * {@code workerQueuePairs}, whatever {@code workers.count} says) with one collector QPN, which requests could not
     * be told apart by.
     *
     * @param collectors the collectors to host.
     * @return the problems, each with its key path; empty when they can be hosted.
     */
    public static List<String> problems(final List<CollectorConfig> collectors)
    {
        final List<String> problems = new ArrayList<>();
        for (final CollectorConfig collector : collectors)
        {
            final Map<Integer, String> qpns = new HashMap<>();
            for (final RegionConfig region : collector.regions())
            {
                if (region.negotiated())
                {
                    continue;
                }
                for (int w = 0; w <= region.workerQueuePairs().size(); w++)
                {
                    final int qpn = 0 == w ? region.qpn() : region.workerQueuePairs().get(w - 1).qpn();
                    final String key = 0 == w ? region.path() + ".qpn" :
                        region.path() + ".workerQueuePairs[" + (w - 1) + "].qpn";
                    final String other = qpns.putIfAbsent(qpn, key);
                    if (null != other)
                    {
                        problems.add(key + ": collector QPN 0x" + Integer.toHexString(qpn) + " is also " + other +
                            " on the same collector (requests are told apart by it)");
                    }
                }
            }
        }
        return problems;
    }
}
