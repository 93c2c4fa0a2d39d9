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
}
