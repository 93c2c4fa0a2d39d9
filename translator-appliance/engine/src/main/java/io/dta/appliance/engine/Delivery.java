package io.dta.appliance.engine;

/**
 * The one place that decides what became of a frame the engine built and of the reports it carries
 * ({@link EngineCounter}): a queue pair's reports are delivered when their non-essential operation's frame left
 * ({@link SendOutcome#SENT}) or their essential operation's ring entry was acknowledged, and dropped under a named
 * reason otherwise; a frame the sink refused or lost counts in {@link EngineCounter#DROP_TX_FULL}.
 * <p>
 * A sink that learns only later whether a frame really left (a live DPDK tx burst) answers {@link SendOutcome#SENT}
 * and gives a frame the device did not take back with {@link #notTaken}, on the engine thread before the next
 * {@link EngineCounters#publish()}, so that no reader sees a counter go down. Engine thread only; allocation-free.
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
     * A frame committed to the sink.
     *
     * @param kind    what it is.
     * @param reports reports it carries (a queue pair's non-essential operation's; 0 otherwise).
     * @param outcome what the sink said.
     */
    public void committed(final OutFrameKind kind, final int reports, final SendOutcome outcome)
    {
        if (SendOutcome.SENT == outcome)
        {
            out(kind, reports);
        }
        else
        {
            refused(kind, reports);
            if (OutFrameKind.SKETCH_NACK == kind)
            {
                // It stays in SKETCH_NACKS_OUT, as a frame given back later does (see notTaken).
                counters.increment(EngineCounter.SKETCH_NACKS_OUT);
            }
        }
    }

    /**
     * The sink refused the claim for a frame (or lost the frame): nothing left.
     *
     * @param kind    what it would have been.
     * @param reports reports it would have carried, now dropped.
     */
    public void refused(final OutFrameKind kind, final int reports)
    {
        if (OutFrameKind.CONTROL == kind)
        {
            return;
        }
        counters.increment(EngineCounter.DROP_TX_FULL);
        if (0 != reports)
        {
            counters.add(EngineCounter.REPORTS_DROPPED_TX_FULL, reports);
        }
    }

    /**
     * A frame the sink answered {@link SendOutcome#SENT} for that the device did not take after all (a live DPDK tx
     * burst that left it out: tx ring full, or a link without a peer): counted exactly as a frame the sink refused.
     * An essential operation's frame carries no reports: its ring entry stays unacknowledged and is sent again after
     * the resynchronisation the missing PSN causes.
     *
     * @param kind    what it is.
     * @param reports the reports it carried.
     */
    public void notTaken(final OutFrameKind kind, final int reports)
    {
        switch (kind)
        {
            case REQUEST ->
            {
                counters.add(EngineCounter.ROCE_FRAMES_OUT, -1);
                counters.add(EngineCounter.REPORTS_DELIVERED, -reports);
                refused(kind, reports);
            }
            case REPORTER_NACK ->
            {
                counters.add(EngineCounter.REPORTER_NACKS_OUT, -1);
                refused(kind, 0);
            }
            // It stays in SKETCH_NACKS_OUT: the retry and tail counters, which count within it, already took it,
            // and the gap's retry timer asks again anyway.
            case SKETCH_NACK -> refused(kind, 0);
            default ->
            {
                // A connection manager's frame: its own retransmission timer covers the loss.
            }
        }
    }

    /**
     * Reports delivered: their essential operation's ring entry was acknowledged.
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

    private void out(final OutFrameKind kind, final int reports)
    {
        switch (kind)
        {
            case REQUEST ->
            {
                counters.increment(EngineCounter.ROCE_FRAMES_OUT);
                delivered(reports);
            }
            case REPORTER_NACK -> counters.increment(EngineCounter.REPORTER_NACKS_OUT);
            case SKETCH_NACK -> counters.increment(EngineCounter.SKETCH_NACKS_OUT);
            default ->
            {
                // A connection manager's frame: counted by its sender.
            }
        }
    }
}
