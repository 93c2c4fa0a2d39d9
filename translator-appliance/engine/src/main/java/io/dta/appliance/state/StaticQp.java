package io.dta.appliance.state;

import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.RegionConfig;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * One static QP as the configuration places it: what must be unchanged for a recorded PSN to be resumed.
 *
 * @param name        the region's configuration key path.
 * @param localQpn    the appliance's QPN.
 * @param remoteQpn   the collector's QPN.
 * @param collectorIp the collector's IPv4 address.
 * @param startPsn    the configured start PSN.
 */
public record StaticQp(String name, int localQpn, int remoteQpn, int collectorIp, int startPsn)
{
    /**
     * The static QPs of a configuration (negotiated regions, whose PSNs connection set-up negotiates, are left out),
     * in configuration order.
     *
     * @param config a configuration.
     * @return one QP per static region.
     */
    public static List<StaticQp> allOf(final ApplianceConfig config)
    {
        final List<StaticQp> qps = new ArrayList<>();
        for (final CollectorConfig collector : config.collectors())
        {
            for (final RegionConfig region : collector.regions())
            {
                if (!region.negotiated())
                {
                    qps.add(of(collector, region));
                }
            }
        }
        return qps;
    }

    /**
     * @param collector a collector.
     * @param region    one of its regions.
     * @return the region's QP as recorded.
     */
    public static StaticQp of(final CollectorConfig collector, final RegionConfig region)
    {
        return new StaticQp(region.path(), region.localQpn(), region.qpn(), collector.ip(), region.startPsn());
    }

    /**
     * @return the CRC-32 of the key path in UTF-8, as recorded.
     */
    public int nameHash()
    {
        final CRC32 crc = new CRC32();
        crc.update(name.getBytes(StandardCharsets.UTF_8));
        return (int)crc.getValue();
    }

    /**
     * @param recorded a recorded QP.
     * @return true when it was recorded for this QP.
     */
    public boolean sameAs(final RecordedQp recorded)
    {
        return nameHash() == recorded.nameHash() && localQpn == recorded.localQpn() &&
            remoteQpn == recorded.remoteQpn() && collectorIp == recorded.collectorIp() &&
            startPsn == recorded.startPsn();
    }

    String differences(final RecordedQp recorded)
    {
        final List<String> changes = new ArrayList<>();
        if (nameHash() != recorded.nameHash())
        {
            changes.add("another key path");
        }
        if (remoteQpn != recorded.remoteQpn())
        {
            changes.add(String.format("collector QPN 0x%x (was 0x%x)", remoteQpn, recorded.remoteQpn()));
        }
        if (collectorIp != recorded.collectorIp())
        {
            changes.add("collector IP " + ip(collectorIp) + " (was " + ip(recorded.collectorIp()) + ")");
        }
        if (startPsn != recorded.startPsn())
        {
            changes.add(String.format("startPsn 0x%x (was 0x%x)", startPsn, recorded.startPsn()));
        }
        return String.join(", ", changes);
    }

    private static String ip(final int ip)
    {
        return (ip >>> 24) + "." + ((ip >>> 16) & 0xFF) + "." + ((ip >>> 8) & 0xFF) + "." + (ip & 0xFF);
    }
}
