package io.dta.appliance.engine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AckRequestPolicyTest
{
    private static int requestsIn(final AckRequestPolicy policy, final int packets)
    {
        int requests = 0;
        for (int i = 0; i < packets; i++)
        {
            if (policy.nextPacket())
            {
                requests++;
            }
        }
        return requests;
    }

    @Test
    void shouldAskOnEveryNthPacket()
    {
        final AckRequestPolicy policy = new AckRequestPolicy(4, 256);
        for (int i = 1; i <= 12; i++)
        {
            assertEquals(0 == i % 4, policy.nextPacket(), "packet " + i);
        }
        assertEquals(256, policy.window());
    }

    @Test
    void shouldStartTheCountAgainOnANewSequence()
    {
        final AckRequestPolicy policy = new AckRequestPolicy(4, 256);
        requestsIn(policy, 3);
        policy.restart();
        assertEquals(0, requestsIn(policy, 3));
        assertTrue(policy.nextPacket());
    }

    @Test
    void shouldAskMoreOftenInANarrowerWindowAfterALoss()
    {
        final AckRequestPolicy policy = new AckRequestPolicy(64, 256);
        policy.afterLoss();
        // lossy interval min(64, 256 / 16) = 16, lossy window max(2 * 16, 256 / 8) = 32
        assertEquals(32, policy.window());
        final int span = AckRequestPolicy.LOSSY_SPAN_WINDOWS * 256;
        assertEquals(span / 16, requestsIn(policy, span));
        assertEquals(256, policy.window(), "the span is over");
        assertFalse(policy.nextPacket());
        assertEquals(1, requestsIn(policy, 63), "back to every 64th");
    }

    @Test
    void shouldKeepAWindowOfAtLeastOne()
    {
        final AckRequestPolicy policy = new AckRequestPolicy(1, 0);
        assertEquals(1, policy.window());
        policy.afterLoss();
        assertEquals(1, policy.window());
        assertTrue(policy.nextPacket());
    }
}
