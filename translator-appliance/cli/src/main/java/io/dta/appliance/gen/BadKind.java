package io.dta.appliance.gen;

/**
 * The kinds of deliberately invalid reports {@code --bad} mixes in. Every one is a well-formed Ethernet/IPv4/UDP
 * datagram with correct checksums: only the DTA content is wrong, so the translator must drop and count it.
 */
public enum BadKind
{
    /** An opcode outside 0x01..0x05 (0x00 or 0x06..0xFF) followed by 9 random bytes. */
    UNKNOWN_OPCODE("unknown-opcode"),
    /** A Key-Write or Key-Increment with redundancy N = 0. */
    REDUNDANCY_ZERO("redundancy-zero"),
    /** A Key-Write or Key-Increment with N above {@code redundancy.max} (max+1..255). */
    REDUNDANCY_ABOVE_MAX("redundancy-above-max"),
    /**
     * A report of a primitive from the mix whose UDP payload is cut 2 or more bytes short of its sub-header (never
     * by exactly one byte, which in the 3-byte form is indistinguishable from a complete 2-byte-form report).
     */
    TRUNCATED("truncated"),
    /** An Append whose list ID no collector of the configuration hosts. */
    UNKNOWN_LIST_ID("unknown-list-id");

    private final String cliName;

    BadKind(final String cliName)
    {
        this.cliName = cliName;
    }

    /**
     * @return the name used in summaries.
     */
    public String cliName()
    {
        return cliName;
    }
}
