package io.dta.appliance.live;

import io.dta.appliance.dpdk.MbufFrameSink;
import io.dta.appliance.engine.FrameLimits;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stop requests: the first drains, a second one stops at once, and the same stop delivered twice in quick succession
 * (GNU {@code timeout} signals the child, then its process group) is one stop, so its drain still runs.
 */
class LiveAgentStopTest
{
    @Test
    void shouldTakeTheSameStopDeliveredTwiceAsOneStop()
    {
        final LiveAgent agent = agent();
        agent.requestStop();
        agent.requestStop();
        assertFalse(agent.stoppedAtOnce(), "a repeat within the same instant cut the drain short");
    }

    @Test
    void shouldStopAtOnceOnASecondRequestLater() throws Exception
    {
        final LiveAgent agent = agent();
        agent.requestStop();
        TimeUnit.NANOSECONDS.sleep(StopRequests.REPEAT_IGNORED_NANOS + TimeUnit.MILLISECONDS.toNanos(20));
        assertFalse(agent.stoppedAtOnce());
        agent.requestStop();
        assertTrue(agent.stoppedAtOnce());
    }

    private static LiveAgent agent()
    {
        final LiveSettings settings = new LiveSettings(List.of(), List.of("0"), LiveSettings.DEFAULT_BURST,
            LiveSettings.DEFAULT_POOL_SIZE, LiveSettings.DEFAULT_LINK_WAIT_MILLIS, LiveSettings.DEFAULT_DRAIN_MILLIS,
            LiveSettings.DEFAULT_STATS_INTERVAL_MILLIS);
        return new LiveAgent(settings, new String[] { "reports" }, null, null, 1024 + FrameLimits.MAX_HEADERS)
        {
            @Override
            protected void onStarted(final MbufFrameSink sink)
            {
            }

            @Override
            protected int timers(final long nowNanos)
            {
                return 0;
            }

            @Override
            protected void onFrame(final int role, final UnsafeBuffer frame, final long nowNanos)
            {
            }

            @Override
            protected boolean reads(final int role, final boolean linksReady, final boolean draining)
            {
                return false;
            }

            @Override
            protected void startDrain(final long nowNanos)
            {
            }

            @Override
            protected boolean drained()
            {
                return true;
            }

            @Override
            protected void publish()
            {
            }

            @Override
            public String roleName()
            {
                return "test";
            }
        };
    }
}
