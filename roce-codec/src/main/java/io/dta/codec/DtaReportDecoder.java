package io.dta.codec;

import org.agrona.DirectBuffer;

/**
 * The DTA report in a UDP datagram to the DTA port: its opcode, its base-header form (configured, or told by length
 * under {@link DtaBaseHeaderForm#AUTO}), its length against the primitive's, and the flyweights of its base header
 * and primitive. Part of {@link FrameDecoder}, which reads the fields below after a decode; allocates nothing.
 */
final class DtaReportDecoder
{
    final DtaBaseHeaderFlyweight dtaBase = new DtaBaseHeaderFlyweight();
    final KeyWriteFlyweight keyWrite = new KeyWriteFlyweight();
    final KeyIncrementFlyweight keyIncrement = new KeyIncrementFlyweight();
    final AppendFlyweight append = new AppendFlyweight();
    final PostcardFlyweight postcard = new PostcardFlyweight();
    final SketchColumnFlyweight sketchColumn = new SketchColumnFlyweight();

    DtaBaseHeaderForm baseHeaderForm = DtaBaseHeaderForm.THREE;
    int keyWriteDataLength = DtaOpcode.DEFAULT_KEY_WRITE_DATA_LENGTH;

    /** Offset of the base header, or -1 when the datagram had none. */
    int offset;
    /** The opcode (also of an unknown one), or -1. */
    int opcode;
    /** The form of the last report decoded whole; written only when it changes (see {@link FrameDecoder}). */
    DtaBaseHeaderForm form;
    /** Start of the primitive's sub-header, set with {@link #payloadLength} for a report decoded whole. */
    int payloadOffset;
    /** Bytes from the sub-header to the end of the UDP datagram. */
    int payloadLength;

    /**
     * Forget the previous frame's report.
     */
    void reset()
    {
        offset = -1;
        opcode = -1;
    }

    /**
     * Decode the report in a UDP datagram to the DTA port and wrap its flyweights.
     *
     * @param buffer    holding the frame.
     * @param udpOffset offset of the UDP header.
     * @param udpLength the datagram's UDP length, already checked against the IP datagram.
     * @return {@link MalformedReason#NONE} for a report, else why it is malformed.
     */
    MalformedReason decode(final DirectBuffer buffer, final int udpOffset, final int udpLength)
    {
        final int start = udpOffset + UdpFlyweight.HEADER_LENGTH;
        final int available = udpLength - UdpFlyweight.HEADER_LENGTH;
        if (available < 1)
        {
            return MalformedReason.TRUNCATED_DTA;
        }
        offset = start;
        final int opcode = buffer.getByte(start) & 0xFF;
        this.opcode = opcode;
        if (!DtaOpcode.isKnown(opcode))
        {
            return MalformedReason.UNKNOWN_DTA_OPCODE;
        }

        final int subLength = DtaOpcode.SKETCH_MERGE == opcode ?
            sketchSubHeaderLength(buffer, start, available) : DtaOpcode.subHeaderLength(opcode, keyWriteDataLength);
        if (subLength < 0)
        {
            return MalformedReason.TRUNCATED_DTA;
        }
        final DtaBaseHeaderForm form = DtaBaseHeaderForm.AUTO == baseHeaderForm ?
            formByLength(available, subLength) : baseHeaderForm;
        if (null == form)
        {
            return available < DtaBaseHeaderForm.TWO.length() + subLength ?
                MalformedReason.TRUNCATED_DTA : MalformedReason.BAD_DTA_LENGTH;
        }
        final int baseLength = form.length();
        if (available < baseLength + subLength)
        {
            return MalformedReason.TRUNCATED_DTA;
        }
        if (available > baseLength + subLength && DtaOpcode.KEY_WRITE != opcode)
        {
            // Every primitive has a fixed size (translation.md §1), and the UDP length, not the frame, says where the
            // report ends (Ethernet padding is outside it): more bytes than the size is a report of another shape,
            // for example the three-byte form under a configured two-byte form, whose fields would be misread. A
            // Sketch-Merge column's size is fixed by its rows byte: counters beyond its rows are no column of it.
            return MalformedReason.BAD_DTA_LENGTH;
        }

        if (this.form != form)
        {
            this.form = form;
        }
        dtaBase.wrap(buffer, start, form);
        final int sub = start + baseLength;
        payloadOffset = sub;
        payloadLength = start + available - sub;
        wrapPrimitive(buffer, opcode, sub);
        return MalformedReason.NONE;
    }

    /**
     * Under {@code baseHeader: auto}: the form whose length, with the primitive's, is the payload's.
     *
     * @return the form, or null when neither fits.
     */
    private static DtaBaseHeaderForm formByLength(final int available, final int subLength)
    {
        if (available == DtaBaseHeaderForm.THREE.length() + subLength)
        {
            return DtaBaseHeaderForm.THREE;
        }
        if (available == DtaBaseHeaderForm.TWO.length() + subLength)
        {
            return DtaBaseHeaderForm.TWO;
        }
        return null;
    }

    private void wrapPrimitive(final DirectBuffer buffer, final int opcode, final int sub)
    {
        switch (opcode)
        {
            case DtaOpcode.KEY_WRITE -> keyWrite.wrap(buffer, sub, keyWriteDataLength);
            case DtaOpcode.APPEND -> append.wrap(buffer, sub);
            case DtaOpcode.KEY_INCREMENT -> keyIncrement.wrap(buffer, sub);
            case DtaOpcode.POSTCARD -> postcard.wrap(buffer, sub);
            case DtaOpcode.SKETCH_MERGE -> sketchColumn.wrap(buffer, sub);
            default ->
            {
            }
        }
    }

    /**
     * The Sketch-Merge sub-header's length depends on its rows byte, whose position depends on the base-header
     * form. Under a fixed form the rows byte is read there; under AUTO the three-byte form is preferred when its
     * reading is consistent with the payload length, as for the fixed-length primitives.
     *
     * @return the sub-header length, or -1 when even its fixed part is missing.
     */
    private int sketchSubHeaderLength(final DirectBuffer buffer, final int start, final int available)
    {
        if (baseHeaderForm != DtaBaseHeaderForm.AUTO)
        {
            final int base = baseHeaderForm.length();
            if (available < base + SketchColumnFlyweight.FIXED_LENGTH)
            {
                return -1;
            }
            return SketchColumnFlyweight.length(
                buffer.getByte(start + base + SketchColumnFlyweight.ROWS_OFFSET) & 0xFF);
        }

        final int three = DtaBaseHeaderForm.THREE.length();
        if (available >= three + SketchColumnFlyweight.FIXED_LENGTH)
        {
            final int length = SketchColumnFlyweight.length(
                buffer.getByte(start + three + SketchColumnFlyweight.ROWS_OFFSET) & 0xFF);
            if (available == three + length)
            {
                return length;
            }
        }
        final int two = DtaBaseHeaderForm.TWO.length();
        if (available >= two + SketchColumnFlyweight.FIXED_LENGTH)
        {
            return SketchColumnFlyweight.length(
                buffer.getByte(start + two + SketchColumnFlyweight.ROWS_OFFSET) & 0xFF);
        }
        return -1;
    }
}
