package io.dta.collector.query;

/**
 * What a read of one epoch of a sketch region found.
 */
public enum SketchEpochState
{
    /** Closed with every switch's every column: the merged matrix is final. */
    COMPLETE,
    /** Closed without every switch (timeout, or a newer epoch needed the area): contributors say who is in. */
    INCOMPLETE,
    /** Still being written: the cells are a snapshot of columns in flight, not a result. */
    OPEN,
    /**
     * The epoch is not in its area: never written, not yet written, or overwritten by a later epoch of the ring
     * ({@link SketchEpoch#areaEpoch()} and {@link SketchEpoch#areaState()} say what the area holds). No cells.
     */
    ABSENT,
    /** The header changed during every read attempt (the epoch was being closed or replaced while read). */
    TORN,
    /** The header names the epoch but its type or shape differs from the configuration. No cells. */
    INVALID
}
