package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the Atomic Acknowledge Extended Transport Header: the original remote value u64 (8 bytes).
 * <p>
 * Zero-allocation flyweight; setters need a {@link MutableDirectBuffer}. Bounds are the caller's concern (the
 * decoder checks lengths before wrapping).
 */
public final class AtomicAckEthFlyweight extends BufferFlyweight
{
    /** Offset of the value in memory before the atomic. */
    public static final int ORIGINAL_VALUE_OFFSET = 0;
    /** Header length in bytes. */
    public static final int LENGTH = 8;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the header.
     * @return this.
     */
    public AtomicAckEthFlyweight wrap(final DirectBuffer buffer, final int offset)
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
     * @return value in memory before the atomic.
     */
    public long originalValue()
    {
        return buffer.getLong(offset + ORIGINAL_VALUE_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param value value in memory before the atomic.
     * @return this.
     */
    public AtomicAckEthFlyweight originalValue(final long value)
    {
        mutableBuffer.putLong(offset + ORIGINAL_VALUE_OFFSET, value, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
