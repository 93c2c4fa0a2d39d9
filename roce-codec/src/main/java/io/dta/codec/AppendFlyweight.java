package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the DTA Append sub-header: list ID u32, data u32 (8 bytes).
 * <p>
 * Zero-allocation flyweight; setters need a {@link MutableDirectBuffer}. Bounds are the caller's concern (the
 * decoder checks lengths before wrapping).
 */
public final class AppendFlyweight extends BufferFlyweight
{
    /** Offset of the list ID. */
    public static final int LIST_ID_OFFSET = 0;
    /** Offset of the data word. */
    public static final int DATA_OFFSET = 4;
    /** Header length in bytes. */
    public static final int LENGTH = 8;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the header.
     * @return this.
     */
    public AppendFlyweight wrap(final DirectBuffer buffer, final int offset)
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
     * @return list ID.
     */
    public long listId()
    {
        return buffer.getInt(offset + LIST_ID_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * @param value list ID.
     * @return this.
     */
    public AppendFlyweight listId(final long value)
    {
        mutableBuffer.putInt(offset + LIST_ID_OFFSET, (int)value, ByteOrder.BIG_ENDIAN);
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
    public AppendFlyweight data(final long value)
    {
        mutableBuffer.putInt(offset + DATA_OFFSET, (int)value, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
