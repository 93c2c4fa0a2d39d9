package io.dta.config;

import static io.dta.config.ConfigLimits.QPN_MAX;
import static io.dta.config.ConfigLimits.QPN_MIN;
import static io.dta.config.ConfigLimits.QPN_NOTE;
import static io.dta.config.ConfigText.hex;

import java.util.ArrayList;
import java.util.List;

/**
 * Maps what every region has, whatever its kind: its QP (local QPN, the collector's QPN, R_Key, address and length,
 * or a service port to learn them from), start PSN, UDP source port and extra worker QPs.
 */
final class RegionMapper
{
    private static final String[] NEGOTIATED_KEYS = { "qpn", "rkey", "address" };

    private final ConfigProblems problems;

    RegionMapper(final ConfigProblems problems)
    {
        this.problems = problems;
    }

    RegionConfig region(final ConfigSection s)
    {
        final int localQpn = (int)s.requiredInteger("localQpn", QPN_MIN, QPN_MAX, QPN_NOTE);
        final int servicePort = (int)s.integer("servicePort", 1, 65535, 0);
        final boolean negotiated = s.present("servicePort") && !problems.has(s.pathOf("servicePort"));
        final int qpn;
        final long rkey;
        final long address;
        if (negotiated || problems.has(s.pathOf("servicePort")))
        {
            // The collector chooses these and tells them in the connection set-up; a configured value would be
            // either redundant or wrong.
            for (final String learned : NEGOTIATED_KEYS)
            {
                if (s.present(learned))
                {
                    problems.add(s.pathOf(learned), "not allowed with servicePort: a negotiated region learns it " +
                        "from the collector");
                }
            }
            qpn = 0;
            rkey = 0;
            address = 0;
        }
        else
        {
            qpn = (int)s.requiredInteger("qpn", QPN_MIN, QPN_MAX, QPN_NOTE);
            rkey = s.requiredInteger("rkey", 0, 0xFFFFFFFFL, "");
            address = s.address("address");
        }
        final long length = s.requiredInteger("length", 1, Long.MAX_VALUE, "");
        final int startPsn = (int)s.integer("startPsn", 0, 0xFFFFFF, 0);
        final int defaultPort = problems.has(s.pathOf("localQpn")) ? 0xC000 :
            RegionConfig.defaultUdpSourcePort(localQpn);
        final int udpSourcePort = (int)s.integer("udpSourcePort", 1, 65535, defaultPort);

        checkExtent(s, negotiated, address, length);
        final List<WorkerQueuePair> workerQueuePairs = workerQueuePairs(s, negotiated);
        return new RegionConfig(s.path(), localQpn, qpn, rkey, address, length, startPsn, udpSourcePort, servicePort,
            workerQueuePairs);
    }

    /**
     * A static region is 8-byte aligned and ends within the 64-bit address space; a negotiated one's length fits the
     * 32 bits the collector advertises it in.
     */
    private void checkExtent(final ConfigSection s, final boolean negotiated, final long address, final long length)
    {
        final String addressPath = s.pathOf("address");
        if (!negotiated && !problems.has(addressPath))
        {
            if ((address & (RegionConfig.ADDRESS_ALIGNMENT - 1)) != 0)
            {
                problems.add(addressPath, hex(address, 0) + " is not 8-byte aligned");
            }
            else if (!problems.has(s.pathOf("length")) && Long.compareUnsigned(address + (length - 1), address) < 0)
            {
                problems.add(s.pathOf("length"), "address " + hex(address, 0) + " + length " + length +
                    " runs past the end of the 64-bit address space");
            }
        }
        if (negotiated && !problems.has(s.pathOf("length")) && length > 0xFFFF_FFFFL)
        {
            problems.add(s.pathOf("length"), length + " is too large for a negotiated region: the collector " +
                "advertises its length in 32 bits");
        }
    }

    private List<WorkerQueuePair> workerQueuePairs(final ConfigSection s, final boolean negotiated)
    {
        final List<WorkerQueuePair> pairs = new ArrayList<>();
        if (!s.present("workerQueuePairs"))
        {
            return pairs;
        }
        if (negotiated)
        {
            problems.add(s.pathOf("workerQueuePairs"), "not allowed with servicePort: a negotiated region's workers " +
                "connect QPs of their own (local QPN + worker << 16)");
            return pairs;
        }
        final List<ConfigSection> items = s.list("workerQueuePairs", false);
        if (null == items)
        {
            return pairs;
        }
        for (final ConfigSection item : items)
        {
            if (null == item)
            {
                continue;
            }
            final int localQpn = (int)item.requiredInteger("localQpn", QPN_MIN, QPN_MAX, QPN_NOTE);
            final int qpn = (int)item.requiredInteger("qpn", QPN_MIN, QPN_MAX, QPN_NOTE);
            final int startPsn = (int)item.integer("startPsn", 0, 0xFFFFFF, 0);
            final int udpSourcePort = (int)item.integer("udpSourcePort", 1, 65535,
                problems.has(item.pathOf("localQpn")) ? 0xC000 : RegionConfig.defaultUdpSourcePort(localQpn));
            item.finish();
            pairs.add(new WorkerQueuePair(localQpn, qpn, startPsn, udpSourcePort));
        }
        return pairs;
    }
}
