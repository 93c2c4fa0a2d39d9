package io.dta.appliance.engine;

import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.MalformedReason;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks a NACK frame of the translator (reporter NACK or sketch NACK) field by field with plain byte arithmetic:
 * Ethernet back to the report's source MAC with the report's VLAN tags, IPv4, UDP 40040 to 40044, the expected
 * payload and zero padding to the 60-byte minimum; then decodes it with {@link FrameDecoder}.
 */
final class NackFrameAssertions
{
    /** The translator's MAC in the test configurations. */
    static final byte[] TRANSLATOR_MAC = {2, 0, 10, 0, 0, 0x65};

    private NackFrameAssertions()
    {
    }

    /**
     * @param nack        the frame the engine sent.
     * @param report      the report it answers.
     * @param tpidAndTcis the report's tags as built (pairs of TPID and TCI, outermost first).
     * @param srcIp       expected IPv4 source.
     * @param dstIp       expected IPv4 destination.
     * @param payload     expected UDP payload.
     * @param context     prefix of failure messages (case, seed).
     */
    static void assertNack(
        final byte[] nack, final byte[] report, final int[] tpidAndTcis, final int srcIp, final int dstIp,
        final byte[] payload, final String context)
    {
        final int tags = tpidAndTcis.length / 2;
        final int ip = 14 + 4 * tags;
        final int udpLength = 8 + payload.length;
        final int ipLength = 20 + udpLength;
        assertEquals(Math.max(60, ip + ipLength), nack.length, context + "frame length");

        assertArrayEquals(Arrays.copyOfRange(report, 6, 12), Arrays.copyOfRange(nack, 0, 6),
            context + "destination MAC is the report's source");
        assertArrayEquals(TRANSLATOR_MAC, Arrays.copyOfRange(nack, 6, 12), context + "source MAC");
        for (int i = 0; i < tags; i++)
        {
            assertEquals(tpidAndTcis[2 * i], u16(nack, 12 + 4 * i), context + "TPID of tag " + i);
            assertEquals(tpidAndTcis[2 * i + 1], u16(nack, 14 + 4 * i), context + "TCI of tag " + i);
        }
        assertArrayEquals(Arrays.copyOfRange(report, 12, 12 + 4 * tags), Arrays.copyOfRange(nack, 12, 12 + 4 * tags),
            context + "tags as received");
        assertEquals(0x0800, u16(nack, ip - 2), context + "EtherType after the tags");

        assertEquals(0x45, nack[ip] & 0xFF, context + "version and IHL");
        assertEquals(0, nack[ip + 1], context + "TOS");
        assertEquals(ipLength, u16(nack, ip + 2), context + "IPv4 total length");
        assertEquals(0, u16(nack, ip + 4), context + "identification");
        assertEquals(0x4000, u16(nack, ip + 6), context + "DF, no fragment");
        assertEquals(64, nack[ip + 8] & 0xFF, context + "TTL");
        assertEquals(17, nack[ip + 9] & 0xFF, context + "protocol UDP");
        assertEquals(0, TestFrames.ipChecksum(nack, ip), context + "IPv4 header checksum");
        assertEquals(srcIp, i32(nack, ip + 12), context + "IPv4 source");
        assertEquals(dstIp, i32(nack, ip + 16), context + "IPv4 destination");

        final int udp = ip + 20;
        assertEquals(40040, u16(nack, udp), context + "UDP source port");
        assertEquals(40044, u16(nack, udp + 2), context + "UDP destination port");
        assertEquals(udpLength, u16(nack, udp + 4), context + "UDP length");
        assertEquals(0, u16(nack, udp + 6), context + "UDP checksum");
        assertArrayEquals(payload, Arrays.copyOfRange(nack, udp + 8, udp + udpLength), context + "payload");
        for (int i = udp + udpLength; i < nack.length; i++)
        {
            assertEquals(0, nack[i], context + "padding byte " + i);
        }

        final FrameDecoder decoder = new FrameDecoder();
        final FrameKind kind = decoder.decode(new UnsafeBuffer(nack), 0, nack.length);
        assertEquals(FrameKind.OTHER, kind, context + "UDP to the NACK port, not a report");
        assertEquals(MalformedReason.NONE, decoder.malformedReason(), context + "decodes cleanly");
        assertEquals(tags, decoder.vlanTagCount(), context + "decoded tag count");
        for (int i = 0; i < tags; i++)
        {
            assertEquals(tpidAndTcis[2 * i], decoder.ethernet().vlanTpid(i), context + "decoded TPID " + i);
            assertEquals(tpidAndTcis[2 * i + 1], decoder.ethernet().vlanTci(i), context + "decoded TCI " + i);
        }
        assertEquals(0x0800, decoder.etherType(), context + "decoded EtherType");
        assertEquals(ip, decoder.ipOffset(), context + "decoded IPv4 offset");
        assertTrue(decoder.ipChecksumValid(), context + "decoded IPv4 checksum");
        assertEquals(udp, decoder.udpOffset(), context + "decoded UDP offset");
        assertEquals(udpLength, decoder.udpLength(), context + "decoded UDP length");
        assertTrue(decoder.udpChecksumValid(), context + "no UDP checksum");
    }

    /**
     * @param frame a frame.
     * @param mac   a MAC as 6 bytes.
     * @return true when the frame is addressed to that MAC.
     */
    static boolean isTo(final byte[] frame, final byte[] mac)
    {
        return Arrays.equals(mac, Arrays.copyOfRange(frame, 0, 6));
    }

    static int u16(final byte[] b, final int at)
    {
        return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
    }

    static int i32(final byte[] b, final int at)
    {
        return (u16(b, at) << 16) | u16(b, at + 2);
    }
}
