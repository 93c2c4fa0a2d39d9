package io.dta.config;

/**
 * Key-Write / Key-Increment redundancy.
 *
 * @param max largest accepted N, 1..{@link #MAX_REDUNDANCY}, default 4; reports with a larger N are dropped.
 */
public record RedundancyConfig(int max)
{
    /**
     * Default largest N.
     */
    public static final int DEFAULT_MAX = 4;

    /**
     * Cap on {@code redundancy.max}: each copy is one frame, so N bounds the fan-out of a single report.
     */
    public static final int MAX_REDUNDANCY = 16;
}
