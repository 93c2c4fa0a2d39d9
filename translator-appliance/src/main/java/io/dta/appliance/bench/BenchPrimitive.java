package io.dta.appliance.bench;

import io.dta.codec.DtaOpcode;

/**
 * The primitives {@code dta bench} can drive.
 */
public enum BenchPrimitive
{
    /** Key-Write reports. */
    KEYWRITE(DtaOpcode.KEY_WRITE),
    /** Key-Increment reports. */
    KEYINCREMENT(DtaOpcode.KEY_INCREMENT),
    /** Append reports. */
    APPEND(DtaOpcode.APPEND),
    /** Postcard reports (every flow completes its path). */
    POSTCARD(DtaOpcode.POSTCARD),
    /** Sketch-Merge columns of the first collector's first sketch, from S switches, epochs rolling over. */
    SKETCH(DtaOpcode.SKETCH_MERGE);

    private final int opcode;

    BenchPrimitive(final int opcode)
    {
        this.opcode = opcode;
    }

    /**
     * @return DTA opcode.
     */
    public int opcode()
    {
        return opcode;
    }
}
