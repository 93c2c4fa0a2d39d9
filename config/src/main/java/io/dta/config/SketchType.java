package io.dta.config;

/**
 * Kind of a Sketch-Merge sketch, which decides the merge function.
 */
public enum SketchType
{
    /**
     * Count-Min sketch (written {@code count-min}), merged by sum.
     */
    COUNT_MIN("count-min"),

    /**
     * Count sketch (written {@code count-sketch}), merged by sum.
     */
    COUNT_SKETCH("count-sketch"),

    /**
     * HyperLogLog registers (written {@code hyperloglog}), merged by max; exactly one row.
     */
    HYPERLOGLOG("hyperloglog");

    private final String text;

    SketchType(final String text)
    {
        this.text = text;
    }

    /**
     * The name used in the configuration.
     *
     * @return e.g. {@code count-min}.
     */
    public String text()
    {
        return text;
    }
}
