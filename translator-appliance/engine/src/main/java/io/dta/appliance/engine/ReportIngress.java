package io.dta.appliance.engine;

import io.dta.codec.DtaBaseHeaderFlyweight;
import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.FrameDecoder;
import io.dta.codec.UdpFlyweight;
import org.agrona.DirectBuffer;

/**
 * A DTA report as it comes in (translation.md §1, §2): counted, its IPv4 checksum verified, its flags counted, its
 * reporter's sequence tracked (a duplicate dropped, a gap NACKed), then handed to the worker that owns it or routed
 * to its primitive ({@link PrimitiveRouter}). A malformed frame is counted under the reason its shape gives, and a
 * damaged report still takes its place in its reporter's sequence when that can be told.
 * <p>
 * The frame is read through the decoder the engine passes in with it, not through a decoder field of this class or
 * of the router: the JIT then sees one decoder object from the decode to the translation and uses the offsets and
 * buffer the decode just stored instead of loading them again through a second reference (about 5 % of the engine's
 * time per Key-Write report, docs/performance.md).
 */
final class ReportIngress
{
    private final EngineCounters counters;
    private final ReporterSequenceTracker sequenceTracker;
    private final ReporterNackSender nackSender;
    private final PrimitiveRouter router;
    private final WorkerHandOffs handOffs;
    private final boolean verifyChecksums;

    ReportIngress(
        final EngineCounters counters,
        final ReporterSequenceTracker sequenceTracker,
        final ReporterNackSender nackSender,
        final PrimitiveRouter router,
        final WorkerHandOffs handOffs,
        final boolean verifyChecksums)
    {
        this.counters = counters;
        this.sequenceTracker = sequenceTracker;
        this.nackSender = nackSender;
        this.router = router;
        this.handOffs = handOffs;
        this.verifyChecksums = verifyChecksums;
    }

    /**
     * The well-formed report just decoded.
     */
    void onReport(final FrameDecoder decoder, final long nowNanos)
    {
        counters.increment(EngineCounter.REPORTS_IN);
        if (verifyChecksums && !decoder.ipChecksumValid())
        {
            counters.increment(EngineCounter.DROP_BAD_CHECKSUM);
            return;
        }
        final DtaBaseHeaderFlyweight base = decoder.dtaBase();
        // The flags byte read once (three accessors would each find and read it); only the three-byte form
        // carries the sequence number that essential and retransmittable reports need.
        final int flags = base.flags();
        final boolean sequenced = base.hasSeqnum();
        final boolean essential = sequenced && 0 != (flags & DtaBaseHeaderFlyweight.FLAG_ESSENTIAL);
        if (0 != (flags & DtaBaseHeaderFlyweight.FLAG_IMMEDIATE))
        {
            counters.increment(EngineCounter.IMMEDIATE_REPORTS);
        }
        if (essential)
        {
            counters.increment(EngineCounter.ESSENTIAL_REPORTS);
        }
        final boolean retransmittable = sequenced && 0 != (flags & DtaBaseHeaderFlyweight.FLAG_RETRANSMITTABLE);
        router.retransmittable(retransmittable);
        if (retransmittable && !checkSequence(decoder, base.seqnum(), nowNanos))
        {
            return;
        }
        final int opcode = decoder.dtaOpcode();
        if (handOffs.joined() && handOffs.handedOff(opcode, essential))
        {
            return;
        }
        router.translate(decoder, opcode, essential, nowNanos);
    }

    /**
     * @return whether the malformed frame just decoded is a report (counted in {@link EngineCounter#REPORTS_IN} and
     * dropped under a report reason): a broken DTA payload, or a UDP-level fault of a datagram to the report port.
     */
    boolean malformedReport(final FrameDecoder decoder)
    {
        return switch (decoder.malformedReason())
        {
            case TRUNCATED_DTA, BAD_DTA_LENGTH, UNKNOWN_DTA_OPCODE -> true;
            case BAD_UDP_CHECKSUM, BAD_UDP_LENGTH, TRUNCATED_IPV4 -> toReportPort(decoder);
            default -> false;
        };
    }

    /**
     * The malformed frame just decoded: counted under the reason its shape gives.
     */
    void onMalformed(final FrameDecoder decoder, final DirectBuffer buffer, final long nowNanos)
    {
        // Which malformed frames are reports is decided in one place, shared with the responses capture's filter.
        final boolean report = malformedReport(decoder);
        if (report)
        {
            counters.increment(EngineCounter.REPORTS_IN);
        }
        switch (decoder.malformedReason())
        {
            case TRUNCATED_DTA ->
            {
                counters.increment(EngineCounter.DROP_TRUNCATED);
                trackDamaged(decoder, buffer, nowNanos);
            }
            case BAD_DTA_LENGTH ->
            {
                counters.increment(EngineCounter.DROP_BAD_LENGTH);
                trackDamaged(decoder, buffer, nowNanos);
            }
            case UNKNOWN_DTA_OPCODE ->
            {
                counters.increment(EngineCounter.DROP_UNKNOWN_OPCODE);
                trackDamaged(decoder, buffer, nowNanos);
            }
            // A RoCEv2 response with a bad checksum is no report, but dropped for the same reason.
            case BAD_UDP_CHECKSUM -> counters.increment(EngineCounter.DROP_BAD_CHECKSUM);
            // A report all the same (§1: counted under a named reason): cut short when its UDP length reaches past
            // the IP datagram, a bad length when it is shorter than the UDP header.
            case BAD_UDP_LENGTH -> counters.increment(!report ? EngineCounter.DROP_MALFORMED :
                decoder.udp().length() < UdpFlyweight.HEADER_LENGTH ?
                    EngineCounter.DROP_BAD_LENGTH : EngineCounter.DROP_TRUNCATED);
            // The frame ends before its IP datagram does: after the UDP header of a report, a truncated report.
            case TRUNCATED_IPV4 ->
                counters.increment(report ? EngineCounter.DROP_TRUNCATED : EngineCounter.DROP_MALFORMED);
            case FRAGMENTED -> counters.increment(EngineCounter.DROP_FRAGMENTED);
            default -> counters.increment(EngineCounter.DROP_MALFORMED);
        }
    }

    /**
     * A report dropped for its shape (truncated, bad length, unknown opcode) still took its place in its reporter's
     * sequence when its three-byte base header is whole and its IPv4 header sound: tracked, it keeps the reporter's
     * next report from looking like a gap. Untracked, that next report would draw a NACK, the reporter would resend
     * this same report, and every retransmittable report of that reporter would be dropped until the gap timed out
     * (reports.sequenceTimeoutMicros). A gap it reveals itself is NACKed as any gap, without a second drop count
     * (the report is already counted under its shape's reason). Under {@code baseHeader: auto} the form of a report
     * that fits no primitive is unknown, so it is not tracked.
     */
    private void trackDamaged(final FrameDecoder decoder, final DirectBuffer buffer, final long nowNanos)
    {
        final int base = decoder.dtaOffset();
        if (DtaBaseHeaderForm.THREE != decoder.baseHeaderForm() || base < 0 ||
            decoder.udpLength() - UdpFlyweight.HEADER_LENGTH < DtaBaseHeaderForm.THREE.length() ||
            (verifyChecksums && !decoder.ipChecksumValid()) ||
            0 == (buffer.getByte(base + DtaBaseHeaderFlyweight.FLAGS_OFFSET_THREE) &
                DtaBaseHeaderFlyweight.FLAG_RETRANSMITTABLE))
        {
            return;
        }
        trackSequence(decoder, buffer.getByte(base + DtaBaseHeaderFlyweight.SEQNUM_OFFSET) & 0xFF, nowNanos);
    }

    /**
     * @return whether the malformed frame's UDP header was found and names the report port.
     */
    private boolean toReportPort(final FrameDecoder decoder)
    {
        return decoder.udpOffset() >= 0 && decoder.udp().dstPort() == decoder.dtaPort();
    }

    private boolean checkSequence(final FrameDecoder decoder, final int seqnum, final long nowNanos)
    {
        final int outcome = trackSequence(decoder, seqnum, nowNanos);
        if (ReporterSequenceTracker.IN_ORDER == outcome || ReporterSequenceTracker.REBASED == outcome)
        {
            return true;
        }
        if (ReporterSequenceTracker.DUPLICATE == outcome)
        {
            return dropped(EngineCounter.DROP_SEQUENCE_DUPLICATE);
        }
        if (ReporterSequenceTracker.TABLE_FULL == outcome)
        {
            return dropped(EngineCounter.DROP_REPORTER_TABLE_FULL);
        }
        return dropped(EngineCounter.DROP_SEQUENCE_GAP);
    }

    private boolean dropped(final EngineCounter reason)
    {
        counters.increment(reason);
        return false;
    }

    /**
     * Tracks the report's seqnum for its reporter: counts a re-base and NACKs a gap (what every tracked report
     * does, whether it is then translated or dropped for its shape).
     *
     * @return the tracker's outcome.
     */
    private int trackSequence(final FrameDecoder decoder, final int seqnum, final long nowNanos)
    {
        final int outcome = sequenceTracker.track(decoder.ipv4().src(), seqnum, nowNanos);
        if (ReporterSequenceTracker.REBASED == outcome)
        {
            counters.increment(EngineCounter.REPORTER_SEQUENCE_RESETS);
        }
        else if (outcome >= 0)
        {
            nackSender.send(decoder, outcome, nowNanos);
        }
        return outcome;
    }
}
