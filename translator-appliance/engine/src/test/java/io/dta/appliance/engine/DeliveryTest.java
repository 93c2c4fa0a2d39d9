package io.dta.appliance.engine;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DeliveryTest
{
    private final EngineCounters counters = new EngineCounters();
    private final Delivery delivery = new Delivery(counters);

    private long count(final EngineCounter counter)
    {
        return counters.get(counter);
    }

    @Test
    void shouldDeliverTheReportsOfARequestThatLeft()
    {
        delivery.committed(OutFrameKind.REQUEST, 3, SendOutcome.SENT);
        delivery.committed(OutFrameKind.REQUEST, 0, SendOutcome.SENT);
        assertEquals(2, count(EngineCounter.ROCE_FRAMES_OUT));
        assertEquals(3, count(EngineCounter.REPORTS_DELIVERED));
        assertEquals(0, count(EngineCounter.DROP_TX_FULL));
    }

    @Test
    void shouldCountALostRequestAsARefusedOne()
    {
        delivery.committed(OutFrameKind.REQUEST, 3, SendOutcome.LOST);
        delivery.refused(OutFrameKind.REQUEST, 2);
        assertEquals(0, count(EngineCounter.ROCE_FRAMES_OUT));
        assertEquals(0, count(EngineCounter.REPORTS_DELIVERED));
        assertEquals(2, count(EngineCounter.DROP_TX_FULL));
        assertEquals(5, count(EngineCounter.REPORTS_DROPPED_TX_FULL));
    }

    @Test
    void shouldGiveARequestNotTakenBackAsIfItHadBeenRefused()
    {
        delivery.committed(OutFrameKind.REQUEST, 4, SendOutcome.SENT);
        delivery.notTaken(OutFrameKind.REQUEST, 4);
        assertEquals(0, count(EngineCounter.ROCE_FRAMES_OUT));
        assertEquals(0, count(EngineCounter.REPORTS_DELIVERED));
        assertEquals(1, count(EngineCounter.DROP_TX_FULL));
        assertEquals(4, count(EngineCounter.REPORTS_DROPPED_TX_FULL));
    }

    @Test
    void shouldTakeALostReporterNackOutOfTheNacksSent()
    {
        delivery.committed(OutFrameKind.REPORTER_NACK, 0, SendOutcome.SENT);
        delivery.committed(OutFrameKind.REPORTER_NACK, 0, SendOutcome.SENT);
        delivery.notTaken(OutFrameKind.REPORTER_NACK, 0);
        delivery.committed(OutFrameKind.REPORTER_NACK, 0, SendOutcome.LOST);
        assertEquals(1, count(EngineCounter.REPORTER_NACKS_OUT));
        assertEquals(2, count(EngineCounter.DROP_TX_FULL));
        assertEquals(0, count(EngineCounter.ROCE_FRAMES_OUT));
    }

    @Test
    void shouldKeepALostSketchNackInTheSketchNacksSent()
    {
        delivery.committed(OutFrameKind.SKETCH_NACK, 0, SendOutcome.SENT);
        delivery.notTaken(OutFrameKind.SKETCH_NACK, 0);
        delivery.committed(OutFrameKind.SKETCH_NACK, 0, SendOutcome.LOST);
        assertEquals(2, count(EngineCounter.SKETCH_NACKS_OUT), "the retry counters count within it");
        assertEquals(2, count(EngineCounter.DROP_TX_FULL));
    }

    @Test
    void shouldCountNothingOfAConnectionManagersFrames()
    {
        delivery.committed(OutFrameKind.CONTROL, 0, SendOutcome.SENT);
        delivery.committed(OutFrameKind.CONTROL, 0, SendOutcome.LOST);
        delivery.refused(OutFrameKind.CONTROL, 0);
        delivery.notTaken(OutFrameKind.CONTROL, 0);
        assertEquals(0, counters.totalDrops());
        for (final EngineCounter c : EngineCounter.values())
        {
            assertEquals(0, count(c), c.name());
        }
    }

    @Test
    void shouldCountADroppedOperationUnderItsReason()
    {
        assertEquals(false, delivery.dropped(
            EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD, EngineCounter.DROP_GRACE_PERIOD, 0));
        delivery.dropped(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD, EngineCounter.DROP_GRACE_PERIOD, 5);
        assertEquals(2, count(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD));
        assertEquals(5, count(EngineCounter.DROP_GRACE_PERIOD));
        delivery.delivered(0);
        delivery.delivered(7);
        assertEquals(7, count(EngineCounter.REPORTS_DELIVERED));
    }

    @Test
    void shouldBalanceEveryReportAndFrameWhateverBecomesOfThem()
    {
        for (int run = 0; run < 300; run++)
        {
            final long seed = 0xDE_0000L + run;
            final SplittableRandom random = new SplittableRandom(seed);
            final EngineCounters c = new EngineCounters();
            final Delivery d = new Delivery(c);
            long requests = 0;
            long reports = 0;
            for (int i = 0; i < 400; i++)
            {
                final int carried = random.nextInt(5);
                reports += carried;
                requests++;
                c.add(EngineCounter.REPORTS_TRANSLATED, carried);
                switch (random.nextInt(4))
                {
                    case 0 -> d.refused(OutFrameKind.REQUEST, carried);
                    case 1 -> d.committed(OutFrameKind.REQUEST, carried, SendOutcome.LOST);
                    case 2 ->
                    {
                        d.committed(OutFrameKind.REQUEST, carried, SendOutcome.SENT);
                        d.notTaken(OutFrameKind.REQUEST, carried);
                    }
                    default -> d.committed(OutFrameKind.REQUEST, carried, SendOutcome.SENT);
                }
            }
            final String ctx = "seed 0x" + Long.toHexString(seed);
            assertEquals(requests, c.get(EngineCounter.ROCE_FRAMES_OUT) + c.get(EngineCounter.DROP_TX_FULL), ctx);
            assertEquals(reports, c.get(EngineCounter.REPORTS_DELIVERED) +
                c.get(EngineCounter.REPORTS_DROPPED_TX_FULL), ctx);
            assertEquals(0, c.reportsPending(), ctx);
        }
    }
}
