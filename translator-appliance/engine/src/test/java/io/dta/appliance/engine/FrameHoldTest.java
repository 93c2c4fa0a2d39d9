package io.dta.appliance.engine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameHoldTest
{
    private static final long HOLD = 200;

    @Test
    void shouldBuildInLentMemoryAndGiveItBackWhenAbandoned()
    {
        final FrameCollector sink = new FrameCollector();
        final FrameHold hold = new FrameHold(sink, 2048, HOLD);
        hold.claim(100);
        assertTrue(hold.bySink());
        assertEquals(1, sink.outstandingLoans());
        assertSame(hold.frame().buffer(), hold.buffer());
        assertEquals(0, hold.offset(), "lent memory starts at its address");
        hold.hold(0x42, 80, 3, false, 1_000);
        assertTrue(hold.isHeld());
        assertEquals(3, hold.abandon(), "the abandoned frame's reports, for the caller to count");
        assertFalse(hold.isHeld());
        assertEquals(0, sink.outstandingLoans());
        assertEquals(1, sink.abandoned());
        assertEquals(0, sink.size(), "nothing sent");
    }

    @Test
    void shouldBuildInItsStagingWhenTheSinkLendsNothing()
    {
        final FrameCollector sink = new FrameCollector();
        sink.refuseClaims(true);
        final FrameHold hold = new FrameHold(sink, 2048, HOLD);
        hold.claim(100);
        assertFalse(hold.bySink());
        assertEquals(HeldFrame.STAGING_OFFSET, hold.offset());
        hold.hold(7, 60, 0, true, 0);
        hold.abandon();
        assertEquals(0, sink.abandoned(), "a staged frame is nothing of the sink's");
    }

    @Test
    void shouldFallDueAfterTheHoldTimeAcrossTheClockWrap()
    {
        final FrameCollector sink = new FrameCollector();
        final FrameHold hold = new FrameHold(sink, 2048, HOLD);
        assertFalse(hold.isDue(Long.MAX_VALUE));
        assertEquals(5, hold.earliestTimer(5), "nothing held: no timer");
        final long since = Long.MAX_VALUE - 50;
        hold.claim(64);
        hold.hold(1, 64, 1, true, since);
        assertFalse(hold.isDue(since + HOLD - 1));
        assertTrue(hold.isDue(since + HOLD), "engine clocks compare by difference");
        assertEquals(since + HOLD, hold.earliestTimer(Long.MIN_VALUE + 1_000));
        assertEquals(since, hold.earliestTimer(since), "an earlier timer wins");
        assertEquals(1, hold.psn());
        assertEquals(64, hold.length());
        assertEquals(1, hold.reports());
        assertTrue(hold.ackReq());
        hold.release();
        assertFalse(hold.isHeld());
        assertFalse(hold.isDue(since + HOLD));
    }
}
