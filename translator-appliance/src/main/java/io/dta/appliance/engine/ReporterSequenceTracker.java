package io.dta.appliance.engine;

/**
 * Per-reporter 8-bit sequence tracking for retransmittable reports (translation.md §7): a bounded
 * open-addressing table keyed by the reporter's IPv4 source address. The first report of a reporter is taken
 * as in order (there is nothing to compare it with); after that a report is in order exactly when its seqnum
 * is the last in-order seqnum plus one, mod 256. Anything else is a gap, answered with a NACK carrying the last
 * in-order seqnum.
 */
public final class ReporterSequenceTracker
{
    /**
     * Outcome: the report is in order.
     */
    public static final int IN_ORDER = -1;

    /**
     * Outcome: the table is full and the reporter is new.
     */
    public static final int TABLE_FULL = -2;

    private final int mask;
    private final int maxReporters;
    private final int[] reporters;
    private final short[] lastSeq;
    private final boolean[] used;
    private int size;

    /**
     * @param capacity table slots, a power of two; at most three quarters are used.
     */
    public ReporterSequenceTracker(final int capacity)
    {
        if (Integer.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        mask = capacity - 1;
        maxReporters = capacity / 4 * 3;
        reporters = new int[capacity];
        lastSeq = new short[capacity];
        used = new boolean[capacity];
    }

    /**
     * Checks and records one retransmittable report.
     *
     * @param reporterIp IPv4 source of the report.
     * @param seqnum     the report's seqnum (0..255).
     * @return {@link #IN_ORDER}, {@link #TABLE_FULL}, or the last in-order seqnum (0..255) to put in a NACK.
     */
    public int track(final int reporterIp, final int seqnum)
    {
        int i = spread(reporterIp) & mask;
        while (used[i])
        {
            if (reporters[i] == reporterIp)
            {
                final int last = lastSeq[i];
                if (((last + 1) & 0xFF) == seqnum)
                {
                    lastSeq[i] = (short)seqnum;
                    return IN_ORDER;
                }
                return last;
            }
            i = (i + 1) & mask;
        }
        if (size >= maxReporters)
        {
            return TABLE_FULL;
        }
        used[i] = true;
        reporters[i] = reporterIp;
        lastSeq[i] = (short)seqnum;
        size++;
        return IN_ORDER;
    }

    /**
     * @return reporters tracked.
     */
    public int size()
    {
        return size;
    }

    private static int spread(final int ip)
    {
        final int h = ip * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
