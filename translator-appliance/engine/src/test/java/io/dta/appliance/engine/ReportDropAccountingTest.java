package io.dta.appliance.engine;

import io.dta.codec.DtaOpcode;
import io.dta.codec.RoceOpcode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * translation.md §1: every dropped report is counted under a named reason, so the QP-level reasons count reports
 * (each operation carries the reports it is the carrier of), and their operations are counted beside them.
 */
class ReportDropAccountingTest
{
    private static final int ESSENTIAL = 0x20;

    private static byte[] kw(final int n, final int key, final int flags)
    {
        return report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 0, flags, keyWrite(n, key, new byte[4]));
    }

    private static byte[] ki(final int n, final int key, final int flags)
    {
        return report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_INCREMENT, 0, flags, keyIncrement(n, key, 1));
    }

    private static byte[] appendTo(final int list, final int data, final int flags)
    {
        return report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.APPEND, 0, flags, append(list, data));
    }

    private static byte[] card(final int key, final int hop)
    {
        return report(DtaOpcode.POSTCARD, postcard(key, hop, hop * 100));
    }

    private static long reportDrops(final EngineHarness h)
    {
        return h.count(EngineCounter.DROP_GRACE_PERIOD) + h.count(EngineCounter.DROP_QP_ERROR) +
            h.count(EngineCounter.DROP_BACKLOG_FULL) + h.count(EngineCounter.DROP_ATOMIC_QUEUE_FULL) +
            h.count(EngineCounter.REPORTS_DROPPED_TX_FULL);
    }

    @Test
    void shouldCountAKeyWriteOfFourCopiesRefusedInGraceAsOneReport()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(nak(KW_QPN, 0x60, 0x100));
        h.feed(kw(4, 7, 0));
        assertEquals(1, h.count(EngineCounter.DROP_GRACE_PERIOD));
        assertEquals(4, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD));
        assertEquals(1, h.count(EngineCounter.REPORTS_TRANSLATED));
        assertEquals(0, h.count(EngineCounter.REPORTS_DELIVERED));
    }

    @Test
    void shouldNotCountAKeyWriteAsDroppedWhenOneOfItsCopiesWasAdmitted()
    {
        final Cfg cfg = new Cfg();
        cfg.graceMicros = 0;
        cfg.gracePackets = 2;
        final EngineHarness h = new EngineHarness(cfg);
        h.feed(nak(KW_QPN, 0x60, 0x100));
        h.feed(kw(4, 7, 0)); // copies 0 and 1 refused, the grace period ends with them, copies 2 and 3 admitted
        assertEquals(2, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD));
        assertEquals(0, h.count(EngineCounter.DROP_GRACE_PERIOD), "a copy of it went out");
        final List<Request> sent = h.settle();
        assertEquals(List.of(slotHash(7, 2) & 255, slotHash(7, 3) & 255),
            sent.stream().map(r -> (r.va() - KW_BASE) / 8).toList());
        assertEquals(1, h.count(EngineCounter.REPORTS_DELIVERED));
    }

    @Test
    void shouldCountAKeyWriteWhoseLastCopyWasRefusedWhenNoCopyWasAdmitted()
    {
        final Cfg cfg = new Cfg();
        cfg.graceMicros = 0;
        cfg.gracePackets = 4;
        final EngineHarness h = new EngineHarness(cfg);
        h.feed(nak(KW_QPN, 0x60, 0x100));
        h.feed(kw(3, 7, 0));
        assertEquals(1, h.count(EngineCounter.DROP_GRACE_PERIOD));
        h.feed(kw(2, 8, 0)); // copy 0 ends the grace period, copy 1 goes out
        assertEquals(1, h.count(EngineCounter.DROP_GRACE_PERIOD));
        assertEquals(4, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD));
        h.settle();
        assertEquals(1, h.count(EngineCounter.REPORTS_DELIVERED));
    }

    @Test
    void shouldCountEveryEntryOfARefusedAppendBatch()
    {
        final Cfg cfg = new Cfg();
        cfg.batchSize = 16;
        cfg.list1Length = 8192;
        final EngineHarness h = new EngineHarness(cfg);
        h.feed(nak(L1_QPN, 0x60, 0x100));
        for (int i = 0; i < 16; i++)
        {
            h.feed(appendTo(1, i, 0));
        }
        assertEquals(16, h.count(EngineCounter.DROP_GRACE_PERIOD));
        assertEquals(1, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD));
        assertEquals(16, h.count(EngineCounter.REPORTS_TRANSLATED));
    }

    @Test
    void shouldCountEveryHopOfARefusedPostcardRecord()
    {
        final EngineHarness h = new EngineHarness(new Cfg()); // 5 hops
        h.feed(nak(PC_QPN, 0x60, 0x100));
        for (int hop = 1; hop <= 5; hop++)
        {
            h.feed(card(42, hop));
        }
        assertEquals(5, h.count(EngineCounter.DROP_GRACE_PERIOD));
        assertEquals(1, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD));
        assertEquals(0, h.count(EngineCounter.POSTCARD_RECORDS), "refused before it was written");
    }

    @Test
    void shouldCountARepeatedHopAndAnIncompleteRecordFlushedIdle()
    {
        final Cfg cfg = new Cfg();
        cfg.graceMicros = 5000;
        final EngineHarness h = new EngineHarness(cfg);
        h.feed(card(42, 1));
        h.feed(card(42, 2));
        h.feed(card(42, 2)); // overwrites hop 2: both reports ride on the record
        h.feed(nak(PC_QPN, 0x60, 0x100));
        h.advance(1_000_000);       // idle flush inside the grace period
        assertEquals(3, h.count(EngineCounter.DROP_GRACE_PERIOD));
        assertEquals(1, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD));
    }

    @Test
    void shouldCountTheReportsOfAHeldFrameAbandonedAtAResync()
    {
        final EngineHarness h = new EngineHarness(new Cfg()); // batches of 4
        for (int i = 0; i < 4; i++)
        {
            h.feed(appendTo(1, i, 0));
        }
        for (int hop = 1; hop <= 5; hop++)
        {
            h.feed(card(42, hop));
        }
        assertEquals(0, h.out.size(), "both records are held");
        h.feed(nak(L1_QPN, 0x60, 0x100));
        h.feed(nak(PC_QPN, 0x60, 0x100));
        assertEquals(9, h.count(EngineCounter.DROP_GRACE_PERIOD));
        assertEquals(2, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD));
        h.settle();
        assertEquals(0, h.count(EngineCounter.REPORTS_DELIVERED));
    }

    @Test
    void shouldNotCountAKeyWriteWhoseHeldLastCopyIsAbandonedWhenAnEarlierCopyLeft()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(kw(4, 7, 0));
        assertEquals(3, h.out.size(), "copies 0..2 left, copy 3 is held");
        assertEquals(1, h.count(EngineCounter.REPORTS_DELIVERED), "copy 0 carries it");
        h.feed(nak(KW_QPN, 0x60, 0x101));
        assertEquals(1, h.count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD));
        assertEquals(0, h.count(EngineCounter.DROP_GRACE_PERIOD));
    }

    @Test
    void shouldCountTheReportsOfAHeldFrameAbandonedWhenTheQpStops()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        for (int i = 0; i < 6; i++)
        {
            h.feed(appendTo(1, i, 0));
        }
        h.advance(1_000_000); // the first batch left, the partial one of 2 left idle
        h.settle();
        assertEquals(6, h.count(EngineCounter.REPORTS_DELIVERED));
        for (int i = 0; i < 4; i++)
        {
            h.feed(appendTo(1, i, 0));
        }
        h.feed(nak(L1_QPN, 0x62, 0x101)); // the last PSN sent; the held batch's 0x102 never left
        assertEquals(QueuePairSender.State.ERROR, h.sender(L1_QPN).state());
        assertEquals(4, h.count(EngineCounter.DROP_QP_ERROR));
        assertEquals(1, h.count(EngineCounter.OPERATIONS_DROPPED_QP_ERROR));
        h.feed(kw(1, 1, 0));
        h.feed(kw(1, 2, 0)); // 0x100 leaves, this one is held
        h.feed(nak(KW_QPN, 0x62, 0x100));
        h.feed(kw(4, 2, 0));
        assertEquals(6, h.count(EngineCounter.DROP_QP_ERROR), "the held Key-Write and the refused one");
        assertEquals(6, h.count(EngineCounter.OPERATIONS_DROPPED_QP_ERROR));
    }

    @Test
    void shouldCountEssentialReportsRefusedByAFullBacklog()
    {
        final Cfg cfg = new Cfg();
        cfg.backlog = 3;
        final EngineHarness h = new EngineHarness(cfg);
        h.feed(kw(4, 1, ESSENTIAL)); // copies 0..2 fill the ring and carry it, copy 3 refused
        assertEquals(0, h.count(EngineCounter.DROP_BACKLOG_FULL));
        assertEquals(1, h.count(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL));
        h.feed(kw(2, 2, ESSENTIAL));
        assertEquals(1, h.count(EngineCounter.DROP_BACKLOG_FULL));
        assertEquals(3, h.count(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL));
        assertEquals(3, h.settle().size());
        assertEquals(0, h.count(EngineCounter.REPORTS_DELIVERED), "essential: delivered when acknowledged");
        h.feed(ack(KW_QPN, 0x101));
        assertEquals(1, h.count(EngineCounter.REPORTS_DELIVERED), "the first copy carries it");

        // an essential Append batch refused by a full ring counts its entries
        final Cfg lists = new Cfg();
        lists.backlog = 1;
        final EngineHarness l = new EngineHarness(lists);
        for (int i = 0; i < 8; i++)
        {
            l.feed(appendTo(1, i, ESSENTIAL));
        }
        assertEquals(4, l.count(EngineCounter.DROP_BACKLOG_FULL));
        assertEquals(1, l.count(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL));
    }

    @Test
    void shouldDeliverAnEssentialReportOnceHoweverOftenItIsResent()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(kw(1, 1, ESSENTIAL));
        h.feed(kw(1, 2, ESSENTIAL));
        h.feed(kw(1, 3, 0));
        assertEquals(3, h.settle().size());
        assertEquals(1, h.count(EngineCounter.REPORTS_DELIVERED), "only the non-essential one, sent");
        h.feed(nak(KW_QPN, 0x60, 0x100));
        h.advance(2_000_000);
        assertEquals(2, h.settle().size());
        assertEquals(2, h.count(EngineCounter.ESSENTIAL_RESENT));
        h.feed(ack(KW_QPN, 0x100));
        assertEquals(2, h.count(EngineCounter.REPORTS_DELIVERED));
        h.feed(nak(KW_QPN, 0x60, 0x101));
        h.advance(2_000_000);
        assertEquals(1, h.settle().size());
        assertEquals(3, h.count(EngineCounter.ESSENTIAL_RESENT));
        h.feed(ack(KW_QPN, 0x101));
        assertEquals(3, h.count(EngineCounter.REPORTS_DELIVERED));
        assertEquals(0, reportDrops(h));
    }

    @Test
    void shouldCountAKeyIncrementRefusedByAFullAtomicQueueOnce()
    {
        final EngineHarness h = new EngineHarness(new Cfg()); // 4 outstanding, 8 waiting
        for (int i = 0; i < 3; i++)
        {
            h.feed(ki(4, i, 0));
        }
        h.feed(ki(4, 9, 0));
        assertEquals(1, h.count(EngineCounter.DROP_ATOMIC_QUEUE_FULL));
        assertEquals(4, h.count(EngineCounter.OPERATIONS_DROPPED_ATOMIC_QUEUE_FULL));
        h.settle();
        assertEquals(1, h.count(EngineCounter.REPORTS_DELIVERED), "the first report's first copy left");
        h.feed(atomicAck(KI_QPN, 0x103));
        h.settle();
        assertEquals(2, h.count(EngineCounter.REPORTS_DELIVERED), "the waiting copies carry the second report");
    }

    @Test
    void shouldCountTheReportsOfAHeldFrameTheOutputCannotTake()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.out.refuseClaims(true);
        h.feed(kw(1, 1, 0));
        h.feed(kw(2, 2, 0));
        h.settle();
        assertEquals(3, h.count(EngineCounter.DROP_TX_FULL));
        assertEquals(2, h.count(EngineCounter.REPORTS_DROPPED_TX_FULL));
        assertEquals(0, h.count(EngineCounter.REPORTS_DELIVERED));
    }

    @Test
    void shouldCountTheReportsOfFramesTheOutputTookButDidNotSend()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.out.loseCommitted(true);
        h.feed(kw(1, 1, 0));
        h.feed(kw(2, 2, 0));
        h.settle();
        assertEquals(3, h.out.lost());
        assertEquals(3, h.count(EngineCounter.DROP_TX_FULL), "each frame the port did not take");
        assertEquals(0, h.count(EngineCounter.ROCE_FRAMES_OUT), "none left");
        assertEquals(2, h.count(EngineCounter.REPORTS_DROPPED_TX_FULL), "one carrier per report");
        assertEquals(0, h.count(EngineCounter.REPORTS_DELIVERED));
        assertEquals(h.count(EngineCounter.REPORTS_TRANSLATED),
            h.count(EngineCounter.REPORTS_DELIVERED) + reportDrops(h));
        assertEquals(0, h.engine.counters().reportsPending());
    }

    @Test
    void shouldCountAnEssentialFrameTheOutputDidNotSendOnceAndDeliverItsReportOnItsResend()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.out.loseCommitted(true);
        h.feed(kw(1, 1, ESSENTIAL));
        h.settle();
        assertEquals(1, h.out.lost());
        assertEquals(1, h.count(EngineCounter.DROP_TX_FULL));
        assertEquals(0, h.count(EngineCounter.REPORTS_DROPPED_TX_FULL), "its ring entry keeps the report");
        assertEquals(0, h.count(EngineCounter.REPORTS_DELIVERED));
        assertEquals(1, h.engine.counters().reportsPending());
        h.out.loseCommitted(false);
        // The responder saw nothing: the ACK timeout's probe learns it expects the lost PSN, which is sent again.
        int expected = 0x100;
        for (int round = 0; round < 200 && 0 == h.count(EngineCounter.REPORTS_DELIVERED); round++)
        {
            h.advance(1_000_000);
            for (final Request r : h.out.drainRequests())
            {
                if (r.psn() == expected && r.dmaLength() > 0)
                {
                    expected++;
                }
                if (r.ackReq())
                {
                    h.feed(response(COLLECTOR_A, KW_QPN, RoceOpcode.RC_ACKNOWLEDGE, 0x1F, expected - 1));
                }
            }
        }
        assertEquals(0x101, expected, "sent again");
        assertEquals(1, h.count(EngineCounter.REPORTS_DELIVERED), "delivered once acknowledged");
        assertEquals(0, h.count(EngineCounter.REPORTS_DROPPED_TX_FULL));
        assertEquals(0, h.engine.counters().reportsPending());
    }

    /**
     * Random traffic of every primitive, essential and not, redundancy 1..4, against a responder that loses
     * requests and responses and NAKs sequence errors, with the output refusing frames at times. At every step no
     * report is counted twice (translated ≥ delivered + dropped); once the engine is flushed and every QP
     * quiescent, every translated report is delivered or dropped under exactly one reason, and every report in
     * is translated or dropped before routing.
     * <p>
     * Delivered means: a non-essential report's carrier left the translator (the responder may still lose it: that
     * is the network's loss, nobody here can count it), an essential one's was acknowledged. Fatal NAKs are left
     * out: a stopped QP keeps its essential reports until a reconnection, so it is never quiescent.
     */
    @Test
    void shouldAccountForEveryReportUnderRandomTrafficAndNaks()
    {
        final long[] totals = new long[7];
        for (int run = 0; run < 60; run++)
        {
            final long seed = 0x5EED_0000L + run;
            runRandom(seed, totals);
        }
        assertTrue(totals[0] > 0, "grace drops happened");
        assertTrue(totals[1] > 0, "backlog drops happened");
        assertTrue(totals[2] > 0, "atomic queue drops happened");
        assertTrue(totals[3] > 0, "transmit drops happened");
        assertTrue(totals[4] > 0, "resyncs happened");
        assertTrue(totals[5] > 0, "essential re-sends happened");
        assertTrue(totals[6] > 0, "frames were lost after their commit");
    }

    private static void runRandom(final long seed, final long[] totals)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final Cfg cfg = new Cfg();
        cfg.backlog = 4 + random.nextInt(12);
        cfg.atomicQueue = 1 + random.nextInt(4);
        // A grace period bounded by packets only would never end once the traffic stops.
        cfg.graceMicros = random.nextBoolean() ? 0 : 200;
        cfg.gracePackets = 0 == cfg.graceMicros ? 0 : random.nextInt(3);
        cfg.requestInterval = 1 + random.nextInt(8);
        final EngineHarness h = new EngineHarness(cfg);
        final Responder responder = new Responder(h, random);
        final String ctx = "seed 0x" + Long.toHexString(seed);
        long routable = 0;
        long unroutable = 0;
        final int reports = 300 + random.nextInt(300);
        for (int i = 0; i < reports; i++)
        {
            final int flags = random.nextInt(4) == 0 ? ESSENTIAL : 0;
            final int kind = random.nextInt(12);
            final byte[] frame;
            if (kind < 3)
            {
                frame = random.nextInt(3) == 0 ?
                    report(REPORTER_1, COLLECTOR_B, 3, DtaOpcode.KEY_WRITE, 0, flags,
                        keyWrite(1 + random.nextInt(4), random.nextInt(), new byte[4])) :
                    kw(1 + random.nextInt(4), random.nextInt(), flags);
            }
            else if (kind < 5)
            {
                frame = ki(1 + random.nextInt(4), random.nextInt(), flags);
            }
            else if (kind < 8)
            {
                frame = appendTo(random.nextInt(2), random.nextInt(), flags);
            }
            else if (kind < 11)
            {
                frame = report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.POSTCARD, 0, flags,
                    postcard(random.nextInt(16), 1 + random.nextInt(5), random.nextInt()));
            }
            else
            {
                frame = random.nextBoolean() ? kw(0, 1, flags) : appendTo(9, 1, flags); // bad N, no route
            }
            if (kind < 11)
            {
                routable++;
            }
            else
            {
                unroutable++;
            }
            h.out.refuseClaims(random.nextInt(40) == 0);
            h.out.loseCommitted(random.nextInt(40) == 0);
            h.feed(frame);
            h.out.refuseClaims(false);
            h.out.loseCommitted(false);
            h.now += random.nextInt(20_000);
            if (random.nextInt(3) == 0)
            {
                responder.answer(0.1, 0.1);
            }
            assertTrue(h.count(EngineCounter.REPORTS_TRANSLATED) >=
                h.count(EngineCounter.REPORTS_DELIVERED) + reportDrops(h), ctx + ": counted twice at report " + i);
            assertEquals(h.count(EngineCounter.REPORTS_TRANSLATED) - h.count(EngineCounter.REPORTS_DELIVERED) -
                reportDrops(h), h.engine.counters().reportsPending(), ctx + ": pending at report " + i);
        }
        h.engine.flush(h.now);
        for (int round = 0; round < 1000 && !(h.engine.isQuiescent() && 0 == h.out.size()); round++)
        {
            responder.answer(0, 0);
            h.advance(100_000);
        }
        assertTrue(h.engine.isQuiescent(), ctx + ": quiescent");
        for (final QueuePairSender s : h.engine.senders())
        {
            assertTrue(QueuePairSender.State.ERROR != s.state(), ctx);
        }
        assertEquals(routable, h.count(EngineCounter.REPORTS_TRANSLATED), ctx);
        assertEquals(unroutable, h.count(EngineCounter.DROP_BAD_REDUNDANCY) + h.count(EngineCounter.DROP_NO_ROUTE),
            ctx);
        assertEquals(routable + unroutable, h.count(EngineCounter.REPORTS_IN), ctx);
        assertEquals(h.count(EngineCounter.REPORTS_TRANSLATED),
            h.count(EngineCounter.REPORTS_DELIVERED) + reportDrops(h), ctx + ": translated = delivered + dropped");
        assertEquals(0, h.engine.counters().reportsPending(), ctx + ": nothing pending once quiescent");
        totals[0] += h.count(EngineCounter.DROP_GRACE_PERIOD);
        totals[1] += h.count(EngineCounter.DROP_BACKLOG_FULL);
        totals[2] += h.count(EngineCounter.DROP_ATOMIC_QUEUE_FULL);
        totals[3] += h.count(EngineCounter.REPORTS_DROPPED_TX_FULL);
        totals[4] += h.count(EngineCounter.NAK_SEQUENCE_ERRORS_IN) + h.count(EngineCounter.PROBE_RESYNCS);
        totals[5] += h.count(EngineCounter.ESSENTIAL_RESENT);
        totals[6] += h.out.lost();
    }

    /**
     * An RC responder per remote QP: executes the expected PSN, answers AckReq and atomics, answers a duplicate with
     * an ACK of its expected PSN - 1, and NAKs the first request after a gap.
     */
    private static final class Responder
    {
        private static final int[] REMOTE = {KW_REMOTE, KI_REMOTE, PC_REMOTE, L0_REMOTE, L1_REMOTE, KWB_REMOTE};
        private static final int[] LOCAL = {KW_QPN, KI_QPN, PC_QPN, L0_QPN, L1_QPN, KWB_QPN};

        private final EngineHarness h;
        private final SplittableRandom random;
        private final int[] expected = new int[REMOTE.length];
        private final boolean[] nakSent = new boolean[REMOTE.length];

        Responder(final EngineHarness h, final SplittableRandom random)
        {
            this.h = h;
            this.random = random;
            java.util.Arrays.fill(expected, 0x100);
        }

        void answer(final double requestLoss, final double responseLoss)
        {
            for (final Request r : h.out.drainRequests())
            {
                if (random.nextDouble() < requestLoss)
                {
                    continue;
                }
                int q = 0;
                while (REMOTE[q] != r.destQp())
                {
                    q++;
                }
                final int collector = KWB_REMOTE == r.destQp() ? COLLECTOR_B : COLLECTOR_A;
                final byte[] reply;
                if (r.psn() == expected[q])
                {
                    expected[q] = (expected[q] + 1) & 0xFFFFFF;
                    nakSent[q] = false;
                    if (r.isFetchAdd())
                    {
                        reply = response(collector, LOCAL[q], RoceOpcode.RC_ATOMIC_ACKNOWLEDGE, 0x1F, r.psn());
                    }
                    else if (r.ackReq())
                    {
                        reply = response(collector, LOCAL[q], RoceOpcode.RC_ACKNOWLEDGE, 0x1F, r.psn());
                    }
                    else
                    {
                        continue;
                    }
                }
                else if (((expected[q] - r.psn()) & 0xFFFFFF) < 0x800000)
                {
                    reply = response(collector, LOCAL[q], RoceOpcode.RC_ACKNOWLEDGE, 0x1F,
                        (expected[q] - 1) & 0xFFFFFF);
                }
                else if (!nakSent[q])
                {
                    nakSent[q] = true;
                    reply = response(collector, LOCAL[q], RoceOpcode.RC_ACKNOWLEDGE, 0x60, expected[q]);
                }
                else
                {
                    continue;
                }
                if (random.nextDouble() >= responseLoss)
                {
                    h.feed(reply);
                }
            }
        }
    }
}
