package io.dta.config;

import static io.dta.config.ConfigText.hex;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rules across collectors and sections, run once every section has been read and only on values that were
 * themselves valid: names, addresses, QPNs, list and sketch ids unique where they must be, regions that do not
 * overlap, and one Key-Write size where the base header form is told by length.
 */
final class CrossChecks
{
    private final ConfigProblems problems;

    CrossChecks(final ConfigProblems problems)
    {
        this.problems = problems;
    }

    /**
     * Under {@code baseHeader: auto} a report's form is told by its length, which for Key-Write depends on the
     * data length, i.e. on the slot size. The decoder knows one Key-Write size before it knows the route, so with
     * several slot sizes a Key-Write for a collector with larger slots would be taken as malformed.
     */
    void autoBaseHeaderNeedsOneKeyWriteSize(final ReportsConfig reports, final List<CollectorConfig> collectors)
    {
        if (null == reports || BaseHeader.AUTO != reports.baseHeader())
        {
            return;
        }
        final Set<Integer> sizes = new TreeSet<>();
        for (final CollectorConfig collector : collectors)
        {
            if (null != collector.keyWrite())
            {
                sizes.add(collector.keyWrite().slotSize());
            }
        }
        if (sizes.size() > 1)
        {
            problems.add("reports.baseHeader", "auto tells the 2- and 3-byte forms apart by report length, which " +
                "needs one Key-Write slot size across collectors, but they use " + sizes + "; set the form (2 or 3) " +
                "or use one slot size");
        }
    }

    void crossChecks(final TranslatorConfig translator, final List<CollectorConfig> collectors)
    {
        final Map<Integer, String> localQpns = new HashMap<>();
        final Map<Long, String> listIds = new HashMap<>();
        final Map<Integer, String> ips = new HashMap<>();
        final Map<String, String> names = new HashMap<>();
        final boolean translatorIpOk = null != translator && !problems.has("translator.ip");

        for (int c = 0; c < collectors.size(); c++)
        {
            final CollectorConfig collector = collectors.get(c);
            final String cPath = "collectors[" + c + "]";
            if (!problems.has(cPath + ".name"))
            {
                final String shown = "\"" + ShortText.of(collector.name()) + "\"";
                problems.unique(names, collector.name(), cPath + ".name", shown, "");
            }
            if (!problems.has(cPath + ".ip"))
            {
                final String ipText = NetAddress.ipv4ToString(collector.ip());
                if (translatorIpOk && collector.ip() == translator.ip())
                {
                    problems.add(cPath + ".ip", ipText + " is the translator's own address (translator.ip)");
                }
                problems.unique(ips, collector.ip(), cPath + ".ip", ipText, "");
            }
            regionQpns(collector.regions(), localQpns);
            ids(cPath, collector, listIds);
            checkOverlaps(collector.regions());
        }
    }

    /**
     * Local QPNs unique across collectors; a collector's QPNs, or service ports of negotiated regions, unique on it.
     */
    private void regionQpns(final List<RegionConfig> regions, final Map<Integer, String> localQpns)
    {
        final Map<Integer, String> qpns = new HashMap<>();
        final Map<Integer, String> servicePorts = new HashMap<>();
        for (final RegionConfig region : regions)
        {
            final String localPath = region.path() + ".localQpn";
            if (!problems.has(localPath))
            {
                problems.unique(localQpns, region.localQpn(), localPath, hex(region.localQpn(), 6),
                    " (responses are demultiplexed by it)");
            }
            final String qpnPath = region.path() + ".qpn";
            if (region.negotiated())
            {
                problems.unique(servicePorts, region.servicePort(), region.path() + ".servicePort",
                    Integer.toString(region.servicePort()), " on the same collector");
            }
            else if (!problems.has(qpnPath))
            {
                problems.unique(qpns, region.qpn(), qpnPath, hex(region.qpn(), 6), " on the same collector");
            }
        }
    }

    /**
     * List ids unique across collectors (lists are routed by id alone); sketch ids unique on a collector.
     */
    private void ids(final String cPath, final CollectorConfig collector, final Map<Long, String> listIds)
    {
        for (int l = 0; l < collector.lists().size(); l++)
        {
            final String idPath = cPath + ".lists[" + l + "].id";
            if (!problems.has(idPath))
            {
                final long id = collector.lists().get(l).id();
                problems.unique(listIds, id, idPath, Long.toString(id), " (lists are routed by id alone)");
            }
        }
        final Map<Long, String> sketchIds = new HashMap<>();
        for (int k = 0; k < collector.sketches().size(); k++)
        {
            final String idPath = cPath + ".sketches[" + k + "].id";
            if (!problems.has(idPath))
            {
                final long id = collector.sketches().get(k).id();
                problems.unique(sketchIds, id, idPath, Long.toString(id), " on the same collector");
            }
        }
    }

    private void checkOverlaps(final List<RegionConfig> regions)
    {
        for (int i = 0; i < regions.size(); i++)
        {
            final RegionConfig a = regions.get(i);
            if (!extentValid(a))
            {
                continue;
            }
            for (int j = i + 1; j < regions.size(); j++)
            {
                final RegionConfig b = regions.get(j);
                if (!extentValid(b))
                {
                    continue;
                }
                final long aLast = a.address() + (a.length() - 1);
                final long bLast = b.address() + (b.length() - 1);
                if (Long.compareUnsigned(a.address(), bLast) <= 0 && Long.compareUnsigned(b.address(), aLast) <= 0)
                {
                    problems.add(b.path(), "region " + extent(b) + " overlaps " + a.path() + " " + extent(a));
                }
            }
        }
    }

    private boolean extentValid(final RegionConfig region)
    {
        // A negotiated region's extent is the collector's choice, known only after connection set-up.
        return !region.negotiated() && !problems.has(region.path() + ".address") &&
            !problems.has(region.path() + ".length");
    }

    private static String extent(final RegionConfig region)
    {
        return "[" + hex(region.address(), 0) + ", " + hex(region.address() + region.length(), 0) + ")";
    }
}
