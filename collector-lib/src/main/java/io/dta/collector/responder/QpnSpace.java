package io.dta.collector.responder;

/**
 * The soft collector's QPN space: fresh QPNs for negotiated connections, handed out round
 * {@value #QPN_MIN}..{@value #QPN_MAX} from above the highest configured one, and the numbers in time-wait (IB CM
 * TimeWait after a connection ends, Linux {@code cm_enter_timewait}: the connection's local ACK timeout), which are
 * not handed out and whose frames are dropped. The time-wait table holds {@value #SLOTS_PER_QP} entries per
 * negotiated QP; when it is full the entry that ends first gives way (that number still comes back only after the
 * allocator went round the space). Single-threaded; no allocation except when a QP is added.
 */
final class QpnSpace
{
    /** Lowest QPN handed out (0 and 1 are the special QPs). */
    static final int QPN_MIN = 2;
    /** Highest QPN handed out. */
    static final int QPN_MAX = 0xFF_FFFE;
    /** Time-wait entries per negotiated QP: reconnections of one QP within one time-wait that keep their entry. */
    static final int SLOTS_PER_QP = 8;

    private int[] ip;
    private int[] qpn;
    private long[] until;
    private int next;

    /**
     * @param negotiatedQps negotiated QPs hosted at start.
     * @param highest       the highest configured QPN.
     */
    QpnSpace(final int negotiatedQps, final int highest)
    {
        final int slots = Math.max(1, negotiatedQps * SLOTS_PER_QP);
        ip = new int[slots];
        qpn = new int[slots];
        until = new long[slots];
        // Fresh QPNs start above every configured one and go round the 24-bit space, as rxe hands out QP indexes.
        next = highest >= QPN_MAX || highest < QPN_MIN ? QPN_MIN : highest + 1;
    }

    /**
     * Makes room in the time-wait table for one more negotiated QP.
     */
    void addQp()
    {
        final int slots = until.length + SLOTS_PER_QP;
        ip = java.util.Arrays.copyOf(ip, slots);
        qpn = java.util.Arrays.copyOf(qpn, slots);
        until = java.util.Arrays.copyOf(until, slots);
    }

    /**
     * Puts a QPN in time-wait until {@code untilNanos}.
     */
    void enter(final int collectorIp, final int number, final long nowNanos, final long untilNanos)
    {
        int slot = 0;
        for (int i = 0; i < until.length; i++)
        {
            if (until[i] - nowNanos <= 0)
            {
                slot = i;
                break;
            }
            if (until[i] - until[slot] < 0)
            {
                slot = i;
            }
        }
        ip[slot] = collectorIp;
        qpn[slot] = number;
        until[slot] = untilNanos;
    }

    /**
     * @return whether frames to this QPN at this collector address belong to a connection in time-wait.
     */
    boolean inTimeWait(final int collectorIp, final int number, final long nowNanos)
    {
        for (int i = 0; i < until.length; i++)
        {
            if (qpn[i] == number && ip[i] == collectorIp && until[i] - nowNanos > 0)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param qps the hosted QPs.
     * @return the next QPN, round the 24-bit space, that no QP of this collector uses or started with and that is
     * not in time-wait.
     * @throws IllegalStateException when there is none.
     */
    int allocate(final int collectorIp, final long nowNanos, final ResponderQp[] qps)
    {
        for (int tries = QPN_MIN; tries <= QPN_MAX; tries++)
        {
            final int candidate = next;
            next = candidate >= QPN_MAX ? QPN_MIN : candidate + 1;
            if (!taken(collectorIp, candidate, qps) && !inTimeWait(collectorIp, candidate, nowNanos))
            {
                return candidate;
            }
        }
        throw new IllegalStateException("no free QPN");
    }

    private static boolean taken(final int collectorIp, final int number, final ResponderQp[] qps)
    {
        for (final ResponderQp qp : qps)
        {
            if (qp.collector.ip() == collectorIp && (qp.qpn == number || qp.firstQpn == number))
            {
                return true;
            }
        }
        return false;
    }
}
