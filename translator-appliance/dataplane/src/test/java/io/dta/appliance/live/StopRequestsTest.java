package io.dta.appliance.live;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stop-request policy on an explicit clock: a first request drains, a repeat within the window is the same stop,
 * a later one stops at once, and the first failure is kept and requests a stop.
 */
class StopRequestsTest
{
    private static final long T0 = 1_000_000_000L;

    @Test
    void shouldDrainOnTheFirstRequest()
    {
        final StopRequests stops = new StopRequests();
        assertFalse(stops.requested());
        stops.request(T0);
        assertTrue(stops.requested());
        assertFalse(stops.atOnce());
    }

    @Test
    void shouldTakeARepeatWithinTheWindowAsTheSameStop()
    {
        final StopRequests stops = new StopRequests();
        stops.request(T0);
        stops.request(T0 + StopRequests.REPEAT_IGNORED_NANOS - 1);
        assertFalse(stops.atOnce());
    }

    @Test
    void shouldStopAtOnceOnARequestAfterTheWindow()
    {
        final StopRequests stops = new StopRequests();
        stops.request(T0);
        stops.request(T0 + StopRequests.REPEAT_IGNORED_NANOS - 1);
        stops.request(T0 + StopRequests.REPEAT_IGNORED_NANOS);
        assertTrue(stops.atOnce());
    }

    @Test
    void shouldMeasureTheWindowFromTheFirstRequestAcrossTheClockWrapping()
    {
        final StopRequests stops = new StopRequests();
        final long first = Long.MAX_VALUE - 10;
        stops.request(first);
        stops.request(first + StopRequests.REPEAT_IGNORED_NANOS);
        assertTrue(stops.atOnce());
    }

    @Test
    void shouldKeepTheFirstFailureAndRequestAStop()
    {
        final StopRequests stops = new StopRequests();
        assertNull(stops.failure());
        final IllegalStateException first = new IllegalStateException("first");
        stops.fail(first);
        stops.fail(new IllegalStateException("second"));
        assertSame(first, stops.failure());
        assertTrue(stops.requested());
        assertFalse(stops.atOnce());
    }
}
