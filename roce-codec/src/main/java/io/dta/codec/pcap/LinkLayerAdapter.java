package io.dta.codec.pcap;

import static io.dta.codec.pcap.PcapFormat.LINKTYPE_ETHERNET;
import static io.dta.codec.pcap.PcapFormat.LINKTYPE_IPV4;
import static io.dta.codec.pcap.PcapFormat.LINKTYPE_LINUX_SLL;
import static io.dta.codec.pcap.PcapFormat.LINKTYPE_LINUX_SLL2;
import static io.dta.codec.pcap.PcapFormat.LINKTYPE_RAW;

import java.nio.ByteOrder;

import io.dta.codec.EthernetFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Presents a captured packet of a non-Ethernet link type as the Ethernet frame the engine expects, by writing a
 * synthesized 14-byte Ethernet header and the packet's network-layer bytes into a caller's buffer. Allocates nothing.
 * <p>
 * <b>Mapping.</b>
 * <ul>
 *     <li>{@link PcapFormat#LINKTYPE_LINUX_SLL} (113, {@code tcpdump -i any} with libpcap before 1.10) and
 *     {@link PcapFormat#LINKTYPE_LINUX_SLL2} (276, libpcap 1.10 and later): the EtherType is the header's protocol
 *     field; the source MAC is the header's link-layer address when its length is 6, else
 *     {@link #SYNTHETIC_SOURCE_MAC}; the destination MAC is {@link #destinationMac()}; the payload after the cooked
 *     header follows unchanged. The packet type (incoming, outgoing, ...), the ARPHRD type and the SLL2 interface
 *     index are not consulted: Linux writes the EtherType into the protocol field for every device whose packets
 *     have one (Ethernet, loopback, tun, GRE...), so an IPv4 report seen on a tunnel is still a report, and a value
 *     below 0x0600 otherwise (netlink family, {@code ETH_P_802_2}, {@code ETH_P_CAN}...), which an Ethernet
 *     decoder reads as an 802.3 length: such packets become frames the engine counts as other frames.
 *     <br>VLAN tags: the kernel strips the 802.1Q tag before packet sockets see the packet (hardware offload or
 *     {@code skb_vlan_untag}) and hands it to libpcap out of band ({@code PACKET_AUXDATA}). libpcap re-inserts it
 *     for SLL at the protocol field (its {@code vlan_offset} is 14): the protocol is then the TPID (0x8100 or
 *     0x88a8) and the payload starts with the TCI and the inner protocol, so the mapping above yields exactly the
 *     tagged Ethernet frame. For SLL2 libpcap does not re-insert it: the tag is lost and the frame is untagged.
 *     With {@code -i any} a packet received on a VLAN sub-interface is captured twice, tagged on the parent
 *     device and untagged on the sub-interface; both become frames (capture one interface to avoid that).</li>
 *     <li>{@link PcapFormat#LINKTYPE_RAW} (101, e.g. scapy's {@code wrpcap} of bare {@code IP()} packets) and
 *     {@link PcapFormat#LINKTYPE_IPV4} (228): source {@link #SYNTHETIC_SOURCE_MAC}, destination
 *     {@link #destinationMac()}, then the whole packet. The EtherType is IPv4 (0x0800), except for a RAW packet
 *     whose version nibble is 6: IPv6 (0x86DD), a frame the engine counts as other (it does not handle IPv6). A RAW
 *     packet with another version keeps 0x0800, so the engine counts it as malformed (bad IP version), as it would
 *     in an Ethernet capture; an empty one is a truncated IPv4 frame.</li>
 * </ul>
 * A packet shorter than its cooked header (SLL: 16 bytes, SLL2: 20) has no frame: its length is 0, which the
 * engine counts as a malformed (truncated) frame. The frame is 14 bytes longer than a RAW or IPV4 packet, 2 bytes
 * shorter than an SLL packet and 6 shorter than an SLL2 packet; see {@link #frameLength(int, long)}.
 * <p>
 * Not thread-safe (the destination MAC is state); one per reader.
 */
public final class LinkLayerAdapter
{
    /** Length of the Ethernet header the frames get. */
    public static final int ETHERNET_HEADER_LENGTH = EthernetFlyweight.HEADER_LENGTH;

    /** Most a frame can be longer than its captured packet: the Ethernet header added to a RAW or IPV4 packet. */
    public static final int MAX_GROWTH = ETHERNET_HEADER_LENGTH;

    /** Length of the Linux cooked (SLL) header. */
    public static final int SLL_HEADER_LENGTH = 16;

    /** Offset of the packet type (u16: 0 to us, 1 broadcast, 2 multicast, 3 to another host, 4 sent by us). */
    public static final int SLL_PACKET_TYPE_OFFSET = 0;

    /** Offset of the ARPHRD device type (u16). */
    public static final int SLL_ARPHRD_OFFSET = 2;

    /** Offset of the link-layer address length (u16). */
    public static final int SLL_ADDRESS_LENGTH_OFFSET = 4;

    /** Offset of the link-layer address (8 bytes, the first {@code address length} of them meaningful). */
    public static final int SLL_ADDRESS_OFFSET = 6;

    /** Offset of the protocol (u16, an EtherType for devices whose packets have one). */
    public static final int SLL_PROTOCOL_OFFSET = 14;

    /** Length of the Linux cooked v2 (SLL2) header. */
    public static final int SLL2_HEADER_LENGTH = 20;

    /** Offset of the protocol (u16) in an SLL2 header. */
    public static final int SLL2_PROTOCOL_OFFSET = 0;

    /** Offset of the reserved u16 (zero) in an SLL2 header. */
    public static final int SLL2_RESERVED_OFFSET = 2;

    /** Offset of the interface index (u32) in an SLL2 header. */
    public static final int SLL2_INTERFACE_INDEX_OFFSET = 4;

    /** Offset of the ARPHRD device type (u16) in an SLL2 header. */
    public static final int SLL2_ARPHRD_OFFSET = 8;

    /** Offset of the packet type (u8) in an SLL2 header. */
    public static final int SLL2_PACKET_TYPE_OFFSET = 10;

    /** Offset of the link-layer address length (u8) in an SLL2 header. */
    public static final int SLL2_ADDRESS_LENGTH_OFFSET = 11;

    /** Offset of the link-layer address (8 bytes) in an SLL2 header. */
    public static final int SLL2_ADDRESS_OFFSET = 12;

    /**
     * Source MAC of frames whose packet carries no 6-byte link-layer address (RAW, IPV4, SLL/SLL2 of a device
     * without one): 02:44:54:41:00:01, locally administered ({@code "DTA"} in ASCII, then 1). The engine addresses
     * reporter NACKs to a report's source MAC, so in a replay they go to this address.
     */
    public static final long SYNTHETIC_SOURCE_MAC = 0x0244_5441_0001L;

    /**
     * Destination MAC of the frames when the reader was not given the appliance's own: 02:44:54:41:00:02, locally
     * administered. The engine does not look at the destination MAC of what it receives.
     */
    public static final long DEFAULT_DESTINATION_MAC = 0x0244_5441_0002L;

    /** The link types accepted as input, for messages. */
    public static final String SUPPORTED_LINK_TYPES = "1 (Ethernet, without FCS), 113 (Linux cooked SLL), " +
        "276 (Linux cooked SLL2), 101 (raw IP) and 228 (IPv4)";

    private static final int IP_VERSION_6 = 6;
    private static final int ADDRESS_LENGTH_MAC = 6;

    private final EthernetFlyweight ethernet = new EthernetFlyweight();
    private long destinationMac = DEFAULT_DESTINATION_MAC;

    /**
     * Whether packets of this link type are read: Ethernet as it is, the others through this adapter.
     *
     * @param linkType the LINKTYPE_ value of a file or pcapng interface.
     * @return true for Ethernet, Linux SLL and SLL2, raw IP and IPv4.
     */
    public static boolean isSupported(final int linkType)
    {
        return LINKTYPE_ETHERNET == linkType || needsAdapting(linkType);
    }

    /**
     * Whether packets of this link type must be rewritten to be Ethernet frames.
     *
     * @param linkType the LINKTYPE_ value of a file or pcapng interface.
     * @return true for Linux SLL and SLL2, raw IP and IPv4.
     */
    public static boolean needsAdapting(final int linkType)
    {
        return LINKTYPE_LINUX_SLL == linkType || LINKTYPE_LINUX_SLL2 == linkType ||
            LINKTYPE_RAW == linkType || LINKTYPE_IPV4 == linkType;
    }

    /**
     * Length of the frame a packet of this length becomes (also for original lengths): 0 when it is shorter than
     * the cooked header, the same length for Ethernet.
     *
     * @param linkType a supported link type.
     * @param length   captured or original length of the packet.
     * @return length of the Ethernet frame.
     */
    public static long frameLength(final int linkType, final long length)
    {
        switch (linkType)
        {
            case LINKTYPE_LINUX_SLL:
                return length < SLL_HEADER_LENGTH ? 0 : length - SLL_HEADER_LENGTH + ETHERNET_HEADER_LENGTH;
            case LINKTYPE_LINUX_SLL2:
                return length < SLL2_HEADER_LENGTH ? 0 : length - SLL2_HEADER_LENGTH + ETHERNET_HEADER_LENGTH;
            case LINKTYPE_RAW:
            case LINKTYPE_IPV4:
                return length + ETHERNET_HEADER_LENGTH;
            default:
                return length;
        }
    }

    /**
     * Destination MAC written into every frame.
     *
     * @return the destination MAC in the low 48 bits.
     */
    public long destinationMac()
    {
        return destinationMac;
    }

    /**
     * Set the destination MAC written into every frame: the appliance's own MAC ({@code translator.mac}) when the
     * reader of the capture knows it, so the frames look like what the appliance would have received.
     *
     * @param mac destination MAC in the low 48 bits.
     * @return this.
     */
    public LinkLayerAdapter destinationMac(final long mac)
    {
        this.destinationMac = mac & 0xFFFF_FFFF_FFFFL;
        return this;
    }

    /**
     * Write the Ethernet frame of one packet.
     *
     * @param linkType  of the packet, one for which {@link #needsAdapting(int)} holds.
     * @param src       holding the packet.
     * @param srcOffset of the packet in {@code src}.
     * @param length    captured length of the packet.
     * @param dst       to write the frame to, not overlapping the packet, with room for
     *                  {@code length + }{@link #MAX_GROWTH} bytes at {@code dstOffset}.
     * @param dstOffset of the frame in {@code dst}.
     * @return length of the frame, {@link #frameLength(int, long)} of {@code length}; 0 for a packet shorter than
     * its cooked header.
     * @throws IllegalArgumentException for a link type that needs no or no known adaptation.
     */
    public int toEthernet(
        final int linkType,
        final DirectBuffer src,
        final int srcOffset,
        final int length,
        final MutableDirectBuffer dst,
        final int dstOffset)
    {
        switch (linkType)
        {
            case LINKTYPE_LINUX_SLL:
                if (length < SLL_HEADER_LENGTH)
                {
                    return 0;
                }
                return cooked(src, srcOffset, length, SLL_HEADER_LENGTH,
                    src.getShort(srcOffset + SLL_PROTOCOL_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF,
                    src.getShort(srcOffset + SLL_ADDRESS_LENGTH_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF,
                    srcOffset + SLL_ADDRESS_OFFSET, dst, dstOffset);

            case LINKTYPE_LINUX_SLL2:
                if (length < SLL2_HEADER_LENGTH)
                {
                    return 0;
                }
                return cooked(src, srcOffset, length, SLL2_HEADER_LENGTH,
                    src.getShort(srcOffset + SLL2_PROTOCOL_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF,
                    src.getByte(srcOffset + SLL2_ADDRESS_LENGTH_OFFSET) & 0xFF,
                    srcOffset + SLL2_ADDRESS_OFFSET, dst, dstOffset);

            case LINKTYPE_RAW:
            {
                final boolean ipv6 = length > 0 && IP_VERSION_6 == (src.getByte(srcOffset) & 0xFF) >>> 4;
                return ip(src, srcOffset, length, ipv6 ? EthernetFlyweight.ETHER_TYPE_IPV6 :
                    EthernetFlyweight.ETHER_TYPE_IPV4, dst, dstOffset);
            }

            case LINKTYPE_IPV4:
                return ip(src, srcOffset, length, EthernetFlyweight.ETHER_TYPE_IPV4, dst, dstOffset);

            default:
                throw new IllegalArgumentException("link type " + linkType + " is not adapted to Ethernet");
        }
    }

    private int cooked(
        final DirectBuffer src,
        final int srcOffset,
        final int length,
        final int headerLength,
        final int protocol,
        final int addressLength,
        final int addressOffset,
        final MutableDirectBuffer dst,
        final int dstOffset)
    {
        ethernet.wrap(dst, dstOffset).dstMac(destinationMac).etherType(protocol);
        if (ADDRESS_LENGTH_MAC == addressLength)
        {
            dst.putBytes(dstOffset + EthernetFlyweight.SRC_MAC_OFFSET, src, addressOffset, ADDRESS_LENGTH_MAC);
        }
        else
        {
            ethernet.srcMac(SYNTHETIC_SOURCE_MAC);
        }
        final int payload = length - headerLength;
        dst.putBytes(dstOffset + ETHERNET_HEADER_LENGTH, src, srcOffset + headerLength, payload);
        return ETHERNET_HEADER_LENGTH + payload;
    }

    private int ip(
        final DirectBuffer src,
        final int srcOffset,
        final int length,
        final int etherType,
        final MutableDirectBuffer dst,
        final int dstOffset)
    {
        ethernet.wrap(dst, dstOffset).dstMac(destinationMac).srcMac(SYNTHETIC_SOURCE_MAC).etherType(etherType);
        dst.putBytes(dstOffset + ETHERNET_HEADER_LENGTH, src, srcOffset, length);
        return ETHERNET_HEADER_LENGTH + length;
    }
}
