package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the DTA Key-Write sub-header: redundancy N u8, key u32, then {@code dataLength} data bytes
 * (slotSize - 4; 4 by default, so 9 bytes in all).
 * <p>
 * The data bytes are copied verbatim into the collector slot, so they are exposed as a byte range
 * ({@link #dataOffset()}, {@link #dataLength()}) plus word accessors for convenience.
 */
public final class KeyWriteFlyweight extends BufferFlyweight
{
    /** Offset of the redundancy level N. */
    public static final int REDUNDANCY_OFFSET = 0;
    /** Offset of the key. */
    public static final int KEY_OFFSET = 1;
    /** Offset of the data bytes. */
    public static final int DATA_OFFSET = 5;
    /** Length of the fixed part (redundancy + key). */
    public static final int FIXED_LENGTH = 5;
    /** Length with the default 4 data bytes. */
    public static final int DEFAULT_LENGTH = FIXED_LENGTH + DtaOpcode.DEFAULT_KEY_WRITE_DATA_LENGTH;

    private int offset;
    private int dataLength = DtaOpcode.DEFAULT_KEY_WRITE_DATA_LENGTH;

    /**
     * Wrap with the default data length of 4 bytes.
     *
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the sub-header.
     * @return this.
     */
    public KeyWriteFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        return wrap(buffer, offset, DtaOpcode.DEFAULT_KEY_WRITE_DATA_LENGTH);
    }

    /**
     * @param buffer     the frame buffer (mutable if setters are used).
     * @param offset     offset of the sub-header.
     * @param dataLength data bytes (slotSize - 4: 4, 12 or 28).
     * @return this.
     */
    public KeyWriteFlyweight wrap(final DirectBuffer buffer, final int offset, final int dataLength)
    {
        wrapBuffer(buffer);
        this.offset = offset;
        this.dataLength = dataLength;
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
     * @return offset of the sub-header in the buffer.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return sub-header length: 5 + data length.
     */
    public int length()
    {
        return FIXED_LENGTH + dataLength;
    }

    /**
     * @return redundancy level N.
     */
    public int redundancy()
    {
        return buffer.getByte(offset + REDUNDANCY_OFFSET) & 0xFF;
    }

    /**
     * @param value redundancy level N.
     * @return this.
     */
    public KeyWriteFlyweight redundancy(final int value)
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
    public KeyWriteFlyweight key(final long value)
    {
        mutableBuffer.putInt(offset + KEY_OFFSET, (int)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return absolute offset of the data bytes in the buffer.
     */
    public int dataOffset()
    {
        return offset + DATA_OFFSET;
    }

    /**
     * @return number of data bytes.
     */
    public int dataLength()
    {
        return dataLength;
    }

    /**
     * @return the first data word.
     */
    public long data()
    {
        return dataWord(0);
    }

    /**
     * @param value the first data word.
     * @return this.
     */
    public KeyWriteFlyweight data(final long value)
    {
        return dataWord(0, value);
    }

    /**
     * @param index word index, 0 .. dataLength / 4 - 1.
     * @return the data word.
     */
    public long dataWord(final int index)
    {
        return buffer.getInt(offset + DATA_OFFSET + 4 * index, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * @param index word index, 0 .. dataLength / 4 - 1.
     * @param value the data word.
     * @return this.
     */
    public KeyWriteFlyweight dataWord(final int index, final long value)
    {
        mutableBuffer.putInt(offset + DATA_OFFSET + 4 * index, (int)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * Copy the data bytes out verbatim.
     *
     * @param dst       destination.
     * @param dstOffset destination offset.
     */
    public void getData(final MutableDirectBuffer dst, final int dstOffset)
    {
        dst.putBytes(dstOffset, buffer, offset + DATA_OFFSET, dataLength);
    }

    /**
     * Copy {@link #dataLength()} bytes in verbatim.
     *
     * @param src       source.
     * @param srcOffset source offset.
     * @return this.
     */
    public KeyWriteFlyweight putData(final DirectBuffer src, final int srcOffset)
    {
        mutableBuffer.putBytes(offset + DATA_OFFSET, src, srcOffset, dataLength);
        return this;
    }
}
