package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the RDMA Extended Transport Header: VA u64, R_Key u32, DMA length u32 (16 bytes).
 * <p>
 * Zero-allocation flyweight; setters need a {@link MutableDirectBuffer}. Bounds are the caller's concern (the
 * decoder checks lengths before wrapping).
 */
public final class RethFlyweight extends BufferFlyweight
{
    /** Offset of the virtual address. */
    public static final int VIRTUAL_ADDRESS_OFFSET = 0;
    /** Offset of the R_Key. */
    public static final int R_KEY_OFFSET = 8;
    /** Offset of the DMA length (whole message, bytes). */
    public static final int DMA_LENGTH_OFFSET = 12;
    /** Header length in bytes. */
    public static final int LENGTH = 16;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the header.
     * @return this.
     */
    public RethFlyweight wrap(final DirectBuffer buffer, final int offset)
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
     * @return virtual address.
     */
    public long virtualAddress()
    {
        return buffer.getLong(offset + VIRTUAL_ADDRESS_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param value virtual address.
     * @return this.
     */
    public RethFlyweight virtualAddress(final long value)
    {
        mutableBuffer.putLong(offset + VIRTUAL_ADDRESS_OFFSET, value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return R_Key.
     */
    public long rKey()
    {
        return buffer.getInt(offset + R_KEY_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * @param value R_Key.
     * @return this.
     */
    public RethFlyweight rKey(final long value)
    {
        mutableBuffer.putInt(offset + R_KEY_OFFSET, (int)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return DMA length (whole message, bytes).
     */
    public long dmaLength()
    {
        return buffer.getInt(offset + DMA_LENGTH_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * @param value DMA length (whole message, bytes).
     * @return this.
     */
    public RethFlyweight dmaLength(final long value)
    {
        mutableBuffer.putInt(offset + DMA_LENGTH_OFFSET, (int)value, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
