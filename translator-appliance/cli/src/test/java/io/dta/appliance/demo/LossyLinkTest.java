package io.dta.appliance.demo;

import io.dta.appliance.engine.FrameLimits;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's link carries one full packet of every path MTU the configuration allows (a sketch run above the path MTU
 * goes out as full WRITE First/Middle packets), and refuses, counted, a frame larger than its slot rather than cutting
 * it.
 */
class LossyLinkTest
{
    /** Ethernet with two VLAN tags, IPv4, UDP, BTH, RETH, the largest pad and the ICRC around a full payload. */
    private static final int WRITE_FIRST_HEADERS = 22 + 20 + 8 + 12 + 16 + 3 + 4;

    @ParameterizedTest
    @ValueSource(ints = {256, 512, 1024, 2048, 4096})
    void shouldCarryAFullPacketOfThePathMtuAndRefuseALargerFrame(final int pathMtu)
    {
        final LossyLink link = new LossyLink(pathMtu + FrameLimits.MAX_HEADERS, 0.0, 1_000, 1);
        final int frameLength = pathMtu + WRITE_FIRST_HEADERS;
        assertTrue(frameLength <= pathMtu + FrameLimits.MAX_HEADERS);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[frameLength]);
        for (int i = 0; i < frameLength; i++)
        {
            frame.putByte(i, (byte)(i * 31 + pathMtu));
        }
        link.now(5_000);
        link.onResponse(frame, 0, frameLength);
        assertEquals(0, link.overflowed(), "MTU " + pathMtu);
        assertEquals(frameLength, link.headLength());
        for (int i = 0; i < frameLength; i++)
        {
            assertEquals(frame.getByte(i), link.ring().getByte(link.headOffset() + i), "byte " + i);
        }
        assertEquals(6_000, link.nextArrival());

        final int slot = LossyLink.slotFor(pathMtu + FrameLimits.MAX_HEADERS);
        assertTrue(slot >= frameLength && Integer.bitCount(slot) == 1, "slot " + slot);
        assertEquals(-1, link.claim(slot + 1), "a frame larger than the slot is refused");
        assertEquals(1, link.overflowed());
    }
}
