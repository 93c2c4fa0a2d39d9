package io.dta.collector.store;

/**
 * What a collector region holds, as recorded in a store's manifest.
 */
public enum RegionType
{
    /** Key-Write slots. */
    KEY_WRITE,
    /** Key-Increment counters. */
    KEY_INCREMENT,
    /** Postcard records. */
    POSTCARDS,
    /** An Append list. */
    LIST,
    /** A Sketch-Merge sketch: a ring of epoch areas ({@link io.dta.collector.layout.SketchLayout}). */
    SKETCH
}
