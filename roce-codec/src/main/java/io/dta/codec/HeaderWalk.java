package io.dta.codec;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;

/**
 * The Ethernet, VLAN, IPv4 and UDP header walk of {@link FrameDecoder}: bounds, up to two VLAN tags, an IPv4 header
 * whose total length is then authoritative, fragments, and a UDP datagram to the DTA or RoCEv2 port whose length is
 * then authoritative; with the lazy IPv4 and UDP checksum verdicts. {@link FrameDecoder} reads the fields below
 * after a walk; allocates nothing.
 */
final class HeaderWalk
{
    private static final int UNKNOWN = 0;
    private static final int VALID = 1;
    private static final int INVALID = 2;

    final EthernetFlyweight ethernet = new EthernetFlyweight();
    final Ipv4Flyweight ipv4 = new Ipv4Flyweight();
    final UdpFlyweight udp = new UdpFlyweight();

    int dtaPort = FrameDecoder.DEFAULT_DTA_PORT;
    boolean verifyUdpChecksum;

    /** Why the last walk returned {@link FrameKind#MALFORMED}; written only when it changes. */
    MalformedReason reason = MalformedReason.NONE;
    int vlanTagCount;
    int etherType;
    int ipOffset;
    int ipEnd;
    int udpOffset;
    int udpLength;
    private int ipChecksumState;
    private int udpChecksumState;

    /**
     * Forget the previous frame's headers.
     */
    void reset()
    {
        vlanTagCount = 0;
        etherType = -1;
        ipOffset = -1;
        ipEnd = -1;
        udpOffset = -1;
        udpLength = -1;
        ipChecksumState = UNKNOWN;
        udpChecksumState = UNKNOWN;
    }

    private FrameKind malformed(final MalformedReason reason)
    {
        if (this.reason != reason)
        {
            this.reason = reason;
        }
        return FrameKind.MALFORMED;
    }

    /**
     * Walk the frame's headers up to the UDP port, wrapping the Ethernet, IPv4 and UDP flyweights on the way.
     * <p>
     * The decode path is split into methods of under 325 bytecodes (C2's FreqInlineSize), so that the JIT inlines it
     * whole into the engine's frame handler instead of calling two large methods per frame, and header fields are
     * read straight from the buffer at their constant offsets rather than through the flyweights (the flyweights
     * are still wrapped for the caller). Together about 5 ns per report (docs/performance.md).
     *
     * @return {@link FrameKind#DTA} or {@link FrameKind#ROCE} for a datagram of the right length (and checksum, when
     * verified) to that port, whose report or headers are still to be decoded; {@link FrameKind#OTHER}; or
     * {@link FrameKind#MALFORMED} with {@link #reason}.
     */
    FrameKind decode(final DirectBuffer buffer, final int offset, final int length)
    {
        if (null == buffer || offset < 0 || length < 0 || offset > buffer.capacity() - length)
        {
            return malformed(MalformedReason.FRAME_OUT_OF_BUFFER);
        }
        if (length < EthernetFlyweight.HEADER_LENGTH)
        {
            return malformed(MalformedReason.TRUNCATED_ETHERNET);
        }
        ethernet.wrap(buffer, offset);
        final int end = offset + length;
        int typeOffset = offset + EthernetFlyweight.ETHER_TYPE_OFFSET;
        int type = buffer.getShort(typeOffset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        if (EthernetFlyweight.isVlanTpid(type))
        {
            typeOffset = vlanTypeOffset(buffer, typeOffset, end);
            if (typeOffset < 0)
            {
                return malformed(MalformedReason.TRUNCATED_ETHERNET);
            }
            type = buffer.getShort(typeOffset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        etherType = type;
        if (EthernetFlyweight.isVlanTpid(type) || type != EthernetFlyweight.ETHER_TYPE_IPV4)
        {
            return FrameKind.OTHER;
        }
        return decodeIpv4(buffer, typeOffset + 2, end);
    }

    /**
     * Walks up to {@link EthernetFlyweight#MAX_VLAN_TAGS} tags from the first one, counting them.
     *
     * @return the offset of the EtherType after the last tag walked, or -1 when the frame ends inside the tags.
     */
    private int vlanTypeOffset(final DirectBuffer buffer, final int firstTypeOffset, final int end)
    {
        int typeOffset = firstTypeOffset;
        int type = buffer.getShort(typeOffset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        int tags = 0;
        while (EthernetFlyweight.isVlanTpid(type) && tags < EthernetFlyweight.MAX_VLAN_TAGS)
        {
            typeOffset += EthernetFlyweight.VLAN_TAG_LENGTH;
            if (typeOffset + 2 > end)
            {
                return -1;
            }
            type = buffer.getShort(typeOffset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            tags++;
        }
        vlanTagCount = tags;
        return typeOffset;
    }

    private FrameKind decodeIpv4(final DirectBuffer buffer, final int ip, final int end)
    {
        if (end - ip < Ipv4Flyweight.MIN_HEADER_LENGTH)
        {
            return malformed(MalformedReason.TRUNCATED_IPV4);
        }
        ipv4.wrap(buffer, ip);
        final int versionAndIhl = buffer.getByte(ip + Ipv4Flyweight.VERSION_IHL_OFFSET) & 0xFF;
        if (versionAndIhl >>> 4 != 4)
        {
            return malformed(MalformedReason.BAD_IP_VERSION);
        }
        final int headerLength = (versionAndIhl & 0x0F) * 4;
        if (headerLength < Ipv4Flyweight.MIN_HEADER_LENGTH)
        {
            return malformed(MalformedReason.BAD_IHL);
        }
        if (end - ip < headerLength)
        {
            return malformed(MalformedReason.TRUNCATED_IPV4);
        }
        ipOffset = ip;
        final int totalLength = buffer.getShort(ip + Ipv4Flyweight.TOTAL_LENGTH_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        if (totalLength < headerLength)
        {
            return malformed(MalformedReason.BAD_IP_TOTAL_LENGTH);
        }
        if (totalLength > end - ip)
        {
            return truncatedDatagram(buffer, ip, headerLength, end);
        }
        ipEnd = ip + totalLength;
        if ((buffer.getByte(ip + Ipv4Flyweight.PROTOCOL_OFFSET) & 0xFF) != Ipv4Flyweight.PROTOCOL_UDP)
        {
            return FrameKind.OTHER;
        }
        final int fragment = buffer.getShort(ip + Ipv4Flyweight.FLAGS_FRAGMENT_OFFSET, ByteOrder.BIG_ENDIAN) &
            Ipv4Flyweight.FRAGMENT_MASK;
        if (0 != fragment)
        {
            return fragmented(buffer, fragment, ip + headerLength);
        }
        return decodeUdp(buffer, ip + headerLength);
    }

    /**
     * An IP datagram longer than the frame (a capture cut at its snap length, a lying total length) is classified as
     * it would be whole where the frame still tells: a protocol other than UDP, or a datagram or first fragment whose
     * UDP header names a port not served here, is someone else's ({@link FrameKind#OTHER}); a fragment that is ours
     * or whose port was cut away is {@link MalformedReason#FRAGMENTED}; an unfragmented datagram to a served port is
     * {@link MalformedReason#TRUNCATED_IPV4} with its UDP header wrapped ({@link #udpOffset()}), so the caller can
     * tell a report cut short from other damage, and so is an unfragmented one cut before its UDP header.
     */
    private FrameKind truncatedDatagram(final DirectBuffer buffer, final int ip, final int headerLength, final int end)
    {
        final int udpStart = ip + headerLength;
        if ((buffer.getByte(ip + Ipv4Flyweight.PROTOCOL_OFFSET) & 0xFF) != Ipv4Flyweight.PROTOCOL_UDP)
        {
            // The whole IPv4 header names another protocol: someone else's traffic, however much of it was captured.
            return FrameKind.OTHER;
        }
        final int fragment = buffer.getShort(ip + Ipv4Flyweight.FLAGS_FRAGMENT_OFFSET, ByteOrder.BIG_ENDIAN) &
            Ipv4Flyweight.FRAGMENT_MASK;
        if (0 != (fragment & Ipv4Flyweight.FRAGMENT_OFFSET_MASK))
        {
            // A later fragment is dropped as fragmented whole or cut: it carries no port to tell whose it is.
            return malformed(MalformedReason.FRAGMENTED);
        }
        if (end - udpStart >= UdpFlyweight.HEADER_LENGTH)
        {
            if (!served(buffer.getShort(udpStart + UdpFlyweight.DST_PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF))
            {
                return FrameKind.OTHER;
            }
            if (0 != fragment)
            {
                return malformed(MalformedReason.FRAGMENTED);
            }
            udp.wrap(buffer, udpStart);
            udpOffset = udpStart;
        }
        else if (0 != fragment)
        {
            // A first fragment cut inside its UDP header: a fragment whatever its port, dropped as one.
            return malformed(MalformedReason.FRAGMENTED);
        }
        return malformed(MalformedReason.TRUNCATED_IPV4);
    }

    /**
     * A first fragment carries the UDP header, so one to a port this decoder does not serve is someone else's
     * traffic ({@link FrameKind#OTHER}); later fragments carry no port, and are {@link MalformedReason#FRAGMENTED}
     * like first fragments to the DTA or RoCEv2 port.
     */
    private FrameKind fragmented(final DirectBuffer buffer, final int fragment, final int udpStart)
    {
        if (0 == (fragment & Ipv4Flyweight.FRAGMENT_OFFSET_MASK) && ipEnd - udpStart >= UdpFlyweight.HEADER_LENGTH &&
            !served(buffer.getShort(udpStart + UdpFlyweight.DST_PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF))
        {
            return FrameKind.OTHER;
        }
        return malformed(MalformedReason.FRAGMENTED);
    }

    private boolean served(final int dstPort)
    {
        return dstPort == dtaPort || dstPort == UdpFlyweight.ROCEV2_PORT;
    }

    private FrameKind decodeUdp(final DirectBuffer buffer, final int udpStart)
    {
        if (ipEnd - udpStart < UdpFlyweight.HEADER_LENGTH)
        {
            return malformed(MalformedReason.TRUNCATED_UDP);
        }
        udp.wrap(buffer, udpStart);
        udpOffset = udpStart;
        final int udpLen = buffer.getShort(udpStart + UdpFlyweight.LENGTH_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        final boolean lengthValid = udpLen >= UdpFlyweight.HEADER_LENGTH && udpLen <= ipEnd - udpStart;
        if (lengthValid)
        {
            udpLength = udpLen;
        }
        // The port before the length's verdict: a datagram to a port not served here is someone else's, whatever
        // its length says (its length is still given when valid).
        final int dstPort = buffer.getShort(udpStart + UdpFlyweight.DST_PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        final boolean isDta = dstPort == dtaPort;
        if (!isDta && dstPort != UdpFlyweight.ROCEV2_PORT)
        {
            return FrameKind.OTHER;
        }
        if (!lengthValid)
        {
            return malformed(MalformedReason.BAD_UDP_LENGTH);
        }

        if (verifyUdpChecksum && !udpChecksumValid(buffer))
        {
            return malformed(MalformedReason.BAD_UDP_CHECKSUM);
        }

        return isDta ? FrameKind.DTA : FrameKind.ROCE;
    }

    /**
     * IPv4 header checksum verdict, computed on first call after a decode.
     *
     * @return true if an IPv4 header was found complete in the frame and its checksum is correct.
     */
    boolean ipChecksumValid()
    {
        if (ipChecksumState == UNKNOWN)
        {
            ipChecksumState = ipOffset >= 0 && ipv4.isChecksumValid() ? VALID : INVALID;
        }

        return ipChecksumState == VALID;
    }

    /**
     * UDP checksum verdict (a zero checksum means "none" and is valid), computed on first call after a decode.
     *
     * @return true if a complete UDP datagram was found and its checksum is absent or correct.
     */
    boolean udpChecksumValid(final DirectBuffer buffer)
    {
        if (udpChecksumState == UNKNOWN)
        {
            udpChecksumState = udpLength >= UdpFlyweight.HEADER_LENGTH &&
                UdpFlyweight.isIpv4ChecksumValid(buffer, ipOffset, udpOffset, udpLength) ? VALID : INVALID;
        }

        return udpChecksumState == VALID;
    }
}
