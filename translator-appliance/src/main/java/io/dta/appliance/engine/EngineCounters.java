package io.dta.appliance.engine;

/**
 * The engine's counters: plain longs owned by the single engine thread. Readers on other threads get a
 * snapshot through {@link #get(EngineCounter)} after the engine stopped; live cross-process reading comes with
 * the shared-memory counters file.
 */
public final class EngineCounters
{
    private static final EngineCounter[] ALL = EngineCounter.values();
    private final long[] values = new long[ALL.length];

    /**
     * Adds one.
     *
     * @param counter which counter.
     */
    public void increment(final EngineCounter counter)
    {
        values[counter.ordinal()]++;
    }

    /**
     * Adds a delta.
     *
     * @param counter which counter.
     * @param delta   amount.
     */
    public void add(final EngineCounter counter, final long delta)
    {
        values[counter.ordinal()] += delta;
    }

    /**
     * @param counter which counter.
     * @return its value.
     */
    public long get(final EngineCounter counter)
    {
        return values[counter.ordinal()];
    }

    /**
     * @return the sum of every drop counter (reports and responses).
     */
    public long totalDrops()
    {
        long sum = 0;
        for (final EngineCounter c : ALL)
        {
            if (c.isDrop())
            {
                sum += values[c.ordinal()];
            }
        }
        return sum;
    }
}
