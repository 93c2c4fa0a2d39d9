package io.dta.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArpFlyweightTest
{
    /** Who has 10.0.0.101? Tell 10.0.0.1 (02:00:0a:00:00:01), as tcpdump -xx shows it. */
    private static final String REQUEST =
        "ffffffffffff02000a0000010806" + "0001080006040001" + "02000a000001" + "0a000001" + "000000000000" + "0a000065";

    @Test
    void shouldReadARequestCapturedFromTheWire()
    {
        final byte[] bytes = HexFormat.of().parseHex(REQUEST);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        assertEquals(EthernetFlyweight.ETHER_TYPE_ARP, new EthernetFlyweight().wrap(buffer, 0).innerEtherType());
        final ArpFlyweight arp = new ArpFlyweight().wrap(buffer, EthernetFlyweight.HEADER_LENGTH);
        assertTrue(arp.isEthernetIpv4());
        assertEquals(ArpFlyweight.OPERATION_REQUEST, arp.operation());
        assertEquals(0x02000A000001L, arp.senderMac());
        assertEquals(0x0A000001, arp.senderIp());
        assertEquals(0, arp.targetMac());
        assertEquals(0x0A000065, arp.targetIp());
        assertEquals(bytes.length, EthernetFlyweight.HEADER_LENGTH + ArpFlyweight.LENGTH);

        buffer.putByte(EthernetFlyweight.HEADER_LENGTH + ArpFlyweight.PROTOCOL_LENGTH_OFFSET, (byte)16);
        assertFalse(arp.isEthernetIpv4(), "an IPv6-sized protocol address is not ours");
    }

    @Test
    void shouldWriteWhatItReads()
    {
        final long seed = Long.getLong("dta.test.seed", 0x732C8755L);
        final SplittableRandom random = new SplittableRandom(seed);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final ArpFlyweight arp = new ArpFlyweight();
        for (int i = 0; i < 5_000; i++)
        {
            final int offset = random.nextInt(64 - ArpFlyweight.LENGTH + 1);
            final long senderMac = random.nextLong() & 0xFFFF_FFFF_FFFFL;
            final long targetMac = random.nextLong() & 0xFFFF_FFFF_FFFFL;
            final int senderIp = random.nextInt();
            final int targetIp = random.nextInt();
            final int operation = random.nextInt(1 << 16);
            buffer.setMemory(0, 64, (byte)random.nextInt());
            arp.wrap(buffer, offset).ethernetIpv4().operation(operation).senderMac(senderMac).senderIp(senderIp)
                .targetMac(targetMac).targetIp(targetIp);
            final String context = "seed " + seed + " case " + i;
            assertTrue(arp.isEthernetIpv4(), context);
            assertEquals(operation, arp.operation(), context);
            assertEquals(senderMac, arp.senderMac(), context);
            assertEquals(senderIp, arp.senderIp(), context);
            assertEquals(targetMac, arp.targetMac(), context);
            assertEquals(targetIp, arp.targetIp(), context);
        }
    }

    @Test
    void shouldProduceTheReferenceRequestBytes()
    {
        final byte[] expected = HexFormat.of().parseHex(REQUEST);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[expected.length]);
        new EthernetFlyweight().wrap(buffer, 0).dstMac(0xFFFF_FFFF_FFFFL).srcMac(0x02000A000001L)
            .etherType(EthernetFlyweight.ETHER_TYPE_ARP);
        new ArpFlyweight().wrap(buffer, EthernetFlyweight.HEADER_LENGTH).ethernetIpv4()
            .operation(ArpFlyweight.OPERATION_REQUEST).senderMac(0x02000A000001L).senderIp(0x0A000001)
            .targetMac(0).targetIp(0x0A000065);
        assertArrayEquals(expected, buffer.byteArray());
    }
}
