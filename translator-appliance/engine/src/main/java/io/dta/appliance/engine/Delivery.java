package io.dta.appliance.engine;

/**
 * The one place that decides what became of the reports the engine's queue pairs carry ({@link EngineCounter}):
 * delivered when a non-essential operation's frame left or an essential operation's ring entry was acknowledged,
 * dropped under a named reason otherwise. Engine thread only.
 */
public final class Delivery
{
    private final EngineCounters counters;

    /**
     * @param counters the engine's counters.
     */
    public Delivery(final EngineCounters counters)
    {
        this.counters = counters;
    }

    /**
     * Reports delivered: their frame left, or their essential entry was acknowledged.
     *
     * @param reports how many (0 counts nothing).
     */
    void delivered(final int reports)
    {
        if (0 != reports)
        {
            counters.add(EngineCounter.REPORTS_DELIVERED, reports);
        }
    }

    /**
     * One operation dropped with its reports.
     *
     * @param operations     the operations counter of the reason.
     * @param reportsCounter the reports counter of the reason.
     * @param reports        reports the operation carried.
     * @return false, for a caller that returns whether the operation went ahead.
     */
    boolean dropped(final EngineCounter operations, final EngineCounter reportsCounter, final int reports)
    {
        counters.increment(operations);
        if (0 != reports)
        {
            counters.add(reportsCounter, reports);
        }
        return false;
    }
}
