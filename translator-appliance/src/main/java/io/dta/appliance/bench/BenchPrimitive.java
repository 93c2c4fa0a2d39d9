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
    POSTCARD(DtaOpcode.POSTCARD);

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
