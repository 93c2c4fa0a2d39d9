package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over an IPv4 header (RFC 791), options included in {@link #headerLength()}.
 * <p>
 * Setters need the wrapped buffer to be a {@link MutableDirectBuffer}. No bounds are checked here: the decoder
 * checks lengths before reading.
 */
public final class Ipv4Flyweight extends BufferFlyweight
{
    /** Offset of version (high nibble) and IHL (low nibble). */
    public static final int VERSION_IHL_OFFSET = 0;
    /** Offset of the TOS byte (DSCP 6 bits, ECN 2 bits). */
    public static final int TOS_OFFSET = 1;
    /** Offset of the total length. */
    public static final int TOTAL_LENGTH_OFFSET = 2;
    /** Offset of the identification. */
    public static final int IDENTIFICATION_OFFSET = 4;
    /** Offset of flags (3 bits) and fragment offset (13 bits). */
    public static final int FLAGS_FRAGMENT_OFFSET = 6;
    /** Offset of the TTL. */
    public static final int TTL_OFFSET = 8;
    /** Offset of the protocol. */
    public static final int PROTOCOL_OFFSET = 9;
    /** Offset of the header checksum. */
    public static final int CHECKSUM_OFFSET = 10;
    /** Offset of the source address. */
    public static final int SRC_OFFSET = 12;
    /** Offset of the destination address. */
    public static final int DST_OFFSET = 16;
    /** Length of a header without options. */
    public static final int MIN_HEADER_LENGTH = 20;
    /** Protocol number of UDP. */
    public static final int PROTOCOL_UDP = 17;
    /** Protocol number of TCP. */
    public static final int PROTOCOL_TCP = 6;

    private static final int DF_MASK = 0x4000;
    private static final int MF_MASK = 0x2000;
    /** The fragment offset bits: non-zero in every fragment but the first. */
    static final int FRAGMENT_OFFSET_MASK = 0x1FFF;
    /** Flags-and-fragment-offset bits that make a datagram a fragment: MF and the offset. */
    static final int FRAGMENT_MASK = MF_MASK | FRAGMENT_OFFSET_MASK;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the IPv4 header.
     * @return this.
     */
    public Ipv4Flyweight wrap(final DirectBuffer buffer, final int offset)
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
     * @return IP version (4 for IPv4).
     */
    public int version()
    {
        return (buffer.getByte(offset + VERSION_IHL_OFFSET) & 0xFF) >>> 4;
    }

    /**
     * @return IHL in 32-bit words.
     */
    public int ihl()
    {
        return buffer.getByte(offset + VERSION_IHL_OFFSET) & 0x0F;
    }

    /**
     * Set version 4 and the IHL.
     *
     * @param ihl header length in 32-bit words, 5..15.
     * @return this.
     */
    public Ipv4Flyweight versionAndIhl(final int ihl)
    {
        mutableBuffer.putByte(offset + VERSION_IHL_OFFSET, (byte)(0x40 | (ihl & 0x0F)));
        return this;
    }

    /**
     * @return header length in bytes including options (IHL * 4).
     */
    public int headerLength()
    {
        return ihl() * 4;
    }

    /**
     * @return the whole TOS byte.
     */
    public int tos()
    {
        return buffer.getByte(offset + TOS_OFFSET) & 0xFF;
    }

    /**
     * @param tos the whole TOS byte.
     * @return this.
     */
    public Ipv4Flyweight tos(final int tos)
    {
        mutableBuffer.putByte(offset + TOS_OFFSET, (byte)tos);
        return this;
    }

    /**
     * @return DSCP, the high 6 bits of TOS.
     */
    public int dscp()
    {
        return tos() >>> 2;
    }

    /**
     * @return ECN, the low 2 bits of TOS.
     */
    public int ecn()
    {
        return tos() & 0x3;
    }

    /**
     * @return total datagram length in bytes.
     */
    public int totalLength()
    {
        return buffer.getShort(offset + TOTAL_LENGTH_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param length total datagram length in bytes.
     * @return this.
     */
    public Ipv4Flyweight totalLength(final int length)
    {
        mutableBuffer.putShort(offset + TOTAL_LENGTH_OFFSET, (short)length, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return identification.
     */
    public int identification()
    {
        return buffer.getShort(offset + IDENTIFICATION_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param identification identification.
     * @return this.
     */
    public Ipv4Flyweight identification(final int identification)
    {
        mutableBuffer.putShort(offset + IDENTIFICATION_OFFSET, (short)identification, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return the raw 16-bit flags and fragment offset field.
     */
    public int flagsAndFragmentOffset()
    {
        return buffer.getShort(offset + FLAGS_FRAGMENT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value the raw 16-bit flags and fragment offset field.
     * @return this.
     */
    public Ipv4Flyweight flagsAndFragmentOffset(final int value)
    {
        mutableBuffer.putShort(offset + FLAGS_FRAGMENT_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return the Don't Fragment flag.
     */
    public boolean dontFragment()
    {
        return (flagsAndFragmentOffset() & DF_MASK) != 0;
    }

    /**
     * @param df the Don't Fragment flag.
     * @return this.
     */
    public Ipv4Flyweight dontFragment(final boolean df)
    {
        final int v = flagsAndFragmentOffset();
        return flagsAndFragmentOffset(df ? v | DF_MASK : v & ~DF_MASK);
    }

    /**
     * @return the More Fragments flag.
     */
    public boolean moreFragments()
    {
        return (flagsAndFragmentOffset() & MF_MASK) != 0;
    }

    /**
     * @param mf the More Fragments flag.
     * @return this.
     */
    public Ipv4Flyweight moreFragments(final boolean mf)
    {
        final int v = flagsAndFragmentOffset();
        return flagsAndFragmentOffset(mf ? v | MF_MASK : v & ~MF_MASK);
    }

    /**
     * @return fragment offset in 8-byte units.
     */
    public int fragmentOffset()
    {
        return flagsAndFragmentOffset() & FRAGMENT_OFFSET_MASK;
    }

    /**
     * @param fragmentOffset fragment offset in 8-byte units.
     * @return this.
     */
    public Ipv4Flyweight fragmentOffset(final int fragmentOffset)
    {
        final int v = flagsAndFragmentOffset();
        return flagsAndFragmentOffset((v & ~FRAGMENT_OFFSET_MASK) | (fragmentOffset & FRAGMENT_OFFSET_MASK));
    }

    /**
     * @return true if this datagram is a fragment (MF set or a non-zero fragment offset).
     */
    public boolean isFragment()
    {
        return (flagsAndFragmentOffset() & (MF_MASK | FRAGMENT_OFFSET_MASK)) != 0;
    }

    /**
     * @return TTL.
     */
    public int ttl()
    {
        return buffer.getByte(offset + TTL_OFFSET) & 0xFF;
    }

    /**
     * @param ttl TTL.
     * @return this.
     */
    public Ipv4Flyweight ttl(final int ttl)
    {
        mutableBuffer.putByte(offset + TTL_OFFSET, (byte)ttl);
        return this;
    }

    /**
     * @return protocol number.
     */
    public int protocol()
    {
        return buffer.getByte(offset + PROTOCOL_OFFSET) & 0xFF;
    }

    /**
     * @param protocol protocol number.
     * @return this.
     */
    public Ipv4Flyweight protocol(final int protocol)
    {
        mutableBuffer.putByte(offset + PROTOCOL_OFFSET, (byte)protocol);
        return this;
    }

    /**
     * @return header checksum as stored.
     */
    public int headerChecksum()
    {
        return buffer.getShort(offset + CHECKSUM_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param checksum header checksum to store.
     * @return this.
     */
    public Ipv4Flyweight headerChecksum(final int checksum)
    {
        mutableBuffer.putShort(offset + CHECKSUM_OFFSET, (short)checksum, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return source address, first octet most significant.
     */
    public int src()
    {
        return buffer.getInt(offset + SRC_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param address source address, first octet most significant.
     * @return this.
     */
    public Ipv4Flyweight src(final int address)
    {
        mutableBuffer.putInt(offset + SRC_OFFSET, address, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return destination address, first octet most significant.
     */
    public int dst()
    {
        return buffer.getInt(offset + DST_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param address destination address, first octet most significant.
     * @return this.
     */
    public Ipv4Flyweight dst(final int address)
    {
        mutableBuffer.putInt(offset + DST_OFFSET, address, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * Compute the header checksum over IHL * 4 bytes as if the checksum field were zero.
     *
     * @return the checksum value that belongs in the header.
     */
    public int computeChecksum()
    {
        // The stored checksum contributes exactly its own value to the unfolded sum, so subtracting it is the
        // same as summing with the field zeroed, without writing to a possibly read-only buffer.
        final long sum = Checksums.sum(buffer, offset, headerLength(), 0) - headerChecksum();
        return ~Checksums.fold(sum) & 0xFFFF;
    }

    /**
     * Compute and store the header checksum.
     *
     * @return this.
     */
    public Ipv4Flyweight updateChecksum()
    {
        headerChecksum(0);
        return headerChecksum(~Checksums.fold(Checksums.sum(buffer, offset, headerLength(), 0)) & 0xFFFF);
    }

    /**
     * @return true if the ones'-complement sum over the header (checksum included) is 0xFFFF.
     */
    public boolean isChecksumValid()
    {
        return Checksums.fold(Checksums.sum(buffer, offset, headerLength(), 0)) == 0xFFFF;
    }
}
