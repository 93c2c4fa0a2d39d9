package io.dta.collector.layout;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the 64-byte header in front of every epoch area of a sketch region (docs/sketch.md), all fields
 * little-endian like the rest of collector memory:
 * <pre>
 *   0  u32 epoch             4  u8 state (0 empty, 1 open, 2 complete, 3 incomplete)
 *   5  u8  type (1 count-min, 2 count-sketch, 3 hyperloglog)      6  u16 rows
 *   8  u32 columns          12  u16 switches expected            14  u16 contributors
 *  16  u32 completeColumns  20  12 bytes reserved                32  32-byte contributor bitmap
 * </pre>
 * Bit s of the bitmap (byte s/8, bit s%8) is set when switch s sent every column. Zero-allocation; setters need a
 * {@link MutableDirectBuffer} (tests and the translator build header images with them).
 */
public final class SketchEpochHeader
{
    /** Offset of the epoch number. */
    public static final int EPOCH_OFFSET = 0;
    /** Offset of the state byte. */
    public static final int STATE_OFFSET = 4;
    /** Offset of the type byte. */
    public static final int TYPE_OFFSET = 5;
    /** Offset of the row count. */
    public static final int ROWS_OFFSET = 6;
    /** Offset of the column count. */
    public static final int COLUMNS_OFFSET = 8;
    /** Offset of the expected switch count. */
    public static final int SWITCHES_OFFSET = 12;
    /** Offset of the contributor count. */
    public static final int CONTRIBUTORS_OFFSET = 14;
    /** Offset of the complete-column count. */
    public static final int COMPLETE_COLUMNS_OFFSET = 16;
    /** Offset of the reserved bytes. */
    public static final int RESERVED_OFFSET = 20;
    /** Offset of the contributor bitmap. */
    public static final int BITMAP_OFFSET = 32;
    /** Bytes of the contributor bitmap (256 switches). */
    public static final int BITMAP_LENGTH = 32;
    /** Length of the header. */
    public static final int LENGTH = SketchLayout.HEADER_LENGTH;

    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    /**
     * @param buffer memory holding the header (mutable if setters are used).
     * @param offset offset of the header.
     * @return this.
     */
    public SketchEpochHeader wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer ? (MutableDirectBuffer)buffer : null;
        this.offset = offset;
        return this;
    }

    /**
     * @return the epoch (u32).
     */
    public long epoch()
    {
        return buffer.getInt(offset + EPOCH_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * @param value the epoch (u32).
     * @return this.
     */
    public SketchEpochHeader epoch(final long value)
    {
        mutableBuffer.putInt(offset + EPOCH_OFFSET, (int)value, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return the state byte ({@link SketchLayout#STATE_EMPTY} ...).
     */
    public int state()
    {
        return buffer.getByte(offset + STATE_OFFSET) & 0xFF;
    }

    /**
     * @param value the state byte.
     * @return this.
     */
    public SketchEpochHeader state(final int value)
    {
        mutableBuffer.putByte(offset + STATE_OFFSET, (byte)value);
        return this;
    }

    /**
     * @return the type code ({@link SketchLayout#TYPE_COUNT_MIN} ...).
     */
    public int type()
    {
        return buffer.getByte(offset + TYPE_OFFSET) & 0xFF;
    }

    /**
     * @param value the type code.
     * @return this.
     */
    public SketchEpochHeader type(final int value)
    {
        mutableBuffer.putByte(offset + TYPE_OFFSET, (byte)value);
        return this;
    }

    /**
     * @return rows (u16).
     */
    public int rows()
    {
        return buffer.getShort(offset + ROWS_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value rows.
     * @return this.
     */
    public SketchEpochHeader rows(final int value)
    {
        mutableBuffer.putShort(offset + ROWS_OFFSET, (short)value, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return columns (u32).
     */
    public long columns()
    {
        return buffer.getInt(offset + COLUMNS_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * @param value columns.
     * @return this.
     */
    public SketchEpochHeader columns(final long value)
    {
        mutableBuffer.putInt(offset + COLUMNS_OFFSET, (int)value, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return switches expected (u16).
     */
    public int switches()
    {
        return buffer.getShort(offset + SWITCHES_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value switches expected.
     * @return this.
     */
    public SketchEpochHeader switches(final int value)
    {
        mutableBuffer.putShort(offset + SWITCHES_OFFSET, (short)value, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return switches that sent every column (u16).
     */
    public int contributors()
    {
        return buffer.getShort(offset + CONTRIBUTORS_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value switches that sent every column.
     * @return this.
     */
    public SketchEpochHeader contributors(final int value)
    {
        mutableBuffer.putShort(offset + CONTRIBUTORS_OFFSET, (short)value, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return columns every switch contributed to (u32).
     */
    public long completeColumns()
    {
        return buffer.getInt(offset + COMPLETE_COLUMNS_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * @param value columns every switch contributed to.
     * @return this.
     */
    public SketchEpochHeader completeColumns(final long value)
    {
        mutableBuffer.putInt(offset + COMPLETE_COLUMNS_OFFSET, (int)value, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @param switchId a switch, 0..255.
     * @return true when its bit is set in the contributor bitmap.
     */
    public boolean contributed(final int switchId)
    {
        return 0 != (buffer.getByte(offset + BITMAP_OFFSET + (switchId >>> 3)) & (1 << (switchId & 7)));
    }

    /**
     * @param switchId a switch, 0..255.
     * @param value    whether it sent every column.
     * @return this.
     */
    public SketchEpochHeader contributed(final int switchId, final boolean value)
    {
        final int index = offset + BITMAP_OFFSET + (switchId >>> 3);
        final int bits = buffer.getByte(index) & 0xFF;
        final int bit = 1 << (switchId & 7);
        mutableBuffer.putByte(index, (byte)(value ? bits | bit : bits & ~bit));
        return this;
    }

    /**
     * @param other another header.
     * @return true when all 64 bytes are equal (the consistency check of a read).
     */
    public boolean sameAs(final SketchEpochHeader other)
    {
        for (int i = 0; i < LENGTH; i += 8)
        {
            if (buffer.getLong(offset + i) != other.buffer.getLong(other.offset + i))
            {
                return false;
            }
        }
        return true;
    }
}
