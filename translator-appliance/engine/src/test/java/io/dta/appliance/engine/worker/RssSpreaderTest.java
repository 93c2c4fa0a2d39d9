package io.dta.appliance.engine.worker;

import io.dta.config.NetAddress;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Toeplitz hash against the verification suite of Microsoft's RSS specification (IPv4 with ports: source
 * address, destination address, source port, destination port), and the spreading of frames.
 */
class RssSpreaderTest
{
    @Test
    void shouldMatchTheRssVerificationSuite()
    {
        assertHash(0x51ccc178, "66.9.149.187", 2794, "161.142.100.80", 1766);
        assertHash(0xc626b0ea, "199.92.111.2", 14230, "65.69.140.83", 4739);
        assertHash(0x5c2b394a, "24.19.198.95", 12898, "12.22.207.184", 38024);
        assertHash(0xafc7327f, "38.27.205.30", 48228, "209.142.163.6", 2217);
        assertHash(0x10e828a2, "153.39.163.191", 44251, "202.188.127.2", 1303);
    }

    private static void assertHash(final int expected, final String src, final int srcPort, final String dst,
        final int dstPort)
    {
        assertEquals(expected, RssSpreader.hash((int)NetAddress.parseIpv4(src), (int)NetAddress.parseIpv4(dst), srcPort,
            dstPort), src + " -> " + dst);
    }

    @Test
    void shouldSendAFrameToTheQueueOfItsHashAndOthersToQueueZero()
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[64]);
        frame.putShort(12, (short)0x0800, ByteOrder.BIG_ENDIAN);
        frame.putByte(14, (byte)0x45);
        frame.putByte(14 + 9, (byte)17);
        frame.putInt(14 + 12, (int)NetAddress.parseIpv4("66.9.149.187"), ByteOrder.BIG_ENDIAN);
        frame.putInt(14 + 16, (int)NetAddress.parseIpv4("161.142.100.80"), ByteOrder.BIG_ENDIAN);
        frame.putShort(34, (short)2794, ByteOrder.BIG_ENDIAN);
        frame.putShort(36, (short)1766, ByteOrder.BIG_ENDIAN);
        for (int workers = 1; workers <= 5; workers++)
        {
            assertEquals((0x51ccc178 & 127) % workers, new RssSpreader(workers).workerOf(frame, 0, 64));
        }
        frame.putShort(14 + 6, (short)0x2001, ByteOrder.BIG_ENDIAN);
        assertEquals(0, new RssSpreader(3).workerOf(frame, 0, 64), "a fragment is not hashed");
        frame.putShort(14 + 6, (short)0, ByteOrder.BIG_ENDIAN);
        frame.putShort(12, (short)0x0806, ByteOrder.BIG_ENDIAN);
        assertEquals(0, new RssSpreader(3).workerOf(frame, 0, 64), "ARP goes to queue 0");
        assertEquals(0, new RssSpreader(3).workerOf(frame, 0, 10), "a runt goes to queue 0");
    }
}
