package io.dta.appliance.engine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogLimiterTest
{
    @Test
    void shouldLetOneLineThroughPerIntervalAndCountTheRest()
    {
        final LogLimiter limiter = new LogLimiter(1_000);
        assertTrue(limiter.allow(-5_000), "the first line, whatever the clock");
        assertFalse(limiter.allow(-4_500));
        assertFalse(limiter.allow(-4_001));
        assertTrue(limiter.allow(-4_000));
        assertEquals(2, limiter.takeSuppressed());
        assertEquals(0, limiter.takeSuppressed());
    }
}
