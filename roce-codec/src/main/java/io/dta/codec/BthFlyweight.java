package io.dta.codec;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the InfiniBand Base Transport Header (12 bytes):
 * <pre>
 * 0: opcode | 1: SE M PadCnt(2) TVer(4) | 2-3: P_Key | 4: FECN BECN resv6 | 5-7: DestQP | 8: AckReq resv7 | 9-11: PSN
 * </pre>
 */
public final class BthFlyweight extends BufferFlyweight
{
    /** Offset of the opcode. */
    public static final int OPCODE_OFFSET = 0;
    /** Offset of the SE / M / PadCnt / TVer byte. */
    public static final int FLAGS_OFFSET = 1;
    /** Offset of the P_Key. */
    public static final int PKEY_OFFSET = 2;
    /** Offset of the FECN / BECN byte (masked in the ICRC). */
    public static final int FECN_BECN_OFFSET = 4;
    /** Offset of the 24-bit destination QP. */
    public static final int DEST_QP_OFFSET = 5;
    /** Offset of the AckReq byte. */
    public static final int ACK_REQ_OFFSET = 8;
    /** Offset of the 24-bit PSN. */
    public static final int PSN_OFFSET = 9;
    /** Header length. */
    public static final int LENGTH = 12;
    /** Default P_Key (full member of the default partition). */
    public static final int DEFAULT_PKEY = 0xFFFF;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the BTH.
     * @return this.
     */
    public BthFlyweight wrap(final DirectBuffer buffer, final int offset)
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
     * @return offset of the BTH in the buffer.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return opcode.
     */
    public int opcode()
    {
        return buffer.getByte(offset + OPCODE_OFFSET) & 0xFF;
    }

    /**
     * @param value opcode.
     * @return this.
     */
    public BthFlyweight opcode(final int value)
    {
        mutableBuffer.putByte(offset + OPCODE_OFFSET, (byte)value);
        return this;
    }

    /**
     * @return solicited event bit.
     */
    public boolean solicitedEvent()
    {
        return (flagsByte() & 0x80) != 0;
    }

    /**
     * @param value solicited event bit.
     * @return this.
     */
    public BthFlyweight solicitedEvent(final boolean value)
    {
        return flagsByte(value ? flagsByte() | 0x80 : flagsByte() & ~0x80);
    }

    /**
     * @return MigReq bit.
     */
    public boolean migReq()
    {
        return (flagsByte() & 0x40) != 0;
    }

    /**
     * @param value MigReq bit (1 toward ConnectX).
     * @return this.
     */
    public BthFlyweight migReq(final boolean value)
    {
        return flagsByte(value ? flagsByte() | 0x40 : flagsByte() & ~0x40);
    }

    /**
     * @return pad count, 0..3.
     */
    public int padCount()
    {
        return (flagsByte() >>> 4) & 0x3;
    }

    /**
     * @param value pad count, 0..3.
     * @return this.
     */
    public BthFlyweight padCount(final int value)
    {
        return flagsByte((flagsByte() & ~0x30) | ((value & 0x3) << 4));
    }

    /**
     * @return transport header version (must be 0).
     */
    public int tver()
    {
        return flagsByte() & 0x0F;
    }

    /**
     * @param value transport header version.
     * @return this.
     */
    public BthFlyweight tver(final int value)
    {
        return flagsByte((flagsByte() & ~0x0F) | (value & 0x0F));
    }

    /**
     * The receiver's P_Key check (rocev2-reference.md §2, as rxe does it): the low 15 bits equal, and at least one
     * side a full member (bit 15). A packet that fails it is dropped silently.
     *
     * @param received the packet's P_Key.
     * @param own      the receiver's P_Key.
     * @return true when the packet belongs to the receiver's partition.
     */
    public static boolean pKeysMatch(final int received, final int own)
    {
        return 0 == ((received ^ own) & 0x7FFF) && 0 != ((received | own) & 0x8000);
    }

    /**
     * @return P_Key.
     */
    public int pKey()
    {
        return buffer.getShort(offset + PKEY_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value P_Key.
     * @return this.
     */
    public BthFlyweight pKey(final int value)
    {
        mutableBuffer.putShort(offset + PKEY_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return FECN bit.
     */
    public boolean fecn()
    {
        return (buffer.getByte(offset + FECN_BECN_OFFSET) & 0x80) != 0;
    }

    /**
     * @param value FECN bit.
     * @return this.
     */
    public BthFlyweight fecn(final boolean value)
    {
        final int b = buffer.getByte(offset + FECN_BECN_OFFSET);
        mutableBuffer.putByte(offset + FECN_BECN_OFFSET, (byte)(value ? b | 0x80 : b & ~0x80));
        return this;
    }

    /**
     * @return BECN bit.
     */
    public boolean becn()
    {
        return (buffer.getByte(offset + FECN_BECN_OFFSET) & 0x40) != 0;
    }

    /**
     * @param value BECN bit.
     * @return this.
     */
    public BthFlyweight becn(final boolean value)
    {
        final int b = buffer.getByte(offset + FECN_BECN_OFFSET);
        mutableBuffer.putByte(offset + FECN_BECN_OFFSET, (byte)(value ? b | 0x40 : b & ~0x40));
        return this;
    }

    /**
     * @return destination QP (24 bits).
     */
    public int destQp()
    {
        return buffer.getInt(offset + FECN_BECN_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFF_FFFF;
    }

    /**
     * @param value destination QP (24 bits).
     * @return this.
     */
    public BthFlyweight destQp(final int value)
    {
        mutableBuffer.putByte(offset + DEST_QP_OFFSET, (byte)(value >>> 16));
        mutableBuffer.putShort(offset + DEST_QP_OFFSET + 1, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return AckReq bit.
     */
    public boolean ackReq()
    {
        return (buffer.getByte(offset + ACK_REQ_OFFSET) & 0x80) != 0;
    }

    /**
     * @param value AckReq bit (the 7 reserved bits are written as zero).
     * @return this.
     */
    public BthFlyweight ackReq(final boolean value)
    {
        mutableBuffer.putByte(offset + ACK_REQ_OFFSET, (byte)(value ? 0x80 : 0));
        return this;
    }

    /**
     * @return PSN (24 bits).
     */
    public int psn()
    {
        return buffer.getInt(offset + ACK_REQ_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFF_FFFF;
    }

    /**
     * @param value PSN (24 bits).
     * @return this.
     */
    public BthFlyweight psn(final int value)
    {
        mutableBuffer.putByte(offset + PSN_OFFSET, (byte)(value >>> 16));
        mutableBuffer.putShort(offset + PSN_OFFSET + 1, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    private int flagsByte()
    {
        return buffer.getByte(offset + FLAGS_OFFSET) & 0xFF;
    }

    private BthFlyweight flagsByte(final int value)
    {
        mutableBuffer.putByte(offset + FLAGS_OFFSET, (byte)value);
        return this;
    }
}
