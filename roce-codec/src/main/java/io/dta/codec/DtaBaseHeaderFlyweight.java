package io.dta.codec;

import org.agrona.DirectBuffer;

/**
 * Flyweight over the DTA base header in either form; the form is chosen when wrapping.
 * <ul>
 *     <li>{@link DtaBaseHeaderForm#THREE}: opcode, seqnum, flags.</li>
 *     <li>{@link DtaBaseHeaderForm#TWO}: opcode, flags (no seqnum).</li>
 * </ul>
 * Flag bits: bit 7 immediate, bit 6 retransmittable, bit 5 essential. In the 2-byte form only {@code immediate}
 * is defined (the reference Reporter leaves the other bits uninitialised), so {@link #retransmittable()} and
 * {@link #essential()} read false there.
 */
public final class DtaBaseHeaderFlyweight extends BufferFlyweight
{
    /** Offset of the opcode. */
    public static final int OPCODE_OFFSET = 0;
    /** Offset of the seqnum in the 3-byte form. */
    public static final int SEQNUM_OFFSET = 1;
    /** Offset of the flags in the 3-byte form. */
    public static final int FLAGS_OFFSET_THREE = 2;
    /** Offset of the flags in the 2-byte form. */
    public static final int FLAGS_OFFSET_TWO = 1;
    /** Flag bit: immediate. */
    public static final int FLAG_IMMEDIATE = 0x80;
    /** Flag bit: retransmittable (sequence tracking). */
    public static final int FLAG_RETRANSMITTABLE = 0x40;
    /** Flag bit: essential (never dropped by a grace period). */
    public static final int FLAG_ESSENTIAL = 0x20;

    private int offset;
    private int length = 3;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the base header.
     * @param form   {@link DtaBaseHeaderForm#THREE} or {@link DtaBaseHeaderForm#TWO}.
     * @return this.
     * @throws IllegalArgumentException for {@link DtaBaseHeaderForm#AUTO} (resolve the form first).
     */
    public DtaBaseHeaderFlyweight wrap(final DirectBuffer buffer, final int offset, final DtaBaseHeaderForm form)
    {
        if (form == DtaBaseHeaderForm.AUTO)
        {
            throw new IllegalArgumentException("resolve AUTO to THREE or TWO before wrapping");
        }
        wrapBuffer(buffer);
        this.offset = offset;
        this.length = form.length();
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
     * @return header length, 3 or 2.
     */
    public int length()
    {
        return length;
    }

    /**
     * @return the form this header was wrapped with.
     */
    public DtaBaseHeaderForm form()
    {
        return length == 3 ? DtaBaseHeaderForm.THREE : DtaBaseHeaderForm.TWO;
    }

    /**
     * @return true in the 3-byte form.
     */
    public boolean hasSeqnum()
    {
        return length == 3;
    }

    /**
     * @return the opcode.
     */
    public int opcode()
    {
        return buffer.getByte(offset + OPCODE_OFFSET) & 0xFF;
    }

    /**
     * @param opcode the opcode.
     * @return this.
     */
    public DtaBaseHeaderFlyweight opcode(final int opcode)
    {
        mutableBuffer.putByte(offset + OPCODE_OFFSET, (byte)opcode);
        return this;
    }

    /**
     * @return the seqnum in the 3-byte form, 0 in the 2-byte form.
     */
    public int seqnum()
    {
        return length == 3 ? buffer.getByte(offset + SEQNUM_OFFSET) & 0xFF : 0;
    }

    /**
     * Set the seqnum; ignored in the 2-byte form, which has no such field.
     *
     * @param seqnum the seqnum.
     * @return this.
     */
    public DtaBaseHeaderFlyweight seqnum(final int seqnum)
    {
        if (length == 3)
        {
            mutableBuffer.putByte(offset + SEQNUM_OFFSET, (byte)seqnum);
        }
        return this;
    }

    /**
     * @return the raw flags byte.
     */
    public int flags()
    {
        return buffer.getByte(offset + flagsOffset()) & 0xFF;
    }

    /**
     * @param flags the raw flags byte.
     * @return this.
     */
    public DtaBaseHeaderFlyweight flags(final int flags)
    {
        mutableBuffer.putByte(offset + flagsOffset(), (byte)flags);
        return this;
    }

    /**
     * @return the immediate flag.
     */
    public boolean immediate()
    {
        return (flags() & FLAG_IMMEDIATE) != 0;
    }

    /**
     * @param value the immediate flag.
     * @return this.
     */
    public DtaBaseHeaderFlyweight immediate(final boolean value)
    {
        return setFlag(FLAG_IMMEDIATE, value);
    }

    /**
     * @return the retransmittable flag (always false in the 2-byte form).
     */
    public boolean retransmittable()
    {
        return length == 3 && (flags() & FLAG_RETRANSMITTABLE) != 0;
    }

    /**
     * @param value the retransmittable flag (written in either form).
     * @return this.
     */
    public DtaBaseHeaderFlyweight retransmittable(final boolean value)
    {
        return setFlag(FLAG_RETRANSMITTABLE, value);
    }

    /**
     * @return the essential flag (always false in the 2-byte form).
     */
    public boolean essential()
    {
        return length == 3 && (flags() & FLAG_ESSENTIAL) != 0;
    }

    /**
     * @param value the essential flag (written in either form).
     * @return this.
     */
    public DtaBaseHeaderFlyweight essential(final boolean value)
    {
        return setFlag(FLAG_ESSENTIAL, value);
    }

    private DtaBaseHeaderFlyweight setFlag(final int mask, final boolean value)
    {
        final int flags = flags();
        return flags(value ? flags | mask : flags & ~mask);
    }

    private int flagsOffset()
    {
        return length == 3 ? FLAGS_OFFSET_THREE : FLAGS_OFFSET_TWO;
    }
}
