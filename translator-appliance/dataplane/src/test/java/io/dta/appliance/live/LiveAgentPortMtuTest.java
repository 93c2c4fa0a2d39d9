package io.dta.appliance.live;

import io.dta.appliance.engine.FrameLimits;
import io.dta.config.ConfigLoader;
import io.dta.dpdk.Mempool;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MTU the live agents open their ports with: the configuration's largest frame less its Ethernet header, only
 * when that exceeds the default 1500 (so default configurations open ports as before), and mbufs that hold what a
 * NIC receives at that MTU.
 */
class LiveAgentPortMtuTest
{
    private static final String ONE_COLLECTOR = """
        translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101}
        collectors:
          - name: c
            mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            pathMtu: %d
            keyWrite: {localQpn: 0x11, qpn: 0x101, rkey: 0x1, address: 0x10000, length: 4096}
        """;

    @Test
    void shouldKeepTheDefaultMtuForPathMtusUpTo1024() throws Exception
    {
        for (final int pathMtu : new int[] { 256, 512, 1024 })
        {
            final int largestFrame = largestFrame(pathMtu);
            assertEquals(0, LivePortSpecs.portMtu(largestFrame), "path MTU " + pathMtu);
            assertEquals(Mempool.dataRoomFor(largestFrame), LivePortSpecs.poolDataRoom(largestFrame));
            assertEquals(Mempool.DEFAULT_DATA_ROOM, LivePortSpecs.poolDataRoom(largestFrame));
        }
    }

    @Test
    void shouldOpenPortsWithTheLargestFrameLessTheEthernetHeaderForLargerPathMtus() throws Exception
    {
        assertEquals(2048 + FrameLimits.MAX_HEADERS - 14, LivePortSpecs.portMtu(largestFrame(2048)));
        assertEquals(4096 + FrameLimits.MAX_HEADERS - 14, LivePortSpecs.portMtu(largestFrame(4096)));
        assertEquals(4210, LivePortSpecs.portMtu(largestFrame(4096)));
    }

    @Test
    void shouldSetAnMtuOnlyAboveTheDefault()
    {
        assertEquals(0, LivePortSpecs.portMtu(1514));
        assertEquals(1501, LivePortSpecs.portMtu(1515));
        for (int frame = 60; frame < 9000; frame++)
        {
            final int mtu = LivePortSpecs.portMtu(frame);
            assertEquals(frame - 14 > 1500 ? frame - 14 : 0, mtu, "frame " + frame);
            final int room = LivePortSpecs.poolDataRoom(frame);
            assertTrue(room >= Mempool.dataRoomFor(frame), "frame " + frame);
            // Header, CRC and two VLAN tags beyond the MTU, after the 128-byte headroom.
            assertTrue(0 == mtu || room >= 128 + mtu + 26, "frame " + frame + " room " + room);
        }
    }

    private static int largestFrame(final int pathMtu) throws Exception
    {
        return FrameLimits.largestFrame(ConfigLoader.load(ONE_COLLECTOR.formatted(pathMtu)).collectors());
    }
}
