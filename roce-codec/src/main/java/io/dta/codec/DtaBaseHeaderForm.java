package io.dta.codec;

/**
 * The two incompatible DTA base-header layouts of the reference implementation, plus automatic detection.
 */
public enum DtaBaseHeaderForm
{
    /** 3 bytes: opcode, seqnum, flags (the generators' and the NACK-tracking translator's form; the default). */
    THREE(3),
    /** 2 bytes: opcode, flags (the form the reference Reporter P4 emits). */
    TWO(2),
    /**
     * Decide per report from (opcode, UDP length): every primitive has a fixed size for a given configuration,
     * and the two forms differ by exactly one byte. Not a valid form for wrapping a header.
     */
    AUTO(-1);

    private final int length;

    DtaBaseHeaderForm(final int length)
    {
        this.length = length;
    }

    /**
     * @return the header length in bytes, or -1 for {@link #AUTO}.
     */
    public int length()
    {
        return length;
    }
}
