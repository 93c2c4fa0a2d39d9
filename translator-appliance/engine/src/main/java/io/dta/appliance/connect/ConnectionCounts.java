package io.dta.appliance.connect;

/**
 * The counts of connection set-up ({@link ConnectionCounter}), shared by the parts of {@link ConnectionManager}, and
 * the one way a region fails: its state, its reason and its count change together.
 */
final class ConnectionCounts
{
    private final long[] counters = new long[ConnectionCounter.values().length];

    void count(final ConnectionCounter counter)
    {
        counters[counter.ordinal()]++;
    }

    long get(final ConnectionCounter counter)
    {
        return counters[counter.ordinal()];
    }

    /**
     * Fails a region: {@link RegionConnection.State#FAILED} with the reason, no deadline, counted.
     */
    void fail(final RegionConnection c, final String why)
    {
        c.state = RegionConnection.State.FAILED;
        c.failure = why;
        c.deadlineNanos = Long.MAX_VALUE;
        count(ConnectionCounter.FAILED);
    }
}
