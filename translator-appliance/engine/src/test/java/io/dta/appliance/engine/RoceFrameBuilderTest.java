package io.dta.appliance.engine;

import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.Icrc;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoceFrameBuilderTest
{
    private static final long SEED = 0xB111_DE12L;

    private static final QpPath PATH = new QpPath("c/keyWrite", 0x02000a000033L, 0x0a000033, 0xC539, 0x539, 0x456,
        0x1234, 0x7f0000000000L, 1 << 20, 0x100, 4096);

    private static RoceFrameEncoder encoder()
    {
        return new RoceFrameEncoder().srcMac(0x02000a000065L).srcIp(0x0a000065).tos(0x2a).ttl(17).pKey(0xffff)
            .dontFragment(true).migReq(true).dstPort(4791).dstMac(PATH.collectorMac()).dstIp(PATH.collectorIp())
            .srcPort(PATH.udpSourcePort()).destQp(PATH.remoteQpn()).rKey(PATH.rkey() & 0xFFFFFFFFL);
    }

    @Test
    void shouldBuildWritesByteForByteAsTheCodecEncoderDoes()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final RoceFrameBuilder builder = new RoceFrameBuilder(0x02000a000065L, 0x0a000065, 0x2a, 17, 0xffff, PATH);
        final UnsafeBuffer built = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final UnsafeBuffer expected = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[1100]);
        final RoceFrameEncoder encoder = encoder().opcode(RoceOpcode.RC_RDMA_WRITE_ONLY);
        long previousAddress = 0;
        for (int i = 0; i < 5000; i++)
        {
            // Mostly a few lengths, as a QP sees them, with now and then any length up to 1024.
            final int length = random.nextInt(4) == 0 ? random.nextInt(1025) : 4 * random.nextInt(3) + 8;
            final int payloadOffset = random.nextInt(16);
            for (int b = 0; b < length; b++)
            {
                payload.putByte(payloadOffset + b, (byte)random.nextInt());
            }
            final int psn = random.nextInt(1 << 24);
            final boolean ackReq = random.nextBoolean();
            // Often within the previous frame's 4 GiB (the builder keeps the high half's contribution), else anywhere.
            final long address = random.nextBoolean() ? (previousAddress & 0xFFFF_FFFF_0000_0000L) | random.nextInt() &
                0xFFFF_FFFFL : random.nextLong();
            previousAddress = address;
            final int frameLength = builder.writeOnly(built, 2, psn, ackReq, address, payload, payloadOffset, length);
            final int expectedLength = encoder.psn(psn).ackReq(ackReq).identification(psn & 0xFFFF)
                .virtualAddress(address).dmaLength(length).payload(payload, payloadOffset, length).encode(expected, 2);
            assertEquals(expectedLength, frameLength, "seed " + SEED + " case " + i);
            assertEquals(hex(expected, frameLength), hex(built, frameLength), "seed " + SEED + " case " + i);
            assertTrue(new Icrc().verify(built, 16, 2 + frameLength), "seed " + SEED + " case " + i);
        }
    }

    @Test
    void shouldBuildFetchAddsByteForByteAsTheCodecEncoderDoes()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 1);
        final RoceFrameBuilder builder = new RoceFrameBuilder(0x02000a000065L, 0x0a000065, 0x2a, 17, 0xffff, PATH);
        final UnsafeBuffer built = new UnsafeBuffer(new byte[256]);
        final UnsafeBuffer expected = new UnsafeBuffer(new byte[256]);
        final RoceFrameEncoder encoder = encoder().opcode(RoceOpcode.RC_FETCH_ADD).compareData(0).noPayload();
        for (int i = 0; i < 5000; i++)
        {
            final int psn = random.nextInt(1 << 24);
            final boolean ackReq = random.nextBoolean();
            final long address = random.nextLong() & ~7L;
            final long addend = random.nextInt(4) == 0 ? random.nextInt(1000) : random.nextLong();
            final int frameLength = builder.fetchAdd(built, 0, psn, ackReq, address, addend);
            final int expectedLength = encoder.psn(psn).ackReq(ackReq).identification(psn & 0xFFFF)
                .virtualAddress(address).swapAddData(addend).encode(expected, 0);
            assertEquals(expectedLength, frameLength, "seed " + (SEED + 1) + " case " + i);
            assertEquals(hex(expected, frameLength), hex(built, frameLength), "seed " + (SEED + 1) + " case " + i);
        }
    }

    @Test
    void shouldPatchAckReqAndTheIcrcAsAFreshBuildWould()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 2);
        final RoceFrameBuilder builder = new RoceFrameBuilder(0x02000a000065L, 0x0a000065, 0x2a, 17, 0xffff, PATH);
        final UnsafeBuffer patched = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final UnsafeBuffer fresh = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[1024]);
        final FrameDecoder decoder = new FrameDecoder();
        for (int i = 0; i < 5000; i++)
        {
            final int psn = random.nextInt(1 << 24);
            final long address = random.nextLong();
            final int length;
            final int freshLength;
            if (random.nextBoolean())
            {
                final long addend = random.nextLong();
                length = builder.fetchAdd(patched, 2, psn, false, address, addend);
                freshLength = builder.fetchAdd(fresh, 2, psn, true, address, addend);
            }
            else
            {
                final int payloadLength = random.nextInt(3) == 0 ? random.nextInt(1024) : 8;
                for (int b = 0; b < payloadLength; b++)
                {
                    payload.putByte(b, (byte)random.nextInt());
                }
                length = builder.writeOnly(patched, 2, psn, false, address, payload, 0, payloadLength);
                freshLength = builder.writeOnly(fresh, 2, psn, true, address, payload, 0, payloadLength);
            }
            builder.requestAck(patched, 2, length);
            assertEquals(freshLength, length);
            assertEquals(hex(fresh, freshLength), hex(patched, length), "seed " + (SEED + 2) + " case " + i);
            // Requesting twice changes nothing.
            builder.requestAck(patched, 2, length);
            assertEquals(hex(fresh, freshLength), hex(patched, length), "seed " + (SEED + 2) + " case " + i);
            assertEquals(FrameKind.ROCE, decoder.decode(patched, 2, length));
            assertTrue(decoder.bth().ackReq() && decoder.icrcValid(), "seed " + (SEED + 2) + " case " + i);
        }
    }

    private static String hex(final UnsafeBuffer buffer, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(2, bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
