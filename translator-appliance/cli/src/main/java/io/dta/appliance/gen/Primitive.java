package io.dta.appliance.gen;

import io.dta.codec.DtaOpcode;

/**
 * The DTA primitives the generator emits, with their opcodes and the names used by {@code --mix}.
 */
public enum Primitive
{
    /** Key-Write, opcode 0x01. */
    KEY_WRITE(DtaOpcode.KEY_WRITE, "keywrite"),
    /** Append, opcode 0x02. */
    APPEND(DtaOpcode.APPEND, "append"),
    /** Key-Increment, opcode 0x03. */
    KEY_INCREMENT(DtaOpcode.KEY_INCREMENT, "keyincrement"),
    /** Postcard, opcode 0x04. */
    POSTCARD(DtaOpcode.POSTCARD, "postcard"),
    /** Sketch-Merge column, opcode 0x05 (only when the mix names it; see {@link SketchTraffic}). */
    SKETCH(DtaOpcode.SKETCH_MERGE, "sketch");

    private static final Primitive[] VALUES = values();

    private final int opcode;
    private final String cliName;

    Primitive(final int opcode, final String cliName)
    {
        this.opcode = opcode;
        this.cliName = cliName;
    }

    /**
     * @return the DTA opcode.
     */
    public int opcode()
    {
        return opcode;
    }

    /**
     * @return the name used on the command line and in summaries.
     */
    public String cliName()
    {
        return cliName;
    }

    /**
     * Look a primitive up by its command-line name, ignoring case, '-' and '_' ({@code key-write} works).
     *
     * @param name the name.
     * @return the primitive, or null if unknown.
     */
    public static Primitive byCliName(final String name)
    {
        final String normalised = name.trim().toLowerCase(java.util.Locale.ROOT).replace("-", "").replace("_", "");
        for (final Primitive primitive : VALUES)
        {
            if (primitive.cliName.equals(normalised))
            {
                return primitive;
            }
        }
        return null;
    }
}
