package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the DTA Postcard sub-header: key (flow) u32, hop u8, data u32 (9 bytes).
 * <p>
 * Zero-allocation flyweight; setters need a {@link MutableDirectBuffer}. Bounds are the caller's concern (the
 * decoder checks lengths before wrapping).
 */
public final class PostcardFlyweight extends BufferFlyweight
{
    /** Offset of the key (flow ID). */
    public static final int KEY_OFFSET = 0;
    /** Offset of the hop number, 1..H. */
    public static final int HOP_OFFSET = 4;
    /** Offset of the data word. */
    public static final int DATA_OFFSET = 5;
    /** Header length in bytes. */
    public static final int LENGTH = 9;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the header.
     * @return this.
     */
    public PostcardFlyweight wrap(final DirectBuffer buffer, final int offset)
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
     * @return key (flow ID).
     */
    public long key()
    {
        return buffer.getInt(offset + KEY_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * @param value key (flow ID).
     * @return this.
     */
    public PostcardFlyweight key(final long value)
    {
        mutableBuffer.putInt(offset + KEY_OFFSET, (int)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return hop number, 1..H.
     */
    public int hop()
    {
        return buffer.getByte(offset + HOP_OFFSET) & 0xFF;
    }

    /**
     * @param value hop number, 1..H.
     * @return this.
     */
    public PostcardFlyweight hop(final int value)
    {
        mutableBuffer.putByte(offset + HOP_OFFSET, (byte)value);
        return this;
    }

    /**
     * @return data word.
     */
    public long data()
    {
        return buffer.getInt(offset + DATA_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * @param value data word.
     * @return this.
     */
    public PostcardFlyweight data(final long value)
    {
        mutableBuffer.putInt(offset + DATA_OFFSET, (int)value, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
