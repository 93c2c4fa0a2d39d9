package io.dta.appliance.engine;

import io.dta.config.ConfigLoader;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Buffers that take frames are sized for the largest path MTU of any collector, not the first one's or the default.
 */
class FrameLimitsTest
{
    private static final String TWO_COLLECTORS = """
        translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101}
        collectors:
          - name: small
            mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            pathMtu: %d
            keyWrite: {localQpn: 0x11, qpn: 0x101, rkey: 0x1, address: 0x10000, length: 4096}
          - name: large
            mac: "02:00:0a:00:00:34"
            ip: 10.0.0.52
            pathMtu: %d
            keyWrite: {localQpn: 0x12, qpn: 0x102, rkey: 0x2, address: 0x10000, length: 4096}
        """;

    @Test
    void shouldSizeForTheLargestPathMtuOfAnyCollector() throws Exception
    {
        assertEquals(4096 + FrameLimits.MAX_HEADERS,
            FrameLimits.largestFrame(ConfigLoader.load(TWO_COLLECTORS.formatted(512, 4096)).collectors()));
        assertEquals(2048 + FrameLimits.MAX_HEADERS,
            FrameLimits.largestFrame(ConfigLoader.load(TWO_COLLECTORS.formatted(2048, 256)).collectors()));
    }

    @Test
    void shouldFollowSmallPathMtusToo() throws Exception
    {
        assertEquals(512 + FrameLimits.MAX_HEADERS,
            FrameLimits.largestFrame(ConfigLoader.load(TWO_COLLECTORS.formatted(256, 512)).collectors()));
    }
}
