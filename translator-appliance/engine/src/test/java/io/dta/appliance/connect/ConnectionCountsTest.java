package io.dta.appliance.connect;

import io.dta.config.CollectorConfig;
import io.dta.config.RegionConfig;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ConnectionCountsTest
{
    @Test
    void shouldCountEachCounterApartAndFailARegionWithItsReasonAndCount()
    {
        final ConnectionCounts counts = new ConnectionCounts();
        counts.count(ConnectionCounter.REQS_SENT);
        counts.count(ConnectionCounter.REQS_SENT);
        counts.count(ConnectionCounter.RTUS_SENT);
        assertEquals(2, counts.get(ConnectionCounter.REQS_SENT));
        assertEquals(1, counts.get(ConnectionCounter.RTUS_SENT));
        assertEquals(0, counts.get(ConnectionCounter.FAILED));

        final RegionConfig region = new RegionConfig("collectors[0].lists[0]", 0x600, 0, 0, 0, 4096, 0x10, 49152,
            1339);
        final RegionConnection c = new RegionConnection(
            new CollectorConfig("c0", 0x02_00_00_00_00_01L, 0x0A000033, 1024, null, null, null, List.of(), List.of()),
            region, 1, 2);
        c.state = RegionConnection.State.RTU_SENT;
        c.deadlineNanos = 5;
        counts.fail(c, "no valid metadata SEND");
        assertEquals(RegionConnection.State.FAILED, c.state());
        assertEquals("no valid metadata SEND", c.failure());
        assertEquals(Long.MAX_VALUE, c.deadlineNanos, "a failed region has no timer");
        assertEquals(1, counts.get(ConnectionCounter.FAILED));
    }
}
