package io.dta.codec;

/**
 * DTA opcodes, sub-header lengths and the resulting UDP payload length of each primitive.
 */
public final class DtaOpcode
{
    /** Key-Write. */
    public static final int KEY_WRITE = 0x01;
    /** Append (append-to-list). */
    public static final int APPEND = 0x02;
    /** Key-Increment. */
    public static final int KEY_INCREMENT = 0x03;
    /** Postcard (INT postcard aggregation). */
    public static final int POSTCARD = 0x04;
    /** Sketch-Merge (this project's own design, docs/sketch.md; its sub-header length depends on its rows byte). */
    public static final int SKETCH_MERGE = 0x05;

    /** Default Key-Write data length in bytes (one word, slot size 8). */
    public static final int DEFAULT_KEY_WRITE_DATA_LENGTH = 4;

    private DtaOpcode()
    {
    }

    /**
     * @param opcode an opcode byte.
     * @return true for the five opcodes this project understands.
     */
    public static boolean isKnown(final int opcode)
    {
        return opcode >= KEY_WRITE && opcode <= SKETCH_MERGE;
    }

    /**
     * Length of the primitive's sub-header (the bytes after the base header).
     *
     * @param opcode              the opcode.
     * @param keyWriteDataLength  Key-Write data bytes (slotSize - 4).
     * @return the length, or -1 if unknown or of variable length (Sketch-Merge).
     */
    public static int subHeaderLength(final int opcode, final int keyWriteDataLength)
    {
        switch (opcode)
        {
            case KEY_WRITE:
                return KeyWriteFlyweight.FIXED_LENGTH + keyWriteDataLength;
            case APPEND:
                return AppendFlyweight.LENGTH;
            case KEY_INCREMENT:
                return KeyIncrementFlyweight.LENGTH;
            case POSTCARD:
                return PostcardFlyweight.LENGTH;
            default:
                return -1;
        }
    }

    /**
     * UDP payload length (base header + sub-header) of a primitive. Used by {@link DtaBaseHeaderForm#AUTO}
     * detection: for a given opcode the two forms differ by one byte.
     *
     * @param opcode             the opcode.
     * @param baseHeaderLength   3 or 2 (see {@link DtaBaseHeaderForm#length()}).
     * @param keyWriteDataLength Key-Write data bytes (slotSize - 4).
     * @return the length, or -1 if unknown or of variable length.
     */
    public static int udpPayloadLength(final int opcode, final int baseHeaderLength, final int keyWriteDataLength)
    {
        final int sub = subHeaderLength(opcode, keyWriteDataLength);
        return sub < 0 ? -1 : baseHeaderLength + sub;
    }

    /**
     * @param opcode an opcode byte.
     * @return a display name (no allocation; a constant string).
     */
    public static String name(final int opcode)
    {
        switch (opcode)
        {
            case KEY_WRITE:
                return "KEY_WRITE";
            case APPEND:
                return "APPEND";
            case KEY_INCREMENT:
                return "KEY_INCREMENT";
            case POSTCARD:
                return "POSTCARD";
            case SKETCH_MERGE:
                return "SKETCH_MERGE";
            default:
                return "UNKNOWN";
        }
    }
}
