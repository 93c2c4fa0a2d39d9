package io.dta.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verified RoCEv2 vectors: encode byte-exact, decode every field (values from vectors/README.md and the tshark
 * decodes), ICRC and IP checksum verdicts.
 */
class RoceVectorsTest
{
    private static final long REQUESTER_MAC = 0x020000000001L;
    private static final long RESPONDER_MAC = 0x020000000002L;
    private static final int REQUESTER_IP = 0x0A000001;
    private static final int RESPONDER_IP = 0x0A000002;
    private static final byte[] HELLO = "hello, rocev2".getBytes(StandardCharsets.US_ASCII);

    private final RoceFrameEncoder encoder = new RoceFrameEncoder();
    private final FrameDecoder decoder = new FrameDecoder();

    private static final String[] NAMES = { "write_only", "fetch_add", "ack", "nak_seq_err", "atomic_ack" };

    private RoceFrameEncoder configure(final String name)
    {
        encoder.tos(0x6a).ttl(64).dontFragment(true).migReq(true).pKey(0xFFFF).noPayload();
        switch (name)
        {
            case "write_only":
                return requester().identification(0x1234).opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).ackReq(true)
                    .psn(0x123456).virtualAddress(0x00007f1234560040L).rKey(0x00a1b2c3L).dmaLength(-1)
                    .payload(new UnsafeBuffer(HELLO), 0, HELLO.length);
            case "fetch_add":
                return requester().identification(0x1235).opcode(RoceOpcode.RC_FETCH_ADD).ackReq(true)
                    .psn(0x123457).virtualAddress(0x00007f1234560100L).rKey(0x00a1b2c3L).swapAddData(1)
                    .compareData(0);
            case "ack":
                return responder().opcode(RoceOpcode.RC_ACKNOWLEDGE).psn(0x123456).syndrome(0x1F).msn(1);
            case "nak_seq_err":
                return responder().opcode(RoceOpcode.RC_ACKNOWLEDGE).psn(0x123457).syndrome(0x60).msn(1);
            case "atomic_ack":
                return responder().opcode(RoceOpcode.RC_ATOMIC_ACKNOWLEDGE).psn(0x123457).syndrome(0x1F).msn(2)
                    .originalValue(5);
            default:
                throw new IllegalArgumentException(name);
        }
    }

    private RoceFrameEncoder requester()
    {
        return encoder.dstMac(RESPONDER_MAC).srcMac(REQUESTER_MAC).srcIp(REQUESTER_IP).dstIp(RESPONDER_IP)
            .srcPort(0xC123).destQp(0x112);
    }

    private RoceFrameEncoder responder()
    {
        return encoder.dstMac(REQUESTER_MAC).srcMac(RESPONDER_MAC).srcIp(RESPONDER_IP).dstIp(REQUESTER_IP)
            .srcPort(0xD001).destQp(0x77).identification(0).ackReq(false);
    }

    @Test
    void shouldEncodeEveryHexVectorByteForByte() throws Exception
    {
        final Map<String, byte[][]> vectors = TestFrames.hexVectors();
        assertEquals(5, vectors.size());
        for (final String name : NAMES)
        {
            final byte[] expected = vectors.get(name)[0];
            final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
            configure(name);
            assertEquals(expected.length, encoder.frameLength(), name);
            final int length = encoder.encode(out, 7);
            assertEquals(expected.length, length, name);
            final byte[] actual = new byte[length];
            out.getBytes(7, actual);
            assertEquals(TestFrames.toHex(expected), TestFrames.toHex(actual), name);
        }
    }

    @Test
    void shouldMatchPcapFilesWithHexVectors() throws Exception
    {
        final Map<String, byte[][]> vectors = TestFrames.hexVectors();
        for (final String name : NAMES)
        {
            final List<byte[]> frames = TestFrames.pcapFrames(TestFrames.resource("rocev2_" + name + ".pcap"));
            assertEquals(1, frames.size(), name);
            assertArrayEquals(vectors.get(name)[0], frames.get(0), name);

            final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
            final int length = configure(name).encode(out, 0);
            final byte[] actual = new byte[length];
            out.getBytes(0, actual);
            assertArrayEquals(frames.get(0), actual, name);
        }
    }

    @Test
    void shouldGiveTheQuotedCrcOfEveryMaskedInput() throws Exception
    {
        final Map<String, Long> expected = Map.of(
            "write_only", 0xbe90a0a4L, "fetch_add", 0xc8e81f0bL, "ack", 0x79d83525L,
            "nak_seq_err", 0x77e4ac5fL, "atomic_ack", 0x69d7dbdeL);
        final Map<String, byte[][]> vectors = TestFrames.hexVectors();
        final Icrc icrc = new Icrc();
        for (final String name : NAMES)
        {
            final byte[] masked = vectors.get(name)[1];
            final CRC32 crc = new CRC32();
            crc.update(masked);
            assertEquals(expected.get(name), crc.getValue(), name);

            final byte[] frame = vectors.get(name)[0];
            final UnsafeBuffer buffer = new UnsafeBuffer(frame);
            assertEquals((int)(long)expected.get(name), icrc.compute(buffer, 14, frame.length - 4), name);
            assertEquals((int)(long)expected.get(name), buffer.getInt(frame.length - 4, ByteOrder.LITTLE_ENDIAN));

            crc.update(frame, frame.length - 4, 4);
            assertEquals(Icrc.RESIDUE, crc.getValue(), name);
        }
    }

    @Test
    void shouldDecodeWriteOnlyFields() throws Exception
    {
        final UnsafeBuffer frame = new UnsafeBuffer(TestFrames.hexVectors().get("write_only")[0]);
        assertEquals(FrameKind.ROCE, decoder.decode(frame, 0, frame.capacity()));
        assertCommon(REQUESTER_MAC, RESPONDER_MAC, REQUESTER_IP, RESPONDER_IP, 0xC123, 0x1234, 0x004c, 0x1401, 56);
        assertEquals(RoceOpcode.RC_RDMA_WRITE_ONLY, decoder.bth().opcode());
        assertEquals("RC_RDMA_WRITE_ONLY", RoceOpcode.name(decoder.roceOpcode()));
        assertEquals(3, decoder.bth().padCount());
        assertEquals(3, decoder.padCount());
        assertTrue(decoder.bth().ackReq());
        assertEquals(0x123456, decoder.bth().psn());
        assertEquals(0x112, decoder.bth().destQp());
        assertEquals(0x00007f1234560040L, decoder.reth().virtualAddress());
        assertEquals(0x00a1b2c3L, decoder.reth().rKey());
        assertEquals(13, decoder.reth().dmaLength());
        assertEquals(13, decoder.payloadLength());
        assertEquals(14 + 20 + 8 + 28, decoder.payloadOffset());
        final byte[] payload = new byte[13];
        frame.getBytes(decoder.payloadOffset(), payload);
        assertArrayEquals(HELLO, payload);
        assertEquals(86, decoder.icrcOffset());
        assertVerdicts(frame);
    }

    @Test
    void shouldDecodeFetchAddFields() throws Exception
    {
        final UnsafeBuffer frame = new UnsafeBuffer(TestFrames.hexVectors().get("fetch_add")[0]);
        assertEquals(FrameKind.ROCE, decoder.decode(frame, 0, frame.capacity()));
        assertCommon(REQUESTER_MAC, RESPONDER_MAC, REQUESTER_IP, RESPONDER_IP, 0xC123, 0x1235, 0x0048, 0x1404, 52);
        assertEquals(RoceOpcode.RC_FETCH_ADD, decoder.bth().opcode());
        assertEquals(0, decoder.padCount());
        assertTrue(decoder.bth().ackReq());
        assertEquals(0x123457, decoder.bth().psn());
        assertEquals(0x112, decoder.bth().destQp());
        assertEquals(0x00007f1234560100L, decoder.atomicEth().virtualAddress());
        assertEquals(0x00a1b2c3L, decoder.atomicEth().rKey());
        assertEquals(1, decoder.atomicEth().swapAddData());
        assertEquals(0, decoder.atomicEth().compareData());
        assertEquals(0, decoder.payloadLength());
        assertEquals(82, decoder.icrcOffset());
        assertVerdicts(frame);
    }

    @Test
    void shouldDecodeAckNakAndAtomicAckFields() throws Exception
    {
        final Map<String, byte[][]> vectors = TestFrames.hexVectors();

        UnsafeBuffer frame = new UnsafeBuffer(vectors.get("ack")[0]);
        assertEquals(FrameKind.ROCE, decoder.decode(frame, 0, frame.capacity()));
        assertCommon(RESPONDER_MAC, REQUESTER_MAC, RESPONDER_IP, REQUESTER_IP, 0xD001, 0, 48, 0x2651, 28);
        assertEquals(RoceOpcode.RC_ACKNOWLEDGE, decoder.bth().opcode());
        assertFalse(decoder.bth().ackReq());
        assertEquals(0x77, decoder.bth().destQp());
        assertEquals(0x123456, decoder.bth().psn());
        assertEquals(0x1F, decoder.aeth().syndrome());
        assertTrue(decoder.aeth().isAck());
        assertFalse(decoder.aeth().isNak());
        assertEquals(31, decoder.aeth().creditCode());
        assertEquals(1, decoder.aeth().msn());
        assertVerdicts(frame);

        frame = new UnsafeBuffer(vectors.get("nak_seq_err")[0]);
        assertEquals(FrameKind.ROCE, decoder.decode(frame, 0, frame.capacity()));
        assertCommon(RESPONDER_MAC, REQUESTER_MAC, RESPONDER_IP, REQUESTER_IP, 0xD001, 0, 48, 0x2651, 28);
        assertEquals(0x123457, decoder.bth().psn());
        assertEquals(0x60, decoder.aeth().syndrome());
        assertTrue(decoder.aeth().isNak());
        assertFalse(decoder.aeth().isAck());
        assertFalse(decoder.aeth().isRnrNak());
        assertEquals(AethFlyweight.NAK_PSN_SEQUENCE_ERROR, decoder.aeth().nakCode());
        assertEquals(1, decoder.aeth().msn());
        assertVerdicts(frame);

        frame = new UnsafeBuffer(vectors.get("atomic_ack")[0]);
        assertEquals(FrameKind.ROCE, decoder.decode(frame, 0, frame.capacity()));
        assertCommon(RESPONDER_MAC, REQUESTER_MAC, RESPONDER_IP, REQUESTER_IP, 0xD001, 0, 56, 0x2649, 36);
        assertEquals(RoceOpcode.RC_ATOMIC_ACKNOWLEDGE, decoder.bth().opcode());
        assertEquals(0x123457, decoder.bth().psn());
        assertTrue(decoder.aeth().isAck());
        assertEquals(2, decoder.aeth().msn());
        assertEquals(5, decoder.atomicAckEth().originalValue());
        assertVerdicts(frame);
    }

    @Test
    void shouldRejectIcrcWhenAnyCoveredBitFlips() throws Exception
    {
        for (final String name : NAMES)
        {
            final byte[] bytes = TestFrames.hexVectors().get(name)[0];
            final UnsafeBuffer frame = new UnsafeBuffer(bytes);
            for (int bit = 14 * 8; bit < bytes.length * 8; bit++)
            {
                final int index = bit >>> 3;
                final int rel = index - 14;
                final boolean masked = rel == 1 || rel == 8 || rel == 10 || rel == 11 || rel == 26 || rel == 27 ||
                    rel == 32;
                bytes[index] ^= (byte)(1 << (bit & 7));
                final FrameKind kind = decoder.decode(frame, 0, bytes.length);
                if (kind == FrameKind.ROCE)
                {
                    // Masked fields may change freely; everything else must break the ICRC.
                    assertEquals(masked, decoder.icrcValid(), name + " bit " + bit);
                }
                bytes[index] ^= (byte)(1 << (bit & 7));
            }
            assertEquals(FrameKind.ROCE, decoder.decode(frame, 0, bytes.length));
            assertTrue(decoder.icrcValid(), name);
        }
    }

    @Test
    void shouldIgnoreEthernetPaddingAfterTheDatagram() throws Exception
    {
        final byte[] ack = TestFrames.hexVectors().get("ack")[0];
        final byte[] padded = new byte[ack.length + 10];
        System.arraycopy(ack, 0, padded, 0, ack.length);
        java.util.Arrays.fill(padded, ack.length, padded.length, (byte)0x5A);
        final UnsafeBuffer frame = new UnsafeBuffer(padded);
        assertEquals(FrameKind.ROCE, decoder.decode(frame, 0, padded.length));
        assertEquals(ack.length, decoder.ipEnd());
        assertTrue(decoder.icrcValid());
        assertEquals(1, decoder.aeth().msn());
    }

    private void assertCommon(
        final long srcMac, final long dstMac, final int srcIp, final int dstIp, final int srcPort,
        final int identification, final int totalLength, final int ipChecksum, final int udpLength)
    {
        assertEquals(dstMac, decoder.ethernet().dstMac());
        assertEquals(srcMac, decoder.ethernet().srcMac());
        assertEquals(0x0800, decoder.ethernet().etherType());
        assertEquals(0, decoder.vlanTagCount());
        assertEquals(4, decoder.ipv4().version());
        assertEquals(20, decoder.ipv4().headerLength());
        assertEquals(0x6a, decoder.ipv4().tos());
        assertEquals(26, decoder.ipv4().dscp());
        assertEquals(2, decoder.ipv4().ecn());
        assertEquals(totalLength, decoder.ipv4().totalLength());
        assertEquals(identification, decoder.ipv4().identification());
        assertTrue(decoder.ipv4().dontFragment());
        assertFalse(decoder.ipv4().moreFragments());
        assertEquals(0, decoder.ipv4().fragmentOffset());
        assertEquals(64, decoder.ipv4().ttl());
        assertEquals(17, decoder.ipv4().protocol());
        assertEquals(ipChecksum, decoder.ipv4().headerChecksum());
        assertEquals(ipChecksum, decoder.ipv4().computeChecksum());
        assertEquals(srcIp, decoder.ipv4().src());
        assertEquals(dstIp, decoder.ipv4().dst());
        assertEquals(srcPort, decoder.udp().srcPort());
        assertEquals(4791, decoder.udp().dstPort());
        assertEquals(udpLength, decoder.udp().length());
        assertEquals(0, decoder.udp().checksum());
        assertEquals(14, decoder.ipOffset());
        assertEquals(34, decoder.udpOffset());
        assertEquals(42, decoder.bthOffset());
        assertEquals(MalformedReason.NONE, decoder.malformedReason());
        assertFalse(decoder.bth().solicitedEvent());
        assertTrue(decoder.bth().migReq());
        assertEquals(0, decoder.bth().tver());
        assertEquals(0xFFFF, decoder.bth().pKey());
        assertFalse(decoder.bth().fecn());
        assertFalse(decoder.bth().becn());
    }

    private void assertVerdicts(final UnsafeBuffer frame)
    {
        assertTrue(decoder.icrcValid());
        assertTrue(decoder.ipChecksumValid());
        assertTrue(decoder.udpChecksumValid());
        frame.putByte(decoder.icrcOffset() - 1, (byte)(frame.getByte(decoder.icrcOffset() - 1) ^ 0x01));
        decoder.decode(frame, 0, frame.capacity());
        assertFalse(decoder.icrcValid());
        frame.putByte(decoder.icrcOffset() - 1, (byte)(frame.getByte(decoder.icrcOffset() - 1) ^ 0x01));
        frame.putByte(14 + 4, (byte)(frame.getByte(14 + 4) ^ 0x10));
        decoder.decode(frame, 0, frame.capacity());
        assertFalse(decoder.ipChecksumValid());
        assertFalse(decoder.icrcValid());
        frame.putByte(14 + 4, (byte)(frame.getByte(14 + 4) ^ 0x10));
    }
}
