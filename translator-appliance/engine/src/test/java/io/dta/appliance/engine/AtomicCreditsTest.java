package io.dta.appliance.engine;

import io.dta.codec.Psn;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AtomicCreditsTest
{
    @Test
    void shouldGiveACreditBackPerAcknowledgedAtomic()
    {
        final AtomicCredits credits = new AtomicCredits(false, 2, 4);
        assertTrue(credits.hasCredit());
        credits.sent(0xFF_FFFE);
        credits.sent(0xFF_FFFF);
        assertFalse(credits.hasCredit());
        credits.acknowledge(0xFF_FFFE);
        assertEquals(1, credits.outstanding());
        credits.acknowledge(0);
        assertEquals(0, credits.outstanding(), "an acknowledgement past the PSN wrap answers both");
        assertTrue(credits.hasCredit());
    }

    @Test
    void shouldKeepAtomicsAfterTheExecutedPsnOutOfAResyncAndTheirCreditsBack()
    {
        final AtomicCredits credits = new AtomicCredits(false, 4, 4);
        credits.sent(10);
        credits.sent(12);
        credits.sent(14);
        credits.resync(12);
        assertEquals(0, credits.outstanding(), "the responder dropped 14: its credit comes back too");
        assertTrue(credits.hasCredit());
    }

    @Test
    void shouldTrackNothingOpenLoop()
    {
        final AtomicCredits credits = new AtomicCredits(true, 1, 4);
        assertEquals(Integer.MAX_VALUE, credits.limit());
        for (int i = 0; i < 100; i++)
        {
            credits.sent(i);
        }
        assertEquals(0, credits.outstanding());
        assertFalse(credits.limit(8), "no limit open loop");
        assertEquals(Integer.MAX_VALUE, credits.limit());
    }

    @Test
    void shouldRefuseToQueueBeyondItsCapacityAndGiveTheOldestFirst()
    {
        final AtomicCredits credits = new AtomicCredits(false, 1, 3);
        assertTrue(credits.enqueue(0x100, 1, 5));
        assertTrue(credits.enqueue(0x108, 2, 6));
        assertTrue(credits.enqueue(0x110, 3, 7));
        assertFalse(credits.enqueue(0x118, 4, 8), "a queue of 3 is full (its ring holds 4)");
        credits.sent(1);
        assertFalse(credits.canTake(), "no credit and a full queue: a new atomic is refused");
        final int slot = credits.takeWaiting();
        assertEquals(0x100, credits.waitingVa(slot));
        assertEquals(1, credits.waitingAdd(slot));
        assertEquals(5, credits.waitingReports(slot));
        assertEquals(2, credits.waiting());
        assertTrue(credits.canTake());
    }

    @Test
    void shouldKeepWhatIsOutstandingWhenTheLimitGrowsOrShrinks()
    {
        final AtomicCredits credits = new AtomicCredits(false, 2, 1);
        credits.sent(5);
        credits.acknowledge(5);
        credits.sent(6);
        credits.sent(7);
        assertTrue(credits.limit(5));
        credits.sent(8);
        credits.sent(9);
        assertEquals(4, credits.outstanding());
        assertTrue(credits.hasCredit());
        credits.limit(1);
        assertFalse(credits.hasCredit(), "above a lowered limit nothing more goes out");
        credits.acknowledge(8);
        assertEquals(1, credits.outstanding(), "the grown ring kept the order: 6, 7, 8 answered, 9 not");
        credits.acknowledge(9);
        assertTrue(credits.hasCredit());
    }

    @Test
    void shouldAgreeWithAQueueModelUnderRandomTraffic()
    {
        for (int run = 0; run < 500; run++)
        {
            final long seed = 0xA7_0000L + run;
            final SplittableRandom random = new SplittableRandom(seed);
            final int limit = 1 + random.nextInt(9);
            final int capacity = 1 + random.nextInt(9);
            final AtomicCredits credits = new AtomicCredits(false, limit, capacity);
            final ArrayDeque<Integer> outstanding = new ArrayDeque<>();
            final ArrayDeque<long[]> waiting = new ArrayDeque<>();
            int psn = random.nextInt(Psn.MASK + 1);
            for (int step = 0; step < 300; step++)
            {
                final String ctx = "seed 0x" + Long.toHexString(seed) + " step " + step;
                switch (random.nextInt(4))
                {
                    case 0 ->
                    {
                        if (credits.hasCredit())
                        {
                            credits.sent(psn);
                            outstanding.add(psn);
                        }
                        psn = Psn.next(psn);
                    }
                    case 1 ->
                    {
                        final int acked = Psn.add(psn, -random.nextInt(12));
                        credits.acknowledge(acked);
                        while (!outstanding.isEmpty() && Psn.compare(outstanding.peek(), acked) <= 0)
                        {
                            outstanding.poll();
                        }
                    }
                    case 2 ->
                    {
                        final long va = random.nextLong();
                        final boolean queued = credits.enqueue(va, step, step & 7);
                        assertEquals(waiting.size() < capacity, queued, ctx);
                        if (queued)
                        {
                            waiting.add(new long[] {va, step, step & 7});
                        }
                    }
                    default ->
                    {
                        if (credits.waiting() > 0)
                        {
                            final int slot = credits.takeWaiting();
                            final long[] expected = waiting.poll();
                            assertEquals(expected[0], credits.waitingVa(slot), ctx);
                            assertEquals(expected[1], credits.waitingAdd(slot), ctx);
                            assertEquals(expected[2], credits.waitingReports(slot), ctx);
                        }
                    }
                }
                assertEquals(outstanding.size(), credits.outstanding(), ctx);
                assertEquals(waiting.size(), credits.waiting(), ctx);
                assertEquals(outstanding.size() < limit, credits.hasCredit(), ctx);
            }
        }
    }
}
