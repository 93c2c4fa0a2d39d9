package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the DTA NACK message sent to a reporter: seqnum u8, then a byte whose bit 7 is the NACK flag
 * (2 bytes).
 * <p>
 * Zero-allocation flyweight; setters need a {@link MutableDirectBuffer}. Bounds are the caller's concern (the
 * decoder checks lengths before wrapping).
 */
public final class DtaNackFlyweight extends BufferFlyweight
{
    /** Offset of the sequence number. */
    public static final int SEQNUM_OFFSET = 0;
    /** Offset of the flags byte (bit 7 = NACK). */
    public static final int FLAGS_OFFSET = 1;
    /** Header length in bytes. */
    public static final int LENGTH = 2;
    /** Bit of the flags byte that marks a NACK. */
    public static final int NACK_FLAG = 0x80;
    /** UDP destination port of NACKs (reference value). */
    public static final int NACK_UDP_PORT = 40044;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the header.
     * @return this.
     */
    public DtaNackFlyweight wrap(final DirectBuffer buffer, final int offset)
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
     * @return sequence number.
     */
    public int seqnum()
    {
        return buffer.getByte(offset + SEQNUM_OFFSET) & 0xFF;
    }

    /**
     * @param value sequence number.
     * @return this.
     */
    public DtaNackFlyweight seqnum(final int value)
    {
        mutableBuffer.putByte(offset + SEQNUM_OFFSET, (byte)value);
        return this;
    }

    /**
     * @return flags byte (bit 7 = NACK).
     */
    public int flags()
    {
        return buffer.getByte(offset + FLAGS_OFFSET) & 0xFF;
    }

    /**
     * @param value flags byte (bit 7 = NACK).
     * @return this.
     */
    public DtaNackFlyweight flags(final int value)
    {
        mutableBuffer.putByte(offset + FLAGS_OFFSET, (byte)value);
        return this;
    }

    /**
     * @return true if the NACK bit is set.
     */
    public boolean nack()
    {
        return (flags() & NACK_FLAG) != 0;
    }

    /**
     * @param value the NACK bit; the reserved bits are written as zero.
     * @return this.
     */
    public DtaNackFlyweight nack(final boolean value)
    {
        return flags(value ? NACK_FLAG : 0);
    }
}
