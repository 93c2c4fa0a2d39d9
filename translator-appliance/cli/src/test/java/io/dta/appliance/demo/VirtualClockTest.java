package io.dta.appliance.demo;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The demo's virtual clock only moves forward, and a deadline already due when the timers ran at this time waits for
 * the next event instead of stopping the clock.
 */
class VirtualClockTest
{
    @Test
    void shouldOnlyMoveForward()
    {
        final VirtualClock clock = new VirtualClock();
        clock.moveTo(100);
        clock.moveTo(50);

        assertEquals(100, clock.now());
    }

    @Test
    void shouldHoldBackADeadlineDueWhenTheTimersRanAtThisTime()
    {
        final VirtualClock clock = new VirtualClock();
        clock.moveTo(100);

        assertEquals(90, clock.pending(90));
        clock.timersRan();
        assertEquals(Long.MAX_VALUE, clock.pending(90));
        assertEquals(Long.MAX_VALUE, clock.pending(100));
        assertEquals(101, clock.pending(101));
        clock.moveTo(101);
        assertEquals(101, clock.pending(101));
    }

    @Test
    void shouldMeasureFromTheFirstReport()
    {
        final VirtualClock clock = new VirtualClock();
        assertEquals(0, clock.sinceFirstReport());
        clock.moveTo(1_000);
        clock.report(1_000);
        clock.moveTo(5_000);
        clock.report(5_000);

        assertEquals(4_000, clock.sinceFirstReport());
    }
}
