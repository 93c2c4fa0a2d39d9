package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the ACK Extended Transport Header: syndrome u8, MSN u24 (4 bytes).
 * <p>
 * Syndrome: bit 7 reserved, bits 6..5 type (0 ACK, 1 RNR NAK, 3 NAK), bits 4..0 credit code / RNR timer code /
 * NAK code. The type is parsed as {@code (syndrome >> 5) & 3}, never by comparing the whole byte to 0x1F,
 * because some responders put a real credit count in an ACK.
 * <p>
 * Zero-allocation flyweight; setters need a {@link MutableDirectBuffer}. Bounds are the caller's concern (the
 * decoder checks lengths before wrapping).
 */
public final class AethFlyweight extends BufferFlyweight
{
    /** Offset of the syndrome. */
    public static final int SYNDROME_OFFSET = 0;
    /** Offset of the message sequence number (24 bits). */
    public static final int MSN_OFFSET = 1;
    /** Header length in bytes. */
    public static final int LENGTH = 4;
    /** Syndrome type: ACK. */
    public static final int TYPE_ACK = 0;
    /** Syndrome type: RNR NAK. */
    public static final int TYPE_RNR_NAK = 1;
    /** Syndrome type: reserved. */
    public static final int TYPE_RESERVED = 2;
    /** Syndrome type: NAK. */
    public static final int TYPE_NAK = 3;
    /** NAK code: PSN sequence error. */
    public static final int NAK_PSN_SEQUENCE_ERROR = 0;
    /** NAK code: invalid request. */
    public static final int NAK_INVALID_REQUEST = 1;
    /** NAK code: remote access error. */
    public static final int NAK_REMOTE_ACCESS_ERROR = 2;
    /** NAK code: remote operational error. */
    public static final int NAK_REMOTE_OPERATIONAL_ERROR = 3;
    /** NAK code: invalid RD request. */
    public static final int NAK_INVALID_RD_REQUEST = 4;
    /** Credit code meaning "invalid / no credit information" (what rxe always sends). */
    public static final int CREDIT_INVALID = 0x1F;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the header.
     * @return this.
     */
    public AethFlyweight wrap(final DirectBuffer buffer, final int offset)
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
     * @return syndrome.
     */
    public int syndrome()
    {
        return buffer.getByte(offset + SYNDROME_OFFSET) & 0xFF;
    }

    /**
     * @param value syndrome.
     * @return this.
     */
    public AethFlyweight syndrome(final int value)
    {
        mutableBuffer.putByte(offset + SYNDROME_OFFSET, (byte)value);
        return this;
    }

    /**
     * @return message sequence number (24 bits).
     */
    public int msn()
    {
        return buffer.getInt(offset + MSN_OFFSET - 1, ByteOrder.BIG_ENDIAN) & 0xFF_FFFF;
    }

    /**
     * @param value message sequence number (24 bits).
     * @return this.
     */
    public AethFlyweight msn(final int value)
    {
        mutableBuffer.putByte(offset + MSN_OFFSET, (byte)(value >>> 16));
        mutableBuffer.putShort(offset + MSN_OFFSET + 1, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @param syndrome a syndrome byte.
     * @return its type: {@link #TYPE_ACK}, {@link #TYPE_RNR_NAK}, {@link #TYPE_RESERVED} or {@link #TYPE_NAK}.
     */
    public static int type(final int syndrome)
    {
        return (syndrome >> 5) & 3;
    }

    /**
     * @param creditCode credit code 0..31.
     * @return an ACK syndrome.
     */
    public static int ackSyndrome(final int creditCode)
    {
        return creditCode & 0x1F;
    }

    /**
     * @param nakCode NAK code 0..31.
     * @return a NAK syndrome.
     */
    public static int nakSyndrome(final int nakCode)
    {
        return 0x60 | (nakCode & 0x1F);
    }

    /**
     * @param timerCode RNR timer code 0..31.
     * @return an RNR NAK syndrome.
     */
    public static int rnrNakSyndrome(final int timerCode)
    {
        return 0x20 | (timerCode & 0x1F);
    }

    /**
     * @return the syndrome type.
     */
    public int type()
    {
        return type(syndrome());
    }

    /**
     * @return true for an ACK.
     */
    public boolean isAck()
    {
        return type() == TYPE_ACK;
    }

    /**
     * @return true for an RNR NAK.
     */
    public boolean isRnrNak()
    {
        return type() == TYPE_RNR_NAK;
    }

    /**
     * @return true for a NAK (not RNR).
     */
    public boolean isNak()
    {
        return type() == TYPE_NAK;
    }

    /**
     * @return the low 5 bits read as a NAK code (meaningful when {@link #isNak()}).
     */
    public int nakCode()
    {
        return syndrome() & 0x1F;
    }

    /**
     * @return the low 5 bits read as a credit code (meaningful when {@link #isAck()}).
     */
    public int creditCode()
    {
        return syndrome() & 0x1F;
    }

    /**
     * @return the low 5 bits read as an RNR timer code (meaningful when {@link #isRnrNak()}).
     */
    public int rnrTimerCode()
    {
        return syndrome() & 0x1F;
    }
}
