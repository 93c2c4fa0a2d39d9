package io.dta.config;

/**
 * Which DTA base header incoming reports carry ({@code reports.baseHeader}).
 */
public enum BaseHeader
{
    /**
     * 3 bytes: opcode, seqnum, flags (written {@code "3"}; the default).
     */
    THREE,

    /**
     * 2 bytes: opcode, flags, the legacy form of the reference Reporter (written {@code "2"}).
     */
    TWO,

    /**
     * Told apart per report by opcode and UDP length (written {@code "auto"}).
     */
    AUTO
}
