package io.dta.appliance.engine;

/**
 * Per-reporter 8-bit sequence tracking for retransmittable reports (translation.md §7): a bounded
 * open-addressing table keyed by the reporter's IPv4 source address. The first report of a reporter is taken
 * as in order (there is nothing to compare it with); after that a report is in order exactly when its seqnum
 * is the last in-order seqnum plus one, mod 256. A repeat of the last in-order seqnum is a duplicate (the network
 * duplicated it; it was translated once already, and translating an Append or a Key-Increment twice would count it
 * twice, so unlike the reference it is not translated again). Anything else is a gap, answered with a NACK
 * carrying the last in-order seqnum.
 * <p>
 * A reporter that never fills its gap (it lost its retransmission buffer, or restarted with a new sequence)
 * would otherwise be NACKed forever. So a gap that has stayed open for the sequence timeout re-bases the
 * reporter on its next report, which is then in order.
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

    /**
     * Outcome: a repeat of the last in-order report.
     */
    public static final int DUPLICATE = -3;

    /**
     * Outcome: the reporter's gap timed out and this report re-based it; it is in order.
     */
    public static final int REBASED = -4;

    private static final long NO_GAP = Long.MIN_VALUE;

    private final int mask;
    private final int maxReporters;
    private final int[] reporters;
    private final short[] lastSeq;
    private final boolean[] used;
    private final long[] gapSinceNanos;
    private final long timeoutNanos;
    private int size;

    /**
     * A tracker with the strict rule: gaps never time out.
     *
     * @param capacity table slots, a power of two; at most three quarters are used.
     */
    public ReporterSequenceTracker(final int capacity)
    {
        this(capacity, 0);
    }

    /**
     * @param capacity     table slots, a power of two; at most three quarters are used.
     * @param timeoutNanos how long a gap may stay open before the next report re-bases the reporter; 0 = never.
     */
    public ReporterSequenceTracker(final int capacity, final long timeoutNanos)
    {
        this.timeoutNanos = timeoutNanos;
        if (Integer.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        mask = capacity - 1;
        maxReporters = capacity / 4 * 3;
        reporters = new int[capacity];
        lastSeq = new short[capacity];
        used = new boolean[capacity];
        gapSinceNanos = new long[capacity];
    }

    /**
     * Checks and records one retransmittable report.
     *
     * @param reporterIp IPv4 source of the report.
     * @param seqnum     the report's seqnum (0..255).
     * @param nowNanos   the engine clock.
     * @return {@link #IN_ORDER}, {@link #REBASED}, {@link #DUPLICATE}, {@link #TABLE_FULL}, or the last
     * in-order seqnum (0..255) to put in a NACK.
     */
    public int track(final int reporterIp, final int seqnum, final long nowNanos)
    {
        int i = spread(reporterIp) & mask;
        while (used[i])
        {
            if (reporters[i] == reporterIp)
            {
                final int last = lastSeq[i];
                final long gapSince = gapSinceNanos[i];
                if (((last + 1) & 0xFF) == seqnum)
                {
                    lastSeq[i] = (short)seqnum;
                    gapSinceNanos[i] = NO_GAP;
                    return IN_ORDER;
                }
                if (NO_GAP != gapSince && timeoutNanos > 0 && nowNanos - gapSince >= timeoutNanos)
                {
                    lastSeq[i] = (short)seqnum;
                    gapSinceNanos[i] = NO_GAP;
                    return REBASED;
                }
                if (last == seqnum)
                {
                    return DUPLICATE;
                }
                if (NO_GAP == gapSince)
                {
                    gapSinceNanos[i] = nowNanos;
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
        gapSinceNanos[i] = NO_GAP;
        size++;
        return IN_ORDER;
    }

    /**
     * Takes back the in-order report just tracked: the translator could not keep it (its QP's essential ring was
     * full) and NACKs it, so the reporter sends it again and it must then be in order. The reporter's later reports,
     * sent before the NACK reached it, are gaps until it does.
     *
     * @param reporterIp IPv4 source of the report.
     * @param seqnum     its seqnum, the reporter's last in-order one.
     */
    public void refuse(final int reporterIp, final int seqnum)
    {
        int i = spread(reporterIp) & mask;
        while (used[i])
        {
            if (reporters[i] == reporterIp)
            {
                if (lastSeq[i] == seqnum)
                {
                    lastSeq[i] = (short)((seqnum - 1) & 0xFF);
                }
                return;
            }
            i = (i + 1) & mask;
        }
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
