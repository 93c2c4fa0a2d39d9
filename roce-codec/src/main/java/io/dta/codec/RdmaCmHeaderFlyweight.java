package io.dta.codec;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the RDMA-CM header at the start of a REQ's private data (Linux {@code struct cma_hdr}):
 * CMA version u8, IP version u8 (bits 7..4), source port u16, source address (16 bytes) and destination address
 * (16 bytes); an IPv4 address sits in the last 4 bytes of its 16 (36 bytes in all). The service (destination)
 * port is in the REQ's service ID, not here.
 */
public final class RdmaCmHeaderFlyweight extends BufferFlyweight
{
    /** Offset of the CMA version. */
    public static final int CMA_VERSION_OFFSET = 0;
    /** Offset of the IP version byte (version in bits 7..4). */
    public static final int IP_VERSION_OFFSET = 1;
    /** Offset of the source port. */
    public static final int SRC_PORT_OFFSET = 2;
    /** Offset of the 16-byte source address. */
    public static final int SRC_ADDRESS_OFFSET = 4;
    /** Offset of the 16-byte destination address. */
    public static final int DST_ADDRESS_OFFSET = 20;
    /** Header length in bytes. */
    public static final int LENGTH = 36;
    /** CMA version Linux sends. */
    public static final int CMA_VERSION = 0x00;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the header (the REQ's private data).
     * @return this.
     */
    public RdmaCmHeaderFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        wrapBuffer(buffer);
        this.offset = offset;
        return this;
    }

    /** @return CMA version. */
    public int cmaVersion()
    {
        return buffer.getByte(offset + CMA_VERSION_OFFSET) & 0xFF;
    }

    /** @return IP version (4 or 6). */
    public int ipVersion()
    {
        return CmFields.bits(buffer, offset + IP_VERSION_OFFSET, 4, 4);
    }

    /** @return source port. */
    public int srcPort()
    {
        return buffer.getShort(offset + SRC_PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /** @return IPv4 source address (last 4 bytes of the 16). */
    public int srcIpv4()
    {
        return buffer.getInt(offset + SRC_ADDRESS_OFFSET + 12, ByteOrder.BIG_ENDIAN);
    }

    /** @return IPv4 destination address (last 4 bytes of the 16). */
    public int dstIpv4()
    {
        return buffer.getInt(offset + DST_ADDRESS_OFFSET + 12, ByteOrder.BIG_ENDIAN);
    }

    /**
     * Writes a whole IPv4 header: CMA version 0, IP version 4, the source port, and both addresses padded with
     * 12 zero bytes in front (as Linux and the reference do, not IPv4-mapped).
     *
     * @param srcPort the requester's (ephemeral) port.
     * @param srcIp   the requester's IPv4 address.
     * @param dstIp   the responder's IPv4 address.
     * @return this.
     */
    public RdmaCmHeaderFlyweight ipv4(final int srcPort, final int srcIp, final int dstIp)
    {
        mutableBuffer.setMemory(offset, LENGTH, (byte)0);
        mutableBuffer.putByte(offset + CMA_VERSION_OFFSET, (byte)CMA_VERSION);
        mutableBuffer.putByte(offset + IP_VERSION_OFFSET, (byte)0x40);
        mutableBuffer.putShort(offset + SRC_PORT_OFFSET, (short)srcPort, ByteOrder.BIG_ENDIAN);
        mutableBuffer.putInt(offset + SRC_ADDRESS_OFFSET + 12, srcIp, ByteOrder.BIG_ENDIAN);
        mutableBuffer.putInt(offset + DST_ADDRESS_OFFSET + 12, dstIp, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
