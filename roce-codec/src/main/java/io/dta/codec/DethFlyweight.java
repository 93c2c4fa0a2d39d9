package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the Datagram Extended Transport Header of UD packets: Q_Key u32, reserved u8, source QP u24
 * (8 bytes). Connection management MADs to QP1 carry one with Q_Key {@link #GSI_Q_KEY} and source QP 1.
 * <p>
 * Zero-allocation flyweight; setters need a {@link MutableDirectBuffer}. Bounds are the caller's concern.
 */
public final class DethFlyweight extends BufferFlyweight
{
    /** Offset of the Q_Key. */
    public static final int Q_KEY_OFFSET = 0;
    /** Offset of the reserved byte. */
    public static final int RESERVED_OFFSET = 4;
    /** Offset of the 24-bit source QP. */
    public static final int SRC_QP_OFFSET = 5;
    /** Header length in bytes. */
    public static final int LENGTH = 8;
    /** The well-known Q_Key of the General Services Interface (QP1). */
    public static final long GSI_Q_KEY = 0x8001_0000L;
    /** QP number of the General Services Interface, where CM MADs go. */
    public static final int GSI_QPN = 1;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the header.
     * @return this.
     */
    public DethFlyweight wrap(final DirectBuffer buffer, final int offset)
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
     * @return Q_Key (u32).
     */
    public long qKey()
    {
        return buffer.getInt(offset + Q_KEY_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * @param value Q_Key (u32).
     * @return this.
     */
    public DethFlyweight qKey(final long value)
    {
        mutableBuffer.putInt(offset + Q_KEY_OFFSET, (int)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return source QP (24 bits).
     */
    public int srcQp()
    {
        return buffer.getInt(offset + RESERVED_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFF_FFFF;
    }

    /**
     * Writes the source QP and clears the reserved byte before it.
     *
     * @param value source QP (24 bits).
     * @return this.
     */
    public DethFlyweight srcQp(final int value)
    {
        mutableBuffer.putInt(offset + RESERVED_OFFSET, value & 0xFF_FFFF, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
