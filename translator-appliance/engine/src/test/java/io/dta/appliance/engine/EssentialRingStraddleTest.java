package io.dta.appliance.engine;

import io.dta.codec.Psn;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Where a resynchronisation lands in the oldest unacknowledged multi-packet WRITE of the essential ring.
 */
class EssentialRingStraddleTest
{
    private static final int MTU = 256;

    @Test
    void shouldCountPacketsOfAWrite()
    {
        assertEquals(1, EssentialRing.segments(0, MTU));
        assertEquals(1, EssentialRing.segments(MTU, MTU));
        assertEquals(2, EssentialRing.segments(MTU + 1, MTU));
        assertEquals(4, EssentialRing.segments(4 * MTU, MTU));
    }

    @Test
    void shouldNameThePacketTheResponderExpectsInsideTheOldestWrite()
    {
        final EssentialRing ring = new EssentialRing(4, 4 * MTU);
        ring.offerWrite(0x1000, new UnsafeBuffer(new byte[4 * MTU]), 0, 3 * MTU + 10, 1);
        final int lastPsn = Psn.add(0, 1);
        ring.markSent(lastPsn); // packets on 0xFFFFFE, 0xFFFFFF, 0, 1
        assertEquals(0, ring.straddledSegment(0xFF_FFFE, MTU), "at its first packet: sent again whole");
        assertEquals(1, ring.straddledSegment(0xFF_FFFF, MTU));
        assertEquals(2, ring.straddledSegment(0, MTU), "across the PSN wrap");
        assertEquals(3, ring.straddledSegment(1, MTU));
        assertEquals(0, ring.straddledSegment(2, MTU), "past its last packet: executed whole");
    }

    @Test
    void shouldNameNothingForASinglePacketWriteAFetchAddOrAnEmptyRing()
    {
        final EssentialRing ring = new EssentialRing(4, 4 * MTU);
        assertEquals(0, ring.straddledSegment(5, MTU), "nothing sent");
        ring.offerFetchAdd(0x2000, 1, 1);
        ring.markSent(5);
        assertEquals(0, ring.straddledSegment(5, MTU));
        ring.acknowledge(5);
        ring.offerWrite(0x1000, new UnsafeBuffer(new byte[MTU]), 0, MTU, 1);
        ring.markSent(6);
        assertEquals(0, ring.straddledSegment(6, MTU));
    }
}
