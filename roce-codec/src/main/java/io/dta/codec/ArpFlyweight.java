package io.dta.codec;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over an ARP packet for IPv4 over Ethernet (RFC 826): hardware type 1, protocol type 0x0800, address
 * lengths 6 and 4, so every field has a fixed offset. {@link #isEthernetIpv4()} says whether a received packet has
 * that shape; the other accessors assume it.
 */
public final class ArpFlyweight extends BufferFlyweight
{
    /** Offset of the hardware type. */
    public static final int HARDWARE_TYPE_OFFSET = 0;
    /** Offset of the protocol type. */
    public static final int PROTOCOL_TYPE_OFFSET = 2;
    /** Offset of the hardware address length. */
    public static final int HARDWARE_LENGTH_OFFSET = 4;
    /** Offset of the protocol address length. */
    public static final int PROTOCOL_LENGTH_OFFSET = 5;
    /** Offset of the operation. */
    public static final int OPERATION_OFFSET = 6;
    /** Offset of the sender hardware (MAC) address. */
    public static final int SENDER_MAC_OFFSET = 8;
    /** Offset of the sender protocol (IPv4) address. */
    public static final int SENDER_IP_OFFSET = 14;
    /** Offset of the target hardware (MAC) address. */
    public static final int TARGET_MAC_OFFSET = 18;
    /** Offset of the target protocol (IPv4) address. */
    public static final int TARGET_IP_OFFSET = 24;
    /** Length of an Ethernet/IPv4 ARP packet. */
    public static final int LENGTH = 28;

    /** Hardware type of Ethernet. */
    public static final int HARDWARE_TYPE_ETHERNET = 1;
    /** Protocol type of IPv4 (its EtherType). */
    public static final int PROTOCOL_TYPE_IPV4 = 0x0800;
    /** Operation: request. */
    public static final int OPERATION_REQUEST = 1;
    /** Operation: reply. */
    public static final int OPERATION_REPLY = 2;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the ARP packet (after the Ethernet header and its tags).
     * @return this.
     */
    public ArpFlyweight wrap(final DirectBuffer buffer, final int offset)
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
     * @return offset of the packet in the buffer.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return true for hardware type Ethernet, protocol IPv4, address lengths 6 and 4.
     */
    public boolean isEthernetIpv4()
    {
        return HARDWARE_TYPE_ETHERNET == hardwareType() && PROTOCOL_TYPE_IPV4 == protocolType() &&
            6 == hardwareLength() && 4 == protocolLength();
    }

    /**
     * Writes the fixed part of an Ethernet/IPv4 ARP packet: hardware type, protocol type, address lengths.
     *
     * @return this.
     */
    public ArpFlyweight ethernetIpv4()
    {
        mutableBuffer.putShort(offset + HARDWARE_TYPE_OFFSET, (short)HARDWARE_TYPE_ETHERNET, ByteOrder.BIG_ENDIAN);
        mutableBuffer.putShort(offset + PROTOCOL_TYPE_OFFSET, (short)PROTOCOL_TYPE_IPV4, ByteOrder.BIG_ENDIAN);
        mutableBuffer.putByte(offset + HARDWARE_LENGTH_OFFSET, (byte)6);
        mutableBuffer.putByte(offset + PROTOCOL_LENGTH_OFFSET, (byte)4);
        return this;
    }

    /**
     * @return the hardware type.
     */
    public int hardwareType()
    {
        return buffer.getShort(offset + HARDWARE_TYPE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @return the protocol type.
     */
    public int protocolType()
    {
        return buffer.getShort(offset + PROTOCOL_TYPE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @return the hardware address length.
     */
    public int hardwareLength()
    {
        return buffer.getByte(offset + HARDWARE_LENGTH_OFFSET) & 0xFF;
    }

    /**
     * @return the protocol address length.
     */
    public int protocolLength()
    {
        return buffer.getByte(offset + PROTOCOL_LENGTH_OFFSET) & 0xFF;
    }

    /**
     * @return the operation ({@link #OPERATION_REQUEST}, {@link #OPERATION_REPLY}, ...).
     */
    public int operation()
    {
        return buffer.getShort(offset + OPERATION_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param operation the operation.
     * @return this.
     */
    public ArpFlyweight operation(final int operation)
    {
        mutableBuffer.putShort(offset + OPERATION_OFFSET, (short)operation, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return sender MAC in the low 48 bits.
     */
    public long senderMac()
    {
        return readMac(offset + SENDER_MAC_OFFSET);
    }

    /**
     * @param mac sender MAC in the low 48 bits.
     * @return this.
     */
    public ArpFlyweight senderMac(final long mac)
    {
        writeMac(offset + SENDER_MAC_OFFSET, mac);
        return this;
    }

    /**
     * @return sender IPv4 address, first octet most significant.
     */
    public int senderIp()
    {
        return buffer.getInt(offset + SENDER_IP_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param ip sender IPv4 address.
     * @return this.
     */
    public ArpFlyweight senderIp(final int ip)
    {
        mutableBuffer.putInt(offset + SENDER_IP_OFFSET, ip, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return target MAC in the low 48 bits (zero in a request).
     */
    public long targetMac()
    {
        return readMac(offset + TARGET_MAC_OFFSET);
    }

    /**
     * @param mac target MAC in the low 48 bits.
     * @return this.
     */
    public ArpFlyweight targetMac(final long mac)
    {
        writeMac(offset + TARGET_MAC_OFFSET, mac);
        return this;
    }

    /**
     * @return target IPv4 address, first octet most significant.
     */
    public int targetIp()
    {
        return buffer.getInt(offset + TARGET_IP_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param ip target IPv4 address.
     * @return this.
     */
    public ArpFlyweight targetIp(final int ip)
    {
        mutableBuffer.putInt(offset + TARGET_IP_OFFSET, ip, ByteOrder.BIG_ENDIAN);
        return this;
    }

    private long readMac(final int index)
    {
        final long hi = buffer.getShort(index, ByteOrder.BIG_ENDIAN) & 0xFFFFL;
        final long lo = buffer.getInt(index + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
        return (hi << 32) | lo;
    }

    private void writeMac(final int index, final long mac)
    {
        mutableBuffer.putShort(index, (short)(mac >>> 32), ByteOrder.BIG_ENDIAN);
        mutableBuffer.putInt(index + 2, (int)mac, ByteOrder.BIG_ENDIAN);
    }
}
