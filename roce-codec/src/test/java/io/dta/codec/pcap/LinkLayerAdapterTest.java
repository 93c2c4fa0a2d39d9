package io.dta.codec.pcap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The adapter on its own: its one piece of state, the destination MAC, and the frames it writes, checked byte by
 * byte against frames spelled out here from the documented mapping.
 */
class LinkLayerAdapterTest
{
    private static final HexFormat HEX = HexFormat.of();
    private static final String SYNTHETIC_SOURCE = "024454410001";
    private static final String DEFAULT_DESTINATION = "024454410002";

    @Test
    void shouldKeepTheDestinationMacUntilChangedAndMaskItTo48Bits()
    {
        final LinkLayerAdapter adapter = new LinkLayerAdapter();
        assertEquals(LinkLayerAdapter.DEFAULT_DESTINATION_MAC, adapter.destinationMac());

        assertEquals(0x0A1B_2C3D_4E5FL, adapter.destinationMac(0xFFFF_0A1B_2C3D_4E5FL).destinationMac());
        assertEquals("0a1b2c3d4e5f" + SYNTHETIC_SOURCE + "0800" + "4500",
            frame(adapter, PcapFormat.LINKTYPE_IPV4, "4500"));

        adapter.destinationMac(0x1122_3344_5566L);
        assertEquals("112233445566" + SYNTHETIC_SOURCE + "0800" + "4500",
            frame(adapter, PcapFormat.LINKTYPE_IPV4, "4500"), "a new MAC applies to the next frame");
    }

    @Test
    void shouldMapRawIpByVersionNibble()
    {
        final LinkLayerAdapter adapter = new LinkLayerAdapter();
        assertEquals(DEFAULT_DESTINATION + SYNTHETIC_SOURCE + "0800" + "45000014",
            frame(adapter, PcapFormat.LINKTYPE_RAW, "45000014"));
        assertEquals(DEFAULT_DESTINATION + SYNTHETIC_SOURCE + "86dd" + "60000000",
            frame(adapter, PcapFormat.LINKTYPE_RAW, "60000000"));
        assertEquals(DEFAULT_DESTINATION + SYNTHETIC_SOURCE + "0800" + "70",
            frame(adapter, PcapFormat.LINKTYPE_RAW, "70"), "another version stays IPv4, to be counted malformed");
        assertEquals(DEFAULT_DESTINATION + SYNTHETIC_SOURCE + "0800",
            frame(adapter, PcapFormat.LINKTYPE_RAW, ""), "an empty packet is a bare header");
    }

    @Test
    void shouldMapCookedHeadersToTheirAddressAndProtocol()
    {
        final LinkLayerAdapter adapter = new LinkLayerAdapter();
        // SLL: packet type 0, ARPHRD 1, address length 6, address + 2 padding bytes, protocol 0x0800.
        final String sll = "0000" + "0001" + "0006" + "3cfdfe010203" + "0000" + "0800";
        assertEquals(DEFAULT_DESTINATION + "3cfdfe010203" + "0800" + "abcd",
            frame(adapter, PcapFormat.LINKTYPE_LINUX_SLL, sll + "abcd"));
        // SLL without a 6-byte address (tun): the synthetic source.
        final String tun = "0004" + "fffe" + "0000" + "0000000000000000" + "0800";
        assertEquals(DEFAULT_DESTINATION + SYNTHETIC_SOURCE + "0800" + "ab",
            frame(adapter, PcapFormat.LINKTYPE_LINUX_SLL, tun + "ab"));
        // SLL2: protocol, reserved, interface index, ARPHRD, packet type, address length, address.
        final String sll2 = "86dd" + "0000" + "00000002" + "0001" + "00" + "06" + "3cfdfe010203" + "0000";
        assertEquals(DEFAULT_DESTINATION + "3cfdfe010203" + "86dd" + "ff",
            frame(adapter, PcapFormat.LINKTYPE_LINUX_SLL2, sll2 + "ff"));
    }

    @Test
    void shouldGiveNoFrameForAPacketShorterThanItsCookedHeader()
    {
        final LinkLayerAdapter adapter = new LinkLayerAdapter();
        assertEquals("", frame(adapter, PcapFormat.LINKTYPE_LINUX_SLL, "00".repeat(15)));
        assertEquals("", frame(adapter, PcapFormat.LINKTYPE_LINUX_SLL2, "00".repeat(19)));
        assertEquals(0, LinkLayerAdapter.frameLength(PcapFormat.LINKTYPE_LINUX_SLL, 15));
        assertEquals(14, LinkLayerAdapter.frameLength(PcapFormat.LINKTYPE_LINUX_SLL, 16));
        assertEquals(0, LinkLayerAdapter.frameLength(PcapFormat.LINKTYPE_LINUX_SLL2, 19));
        assertEquals(14, LinkLayerAdapter.frameLength(PcapFormat.LINKTYPE_LINUX_SLL2, 20));
        assertEquals(9014, LinkLayerAdapter.frameLength(PcapFormat.LINKTYPE_RAW, 9000));
        assertEquals(9000, LinkLayerAdapter.frameLength(PcapFormat.LINKTYPE_ETHERNET, 9000));
    }

    @Test
    void shouldTellWhichLinkTypesAreReadAndWhichAdapted()
    {
        assertTrue(LinkLayerAdapter.isSupported(PcapFormat.LINKTYPE_ETHERNET));
        assertFalse(LinkLayerAdapter.needsAdapting(PcapFormat.LINKTYPE_ETHERNET));
        for (final int adapted : new int[] { 101, 113, 228, 276 })
        {
            assertTrue(LinkLayerAdapter.isSupported(adapted));
            assertTrue(LinkLayerAdapter.needsAdapting(adapted));
        }
        assertFalse(LinkLayerAdapter.isSupported(105));
        final LinkLayerAdapter adapter = new LinkLayerAdapter();
        assertThrows(IllegalArgumentException.class, () -> frame(adapter, PcapFormat.LINKTYPE_ETHERNET, "00"));
    }

    private static String frame(final LinkLayerAdapter adapter, final int linkType, final String packetHex)
    {
        final byte[] packet = HEX.parseHex(packetHex);
        final UnsafeBuffer src = new UnsafeBuffer(new byte[packet.length + 3]);
        src.putBytes(3, packet);
        final UnsafeBuffer dst = new UnsafeBuffer(new byte[packet.length + LinkLayerAdapter.MAX_GROWTH + 5]);
        final int length = adapter.toEthernet(linkType, src, 3, packet.length, dst, 5);
        assertEquals(LinkLayerAdapter.frameLength(linkType, packet.length), length);
        final byte[] frame = new byte[length];
        dst.getBytes(5, frame);
        return HEX.formatHex(frame);
    }
}
