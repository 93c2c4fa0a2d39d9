package io.dta.config;

/**
 * Essential reports (flag bit 5) wait instead of being dropped while their QP is paused.
 *
 * @param backlog capacity of the waiting queue of each QP in reports, 1..{@link #MAX_BACKLOG}, default 1024;
 *                overflow drops and counts.
 */
public record EssentialConfig(int backlog)
{
    /**
     * Default backlog per QP.
     */
    public static final int DEFAULT_BACKLOG = 1024;

    /**
     * Largest backlog per QP.
     */
    public static final int MAX_BACKLOG = 1 << 20;

    /**
     * Bytes an entry of a QP's essential ring keeps for a WRITE's payload (a sketch QP's entries hold a whole run of
     * columns instead, when that is larger).
     */
    public static final int ENTRY_BYTES = 128;

    /**
     * Most bytes all QPs' essential rings may take together: each is preallocated, {@code backlog} entries rounded up
     * to a power of two, in direct memory, whose JVM limit defaults to the largest heap.
     */
    public static final long MAX_RING_BYTES = 1L << 30;
}
