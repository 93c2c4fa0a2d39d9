package io.dta.appliance.gen;

/**
 * The settings of the generated sketch traffic (Sketch-Merge columns, {@link SketchTraffic}): which sketches, how
 * many switches send each, over how many epochs, how many items, with which gaps, duplicates and missing switch.
 * Fluent setters, each checking its own range and naming the {@code dta gen} option when it refuses.
 *
 * @param <S> the settings class the setters return, for chaining.
 */
public abstract class SketchSettings<S extends SketchSettings<S>>
{
    /** Default number of sketch epochs. */
    public static final int DEFAULT_EPOCHS = 2;
    /** Default number of the first sketch epoch. */
    public static final long DEFAULT_FIRST_EPOCH = 1;
    /** Default items (key occurrences) per switch and epoch. */
    public static final long DEFAULT_SKETCH_ITEMS = 10_000;
    /** Largest number of switches sending one sketch (the switchId field is a u8). */
    public static final int MAX_SWITCHES = 256;

    private long[] sketchIds;
    private int switches;
    private int epochs = DEFAULT_EPOCHS;
    private long firstEpoch = DEFAULT_FIRST_EPOCH;
    private long sketchItems = DEFAULT_SKETCH_ITEMS;
    private double sketchGaps;
    private double sketchDuplicates;
    private boolean missingSwitch;
    private boolean recordTruth;

    SketchSettings()
    {
    }

    /**
     * @return this, as the settings class.
     */
    abstract S self();

    /**
     * @param ids sketch ids to send (each must be a sketch of a selected collector), or null for all of them.
     * @return this.
     */
    public S sketchIds(final long... ids)
    {
        if (null != ids)
        {
            if (ids.length == 0)
            {
                throw new GeneratorSettingsException("--sketches", "needs at least one sketch ID");
            }
            for (final long id : ids)
            {
                if (id < 0 || id > 0xFFFF)
                {
                    throw new GeneratorSettingsException("--sketches", "sketch ID " + id + " is not a u16");
                }
            }
        }
        this.sketchIds = null == ids ? null : ids.clone();
        return self();
    }

    /**
     * @param text comma-separated sketch IDs, decimal or 0x-hex.
     * @return this.
     */
    public S sketchIds(final String text)
    {
        return sketchIds(SettingsText.numbers("--sketches", text));
    }

    /**
     * @return the sketch ids (a copy), or null for all.
     */
    public long[] sketchIds()
    {
        return null == sketchIds ? null : sketchIds.clone();
    }

    /**
     * @param switches switches sending each sketch, 1..256, or 0 for each sketch's configured {@code switches}.
     * @return this.
     */
    public S switches(final int switches)
    {
        if (switches < 0 || switches > MAX_SWITCHES)
        {
            throw new GeneratorSettingsException("--switches", "must be between 1 and " + MAX_SWITCHES + ", not " +
                switches);
        }
        this.switches = switches;
        return self();
    }

    /**
     * @return switches per sketch, 0 for the configuration's.
     */
    public int switches()
    {
        return switches;
    }

    /**
     * @param epochs sketch epochs to send, 1..1000000.
     * @return this.
     */
    public S epochs(final int epochs)
    {
        if (epochs < 1 || epochs > 1_000_000)
        {
            throw new GeneratorSettingsException("--epochs", "must be between 1 and 1000000, not " + epochs);
        }
        this.epochs = epochs;
        return self();
    }

    /**
     * @return sketch epochs to send.
     */
    public int epochs()
    {
        return epochs;
    }

    /**
     * @param epoch number of the first epoch, a u32.
     * @return this.
     */
    public S firstEpoch(final long epoch)
    {
        if (epoch < 0 || epoch > 0xFFFF_FFFFL)
        {
            throw new GeneratorSettingsException("--first-epoch", "must be a u32, not " + epoch);
        }
        this.firstEpoch = epoch;
        return self();
    }

    /**
     * @return number of the first epoch.
     */
    public long firstEpoch()
    {
        return firstEpoch;
    }

    /**
     * @param items key occurrences per switch and epoch, 0..10^9.
     * @return this.
     */
    public S sketchItems(final long items)
    {
        if (items < 0 || items > 1_000_000_000L)
        {
            throw new GeneratorSettingsException("--sketch-items", "must be between 0 and 1000000000, not " + items);
        }
        this.sketchItems = items;
        return self();
    }

    /**
     * @return key occurrences per switch and epoch.
     */
    public long sketchItems()
    {
        return sketchItems;
    }

    /**
     * @param fraction per column, chance that a switch skips it and sends later columns first (NACKed).
     * @return this.
     */
    public S sketchGaps(final double fraction)
    {
        this.sketchGaps = SettingsText.fraction("--sketch-gaps", fraction, false);
        return self();
    }

    /**
     * @return chance of a gap per column.
     */
    public double sketchGaps()
    {
        return sketchGaps;
    }

    /**
     * @param fraction per column, chance that a switch sends it twice.
     * @return this.
     */
    public S sketchDuplicates(final double fraction)
    {
        this.sketchDuplicates = SettingsText.fraction("--sketch-duplicates", fraction, false);
        return self();
    }

    /**
     * @return chance of a duplicate per column.
     */
    public double sketchDuplicates()
    {
        return sketchDuplicates;
    }

    /**
     * @param missing in the last epoch the last switch stops after half its columns.
     * @return this.
     */
    public S missingSwitch(final boolean missing)
    {
        this.missingSwitch = missing;
        return self();
    }

    /**
     * @return whether the last switch goes missing in the last epoch.
     */
    public boolean missingSwitch()
    {
        return missingSwitch;
    }

    /**
     * @param record keep the true merged sketch and key counts of every epoch ({@link SketchTraffic#truth()}).
     * @return this.
     */
    public S recordTruth(final boolean record)
    {
        this.recordTruth = record;
        return self();
    }

    /**
     * @return whether sketch truth is recorded.
     */
    public boolean recordTruth()
    {
        return recordTruth;
    }
}
