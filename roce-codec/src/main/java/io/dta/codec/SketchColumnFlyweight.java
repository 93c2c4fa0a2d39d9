package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the DTA Sketch-Merge sub-header (opcode 0x05, this project's format, docs/sketch.md): sketchId
 * u16, switchId u16, epoch u32, column u16, rows u8, reserved u8, then {@code rows} counters u32, row 0 first.
 * <p>
 * Count sketch counters are two's-complement signed; {@link #counter(int)} returns the raw 32 bits as an
 * {@code int}, so callers pick the interpretation. Zero-allocation flyweight; setters need a
 * {@link MutableDirectBuffer}. Bounds are the caller's concern (the decoder checks that all {@link #rows()}
 * counters are present before wrapping).
 */
public final class SketchColumnFlyweight extends BufferFlyweight
{
    /** Offset of the sketch id. */
    public static final int SKETCH_ID_OFFSET = 0;
    /** Offset of the reporting switch's id. */
    public static final int SWITCH_ID_OFFSET = 2;
    /** Offset of the epoch number. */
    public static final int EPOCH_OFFSET = 4;
    /** Offset of the column index. */
    public static final int COLUMN_OFFSET = 8;
    /** Offset of the row count. */
    public static final int ROWS_OFFSET = 10;
    /** Offset of the reserved byte (sent as 0, ignored on receipt). */
    public static final int RESERVED_OFFSET = 11;
    /** Offset of the first counter. */
    public static final int COUNTERS_OFFSET = 12;
    /** Length of the part before the counters. */
    public static final int FIXED_LENGTH = COUNTERS_OFFSET;
    /** Bytes per counter. */
    public static final int COUNTER_LENGTH = 4;

    private int offset;

    /**
     * Length of a sub-header carrying {@code rows} counters.
     *
     * @param rows counters in the column.
     * @return {@code 12 + 4 * rows}.
     */
    public static int length(final int rows)
    {
        return FIXED_LENGTH + rows * COUNTER_LENGTH;
    }

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the sub-header.
     * @return this.
     */
    public SketchColumnFlyweight wrap(final DirectBuffer buffer, final int offset)
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
     * @return offset of the sub-header in the buffer.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return sketch id.
     */
    public int sketchId()
    {
        return buffer.getShort(offset + SKETCH_ID_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value sketch id.
     * @return this.
     */
    public SketchColumnFlyweight sketchId(final int value)
    {
        mutableBuffer.putShort(offset + SKETCH_ID_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return the reporting switch's id, 0..switches-1.
     */
    public int switchId()
    {
        return buffer.getShort(offset + SWITCH_ID_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value the reporting switch's id.
     * @return this.
     */
    public SketchColumnFlyweight switchId(final int value)
    {
        mutableBuffer.putShort(offset + SWITCH_ID_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return measurement epoch (unsigned 32-bit).
     */
    public long epoch()
    {
        return buffer.getInt(offset + EPOCH_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * @param value measurement epoch.
     * @return this.
     */
    public SketchColumnFlyweight epoch(final long value)
    {
        mutableBuffer.putInt(offset + EPOCH_OFFSET, (int)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return column index, 0..columns-1.
     */
    public int column()
    {
        return buffer.getShort(offset + COLUMN_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value column index.
     * @return this.
     */
    public SketchColumnFlyweight column(final int value)
    {
        mutableBuffer.putShort(offset + COLUMN_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return number of counters that follow.
     */
    public int rows()
    {
        return buffer.getByte(offset + ROWS_OFFSET) & 0xFF;
    }

    /**
     * @param value number of counters that follow.
     * @return this.
     */
    public SketchColumnFlyweight rows(final int value)
    {
        mutableBuffer.putByte(offset + ROWS_OFFSET, (byte)value);
        return this;
    }

    /**
     * @return the reserved byte.
     */
    public int reserved()
    {
        return buffer.getByte(offset + RESERVED_OFFSET) & 0xFF;
    }

    /**
     * @param value the reserved byte (0 on the wire).
     * @return this.
     */
    public SketchColumnFlyweight reserved(final int value)
    {
        mutableBuffer.putByte(offset + RESERVED_OFFSET, (byte)value);
        return this;
    }

    /**
     * @param row 0..rows-1.
     * @return the row's raw 32-bit counter (signed for Count sketches, unsigned otherwise).
     */
    public int counter(final int row)
    {
        return buffer.getInt(offset + COUNTERS_OFFSET + row * COUNTER_LENGTH, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param row   0..rows-1.
     * @param value the row's raw 32-bit counter.
     * @return this.
     */
    public SketchColumnFlyweight counter(final int row, final int value)
    {
        mutableBuffer.putInt(offset + COUNTERS_OFFSET + row * COUNTER_LENGTH, value, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
