package io.dta.appliance.live;

import io.dta.codec.ArpFlyweight;
import io.dta.codec.EthernetFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Answers ARP requests for its IPv4 addresses (usually one) with their MACs, so that routers and hosts on a live link
 * can resolve the appliance (the translator's {@code translator.ip}, or a soft collector's IP). Requests for other
 * addresses, ARP replies and malformed ARP packets are counted and ignored; the appliance itself never asks (its
 * peers' MACs are configured).
 * <p>
 * A reply keeps the request's VLAN tags, goes to the requester's MAC, and is padded to the 60-byte Ethernet minimum.
 * Zero allocation; single-threaded.
 */
public final class ArpResponder
{
    /** Shortest Ethernet frame without FCS; shorter replies are zero-padded to it. */
    public static final int MIN_FRAME_LENGTH = 60;
    /** Longest reply: two VLAN tags. */
    public static final int MAX_REPLY_LENGTH = EthernetFlyweight.HEADER_LENGTH +
        EthernetFlyweight.MAX_VLAN_TAGS * EthernetFlyweight.VLAN_TAG_LENGTH + ArpFlyweight.LENGTH;

    /** Frame is not ARP: hand it on. */
    public static final int NOT_ARP = -1;
    /** Frame is ARP, nothing to send. */
    public static final int IGNORED = 0;

    private final long[] macs;
    private final int[] ips;
    private final EthernetFlyweight ethernet = new EthernetFlyweight();
    private final EthernetFlyweight replyEthernet = new EthernetFlyweight();
    private final ArpFlyweight arp = new ArpFlyweight();
    private final ArpFlyweight replyArp = new ArpFlyweight();
    private long requestsAnswered;
    private long ignored;

    /**
     * @param mac the MAC to answer with (low 48 bits).
     * @param ip  the IPv4 address to answer for.
     */
    public ArpResponder(final long mac, final int ip)
    {
        this(new long[] { mac }, new int[] { ip });
    }

    /**
     * A responder for several addresses (a soft collector hosting several collectors), each with its MAC.
     *
     * @param macs the MAC to answer with for each address.
     * @param ips  the IPv4 addresses to answer for.
     */
    public ArpResponder(final long[] macs, final int[] ips)
    {
        if (macs.length != ips.length || 0 == ips.length)
        {
            throw new IllegalArgumentException("one MAC per IPv4 address, at least one");
        }
        this.macs = macs.clone();
        this.ips = ips.clone();
    }

    /**
     * Looks at one received frame.
     *
     * @param frame       the frame's buffer.
     * @param offset      frame start.
     * @param length      frame length.
     * @param reply       where to write a reply (at least {@link #MIN_FRAME_LENGTH} bytes from {@code replyOffset}).
     * @param replyOffset reply start.
     * @return {@link #NOT_ARP}, {@link #IGNORED}, or the length of the reply written to {@code reply}.
     */
    public int onFrame(
        final DirectBuffer frame,
        final int offset,
        final int length,
        final MutableDirectBuffer reply,
        final int replyOffset)
    {
        if (length < EthernetFlyweight.HEADER_LENGTH)
        {
            return NOT_ARP;
        }
        ethernet.wrap(frame, offset);
        final int outer = ethernet.etherType();
        if (EthernetFlyweight.ETHER_TYPE_ARP != outer)
        {
            // Tagged: the tag parser reads up to two tags, so it needs their bytes before looking inside.
            if (!EthernetFlyweight.isVlanTpid(outer) || length < EthernetFlyweight.HEADER_LENGTH +
                EthernetFlyweight.MAX_VLAN_TAGS * EthernetFlyweight.VLAN_TAG_LENGTH ||
                EthernetFlyweight.ETHER_TYPE_ARP != ethernet.innerEtherType())
            {
                return NOT_ARP;
            }
        }
        final int headerLength = ethernet.headerLength();
        if (length < headerLength + ArpFlyweight.LENGTH)
        {
            return ignore();
        }
        arp.wrap(frame, offset + headerLength);
        if (!arp.isEthernetIpv4() || ArpFlyweight.OPERATION_REQUEST != arp.operation())
        {
            return ignore();
        }
        final int target = arp.targetIp();
        int index = -1;
        for (int i = 0; i < ips.length; i++)
        {
            if (ips[i] == target)
            {
                index = i;
                break;
            }
        }
        if (index < 0)
        {
            return ignore();
        }
        final long mac = macs[index];

        // Same tags as the request (copied whole), then the addresses turned around.
        reply.putBytes(replyOffset, frame, offset, headerLength);
        replyEthernet.wrap(reply, replyOffset).dstMac(arp.senderMac()).srcMac(mac);
        replyArp.wrap(reply, replyOffset + headerLength).ethernetIpv4().operation(ArpFlyweight.OPERATION_REPLY)
            .senderMac(mac).senderIp(target).targetMac(arp.senderMac()).targetIp(arp.senderIp());
        final int replyLength = headerLength + ArpFlyweight.LENGTH;
        if (replyLength < MIN_FRAME_LENGTH)
        {
            reply.setMemory(replyOffset + replyLength, MIN_FRAME_LENGTH - replyLength, (byte)0);
        }
        requestsAnswered++;
        return Math.max(replyLength, MIN_FRAME_LENGTH);
    }

    private int ignore()
    {
        ignored++;
        return IGNORED;
    }

    /**
     * @return ARP requests for our address that were answered.
     */
    public long requestsAnswered()
    {
        return requestsAnswered;
    }

    /**
     * @return ARP packets that needed no answer (other targets, replies, malformed).
     */
    public long ignored()
    {
        return ignored;
    }

    /**
     * @return how many addresses this responder answers for.
     */
    public int addressCount()
    {
        return ips.length;
    }
}
