package io.dta.codec;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over an Ethernet II header with zero, one or two 802.1Q / 802.1ad VLAN tags.
 * <p>
 * The tag count is derived from the buffer contents on every call (TPID 0x8100 or 0x88A8 at the EtherType
 * position), so when encoding, write the tags before {@link #innerEtherType(int)}. The caller is responsible
 * for bounds: the decoder checks the frame length before reading.
 */
public final class EthernetFlyweight extends BufferFlyweight
{
    /** Offset of the destination MAC. */
    public static final int DST_MAC_OFFSET = 0;
    /** Offset of the source MAC. */
    public static final int SRC_MAC_OFFSET = 6;
    /** Offset of the outer EtherType / first TPID. */
    public static final int ETHER_TYPE_OFFSET = 12;
    /** Length of an untagged header. */
    public static final int HEADER_LENGTH = 14;
    /** Length of one VLAN tag (TPID + TCI). */
    public static final int VLAN_TAG_LENGTH = 4;
    /** Maximum number of tags this flyweight understands. */
    public static final int MAX_VLAN_TAGS = 2;

    /** EtherType of IPv4. */
    public static final int ETHER_TYPE_IPV4 = 0x0800;
    /** EtherType of ARP. */
    public static final int ETHER_TYPE_ARP = 0x0806;
    /** EtherType of IPv6. */
    public static final int ETHER_TYPE_IPV6 = 0x86DD;
    /** TPID of an 802.1Q customer tag. */
    public static final int TPID_8021Q = 0x8100;
    /** TPID of an 802.1ad service tag. */
    public static final int TPID_8021AD = 0x88A8;

    private int offset;

    /**
     * Wrap a read-only buffer.
     *
     * @param buffer the frame buffer.
     * @param offset offset of the Ethernet header.
     * @return this.
     */
    public EthernetFlyweight wrap(final DirectBuffer buffer, final int offset)
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
     * Is the given EtherType a VLAN TPID this flyweight understands?
     *
     * @param etherType the EtherType value.
     * @return true for 0x8100 and 0x88A8.
     */
    public static boolean isVlanTpid(final int etherType)
    {
        return etherType == TPID_8021Q || etherType == TPID_8021AD;
    }

    /**
     * @return destination MAC in the low 48 bits.
     */
    public long dstMac()
    {
        return readMac(offset + DST_MAC_OFFSET);
    }

    /**
     * @param mac destination MAC in the low 48 bits.
     * @return this.
     */
    public EthernetFlyweight dstMac(final long mac)
    {
        writeMac(offset + DST_MAC_OFFSET, mac);
        return this;
    }

    /**
     * @return source MAC in the low 48 bits.
     */
    public long srcMac()
    {
        return readMac(offset + SRC_MAC_OFFSET);
    }

    /**
     * @param mac source MAC in the low 48 bits.
     * @return this.
     */
    public EthernetFlyweight srcMac(final long mac)
    {
        writeMac(offset + SRC_MAC_OFFSET, mac);
        return this;
    }

    /**
     * @return the outer EtherType (the first TPID when tagged).
     */
    public int etherType()
    {
        return buffer.getShort(offset + ETHER_TYPE_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param etherType the outer EtherType (for an untagged frame, the payload type).
     * @return this.
     */
    public EthernetFlyweight etherType(final int etherType)
    {
        mutableBuffer.putShort(offset + ETHER_TYPE_OFFSET, (short)etherType, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * Number of VLAN tags, 0 to {@link #MAX_VLAN_TAGS}. A third tag is not counted (it is then reported as the
     * inner EtherType). Needs 18 readable bytes if the first tag is present.
     *
     * @return the tag count.
     */
    public int vlanTagCount()
    {
        if (!isVlanTpid(etherType()))
        {
            return 0;
        }

        final int second = buffer.getShort(offset + ETHER_TYPE_OFFSET + VLAN_TAG_LENGTH, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        return isVlanTpid(second) ? 2 : 1;
    }

    /**
     * @return header length including tags: 14 + 4 per tag.
     */
    public int headerLength()
    {
        return HEADER_LENGTH + VLAN_TAG_LENGTH * vlanTagCount();
    }

    /**
     * @return the EtherType after the tags (the payload's type).
     */
    public int innerEtherType()
    {
        return buffer.getShort(offset + ETHER_TYPE_OFFSET + VLAN_TAG_LENGTH * vlanTagCount(), ByteOrder.BIG_ENDIAN) &
            0xFFFF;
    }

    /**
     * Write the EtherType after the tags already present in the buffer.
     *
     * @param etherType the payload's EtherType.
     * @return this.
     */
    public EthernetFlyweight innerEtherType(final int etherType)
    {
        mutableBuffer.putShort(
            offset + ETHER_TYPE_OFFSET + VLAN_TAG_LENGTH * vlanTagCount(), (short)etherType, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @param index tag index, 0 = outermost.
     * @return the tag's TPID.
     */
    public int vlanTpid(final int index)
    {
        return buffer.getShort(tagOffset(index), ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param index tag index, 0 = outermost.
     * @return the tag's TCI (PCP, DEI, VID).
     */
    public int vlanTci(final int index)
    {
        return buffer.getShort(tagOffset(index) + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param index tag index, 0 = outermost.
     * @return the 12-bit VLAN ID.
     */
    public int vlanId(final int index)
    {
        return vlanTci(index) & 0x0FFF;
    }

    /**
     * @param index tag index, 0 = outermost.
     * @return the 3-bit priority code point.
     */
    public int vlanPcp(final int index)
    {
        return vlanTci(index) >>> 13;
    }

    /**
     * @param index tag index, 0 = outermost.
     * @return the drop-eligible indicator.
     */
    public boolean vlanDei(final int index)
    {
        return (vlanTci(index) & 0x1000) != 0;
    }

    /**
     * Write a VLAN tag. Write tags outermost first, then {@link #innerEtherType(int)}.
     *
     * @param index tag index, 0 = outermost.
     * @param tpid  0x8100 or 0x88A8.
     * @param pcp   priority code point, 0..7.
     * @param dei   drop-eligible indicator.
     * @param vid   VLAN ID, 0..4095.
     * @return this.
     */
    public EthernetFlyweight vlanTag(final int index, final int tpid, final int pcp, final boolean dei, final int vid)
    {
        final int tci = ((pcp & 0x7) << 13) | (dei ? 0x1000 : 0) | (vid & 0x0FFF);
        final int tagOffset = tagOffset(index);
        mutableBuffer.putShort(tagOffset, (short)tpid, ByteOrder.BIG_ENDIAN);
        mutableBuffer.putShort(tagOffset + 2, (short)tci, ByteOrder.BIG_ENDIAN);
        return this;
    }

    private int tagOffset(final int index)
    {
        return offset + ETHER_TYPE_OFFSET + VLAN_TAG_LENGTH * index;
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
