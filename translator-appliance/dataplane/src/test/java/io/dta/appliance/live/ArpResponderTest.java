package io.dta.appliance.live;

import io.dta.codec.ArpFlyweight;
import io.dta.codec.EthernetFlyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ArpResponderTest
{
    private static final long OWN_MAC = 0x02000A000065L;
    private static final int OWN_IP = 0x0A000065;
    private static final long PEER_MAC = 0x02000A000001L;
    private static final int PEER_IP = 0x0A000001;

    private final UnsafeBuffer reply = new UnsafeBuffer(new byte[128]);

    private static UnsafeBuffer arp(final int tags, final int operation, final int targetIp)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[EthernetFlyweight.HEADER_LENGTH + 4 * tags +
            ArpFlyweight.LENGTH]);
        final EthernetFlyweight eth = new EthernetFlyweight().wrap(frame, 0).dstMac(0xFFFF_FFFF_FFFFL).srcMac(PEER_MAC);
        for (int i = 0; i < tags; i++)
        {
            eth.vlanTag(i, 0 == i && 2 == tags ? EthernetFlyweight.TPID_8021AD : EthernetFlyweight.TPID_8021Q, 3,
                false, 100 + i);
        }
        if (0 == tags)
        {
            eth.etherType(EthernetFlyweight.ETHER_TYPE_ARP);
        }
        else
        {
            eth.innerEtherType(EthernetFlyweight.ETHER_TYPE_ARP);
        }
        new ArpFlyweight().wrap(frame, eth.headerLength()).ethernetIpv4().operation(operation).senderMac(PEER_MAC)
            .senderIp(PEER_IP).targetMac(0).targetIp(targetIp);
        return frame;
    }

    @Test
    void shouldAnswerARequestForItsAddressWithTheSameTags()
    {
        final ArpResponder responder = new ArpResponder(OWN_MAC, OWN_IP);
        for (int tags = 0; tags <= 2; tags++)
        {
            final UnsafeBuffer request = arp(tags, ArpFlyweight.OPERATION_REQUEST, OWN_IP);
            reply.setMemory(0, reply.capacity(), (byte)0x55);
            final int length = responder.onFrame(request, 0, request.capacity(), reply, 4);
            assertEquals(ArpResponder.MIN_FRAME_LENGTH, length, "padded to 60 bytes, tags " + tags);
            final EthernetFlyweight eth = new EthernetFlyweight().wrap(reply, 4);
            assertEquals(PEER_MAC, eth.dstMac());
            assertEquals(OWN_MAC, eth.srcMac());
            assertEquals(tags, eth.vlanTagCount());
            for (int i = 0; i < tags; i++)
            {
                assertEquals(100 + i, eth.vlanId(i));
            }
            assertEquals(EthernetFlyweight.ETHER_TYPE_ARP, eth.innerEtherType());
            final ArpFlyweight arp = new ArpFlyweight().wrap(reply, 4 + eth.headerLength());
            assertEquals(ArpFlyweight.OPERATION_REPLY, arp.operation());
            assertEquals(OWN_MAC, arp.senderMac());
            assertEquals(OWN_IP, arp.senderIp());
            assertEquals(PEER_MAC, arp.targetMac());
            assertEquals(PEER_IP, arp.targetIp());
            for (int i = 4 + eth.headerLength() + ArpFlyweight.LENGTH; i < 4 + length; i++)
            {
                assertEquals(0, reply.getByte(i), "padding is zero at " + i);
            }
            assertEquals(0x55, reply.getByte(4 + length), "nothing written past the reply");
        }
        assertEquals(3, responder.requestsAnswered());
    }

    @Test
    void shouldIgnoreOtherTargetsRepliesAndTruncatedPacketsAndPassEverythingElse()
    {
        final ArpResponder responder = new ArpResponder(new long[] { OWN_MAC, OWN_MAC + 1 },
            new int[] { OWN_IP, OWN_IP + 1 });
        final UnsafeBuffer other = arp(0, ArpFlyweight.OPERATION_REQUEST, OWN_IP + 2);
        assertEquals(ArpResponder.IGNORED, responder.onFrame(other, 0, other.capacity(), reply, 0));
        final UnsafeBuffer answer = arp(1, ArpFlyweight.OPERATION_REPLY, OWN_IP);
        assertEquals(ArpResponder.IGNORED, responder.onFrame(answer, 0, answer.capacity(), reply, 0));
        final UnsafeBuffer truncated = arp(0, ArpFlyweight.OPERATION_REQUEST, OWN_IP);
        assertEquals(ArpResponder.IGNORED, responder.onFrame(truncated, 0, truncated.capacity() - 1, reply, 0));
        assertEquals(3, responder.ignored());
        assertEquals(0, responder.requestsAnswered());

        final UnsafeBuffer second = arp(0, ArpFlyweight.OPERATION_REQUEST, OWN_IP + 1);
        assertEquals(ArpResponder.MIN_FRAME_LENGTH, responder.onFrame(second, 0, second.capacity(), reply, 0));
        assertEquals(OWN_MAC + 1, new ArpFlyweight().wrap(reply, EthernetFlyweight.HEADER_LENGTH).senderMac(),
            "each address answers with its own MAC");

        // Random non-ARP frames (IPv4, IPv6, tagged, short) are handed on untouched.
        final long seed = Long.getLong("dta.test.seed", 0x76411E25L);
        final SplittableRandom random = new SplittableRandom(seed);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[128]);
        for (int i = 0; i < 10_000; i++)
        {
            final int length = random.nextInt(129);
            for (int b = 0; b < frame.capacity(); b++)
            {
                frame.putByte(b, (byte)random.nextInt());
            }
            final int type = new int[] { 0x0800, 0x86DD, 0x8100, 0x88A8 }[random.nextInt(4)];
            if (length >= 14)
            {
                frame.putShort(12, (short)type, java.nio.ByteOrder.BIG_ENDIAN);
                if (length >= 22)
                {
                    frame.putShort(16, (short)0x0800, java.nio.ByteOrder.BIG_ENDIAN);
                }
            }
            assertEquals(ArpResponder.NOT_ARP, responder.onFrame(frame, 0, length, reply, 0), "seed " + seed +
                " case " + i);
        }
    }
}
