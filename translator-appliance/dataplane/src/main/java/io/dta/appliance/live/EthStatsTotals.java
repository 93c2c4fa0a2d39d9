package io.dta.appliance.live;

import io.dta.dpdk.EthStats;

/**
 * A port's device statistics as totals over the whole run, although the driver may reset them: {@code net_memif}
 * zeroes its counters ({@code rte_eth_stats_get} goes back to 0) whenever its peer disconnects, so a port that
 * carried traffic would end the run showing none. Each field is kept monotonic on its own: a sample lower than the
 * previous one is taken for a reset, and the previous value is added to that field's base, so the total is the base
 * plus the latest sample.
 * <p>
 * What the port counted between the last sample before a reset and the reset is lost (samples come at the stats
 * tick), and a reset followed by more traffic than before it within one tick cannot be told from no reset; both are
 * at most one stats interval's worth. Not thread-safe: one sampling thread.
 */
public final class EthStatsTotals
{
    private static final int FIELDS = 8;

    private final long[] base = new long[FIELDS];
    private final long[] previous = new long[FIELDS];
    private long resets;

    /**
     * Takes one sample and returns the totals.
     *
     * @param sample the device statistics just read.
     * @return the totals over the run: per field, the values lost to earlier resets plus the sample.
     */
    public EthStats add(final EthStats sample)
    {
        return new EthStats(
            total(0, sample.inPackets()),
            total(1, sample.outPackets()),
            total(2, sample.inBytes()),
            total(3, sample.outBytes()),
            total(4, sample.inMissed()),
            total(5, sample.inErrors()),
            total(6, sample.outErrors()),
            total(7, sample.rxNoMbuf()));
    }

    /**
     * @return how many field samples were taken for a counter reset so far (a reset of all eight counters that were
     * non-zero counts once per such counter).
     */
    public long resets()
    {
        return resets;
    }

    private long total(final int field, final long sample)
    {
        if (sample < previous[field])
        {
            base[field] += previous[field];
            resets++;
        }
        previous[field] = sample;
        return base[field] + sample;
    }
}
