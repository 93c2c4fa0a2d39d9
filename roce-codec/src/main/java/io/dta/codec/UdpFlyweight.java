package io.dta.codec;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over a UDP header, plus the IPv4 UDP checksum (RFC 768 pseudo-header) for optional verification of
 * reports.
 */
public final class UdpFlyweight extends BufferFlyweight
{
    /** Offset of the source port. */
    public static final int SRC_PORT_OFFSET = 0;
    /** Offset of the destination port. */
    public static final int DST_PORT_OFFSET = 2;
    /** Offset of the length (header + payload). */
    public static final int LENGTH_OFFSET = 4;
    /** Offset of the checksum. */
    public static final int CHECKSUM_OFFSET = 6;
    /** Header length. */
    public static final int HEADER_LENGTH = 8;
    /** IANA port of RoCEv2. */
    public static final int ROCEV2_PORT = 4791;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the UDP header.
     * @return this.
     */
    public UdpFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        wrapBuffer(buffer);
        this.offset = offset;
        return this;
    }

    /**
     * @return the wrapped buffer.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the header in the buffer.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return source port.
     */
    public int srcPort()
    {
        return buffer.getShort(offset + SRC_PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param port source port.
     * @return this.
     */
    public UdpFlyweight srcPort(final int port)
    {
        mutableBuffer.putShort(offset + SRC_PORT_OFFSET, (short)port, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return destination port.
     */
    public int dstPort()
    {
        return buffer.getShort(offset + DST_PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param port destination port.
     * @return this.
     */
    public UdpFlyweight dstPort(final int port)
    {
        mutableBuffer.putShort(offset + DST_PORT_OFFSET, (short)port, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return UDP length (header + payload).
     */
    public int length()
    {
        return buffer.getShort(offset + LENGTH_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param length UDP length (header + payload).
     * @return this.
     */
    public UdpFlyweight length(final int length)
    {
        mutableBuffer.putShort(offset + LENGTH_OFFSET, (short)length, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return checksum as stored (0 = none).
     */
    public int checksum()
    {
        return buffer.getShort(offset + CHECKSUM_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param checksum checksum to store.
     * @return this.
     */
    public UdpFlyweight checksum(final int checksum)
    {
        mutableBuffer.putShort(offset + CHECKSUM_OFFSET, (short)checksum, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * Compute the IPv4 UDP checksum over the pseudo-header (addresses, protocol 17, UDP length) and the UDP
     * header and payload, treating the checksum field as zero. A computed 0 is returned as 0xFFFF, since 0 on
     * the wire means "no checksum".
     *
     * @param buffer    frame buffer.
     * @param ipOffset  offset of the IPv4 header (for the addresses).
     * @param udpOffset offset of the UDP header.
     * @param udpLength UDP length (header + payload) to cover.
     * @return the checksum that belongs in the header.
     */
    public static int computeIpv4Checksum(
        final DirectBuffer buffer, final int ipOffset, final int udpOffset, final int udpLength)
    {
        long sum = Checksums.sum(buffer, ipOffset + Ipv4Flyweight.SRC_OFFSET, 8, 0);
        sum += Ipv4Flyweight.PROTOCOL_UDP + udpLength;
        sum = Checksums.sum(buffer, udpOffset, udpLength, sum);
        // The stored checksum contributes its own value (it sits at an even offset), so remove it.
        sum -= buffer.getShort(udpOffset + CHECKSUM_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        final int checksum = ~Checksums.fold(sum) & 0xFFFF;
        return checksum == 0 ? 0xFFFF : checksum;
    }

    /**
     * Verify the IPv4 UDP checksum. A stored checksum of 0 means "not computed" and verifies as true.
     *
     * @param buffer    frame buffer.
     * @param ipOffset  offset of the IPv4 header.
     * @param udpOffset offset of the UDP header.
     * @param udpLength UDP length (header + payload).
     * @return true if absent or correct.
     */
    public static boolean isIpv4ChecksumValid(
        final DirectBuffer buffer, final int ipOffset, final int udpOffset, final int udpLength)
    {
        final int stored = buffer.getShort(udpOffset + CHECKSUM_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        return stored == 0 || stored == computeIpv4Checksum(buffer, ipOffset, udpOffset, udpLength);
    }
}
