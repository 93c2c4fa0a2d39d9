package io.dta.appliance.bench;

import io.dta.codec.DtaOpcode;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;

import java.util.Locale;

/**
 * The primitives {@code dta bench} can drive. Synthetic reports of a primitive go to the first collector of the
 * configuration that has its region ({@link #collectorIn}); a configuration where none has it cannot be benched with
 * that primitive ({@link #missingIn}).
 */
public enum BenchPrimitive
{
    /** Key-Write reports. */
    KEYWRITE(DtaOpcode.KEY_WRITE, "a Key-Write store (keyWrite)"),
    /** Key-Increment reports. */
    KEYINCREMENT(DtaOpcode.KEY_INCREMENT, "a Key-Increment counter store (keyIncrement)"),
    /** Append reports, spread over the serving collector's lists. */
    APPEND(DtaOpcode.APPEND, "a list (lists)"),
    /** Postcard reports (every flow completes its path). */
    POSTCARD(DtaOpcode.POSTCARD, "a postcard store (postcards)"),
    /** Sketch-Merge columns of the serving collector's first sketch, from S switches, epochs rolling over. */
    SKETCH(DtaOpcode.SKETCH_MERGE, "a sketch (sketches)");

    private final int opcode;
    private final String region;

    BenchPrimitive(final int opcode, final String region)
    {
        this.opcode = opcode;
        this.region = region;
    }

    /**
     * @param collector a collector.
     * @return whether it has the region this primitive's reports go to.
     */
    public boolean hostedBy(final CollectorConfig collector)
    {
        return switch (this)
        {
            case KEYWRITE -> null != collector.keyWrite();
            case KEYINCREMENT -> null != collector.keyIncrement();
            case APPEND -> !collector.lists().isEmpty();
            case POSTCARD -> null != collector.postcards();
            case SKETCH -> !collector.sketches().isEmpty();
        };
    }

    /**
     * @param config a configuration.
     * @return the first of its collectors that has this primitive's region (the one synthetic reports go to), or
     * null when none has it.
     */
    public CollectorConfig collectorIn(final ApplianceConfig config)
    {
        for (final CollectorConfig collector : config.collectors())
        {
            if (hostedBy(collector))
            {
                return collector;
            }
        }
        return null;
    }

    /**
     * @param config a configuration.
     * @return why synthetic reports of this primitive cannot be benched with it (no collector has the region), in
     * one line for {@code dta bench}; null when some collector has it.
     */
    public String missingIn(final ApplianceConfig config)
    {
        return null != collectorIn(config) ? null : "--primitive " + name().toLowerCase(Locale.ROOT) +
            " needs " + region + " on a collector, and no collector of the configuration has one";
    }

    /**
     * @return DTA opcode.
     */
    public int opcode()
    {
        return opcode;
    }
}
