package io.dta.appliance.engine;

import io.dta.codec.Psn;
import io.dta.codec.RoceOpcode;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * A queue pair's send path: builds each WRITE (one packet, or First/Middle/Last beyond the path MTU) and FETCH_ADD
 * as the held frame, lets the held frame go with AckReq when the periodic rule, idleness, a full window or a
 * half-full essential ring call for it, drains the essential ring and the atomic queue within the window and the
 * atomic credits, and sends probes and restart tests. Engine thread only.
 */
final class QpTransmitter
{
    private static final int MAX_HEADERS = FrameLimits.MAX_HEADERS;

    private final FrameHold held;
    private final QpOutput output;
    private final PsnWindow window;
    private final AckRequestPolicy ackRequests;
    private final RecoveryPolicy recovery;
    private final AtomicCredits credits;
    private final EssentialRing essentials;
    private final boolean openLoop;
    private final UnsafeBuffer probe =
        new UnsafeBuffer(ByteBuffer.allocateDirect(HeldFrame.STAGING_OFFSET + MAX_HEADERS));
    private RoceFrameBuilder builder;
    // The path's MTU, read per WRITE (a record accessor behind the path reference would be two dependent loads).
    private int pathMtu;
    private long addressOffset;
    // A resync to a PSN inside the oldest unacknowledged multi-packet WRITE: the responder holds that message open
    // and accepts nothing but its next Middle or Last, so its packets from this one on go out before anything else.
    private int resumeSegment;

    QpTransmitter(
        final RoceFrameBuilder builder, final FrameHold held, final QpOutput output, final PsnWindow window,
        final AckRequestPolicy ackRequests, final RecoveryPolicy recovery, final AtomicCredits credits,
        final EssentialRing essentials, final boolean openLoop)
    {
        this.held = held;
        this.output = output;
        this.window = window;
        this.ackRequests = ackRequests;
        this.recovery = recovery;
        this.credits = credits;
        this.essentials = essentials;
        this.openLoop = openLoop;
        connect(builder, 0);
    }

    /**
     * Builds frames for a (new) connection.
     *
     * @param newBuilder    the connection's frame builder.
     * @param addressOffset what to add to every address (the new base address minus the configured one).
     */
    void connect(final RoceFrameBuilder newBuilder, final long addressOffset)
    {
        this.builder = newBuilder;
        this.pathMtu = newBuilder.path().pathMtu();
        this.addressOffset = addressOffset;
    }

    QpPath path()
    {
        return builder.path();
    }

    int pathMtu()
    {
        return pathMtu;
    }

    /**
     * After a resynchronisation: the oldest sent multi-packet WRITE goes on from packet {@code segment} (0: none).
     *
     * @param segment the packet the responder expects within that message.
     */
    void resumeAt(final int segment)
    {
        resumeSegment = segment;
    }

    /**
     * Sends the ring's unsent essential operations (the window, an atomic credit or an RNR pause may stop it), then
     * the FETCH_ADDs waiting for a credit.
     *
     * @param nowNanos engine clock.
     */
    void drainEssentials(final long nowNanos)
    {
        // Essential operations go out in a grace period too (the responder told its PSN; only non-essential reports
        // are dropped there), but not while an RNR NAK's timer runs or the QP is stopped.
        if (recovery.holdsEssentials(nowNanos))
        {
            return;
        }
        if (resumeSegment > 0)
        {
            final int i = essentials.oldestSentIndex();
            final int from = resumeSegment;
            resumeSegment = 0;
            sendSegments(essentials.va(i), essentials.payloads(), essentials.payloadOffset(i),
                essentials.payloadLength(i), from, 0, nowNanos);
        }
        while (essentials.hasUnsent())
        {
            // After a loss the window narrows for a while: a loss then costs fewer re-sends.
            if (!openLoop && window.isFull(ackRequests.window()))
            {
                // The window is full: the newest frame goes out now with AckReq, whose ACK opens it again.
                releaseHeld(true, nowNanos);
                return;
            }
            if (!sendNextEssential(nowNanos))
            {
                return;
            }
        }
        if (!openLoop && held.isHeld() && essentials.isHalfFull())
        {
            // Entries free only when acknowledged: with the ring half full the newest frame leaves now with AckReq
            // rather than after the idle time, so the ring drains before it fills.
            releaseHeld(true, nowNanos);
        }
        drainWaitingAtomics(nowNanos);
    }

    /**
     * @return false when the next essential operation is a FETCH_ADD without a credit (it waits).
     */
    private boolean sendNextEssential(final long nowNanos)
    {
        final int i = essentials.nextUnsentIndex();
        if (EssentialRing.FETCH_ADD == essentials.type(i))
        {
            if (!credits.hasCredit())
            {
                return false;
            }
            sendFetchAdd(essentials.va(i), essentials.add(i), 0, nowNanos);
        }
        else
        {
            sendWrite(essentials.va(i), essentials.payloads(), essentials.payloadOffset(i),
                essentials.payloadLength(i), 0, nowNanos);
        }
        final int psn = Psn.add(window.nextPsn(), -1);
        essentials.markSent(psn);
        if (openLoop)
        {
            // Nothing will ever answer: every frame counts as delivered, so the entry must not occupy the ring
            // forever (it would fill after essential.backlog operations and drop the rest).
            output.deliveredOpenLoop(essentials.acknowledge(psn));
        }
        return true;
    }

    /**
     * Sends FETCH_ADDs waiting for a credit while the QP sends, credits last and no essential operation is unsent.
     *
     * @param nowNanos engine clock.
     */
    void drainWaitingAtomics(final long nowNanos)
    {
        while (recovery.isSending() && credits.waiting() > 0 && credits.hasCredit() && !essentials.hasUnsent())
        {
            final int i = credits.takeWaiting();
            sendFetchAdd(credits.waitingVa(i), credits.waitingAdd(i), credits.waitingReports(i), nowNanos);
        }
    }

    /**
     * Builds a WRITE as the held frame (several packets beyond the path MTU), letting the previous one go.
     */
    void sendWrite(
        final long address, final DirectBuffer payload, final int offset, final int length, final int reports,
        final long nowNanos)
    {
        if (length > pathMtu)
        {
            sendSegments(address, payload, offset, length, 0, reports, nowNanos);
            return;
        }
        releaseHeld(false, nowNanos);
        held.claim(MAX_HEADERS + length);
        hold(builder.writeOnly(held.buffer(), held.offset(), window.nextPsn(), false, address + addressOffset,
            payload, offset, length), reports, nowNanos);
    }

    /**
     * A WRITE longer than the path MTU, from packet {@code fromSegment} on: First (RETH), Middles, Last on consecutive
     * PSNs. Each is built as the held frame and let go by the next, so AckReq (every n-th packet, and the last one
     * before idle) applies per packet as to any other frame; the Last carries the reports.
     */
    private void sendSegments(
        final long address, final DirectBuffer payload, final int offset, final int length, final int fromSegment,
        final int reports, final long nowNanos)
    {
        final int mtu = pathMtu;
        final int last = EssentialRing.segments(length, mtu) - 1;
        for (int i = fromSegment; i <= last; i++)
        {
            releaseHeld(false, nowNanos);
            final int at = i * mtu;
            final int opcode = 0 == i ? RoceOpcode.RC_RDMA_WRITE_FIRST :
                last == i ? RoceOpcode.RC_RDMA_WRITE_LAST : RoceOpcode.RC_RDMA_WRITE_MIDDLE;
            final int segmentLength = Math.min(mtu, length - at);
            held.claim(MAX_HEADERS + segmentLength);
            hold(builder.writeSegment(held.buffer(), held.offset(), opcode, window.nextPsn(), false,
                address + addressOffset, length, payload, offset + at, segmentLength), last == i ? reports : 0,
                nowNanos);
        }
    }

    /**
     * Builds a FETCH_ADD as the held frame, letting the previous one go; it holds an atomic credit from now.
     */
    void sendFetchAdd(final long address, final long addend, final int reports, final long nowNanos)
    {
        releaseHeld(false, nowNanos);
        held.claim(MAX_HEADERS);
        credits.sent(window.nextPsn());
        hold(builder.fetchAdd(held.buffer(), held.offset(), window.nextPsn(), false, address + addressOffset, addend),
            reports, nowNanos);
    }

    private void hold(final int length, final int reports, final long nowNanos)
    {
        held.hold(window.assign(), length, reports, ackRequests.nextPacket(), nowNanos);
    }

    /**
     * Lets the held frame go, if any: with AckReq when the periodic rule set it or {@code idle}.
     *
     * @param idle     whether it leaves because the QP went idle (or must be answered now).
     * @param nowNanos engine clock.
     */
    void releaseHeld(final boolean idle, final long nowNanos)
    {
        if (!held.isHeld())
        {
            return;
        }
        held.release();
        final boolean ackReq = held.ackReq() || idle;
        window.sent(held.psn(), ackReq, nowNanos);
        if (ackReq)
        {
            builder.requestAck(held.buffer(), held.offset(), held.length());
        }
        output.sendHeld(held, nowNanos);
    }

    /**
     * Sends a zero-length WRITE with AckReq on {@code psn}, outside the PSN sequence: a probe (on an executed PSN the
     * responder answers a duplicate with an ACK for its expected PSN - 1) or a restart test.
     *
     * @param psn      the PSN.
     * @param nowNanos engine clock.
     */
    void sendProbe(final int psn, final long nowNanos)
    {
        final int length = builder.writeOnly(probe, HeldFrame.STAGING_OFFSET, psn, true, builder.path().baseAddress(),
            probe, 0, 0);
        output.transmit(probe, HeldFrame.STAGING_OFFSET, length, 0, nowNanos);
        output.probeSent();
    }
}
