package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the Atomic Extended Transport Header: VA u64, R_Key u32, swap/add data u64, compare data u64
 * (28 bytes). For FETCH_ADD the add operand is {@link #swapAddData()}; compare is ignored (send 0).
 * <p>
 * Zero-allocation flyweight; setters need a {@link MutableDirectBuffer}. Bounds are the caller's concern (the
 * decoder checks lengths before wrapping).
 */
public final class AtomicEthFlyweight extends BufferFlyweight
{
    /** Offset of the virtual address (8-byte aligned). */
    public static final int VIRTUAL_ADDRESS_OFFSET = 0;
    /** Offset of the R_Key. */
    public static final int R_KEY_OFFSET = 8;
    /** Offset of the swap (CMP_SWAP) or add (FETCH_ADD) operand. */
    public static final int SWAP_ADD_DATA_OFFSET = 12;
    /** Offset of the compare operand (CMP_SWAP only). */
    public static final int COMPARE_DATA_OFFSET = 20;
    /** Header length in bytes. */
    public static final int LENGTH = 28;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the header.
     * @return this.
     */
    public AtomicEthFlyweight wrap(final DirectBuffer buffer, final int offset)
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
     * @return virtual address (8-byte aligned).
     */
    public long virtualAddress()
    {
        return buffer.getLong(offset + VIRTUAL_ADDRESS_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param value virtual address (8-byte aligned).
     * @return this.
     */
    public AtomicEthFlyweight virtualAddress(final long value)
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
    public AtomicEthFlyweight rKey(final long value)
    {
        mutableBuffer.putInt(offset + R_KEY_OFFSET, (int)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return swap (CMP_SWAP) or add (FETCH_ADD) operand.
     */
    public long swapAddData()
    {
        return buffer.getLong(offset + SWAP_ADD_DATA_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param value swap (CMP_SWAP) or add (FETCH_ADD) operand.
     * @return this.
     */
    public AtomicEthFlyweight swapAddData(final long value)
    {
        mutableBuffer.putLong(offset + SWAP_ADD_DATA_OFFSET, value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return compare operand (CMP_SWAP only).
     */
    public long compareData()
    {
        return buffer.getLong(offset + COMPARE_DATA_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param value compare operand (CMP_SWAP only).
     * @return this.
     */
    public AtomicEthFlyweight compareData(final long value)
    {
        mutableBuffer.putLong(offset + COMPARE_DATA_OFFSET, value, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
