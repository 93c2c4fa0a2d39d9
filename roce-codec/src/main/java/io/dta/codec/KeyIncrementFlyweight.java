package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the DTA Key-Increment sub-header: redundancy N u8, key u32, counter u64 (13 bytes).
 * <p>
 * Zero-allocation flyweight; setters need a {@link MutableDirectBuffer}. Bounds are the caller's concern (the
 * decoder checks lengths before wrapping).
 */
public final class KeyIncrementFlyweight extends BufferFlyweight
{
    /** Offset of the redundancy level N (number of copies). */
    public static final int REDUNDANCY_OFFSET = 0;
    /** Offset of the key. */
    public static final int KEY_OFFSET = 1;
    /** Offset of the counter (added verbatim). */
    public static final int COUNTER_OFFSET = 5;
    /** Header length in bytes. */
    public static final int LENGTH = 13;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the header.
     * @return this.
     */
    public KeyIncrementFlyweight wrap(final DirectBuffer buffer, final int offset)
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
     * @return redundancy level N (number of copies).
     */
    public int redundancy()
    {
        return buffer.getByte(offset + REDUNDANCY_OFFSET) & 0xFF;
    }

    /**
     * @param value redundancy level N (number of copies).
     * @return this.
     */
    public KeyIncrementFlyweight redundancy(final int value)
    {
        mutableBuffer.putByte(offset + REDUNDANCY_OFFSET, (byte)value);
        return this;
    }

    /**
     * @return key.
     */
    public long key()
    {
        return buffer.getInt(offset + KEY_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * @param value key.
     * @return this.
     */
    public KeyIncrementFlyweight key(final long value)
    {
        mutableBuffer.putInt(offset + KEY_OFFSET, (int)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return counter (added verbatim).
     */
    public long counter()
    {
        return buffer.getLong(offset + COUNTER_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param value counter (added verbatim).
     * @return this.
     */
    public KeyIncrementFlyweight counter(final long value)
    {
        mutableBuffer.putLong(offset + COUNTER_OFFSET, value, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
