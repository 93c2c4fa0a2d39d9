package io.dta.appliance.demo;

import io.dta.appliance.engine.QueuePairSender;
import org.HdrHistogram.Histogram;

/**
 * Request-to-acknowledgement latency of every QP the translator sends on: the time each request (by PSN) left the
 * translator, and, when an ACK covering it arrives (RC acknowledgements are cumulative), the time since. A QP
 * re-armed on a new connection starts its PSNs afresh.
 */
final class LatencyProbe
{
    private static final int PSN_SLOTS = 1 << 16;

    private final Histogram latency = new Histogram(3_600_000_000_000L, 3);
    private QueuePairSender[] senders = new QueuePairSender[0];
    private long[][] sentAt;
    private int[] lastMeasuredPsn;
    private long[] reconnectsSeen;

    /**
     * @param senders every QP of the translator, once its engines exist.
     */
    void attach(final QueuePairSender[] senders)
    {
        this.senders = senders;
        sentAt = new long[senders.length][PSN_SLOTS];
        lastMeasuredPsn = new int[senders.length];
        reconnectsSeen = new long[senders.length];
        for (int i = 0; i < senders.length; i++)
        {
            lastMeasuredPsn[i] = (senders[i].nextPsn() - 1) & 0xFFFFFF;
        }
    }

    /**
     * @param collectorIp the request's destination.
     * @param remoteQpn   its destination QP.
     * @param psn         its PSN.
     * @param sentNanos   when the translator sent it.
     */
    void onRequest(final int collectorIp, final int remoteQpn, final int psn, final long sentNanos)
    {
        final int qp = senderIndex(collectorIp, remoteQpn, false);
        if (qp >= 0)
        {
            sentAt[qp][psn & (PSN_SLOTS - 1)] = sentNanos;
        }
    }

    /**
     * @param collectorIp the ACK's source.
     * @param localQpn    its destination QP (the translator's).
     * @param ackedPsn    the PSN it acknowledges, and every one before.
     * @param now         when it reached the translator.
     */
    void onAck(final int collectorIp, final int localQpn, final int ackedPsn, final long now)
    {
        final int qp = senderIndex(collectorIp, localQpn, true);
        if (qp < 0)
        {
            return;
        }
        if (senders[qp].reconnects() != reconnectsSeen[qp])
        {
            // Re-armed on a new connection: its PSNs start afresh.
            reconnectsSeen[qp] = senders[qp].reconnects();
            lastMeasuredPsn[qp] = (senders[qp].path().startPsn() - 1) & 0xFFFFFF;
        }
        int psn = lastMeasuredPsn[qp];
        final int distance = (ackedPsn - psn) & 0xFFFFFF;
        if (0 == distance || distance > PSN_SLOTS / 2)
        {
            return;
        }
        for (int i = 0; i < distance; i++)
        {
            psn = (psn + 1) & 0xFFFFFF;
            final long sent = sentAt[qp][psn & (PSN_SLOTS - 1)];
            if (sent > 0 && now >= sent)
            {
                latency.recordValue(now - sent);
                sentAt[qp][psn & (PSN_SLOTS - 1)] = 0;
            }
        }
        lastMeasuredPsn[qp] = ackedPsn;
    }

    /**
     * @return the latencies recorded, in nanoseconds.
     */
    Histogram histogram()
    {
        return latency;
    }

    /**
     * @return the QPs watched.
     */
    QueuePairSender[] senders()
    {
        return senders;
    }

    private int senderIndex(final int collectorIp, final int qpn, final boolean local)
    {
        for (int i = 0; i < senders.length; i++)
        {
            final var path = senders[i].path();
            if (path.collectorIp() == collectorIp && (local ? path.localQpn() : path.remoteQpn()) == qpn)
            {
                return i;
            }
        }
        return -1;
    }
}
