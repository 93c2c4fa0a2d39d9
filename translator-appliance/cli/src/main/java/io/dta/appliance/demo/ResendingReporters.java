package io.dta.appliance.demo;

import io.dta.codec.DtaBaseHeaderFlyweight;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.UdpFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo's reporters as translation.md §7 wants them: each keeps its last 256 retransmittable reports and, when
 * the translator NACKs one (a sequence gap, or an essential report its QP had no room for), sends again every report
 * from the one after the NACK's seqnum on, in order, before anything new.
 * <p>
 * Each reporter's re-sends reach the translator over its own lossless FIFO with a fixed delay; a fresh report goes
 * straight to the translator at its own time (as the demo always fed them) unless its reporter has reports queued,
 * which it must not overtake. A re-send replaces what the reporter still had queued (the translator would drop it as a
 * gap). NACKs reach the reporter at once. So a NACK naming a gap whose re-send is still queued is a copy drawn by a
 * report sent before that re-send (each such report arrives, and draws its NACK, before the re-send does) and is
 * ignored; one that comes after the re-send arrived is new (the re-sent report was refused again) and is honoured.
 */
final class ResendingReporters
{
    private static final int HISTORY = 256;
    private static final int SLOT = 512;
    /** The longest a reporter waits before sending the same report again after repeated refusals. */
    private static final long MAX_BACKOFF_NANOS = 256_000;

    private final long delayNanos;
    private final int nackPort;
    private final Int2IntHashMap indexByIp = new Int2IntHashMap(-1);
    private final List<Reporter> reporters = new ArrayList<>();
    private Reporter next;
    private long resent;
    private long nacks;
    private long nacksIgnored;
    private long unrecoverable;

    private static final class Reporter
    {
        final UnsafeBuffer history = new UnsafeBuffer(ByteBuffer.allocateDirect(HISTORY * SLOT));
        final int[] lengths = new int[HISTORY];
        final boolean[] kept = new boolean[HISTORY];
        // Queued seqnums and their arrival times, oldest first (at most HISTORY: one per seqnum).
        final int[] queue = new int[HISTORY];
        final long[] arrival = new long[HISTORY];
        int queueHead;
        int queued;
        int latest = -1;
        // The first report of the latest re-send while it is still queued; -1 when none is.
        int resendFrom = -1;
        // The first report of the previous re-send, and how often in a row a re-send started there.
        int lastFrom = -1;
        int refusals;

        void push(final int seq, final long at)
        {
            final int i = (queueHead + queued) & (HISTORY - 1);
            queue[i] = seq;
            arrival[i] = at;
            queued++;
        }
    }

    /**
     * @param delayNanos one-way delay of the reporters' links.
     * @param nackPort   the UDP port NACKs are sent to (reports.nackPort).
     */
    ResendingReporters(final long delayNanos, final int nackPort)
    {
        this.delayNanos = delayNanos;
        this.nackPort = nackPort;
    }

    /**
     * A reporter sends a fresh report.
     *
     * @return true when it was queued (the reporter has earlier reports queued); false when it goes to the translator
     * directly, now.
     */
    boolean send(final DirectBuffer frame, final int offset, final int frameLength, final long nowNanos)
    {
        final int ip = ipOffset(frame, offset);
        if (ip < 0 || frameLength > SLOT)
        {
            return false;
        }
        final int dta = ip + (frame.getByte(ip) & 0x0F) * 4 + UdpFlyweight.HEADER_LENGTH;
        if (dta + 3 > offset + frameLength ||
            0 == (frame.getByte(dta + DtaBaseHeaderFlyweight.FLAGS_OFFSET_THREE) &
                DtaBaseHeaderFlyweight.FLAG_RETRANSMITTABLE))
        {
            return false;
        }
        final Reporter r = reporter(frame.getInt(ip + 12, ByteOrder.BIG_ENDIAN));
        final int seq = frame.getByte(dta + DtaBaseHeaderFlyweight.SEQNUM_OFFSET) & 0xFF;
        r.history.putBytes(seq * SLOT, frame, offset, frameLength);
        r.lengths[seq] = frameLength;
        r.kept[seq] = true;
        r.latest = seq;
        if (0 == r.queued)
        {
            return false;
        }
        if (r.queued == HISTORY)
        {
            unrecoverable++;
            return true;
        }
        r.push(seq, nowNanos + delayNanos);
        return true;
    }

    /**
     * A NACK reached its reporter: it sends again from the report after the NACK's seqnum.
     */
    void onNack(final DirectBuffer frame, final int offset, final int frameLength, final long nowNanos)
    {
        final int ip = ipOffset(frame, offset);
        if (ip < 0)
        {
            return;
        }
        final int udp = ip + (frame.getByte(ip) & 0x0F) * 4;
        if ((frame.getShort(udp + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF) != nackPort)
        {
            return;
        }
        final int index = indexByIp.get(frame.getInt(ip + 16, ByteOrder.BIG_ENDIAN));
        if (index < 0)
        {
            return;
        }
        nacks++;
        final Reporter r = reporters.get(index);
        int from = (frame.getByte(udp + UdpFlyweight.HEADER_LENGTH) + 1) & 0xFF;
        if (r.queued > 0 && ((from - r.queue[r.queueHead]) & 0xFF) < HISTORY / 2)
        {
            // Something before the gap is still queued: the re-send starts there.
            from = r.queue[r.queueHead];
        }
        final int count = (r.latest - from + 1) & 0xFF;
        if (r.latest < 0 || 0 == count || r.resendFrom == from)
        {
            // Nothing sent after it, or the copy of a NACK whose re-send is on its way.
            nacksIgnored++;
            return;
        }
        if (!r.kept[from] || count > HISTORY / 2)
        {
            // More than half the seqnum space outstanding: which report the NACK means cannot be told.
            unrecoverable++;
            return;
        }
        r.resendFrom = from;
        r.queueHead = 0;
        r.queued = 0;
        // The same report refused again (its QP's ring still full): back off, doubling, as a retransmission timer
        // does, instead of sending the whole backlog again every round trip.
        r.refusals = from == r.lastFrom ? r.refusals + 1 : 0;
        r.lastFrom = from;
        final long backoff = 0 == r.refusals ? 0 : Math.min(delayNanos << Math.min(r.refusals, 20), MAX_BACKOFF_NANOS);
        for (int i = 0; i < count; i++)
        {
            r.push((from + i) & 0xFF, nowNanos + delayNanos + backoff);
            resent++;
        }
    }

    /**
     * @return when the next queued report reaches the translator, or {@link Long#MAX_VALUE}.
     */
    long nextArrival()
    {
        long first = Long.MAX_VALUE;
        next = null;
        for (final Reporter r : reporters)
        {
            if (r.queued > 0 && r.arrival[r.queueHead] < first)
            {
                first = r.arrival[r.queueHead];
                next = r;
            }
        }
        return first;
    }

    boolean isEmpty()
    {
        return Long.MAX_VALUE == nextArrival();
    }

    /**
     * Takes the next report due ({@link #nextArrival()} first) off its queue, copied into {@code into}.
     *
     * @return its length.
     */
    int take(final UnsafeBuffer into)
    {
        nextArrival();
        final Reporter r = next;
        final int seq = r.queue[r.queueHead];
        r.queueHead = (r.queueHead + 1) & (HISTORY - 1);
        r.queued--;
        if (r.resendFrom == seq)
        {
            r.resendFrom = -1;
        }
        into.putBytes(0, r.history, seq * SLOT, r.lengths[seq]);
        return r.lengths[seq];
    }

    /**
     * @return reports sent again.
     */
    long resent()
    {
        return resent;
    }

    /**
     * @return NACKs that reached a reporter.
     */
    long nacks()
    {
        return nacks;
    }

    /**
     * @return NACKs ignored as copies (or naming nothing to send).
     */
    long nacksIgnored()
    {
        return nacksIgnored;
    }

    /**
     * @return NACKs and reports a reporter could not honour or keep (more outstanding than its seqnums tell apart):
     * reports that may be lost. 0 in a sound run.
     */
    long unrecoverable()
    {
        return unrecoverable;
    }

    private Reporter reporter(final int ip)
    {
        int index = indexByIp.get(ip);
        if (index < 0)
        {
            index = reporters.size();
            reporters.add(new Reporter());
            indexByIp.put(ip, index);
        }
        return reporters.get(index);
    }

    /**
     * @return the IPv4 header's offset in an Ethernet frame (up to two VLAN tags), or -1 when it is no IPv4 frame.
     */
    private static int ipOffset(final DirectBuffer frame, final int offset)
    {
        int at = offset + 12;
        for (int tags = 0; tags <= 2; tags++)
        {
            final int type = frame.getShort(at, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            if (EthernetFlyweight.ETHER_TYPE_IPV4 == type)
            {
                return at + 2;
            }
            if (0x8100 != type && 0x88A8 != type)
            {
                return -1;
            }
            at += EthernetFlyweight.VLAN_TAG_LENGTH;
        }
        return -1;
    }
}
