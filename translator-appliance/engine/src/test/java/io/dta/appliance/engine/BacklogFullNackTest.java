package io.dta.appliance.engine;

import io.dta.codec.DtaBaseHeaderFlyweight;
import io.dta.codec.DtaOpcode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An essential report whose QP's ring is full: a retransmittable one goes back to its reporter with a NACK and is
 * taken in order when the reporter sends it again; only one that cannot be sent again is dropped.
 */
class BacklogFullNackTest
{
    private static final int ESSENTIAL_RETRANSMITTABLE =
        DtaBaseHeaderFlyweight.FLAG_ESSENTIAL | DtaBaseHeaderFlyweight.FLAG_RETRANSMITTABLE;

    private static byte[] kw(final int seqnum, final int flags)
    {
        return report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, seqnum, flags,
            keyWrite(1, seqnum, new byte[] {0, 0, 0, (byte)seqnum}));
    }

    /** NACKs to REPORTER_1: the seqnum each carries. */
    private static List<Integer> nacks(final List<FrameCollector.Frame> frames)
    {
        return frames.stream().map(FrameCollector.Frame::bytes)
            .filter(b -> b.length >= 44 && (b[12] & 0xFF) == 0x08 && b[23] == 17 &&
                ((b[36] & 0xFF) << 8 | (b[37] & 0xFF)) == 40044)
            .map(b -> b[42] & 0xFF).toList();
    }

    @Test
    void shouldNackARetransmittableReportTheFullRingCannotTakeAndTakeItsResendInOrder()
    {
        final Cfg cfg = new Cfg();
        cfg.backlog = 2;
        final EngineHarness h = new EngineHarness(cfg);
        h.feed(kw(10, ESSENTIAL_RETRANSMITTABLE));
        h.feed(kw(11, ESSENTIAL_RETRANSMITTABLE));
        h.feed(kw(12, ESSENTIAL_RETRANSMITTABLE));
        assertEquals(1, h.count(EngineCounter.DROP_BACKLOG_FULL_NACKED));
        assertEquals(0, h.count(EngineCounter.DROP_BACKLOG_FULL));
        assertEquals(2, h.count(EngineCounter.REPORTS_TRANSLATED));
        // The reporter's next report, sent before the NACK reached it, is a gap.
        h.feed(kw(13, ESSENTIAL_RETRANSMITTABLE));
        assertEquals(1, h.count(EngineCounter.DROP_SEQUENCE_GAP));
        assertEquals(List.of(11, 11), nacks(h.out.drain()), "both NACKs name 11: send again from 12");
        h.settle();
        h.feed(ack(KW_QPN, 0x101));
        h.feed(kw(12, ESSENTIAL_RETRANSMITTABLE));
        h.feed(kw(13, ESSENTIAL_RETRANSMITTABLE));
        assertEquals(4, h.count(EngineCounter.REPORTS_TRANSLATED), "the re-sent reports are in order");
        assertEquals(1, h.count(EngineCounter.DROP_SEQUENCE_GAP));
        final List<Request> sent = h.settle();
        assertEquals(List.of(0x102, 0x103), sent.stream().map(Request::psn).toList());
        assertEquals(12, sent.get(0).payload()[7], "the re-sent report's data, after its key checksum");
    }

    @Test
    void shouldDropAnEssentialReportThatCannotBeSentAgainWhenTheRingIsFull()
    {
        final Cfg cfg = new Cfg();
        cfg.backlog = 1;
        final EngineHarness h = new EngineHarness(cfg);
        h.feed(kw(1, DtaBaseHeaderFlyweight.FLAG_ESSENTIAL));
        h.feed(kw(2, DtaBaseHeaderFlyweight.FLAG_ESSENTIAL));
        assertEquals(1, h.count(EngineCounter.DROP_BACKLOG_FULL));
        assertEquals(0, h.count(EngineCounter.DROP_BACKLOG_FULL_NACKED));
        assertEquals(List.of(), nacks(h.out.frames()));
    }
}
