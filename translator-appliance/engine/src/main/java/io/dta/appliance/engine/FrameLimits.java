package io.dta.appliance.engine;

import io.dta.config.CollectorConfig;

import java.util.List;

/**
 * How large a frame the engine can build for a configuration, so that every buffer a frame lands in (an mbuf's data
 * room, a slot of the demo's link) holds one whole packet: a WRITE is cut at its collector's path MTU, so no packet
 * carries more payload than the largest path MTU.
 */
public final class FrameLimits
{
    /**
     * Room for every header and trailer of a RoCEv2 frame around its payload: Ethernet (with tags), IPv4, UDP, BTH,
     * RETH or AtomicETH, pad and ICRC, rounded up.
     */
    public static final int MAX_HEADERS = 128;

    private FrameLimits()
    {
    }

    /**
     * @param collectors the configured collectors.
     * @return the longest frame any of their QPs may send: the largest path MTU plus {@link #MAX_HEADERS}.
     */
    public static int largestFrame(final List<CollectorConfig> collectors)
    {
        int mtu = collectors.isEmpty() ? CollectorConfig.DEFAULT_PATH_MTU : 0;
        for (final CollectorConfig collector : collectors)
        {
            mtu = Math.max(mtu, collector.pathMtu());
        }
        return mtu + MAX_HEADERS;
    }
}
