package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the body of a Sketch-Merge NACK (this project's format, docs/sketch.md): the translator asks a
 * switch to resend its sketch from a column. The UDP payload is a 3-byte DTA base header (opcode 0x05, seqnum 0,
 * flags with {@link DtaNackFlyweight#NACK_FLAG}) followed by this body: sketchId u16, switchId u16, epoch u32,
 * column u16 (the first column to resend), reserved u16.
 * <p>
 * Zero-allocation flyweight; setters need a {@link MutableDirectBuffer}.
 */
public final class SketchNackFlyweight extends BufferFlyweight
{
    /** Offset of the sketch id. */
    public static final int SKETCH_ID_OFFSET = 0;
    /** Offset of the switch id. */
    public static final int SWITCH_ID_OFFSET = 2;
    /** Offset of the epoch. */
    public static final int EPOCH_OFFSET = 4;
    /** Offset of the column to resend from. */
    public static final int COLUMN_OFFSET = 8;
    /** Offset of the reserved half-word. */
    public static final int RESERVED_OFFSET = 10;
    /** Body length in bytes. */
    public static final int LENGTH = 12;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the body.
     * @return this.
     */
    public SketchNackFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        wrapBuffer(buffer);
        this.offset = offset;
        return this;
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
    public SketchNackFlyweight sketchId(final int value)
    {
        mutableBuffer.putShort(offset + SKETCH_ID_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return switch id.
     */
    public int switchId()
    {
        return buffer.getShort(offset + SWITCH_ID_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value switch id.
     * @return this.
     */
    public SketchNackFlyweight switchId(final int value)
    {
        mutableBuffer.putShort(offset + SWITCH_ID_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return epoch (unsigned 32-bit).
     */
    public long epoch()
    {
        return buffer.getInt(offset + EPOCH_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * @param value epoch.
     * @return this.
     */
    public SketchNackFlyweight epoch(final long value)
    {
        mutableBuffer.putInt(offset + EPOCH_OFFSET, (int)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return the first column the switch must resend.
     */
    public int column()
    {
        return buffer.getShort(offset + COLUMN_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value the first column the switch must resend.
     * @return this.
     */
    public SketchNackFlyweight column(final int value)
    {
        mutableBuffer.putShort(offset + COLUMN_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @param value the reserved half-word (0).
     * @return this.
     */
    public SketchNackFlyweight reserved(final int value)
    {
        mutableBuffer.putShort(offset + RESERVED_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
