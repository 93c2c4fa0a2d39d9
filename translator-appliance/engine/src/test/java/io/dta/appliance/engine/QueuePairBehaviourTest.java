package io.dta.appliance.engine;

import io.dta.codec.DtaOpcode;
import io.dta.codec.RoceOpcode;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueuePairBehaviourTest
{
    private static byte[] kw(final int key)
    {
        return report(DtaOpcode.KEY_WRITE, keyWrite(1, key, new byte[] {1, 2, 3, (byte)key}));
    }

    private static byte[] essentialKw(final int key)
    {
        return report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 0, 0x20, keyWrite(1, key, new byte[4]));
    }

    private static void sendKw(final EngineHarness h, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            h.feed(kw(i));
            h.now += 1000;
        }
    }

    @Test
    void shouldRequestAckEveryIntervalAndBeforeIdle()
    {
        final Cfg cfg = new Cfg();
        cfg.requestInterval = 4;
        final EngineHarness h = new EngineHarness(cfg);
        sendKw(h, 10);
        final List<Request> frames = h.settle();
        assertEquals(10, frames.size());
        for (int i = 0; i < 10; i++)
        {
            assertEquals(i == 3 || i == 7 || i == 9, frames.get(i).ackReq(), "frame " + i);
        }
    }

    @Test
    void shouldKeepThePeriodicAckReqOnEveryIntervalthPacketAcrossIdleOnes()
    {
        // translation.md §5: every requestInterval-th packet of the QP, and the last before idle. An AckReq for going
        // idle is an extra one: the periodic ones stay on packets 4, 8, 12, ... (restarting the count would put them
        // on 3 + 4 = 7 and 11 here).
        final Cfg cfg = new Cfg();
        cfg.requestInterval = 4;
        final EngineHarness h = new EngineHarness(cfg);
        sendKw(h, 3);
        final List<Request> first = h.settle();
        sendKw(h, 9);
        final List<Request> frames = new java.util.ArrayList<>(first);
        frames.addAll(h.settle());
        assertEquals(12, frames.size());
        for (int i = 0; i < frames.size(); i++)
        {
            final int packet = i + 1;
            assertEquals(packet % 4 == 0 || packet == 3 || packet == 12, frames.get(i).ackReq(), "packet " + packet);
        }
    }

    @Test
    void shouldHoldTheNewestFrameUntilIdleOrFlush()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        sendKw(h, 2);
        assertEquals(1, h.out.size());
        h.advance(TranslatorEngine.HOLD_NANOS - 3000);
        assertEquals(1, h.out.size(), "held until idle for HOLD_NANOS");
        h.engine.flush(h.now);
        final List<Request> frames = h.out.drainRequests();
        assertFalse(frames.get(0).ackReq());
        assertTrue(frames.get(1).ackReq(), "flush releases the held frame with AckReq");
    }

    @Test
    void shouldWrapPsnAt24Bits()
    {
        final Cfg cfg = new Cfg();
        cfg.startPsn = 0xFFFFFE;
        final EngineHarness h = new EngineHarness(cfg);
        h.feed(report(DtaOpcode.KEY_WRITE, keyWrite(4, 1, new byte[4])));
        final List<Request> frames = h.settle();
        assertEquals(List.of(0xFFFFFE, 0xFFFFFF, 0, 1), frames.stream().map(Request::psn).toList());
        h.feed(ack(KW_QPN, 1));
        assertEquals(1, h.count(EngineCounter.ACKS_IN));
        assertEquals(1, h.sender(KW_QPN).lastAckedPsn());
    }

    @Test
    void shouldResyncOnNakSequenceErrorAfterTimedGrace()
    {
        final EngineHarness h = new EngineHarness(new Cfg()); // grace 1000 us
        sendKw(h, 10);
        h.settle();
        h.feed(nak(KW_QPN, 0x60, 0x105));
        assertEquals(QueuePairSender.State.GRACE, h.sender(KW_QPN).state());
        assertEquals(0x105, h.sender(KW_QPN).nextPsn());
        h.feed(kw(1));
        h.feed(report(REPORTER_1, COLLECTOR_B, 3, DtaOpcode.KEY_WRITE, 0, 0, keyWrite(1, 1, new byte[4])));
        h.feed(report(DtaOpcode.KEY_INCREMENT, keyIncrement(1, 1, 1)));
        assertEquals(1, h.count(EngineCounter.DROP_GRACE_PERIOD));
        assertEquals(1, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD), "each report is one operation here");
        List<Request> frames = h.settle();
        assertEquals(2, frames.size(), "other QPs keep going");
        assertTrue(frames.stream().noneMatch(r -> r.destQp() == KW_REMOTE));
        h.advance(1_000_000 - 2 * TranslatorEngine.HOLD_NANOS);
        h.feed(kw(2));
        assertEquals(2, h.count(EngineCounter.DROP_GRACE_PERIOD), "still in grace");
        assertEquals(2, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD), "each report is one operation here");
        h.advance(TranslatorEngine.HOLD_NANOS);
        h.feed(kw(3));
        // the other QPs probed meanwhile (nobody acknowledged them): look at the resynchronised QP only
        frames = h.settle().stream().filter(r -> r.destQp() == KW_REMOTE).toList();
        assertEquals(1, frames.size());
        assertEquals(0x105, frames.get(0).psn());
        assertEquals(KW_REMOTE, frames.get(0).destQp());
    }

    @Test
    void shouldEndGraceAfterGracePackets()
    {
        final Cfg cfg = new Cfg();
        cfg.graceMicros = 0;
        cfg.gracePackets = 3;
        final EngineHarness h = new EngineHarness(cfg);
        sendKw(h, 5);
        h.settle();
        h.feed(nak(KW_QPN, 0x60, 0x102));
        sendKw(h, 4);
        assertEquals(3, h.count(EngineCounter.DROP_GRACE_PERIOD));
        assertEquals(3, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD), "each report is one operation here");
        final List<Request> frames = h.settle();
        assertEquals(1, frames.size());
        assertEquals(0x102, frames.get(0).psn());
    }

    @Test
    void shouldQueueEssentialReportsDuringGraceAndResendUnexecutedOnes()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        for (int i = 0; i < 4; i++)
        {
            h.feed(essentialKw(i));
        }
        final List<Request> sent = h.settle();
        assertEquals(4, sent.size());
        h.feed(nak(KW_QPN, 0x60, 0x102));
        h.feed(essentialKw(9));
        h.feed(kw(10));
        assertEquals(1, h.count(EngineCounter.DROP_GRACE_PERIOD), "essential is not dropped");
        assertEquals(1, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD), "each report is one operation here");
        // The responder named its PSN: essential operations go again at once, only non-essential ones wait.
        final List<Request> after = h.settle();
        assertEquals(3, after.size());
        assertEquals(List.of(0x102, 0x103, 0x104), after.stream().map(Request::psn).toList());
        assertArrayEquals(sent.get(2).payload(), after.get(0).payload());
        assertEquals(sent.get(2).va(), after.get(0).va());
        assertArrayEquals(sent.get(3).payload(), after.get(1).payload());
        assertEquals(KW_BASE + (slotHash(9, 0) & 255) * 8, after.get(2).va());
        assertEquals(2, h.count(EngineCounter.ESSENTIAL_RESENT));
    }

    @Test
    void shouldNotRewindOnALateAckThatArrivesWhileProbing()
    {
        final EngineHarness h = new EngineHarness(new Cfg()); // timeout 500 us
        sendKw(h, 5);                                         // 0x100..0x104, the last with AckReq
        h.settle();
        h.advance(500_000);                                   // slow responder: nothing yet
        assertEquals(1, h.count(EngineCounter.PROBES_OUT));
        h.out.drainRequests();
        h.feed(ack(KW_QPN, 0x101));                           // a late ACK of an earlier AckReq, not the answer
        h.advance(300_000);
        h.feed(ack(KW_QPN, 0x104));                           // the real answer, within the timeout: all executed
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state());
        h.advance(500_000);
        assertEquals(0, h.count(EngineCounter.PROBE_RESYNCS));
        assertEquals(0x105, h.sender(KW_QPN).nextPsn(), "no rewind on the late ACK");
        assertEquals(0, h.count(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW));
    }

    @Test
    void shouldRecoverFromLostNakWithProbe()
    {
        final EngineHarness h = new EngineHarness(new Cfg()); // timeout 500 us, grace 1000 us
        sendKw(h, 5);                                         // 0x100..0x104, the last with AckReq
        h.settle();
        h.feed(ack(KW_QPN, 0x101));                           // 0x102.. lost, the NAK lost too
        h.advance(500_000);
        final List<Request> probe = h.out.drainRequests();
        assertEquals(1, probe.size());
        assertEquals(0, probe.get(0).dmaLength());
        assertTrue(probe.get(0).ackReq());
        assertEquals(0x101, probe.get(0).psn(), "an already acknowledged PSN");
        assertEquals(QueuePairSender.State.PROBING, h.sender(KW_QPN).state());
        assertEquals(1, h.count(EngineCounter.PROBES_OUT));
        h.feed(kw(77));
        assertEquals(0, h.count(EngineCounter.DROP_GRACE_PERIOD), "translation goes on while the probe is out");
        assertEquals(List.of(0x105), h.settle().stream().map(Request::psn).toList());
        h.feed(ack(KW_QPN, 0x101));                           // the answer: the responder expects 0x102
        h.advance(400_000);
        assertEquals(0, h.count(EngineCounter.PROBE_RESYNCS), "a late ACK could still be followed by the answer");
        h.advance(100_000);
        assertEquals(1, h.count(EngineCounter.PROBE_RESYNCS), "one timeout after the probe: resynchronised");
        assertEquals(1, h.count(EngineCounter.PROBES_OUT), "one answer is enough");
        assertEquals(0x102, h.sender(KW_QPN).nextPsn());
        assertEquals(QueuePairSender.State.GRACE, h.sender(KW_QPN).state());
        h.advance(1_000_000);
        h.feed(kw(78));
        final List<Request> frames = h.settle();
        assertEquals(1, frames.size());
        assertEquals(0x102, frames.get(0).psn());
    }

    @Test
    void shouldKeepProbingAStaticRegionWhoseCollectorIsSilent()
    {
        // connection.silenceTimeoutMillis (default 100 ms) stops only negotiated regions, which can be connected
        // again; a static region's collector may come back on its own, so its QP probes on.
        final EngineHarness h = new EngineHarness(new Cfg());
        sendKw(h, 5);
        h.settle();
        for (int i = 0; i < 400; i++)
        {
            h.advance(500_000);
        }
        assertEquals(400, h.count(EngineCounter.PROBES_OUT));
        assertEquals(QueuePairSender.State.PROBING, h.sender(KW_QPN).state());
        assertEquals(0, h.count(EngineCounter.SILENT_QP_STOPS));
        h.feed(ack(KW_QPN, 0x104));                           // back: everything was executed
        h.advance(500_000);
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state());
    }

    @Test
    void shouldNotProbeAHealthyQpWhoseAcksArriveAfterTheNextAckRequest()
    {
        // translation.md §5: a probe is for an AckReq'd PSN not acknowledged within acks.timeoutMicros. Here every
        // AckReq'd PSN is acknowledged 6 us after it left, but the next AckReq'd frame (every 4th, 1 us apart)
        // always leaves before that ACK arrives: for 2 ms, four times the 500 us timeout.
        final Cfg cfg = new Cfg();
        cfg.requestInterval = 4;
        final EngineHarness h = new EngineHarness(cfg);
        final ArrayDeque<long[]> acks = new ArrayDeque<>();
        for (int i = 0; i < 2000; i++)
        {
            while (!acks.isEmpty() && acks.peekFirst()[0] <= h.now)
            {
                h.feed(ack(KW_QPN, (int)acks.pollFirst()[1]));
            }
            h.feed(kw(i));
            for (final Request r : h.out.drainRequests())
            {
                if (r.ackReq())
                {
                    acks.addLast(new long[] {h.now + 6_000, r.psn()});
                }
            }
            h.now += 1000;
        }
        assertEquals(0, h.count(EngineCounter.PROBES_OUT), "every AckReq'd PSN was acknowledged within 6 us");
        assertEquals(0, h.count(EngineCounter.DROP_GRACE_PERIOD));
        assertEquals(0, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD), "each report is one operation here");
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state());
    }

    @Test
    void shouldNotProbeAHeldFrameWhoseTimerWasArmedBeforeItLeft()
    {
        // translation.md §5: a probe is for a PSN that went out and stayed unacknowledged for acks.timeoutMicros.
        // A replayed capture's clock jumps over idle gaps: the held last copy of a Key-Increment (and of an
        // essential Key-Write) leaves only at the first frame after the gap, so its timer must start then, not at
        // the ACK of the copy before it, which came while it was still held.
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(report(DtaOpcode.KEY_INCREMENT, keyIncrement(2, 7, 1)));
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 0, 0x20, keyWrite(2, 9, new byte[4])));
        final List<Request> first = h.out.drainRequests();
        assertEquals(2, first.size(), "the first copy of each left, the second is held");
        h.now += 2_000;
        h.feed(atomicAck(KI_QPN, first.get(0).destQp() == KI_REMOTE ? first.get(0).psn() : first.get(1).psn()));
        h.feed(ack(KW_QPN, first.get(0).destQp() == KW_REMOTE ? first.get(0).psn() : first.get(1).psn()));
        h.now += 3_000_000;
        h.feed(kw(1));
        final List<Request> after = h.out.drainRequests();
        assertEquals(0, h.count(EngineCounter.PROBES_OUT), "the held frames left just now: " + after);
        assertEquals(2, after.size(), "the held copies, with AckReq as the QPs went idle");
        assertTrue(after.get(0).ackReq() && after.get(1).ackReq());
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KI_QPN).state());
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state());
        h.advance(400_000);
        assertEquals(0, h.count(EngineCounter.PROBES_OUT), "400 us after they left: not yet timed out");
        h.advance(200_000);
        assertEquals(2, h.count(EngineCounter.PROBES_OUT), "600 us after they left, unanswered: probed");
    }

    @Test
    void shouldIgnoreForgedAndStaleResponses()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        sendKw(h, 5);
        h.settle();
        h.feed(response(0x0A0909FF, KW_QPN, 0x11, 0x60, 0x101));
        h.feed(response(COLLECTOR_B, KW_QPN, 0x11, 0x60, 0x101));
        assertEquals(2, h.count(EngineCounter.RESPONSE_DROP_UNKNOWN_SOURCE));
        h.feed(nak(0x999, 0x60, 0x101));
        assertEquals(1, h.count(EngineCounter.RESPONSE_DROP_UNKNOWN_QPN));
        // From our collector, to our QPN, in the window, ICRC valid: but to another host with a QPN like ours.
        h.feed(response(COLLECTOR_A, APPLIANCE_IP + 1, KW_QPN, 0x11, 0x60, 0x101));
        h.feed(response(COLLECTOR_A, APPLIANCE_IP + 1, KW_QPN, 0x11, 0x1F, 0x104));
        assertEquals(2, h.count(EngineCounter.RESPONSE_DROP_OTHER_DESTINATION));
        assertEquals(0, h.count(EngineCounter.NAK_SEQUENCE_ERRORS_IN), "another host's NAK rewinds nothing here");
        // Everything right but the partition: a receiver drops it silently. A limited member of our partition
        // (0x7FFF against our full 0xFFFF) is in it.
        h.feed(response(COLLECTOR_A, APPLIANCE_IP, KW_QPN, 0x11, 0x60, 0x101, 0x1234));
        h.feed(response(COLLECTOR_A, APPLIANCE_IP, KW_QPN, 0x11, 0x60, 0x101, 0x7FFE));
        assertEquals(2, h.count(EngineCounter.RESPONSE_DROP_BAD_PKEY));
        assertEquals(0, h.count(EngineCounter.NAK_SEQUENCE_ERRORS_IN), "another partition's NAK rewinds nothing");
        h.feed(response(COLLECTOR_A, APPLIANCE_IP, KW_QPN, 0x11, 0x1F, 0x100, 0x7FFF));
        assertEquals(2, h.count(EngineCounter.RESPONSE_DROP_BAD_PKEY));
        assertEquals(0x100, h.sender(KW_QPN).lastAckedPsn(), "a limited member of our partition is believed");
        h.feed(nak(KW_QPN, 0x60, 0x50));
        h.feed(nak(KW_QPN, 0x60, 0x106));
        h.feed(ack(KW_QPN, 0x200));
        assertEquals(3, h.count(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW));
        final byte[] bad = nak(KW_QPN, 0x60, 0x101);
        bad[bad.length - 1] ^= 1;
        h.feed(bad);
        assertEquals(1, h.count(EngineCounter.RESPONSE_DROP_BAD_ICRC));
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state());
        assertEquals(0x105, h.sender(KW_QPN).nextPsn());
        assertEquals(0, h.count(EngineCounter.NAK_SEQUENCE_ERRORS_IN));
        h.feed(kw(1));
        assertEquals(0x105, h.settle().get(0).psn());
    }

    @Test
    void shouldNotBelieveAnAckForTheHeldFrameBeforeItLeaves()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        sendKw(h, 3);
        h.feed(ack(KW_QPN, 0x102));
        assertEquals(1, h.count(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW), "0x102 is held, never sent");
        assertEquals(0x0FF, h.sender(KW_QPN).lastAckedPsn());
        h.settle();
        h.feed(ack(KW_QPN, 0x102));
        assertEquals(1, h.count(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW));
        assertEquals(0x102, h.sender(KW_QPN).lastAckedPsn(), "believed once it left");
    }

    @Test
    void shouldGiveBackTheLentMemoryOfHeldFramesThatWillNeverBeSent()
    {
        final EngineHarness h = new EngineHarness(new Cfg()); // grace 1000 us
        sendKw(h, 3);
        assertEquals(2, h.out.size(), "the newest frame is held");
        assertEquals(1, h.out.outstandingLoans(), "built in memory the sink lent");
        h.feed(nak(KW_QPN, 0x60, 0x101));
        assertEquals(QueuePairSender.State.GRACE, h.sender(KW_QPN).state());
        assertEquals(1, h.out.abandoned(), "the held frame was never sent: its memory goes back");
        assertEquals(0, h.out.outstandingLoans());
        h.advance(2_000_000);
        sendKw(h, 2);
        assertEquals(1, h.out.outstandingLoans());
        h.feed(nak(KW_QPN, 0x62, 0x101)); // the last PSN sent: the held 0x102 never left
        assertEquals(QueuePairSender.State.ERROR, h.sender(KW_QPN).state());
        assertEquals(2, h.out.abandoned());
        h.engine.flush(h.now);
        assertEquals(0, h.out.outstandingLoans());
        final List<Request> sent = h.out.drainRequests().stream().filter(r -> r.destQp() == KW_REMOTE).toList();
        assertEquals(List.of(0x100, 0x101, 0x101), sent.stream().map(Request::psn).toList(),
            "two before the NAK, then the resynchronised PSN; the held ones never left");
    }

    @Test
    void shouldTakeUpTheCollectorsPsnOnlyWhenItsAnswersToTestsShowItIsAheadOfTheStart()
    {
        // A translator restarted after a crash starts at startPsn 0x100; the collector executed up to 0x4ff of the
        // previous run and answers the (to it duplicate) frames with ACKs of 0x4ff. The first such ACK is only a
        // suspicion (a forged or stale one looks the same); each probe that follows is a test the collector answers
        // with 0x4ff again, and RESTART_EVIDENCE_ANSWERS such answers in a row move the QP.
        final EngineHarness h = new EngineHarness(new Cfg());
        sendKw(h, 3);
        h.advance(100);
        h.engine.flush(h.now);
        h.out.drainRequests();
        h.feed(ack(KW_QPN, 0x4FF));
        assertEquals(1, h.count(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW));
        assertEquals(0x103, h.sender(KW_QPN).nextPsn(), "one ACK moves nothing");
        h.advance(500_000);
        assertEquals(1, h.count(EngineCounter.PROBES_OUT), "the ACK timer ran out: a probe, the suspicion's test");
        for (int i = 0; i < QueuePairSender.RESTART_EVIDENCE_ANSWERS; i++)
        {
            h.feed(ack(KW_QPN, 0x4FF));
        }
        assertEquals(1, h.count(EngineCounter.RESPONDER_RESTARTS));
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state());
        h.out.drainRequests();
        sendKw(h, 2);
        h.advance(100_000);
        h.engine.flush(h.now);
        assertEquals(List.of(0x500, 0x501), h.out.drainRequests().stream().filter(r -> r.destQp() == KW_REMOTE)
            .filter(r -> r.payload().length > 0).map(Request::psn).toList(),
            "continued at the collector's expected PSN");
        // Once the collector has answered, an ACK ahead of what was sent is forged or stale: dropped.
        h.feed(ack(KW_QPN, 0x501));
        final long dropped = h.count(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW);
        h.feed(ack(KW_QPN, 0x900));
        assertEquals(dropped + 1, h.count(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW));
        assertEquals(0x502, h.sender(KW_QPN).nextPsn());
    }

    @Test
    void shouldStopQpOnFatalNak()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        sendKw(h, 3);
        h.settle();
        h.feed(nak(KW_QPN, 0x62, 0x101));
        assertEquals(QueuePairSender.State.ERROR, h.sender(KW_QPN).state());
        assertEquals(1, h.count(EngineCounter.NAK_FATAL_IN));
        sendKw(h, 3);
        h.feed(report(REPORTER_1, COLLECTOR_B, 3, DtaOpcode.KEY_WRITE, 0, 0, keyWrite(1, 1, new byte[4])));
        h.advance(2_000_000);
        h.engine.flush(h.now);
        final List<Request> frames = h.out.drainRequests();
        assertEquals(1, frames.size());
        assertEquals(KWB_REMOTE, frames.get(0).destQp());
        assertEquals(3, h.count(EngineCounter.DROP_QP_ERROR));
        assertEquals(3, h.count(EngineCounter.OPERATIONS_DROPPED_QP_ERROR), "each report is one operation here");
        h.feed(ack(KW_QPN, 0x101));
        assertEquals(1, h.count(EngineCounter.RESPONSE_DROP_QP_ERROR));
    }

    @Test
    void shouldDropResponsesWithAReservedSyndromeWithoutStoppingTheQp()
    {
        // translation.md §5: only ACK, NAK 0x60 and the fatal NAKs 0x61..0x63 act on the QP; anything else is
        // dropped and counted. 0x40..0x5F is a reserved AETH type, 0x64 (Invalid RD Request) is RD-only, 0x7F and a
        // syndrome with the reserved top bit set are no NAK codes of RC.
        final EngineHarness h = new EngineHarness(new Cfg());
        sendKw(h, 3);
        h.settle();
        for (final int syndrome : new int[] {0x40, 0x5F, 0x64, 0x7F, 0xE1})
        {
            h.feed(nak(KW_QPN, syndrome, 0x101));
        }
        assertEquals(5, h.count(EngineCounter.RESPONSE_DROP_RESERVED_SYNDROME));
        assertEquals(0, h.count(EngineCounter.NAK_FATAL_IN));
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state());
        h.feed(kw(1));
        assertEquals(0x103, h.settle().get(0).psn(), "the QP keeps sending on its own PSNs");
        h.feed(response(COLLECTOR_A, KW_QPN, RoceOpcode.RC_ATOMIC_ACKNOWLEDGE, 0x62, 0x103));
        assertEquals(6, h.count(EngineCounter.RESPONSE_DROP_RESERVED_SYNDROME), "an ATOMIC ACK cannot be a NAK");
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state());
        h.feed(nak(KW_QPN, 0x63, 0x103));
        assertEquals(QueuePairSender.State.ERROR, h.sender(KW_QPN).state(), "0x63 is fatal");
    }

    @Test
    void shouldDropRnrAndFatalNaksNamingAPsnNeverSent()
    {
        // An RNR or fatal NAK names a request the responder received; one naming the next PSN (or any unsent one)
        // is forged or corrupt and must neither pause nor stop the QP. A sequence error may name highest sent + 1
        // (engine.md), but not beyond.
        final EngineHarness h = new EngineHarness(new Cfg());
        sendKw(h, 3);
        h.settle();
        assertEquals(0x103, h.sender(KW_QPN).nextPsn(), "0x100..0x102 sent");
        for (final int syndrome : new int[] {0x20 | 14, 0x3F, 0x61, 0x62, 0x63})
        {
            h.feed(nak(KW_QPN, syndrome, 0x103));
            h.feed(nak(KW_QPN, syndrome, 0x182));
        }
        h.feed(nak(KW_QPN, 0x60, 0x104));
        h.feed(nak(KW_QPN, 0x60, 0x182));
        assertEquals(12, h.count(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW));
        assertEquals(0, h.count(EngineCounter.NAK_FATAL_IN) + h.count(EngineCounter.NAK_RNR_IN) +
            h.count(EngineCounter.NAK_SEQUENCE_ERRORS_IN));
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state());
        h.feed(nak(KW_QPN, 0x62, 0x102));
        assertEquals(QueuePairSender.State.ERROR, h.sender(KW_QPN).state(), "the last PSN sent may be NAKed");
        assertEquals(1, h.count(EngineCounter.NAK_FATAL_IN));
    }

    @Test
    void shouldDropResponsesWithABadIpOrUdpChecksum()
    {
        // The ICRC masks both checksums: without a check of their own a corrupted header would be believed.
        final EngineHarness h = new EngineHarness(new Cfg());
        sendKw(h, 3);
        h.settle();
        final byte[] badIp = ack(KW_QPN, 0x102);
        badIp[14 + 10] ^= 0x01;
        final byte[] badUdp = ack(KW_QPN, 0x102);
        badUdp[14 + 20 + 6] = 0x12;
        badUdp[14 + 20 + 7] = 0x34;
        h.feed(badIp);
        h.feed(badUdp);
        assertEquals(2, h.count(EngineCounter.RESPONSE_DROP_BAD_CHECKSUM));
        assertEquals(0, h.count(EngineCounter.RESPONSE_DROP_BAD_ICRC), "the ICRC does not see either checksum");
        assertNotEquals(0x102, h.sender(KW_QPN).lastAckedPsn());
        final byte[] zeroUdp = ack(KW_QPN, 0x102);
        zeroUdp[14 + 20 + 6] = 0;
        zeroUdp[14 + 20 + 7] = 0;
        h.feed(zeroUdp);
        assertEquals(0x102, h.sender(KW_QPN).lastAckedPsn(), "a zero UDP checksum means none, as RoCE NICs send");
        assertEquals(2, h.count(EngineCounter.RESPONSE_DROP_BAD_CHECKSUM));
    }

    @Test
    void shouldNackReporterSequenceGapsPerReporter()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        final byte[] sub = keyWrite(1, 1, new byte[4]);
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 10, 0x40, sub));
        h.feed(report(REPORTER_2, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 200, 0x40, sub));
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 11, 0x40, sub));
        h.feed(report(REPORTER_2, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 201, 0x40, sub));
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 13, 0x40, sub));
        h.feed(report(REPORTER_2, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 202, 0x40, sub));
        assertEquals(1, h.count(EngineCounter.DROP_SEQUENCE_GAP));
        assertEquals(5, h.count(EngineCounter.REPORTS_TRANSLATED));
        final List<FrameCollector.Frame> frames = h.out.drain();
        final byte[] nack = frames.stream().map(FrameCollector.Frame::bytes)
            .filter(f -> (((f[36] & 0xFF) << 8) | (f[37] & 0xFF)) == 40044).findFirst().orElseThrow();
        assertEquals(REPORTER_1, java.nio.ByteBuffer.wrap(nack).getInt(30));
        assertEquals(COLLECTOR_A, java.nio.ByteBuffer.wrap(nack).getInt(26));
        assertEquals(0, TestFrames.ipChecksum(nack, 14));
        assertArrayEquals(new byte[] {11, (byte)0x80}, Arrays.copyOfRange(nack, 42, 44));
        assertEquals(1, h.count(EngineCounter.REPORTER_NACKS_OUT));
    }

    @Test
    void shouldDropDuplicatesWithoutNackAndRebaseAReporterWhoseGapIsNeverFilled()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        final byte[] sub = keyWrite(1, 1, new byte[4]);
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 10, 0x40, sub));
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 10, 0x40, sub));
        assertEquals(1, h.count(EngineCounter.DROP_SEQUENCE_DUPLICATE));
        assertEquals(0, h.count(EngineCounter.REPORTER_NACKS_OUT));

        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 12, 0x40, sub));
        h.advance(60_000_000);
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 13, 0x40, sub));
        assertEquals(2, h.count(EngineCounter.DROP_SEQUENCE_GAP), "the gap is timed from its first report");
        h.advance(40_000_000);
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 14, 0x40, sub));
        assertEquals(1, h.count(EngineCounter.REPORTER_SEQUENCE_RESETS));
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 15, 0x40, sub));
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 17, 0x40, sub));
        assertEquals(3, h.count(EngineCounter.DROP_SEQUENCE_GAP));
        assertEquals(3, h.count(EngineCounter.REPORTS_TRANSLATED));
        assertEquals(3, h.count(EngineCounter.REPORTER_NACKS_OUT));
    }

    @Test
    void shouldNeverRebaseUnderTheStrictRule()
    {
        final ReporterSequenceTracker strict = new ReporterSequenceTracker(16, 0);
        assertEquals(ReporterSequenceTracker.IN_ORDER, strict.track(1, 5, 0));
        assertEquals(5, strict.track(1, 9, 1));
        assertEquals(5, strict.track(1, 10, Long.MAX_VALUE / 2));
        assertEquals(ReporterSequenceTracker.DUPLICATE, strict.track(1, 5, Long.MAX_VALUE / 2));
        assertEquals(ReporterSequenceTracker.IN_ORDER, strict.track(1, 6, Long.MAX_VALUE / 2));

        final ReporterSequenceTracker timed = new ReporterSequenceTracker(16, 1_000);
        assertEquals(ReporterSequenceTracker.IN_ORDER, timed.track(2, 255, 0));
        assertEquals(255, timed.track(2, 3, 10));
        assertEquals(255, timed.track(2, 4, 1_009));
        assertEquals(ReporterSequenceTracker.REBASED, timed.track(2, 4, 1_010));
        assertEquals(ReporterSequenceTracker.IN_ORDER, timed.track(2, 5, 1_011));
        assertEquals(ReporterSequenceTracker.IN_ORDER, timed.track(2, 6, 5_000), "no gap open: nothing times out");
    }

    @Test
    void shouldCountEveryDropUnderItsReason()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(report(0x09, new byte[8]));
        assertEquals(1, h.count(EngineCounter.DROP_UNKNOWN_OPCODE));
        final byte[] truncated = report(DtaOpcode.KEY_INCREMENT, new byte[6]);
        h.feed(truncated);
        assertEquals(1, h.count(EngineCounter.DROP_TRUNCATED) + h.count(EngineCounter.DROP_BAD_LENGTH));
        final byte[] other = kw(1);
        other[37] = 53;
        h.feed(other);
        assertEquals(1, h.count(EngineCounter.OTHER_FRAMES));
        h.engine.flush(h.now);
        assertEquals(0, h.out.size());
        assertEquals(2, h.engine.counters().totalDrops());
    }

    @Test
    void shouldCountTransmitFull()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.out.refuseClaims(true);
        sendKw(h, 2);
        h.settle();
        assertEquals(2, h.count(EngineCounter.DROP_TX_FULL));
    }
}
