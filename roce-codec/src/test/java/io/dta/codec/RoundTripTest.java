package io.dta.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded round trips: random RoCEv2 frames through the encoder and decoder, and random DTA reports (VLAN 0/1/2
 * tags, IPv4 options, both base-header forms, Ethernet padding) through the decoder.
 */
class RoundTripTest
{
    private static final long SEED = 0xD7A_2026L;
    private static final int CASES = 5_000;
    private static final int[] OPCODES = {
        RoceOpcode.RC_SEND_FIRST, RoceOpcode.RC_SEND_MIDDLE, RoceOpcode.RC_SEND_LAST, RoceOpcode.RC_SEND_ONLY,
        RoceOpcode.RC_RDMA_WRITE_FIRST, RoceOpcode.RC_RDMA_WRITE_MIDDLE, RoceOpcode.RC_RDMA_WRITE_LAST,
        RoceOpcode.RC_RDMA_WRITE_ONLY, RoceOpcode.RC_RDMA_READ_REQUEST, RoceOpcode.RC_ACKNOWLEDGE,
        RoceOpcode.RC_ATOMIC_ACKNOWLEDGE, RoceOpcode.RC_COMPARE_SWAP, RoceOpcode.RC_FETCH_ADD,
        RoceOpcode.UC_BASE + RoceOpcode.RC_RDMA_WRITE_ONLY, RoceOpcode.UC_BASE + RoceOpcode.RC_SEND_ONLY,
    };

    @Test
    void shouldDecodeWhatTheEncoderWrites()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final RoceFrameEncoder encoder = new RoceFrameEncoder();
        final FrameDecoder decoder = new FrameDecoder();
        final UnsafeBuffer out = new UnsafeBuffer(new byte[2048]);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[1100]);
        for (int i = 0; i < CASES; i++)
        {
            final String msg = "seed " + SEED + " case " + i;
            final int opcode = OPCODES[random.nextInt(OPCODES.length)];
            final long dstMac = random.nextLong() & MacAddress.MASK;
            final long srcMac = random.nextLong() & MacAddress.MASK;
            final int tos = random.nextInt(256);
            final int id = random.nextInt(0x10000);
            final int ttl = random.nextInt(256);
            final int srcIp = random.nextInt();
            final int dstIp = random.nextInt();
            final int sport = random.nextInt(0x10000);
            final boolean se = random.nextBoolean();
            final boolean m = random.nextBoolean();
            final int pkey = random.nextInt(0x10000);
            final boolean becn = random.nextBoolean();
            final int qp = random.nextInt(1 << 24);
            final boolean ackReq = random.nextBoolean();
            final int psn = random.nextInt(1 << 24);
            final long va = random.nextLong();
            final long rkey = random.nextLong() & 0xFFFF_FFFFL;
            final long a = random.nextLong();
            final long b = random.nextLong();
            final int syndrome = random.nextInt(256);
            final int msn = random.nextInt(1 << 24);
            final int length = random.nextInt(1025);
            final long dma = random.nextBoolean() ? -1 : random.nextLong() & 0x7FFF_FFFFL;
            for (int j = 0; j < length; j++)
            {
                payload.putByte(j, (byte)random.nextInt(256));
            }
            final int offset = random.nextInt(64);

            encoder.dstMac(dstMac).srcMac(srcMac).tos(tos).identification(id).ttl(ttl).srcIp(srcIp).dstIp(dstIp)
                .srcPort(sport).opcode(opcode).solicitedEvent(se).migReq(m).pKey(pkey).becn(becn).destQp(qp)
                .ackReq(ackReq).psn(psn).virtualAddress(va).rKey(rkey).dmaLength(dma).swapAddData(a).compareData(b)
                .syndrome(syndrome).msn(msn).originalValue(a).payload(payload, 0, length);
            final int frameLength = encoder.encode(out, offset);
            assertEquals(encoder.frameLength(), frameLength, msg);

            assertEquals(FrameKind.ROCE, decoder.decode(out, offset, frameLength), msg + " " +
                decoder.malformedReason());
            assertTrue(decoder.icrcValid(), msg);
            assertTrue(decoder.ipChecksumValid(), msg);
            assertEquals(dstMac, decoder.ethernet().dstMac(), msg);
            assertEquals(srcMac, decoder.ethernet().srcMac(), msg);
            assertEquals(tos, decoder.ipv4().tos(), msg);
            assertEquals(id, decoder.ipv4().identification(), msg);
            assertEquals(ttl, decoder.ipv4().ttl(), msg);
            assertTrue(decoder.ipv4().dontFragment(), msg);
            assertEquals(srcIp, decoder.ipv4().src(), msg);
            assertEquals(dstIp, decoder.ipv4().dst(), msg);
            assertEquals(sport, decoder.udp().srcPort(), msg);
            assertEquals(4791, decoder.udp().dstPort(), msg);
            assertEquals(0, decoder.udp().checksum(), msg);
            assertEquals(frameLength - 14, decoder.ipv4().totalLength(), msg);
            assertEquals(frameLength - 34, decoder.udp().length(), msg);
            assertEquals(opcode, decoder.bth().opcode(), msg);
            assertEquals(se, decoder.bth().solicitedEvent(), msg);
            assertEquals(m, decoder.bth().migReq(), msg);
            assertEquals(pkey, decoder.bth().pKey(), msg);
            assertEquals(becn, decoder.bth().becn(), msg);
            assertEquals(qp, decoder.bth().destQp(), msg);
            assertEquals(ackReq, decoder.bth().ackReq(), msg);
            assertEquals(psn, decoder.bth().psn(), msg);

            final boolean hasPayload = RoceOpcode.carriesPayload(opcode);
            final int expectedPayload = hasPayload ? length : 0;
            assertEquals(expectedPayload, decoder.payloadLength(), msg);
            assertEquals(-expectedPayload & 3, decoder.padCount(), msg);
            for (int j = 0; j < expectedPayload; j++)
            {
                assertEquals(payload.getByte(j), out.getByte(decoder.payloadOffset() + j), msg);
            }
            for (int j = 0; j < decoder.padCount(); j++)
            {
                assertEquals(0, out.getByte(decoder.payloadOffset() + expectedPayload + j), msg);
            }
            if (RoceOpcode.hasReth(opcode))
            {
                assertEquals(va, decoder.reth().virtualAddress(), msg);
                assertEquals(rkey, decoder.reth().rKey(), msg);
                assertEquals(dma < 0 ? expectedPayload : dma, decoder.reth().dmaLength(), msg);
            }
            if (RoceOpcode.hasAtomicEth(opcode))
            {
                assertEquals(va, decoder.atomicEth().virtualAddress(), msg);
                assertEquals(rkey, decoder.atomicEth().rKey(), msg);
                assertEquals(a, decoder.atomicEth().swapAddData(), msg);
                assertEquals(b, decoder.atomicEth().compareData(), msg);
            }
            if (RoceOpcode.hasAeth(opcode))
            {
                assertEquals(syndrome, decoder.aeth().syndrome(), msg);
                assertEquals(msn, decoder.aeth().msn(), msg);
            }
            if (opcode == RoceOpcode.RC_ATOMIC_ACKNOWLEDGE)
            {
                assertEquals(a, decoder.atomicAckEth().originalValue(), msg);
            }
        }
    }

    @Test
    void shouldEncodeAroundAPayloadWrittenInPlace()
    {
        final RoceFrameEncoder encoder = new RoceFrameEncoder().opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).payloadInPlace(6);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        final int payloadOffset = encoder.payloadOffset(10);
        out.putBytes(payloadOffset, new byte[] { 1, 2, 3, 4, 5, 6 });
        final int length = encoder.encode(out, 10);
        final FrameDecoder decoder = new FrameDecoder();
        assertEquals(FrameKind.ROCE, decoder.decode(out, 10, length));
        assertEquals(payloadOffset, decoder.payloadOffset());
        assertEquals(6, decoder.payloadLength());
        assertEquals(2, decoder.padCount());
        assertEquals(6, out.getByte(payloadOffset + 5));
        assertTrue(decoder.icrcValid());
    }

    @Test
    void shouldForgetThePreviousFrameWhateverComesNext()
    {
        // The decoder writes its reference fields only when they change (a G1 write barrier per frame otherwise);
        // nothing of the previous frame may show through: kind, reason, form, buffer.
        final SplittableRandom random = new SplittableRandom(SEED + 7);
        final FrameDecoder decoder = new FrameDecoder().baseHeaderForm(DtaBaseHeaderForm.AUTO);
        final UnsafeBuffer[] buffers = { new UnsafeBuffer(new byte[256]), new UnsafeBuffer(new byte[256]) };
        for (int i = 0; i < CASES; i++)
        {
            final String msg = "seed " + (SEED + 7) + " case " + i;
            final UnsafeBuffer out = buffers[random.nextInt(2)];
            final TestFrames.DtaReportBuilder builder = new TestFrames.DtaReportBuilder();
            final DtaBaseHeaderForm form = random.nextBoolean() ? DtaBaseHeaderForm.THREE : DtaBaseHeaderForm.TWO;
            builder.form = form;
            builder.opcode = 1 + random.nextInt(4);
            builder.subHeader = new byte[DtaOpcode.subHeaderLength(builder.opcode, 4)];
            random.nextBytes(builder.subHeader);
            final int length = builder.build(out, 0);
            final int shape = random.nextInt(3);
            final FrameKind expected;
            if (0 == shape)
            {
                expected = FrameKind.DTA;
            }
            else if (1 == shape)
            {
                // Cut inside the sub-header: the IP and UDP lengths no longer fit the frame.
                expected = FrameKind.MALFORMED;
            }
            else
            {
                out.putShort(14 + 20 + 2, (short)4000, java.nio.ByteOrder.BIG_ENDIAN);
                expected = FrameKind.OTHER;
            }
            final FrameKind kind = decoder.decode(out, 0, 1 == shape ? length - 3 : length);
            assertEquals(expected, kind, msg);
            assertEquals(kind, decoder.kind(), msg);
            assertTrue(out == decoder.buffer(), msg);
            assertEquals(FrameKind.MALFORMED == kind, MalformedReason.NONE != decoder.malformedReason(), msg);
            assertEquals(FrameKind.DTA == kind ? form : null, decoder.dtaBaseHeaderForm(), msg);
        }
    }

    @Test
    void shouldDecodeRandomDtaReports()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 1);
        final FrameDecoder decoder = new FrameDecoder();
        final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        final int[] dataLengths = { 4, 12, 28 };
        for (int i = 0; i < CASES; i++)
        {
            final String msg = "seed " + (SEED + 1) + " case " + i;
            final TestFrames.DtaReportBuilder builder = new TestFrames.DtaReportBuilder();
            final int tags = random.nextInt(3);
            builder.vlanIds = new int[tags];
            builder.vlanPcps = new int[tags];
            for (int t = 0; t < tags; t++)
            {
                builder.vlanIds[t] = random.nextInt(4096);
                builder.vlanPcps[t] = random.nextInt(8);
            }
            builder.ipOptionWords = random.nextInt(4) == 0 ? 1 + random.nextInt(10) : 0;
            builder.tos = random.nextInt(256);
            builder.ttl = random.nextInt(256);
            builder.srcIp = random.nextInt();
            builder.dstIp = random.nextInt();
            builder.srcPort = random.nextInt(0x10000);
            final DtaBaseHeaderForm form = random.nextBoolean() ? DtaBaseHeaderForm.THREE : DtaBaseHeaderForm.TWO;
            builder.form = form;
            builder.opcode = 1 + random.nextInt(4);
            builder.seqnum = random.nextInt(256);
            builder.flags = random.nextInt(8) << 5;
            final int dataLength = dataLengths[random.nextInt(3)];
            final int subLength = DtaOpcode.subHeaderLength(builder.opcode, dataLength);
            builder.subHeader = new byte[subLength];
            random.nextBytes(builder.subHeader);
            builder.ethernetPadTo = random.nextBoolean() ? 60 : 0;
            final int offset = random.nextInt(32);
            final int length = builder.build(out, offset);

            final DtaBaseHeaderForm mode = random.nextBoolean() ? DtaBaseHeaderForm.AUTO : form;
            decoder.baseHeaderForm(mode).keyWriteDataLength(dataLength);
            assertEquals(FrameKind.DTA, decoder.decode(out, offset, length), msg + " " + decoder.malformedReason());
            assertEquals(form, decoder.dtaBaseHeaderForm(), msg);
            assertTrue(decoder.ipChecksumValid(), msg);
            assertEquals(tags, decoder.vlanTagCount(), msg);
            assertEquals(tags, decoder.ethernet().vlanTagCount(), msg);
            for (int t = 0; t < tags; t++)
            {
                assertEquals(builder.vlanIds[t], decoder.ethernet().vlanId(t), msg);
                assertEquals(builder.vlanPcps[t], decoder.ethernet().vlanPcp(t), msg);
            }
            assertEquals(0x0800, decoder.ethernet().innerEtherType(), msg);
            assertEquals(offset + 14 + 4 * tags, decoder.ipOffset(), msg);
            assertEquals(5 + builder.ipOptionWords, decoder.ipv4().ihl(), msg);
            assertEquals(builder.tos, decoder.ipv4().tos(), msg);
            assertEquals(builder.ttl, decoder.ipv4().ttl(), msg);
            assertEquals(builder.srcIp, decoder.ipv4().src(), msg);
            assertEquals(builder.dstIp, decoder.ipv4().dst(), msg);
            assertEquals(builder.srcPort, decoder.udp().srcPort(), msg);
            assertEquals(decoder.ipOffset() + 20 + 4 * builder.ipOptionWords, decoder.udpOffset(), msg);
            assertEquals(decoder.udpOffset() + 8, decoder.dtaOffset(), msg);
            assertEquals(builder.opcode, decoder.dtaOpcode(), msg);
            assertEquals(builder.opcode, decoder.dtaBase().opcode(), msg);
            assertEquals(form == DtaBaseHeaderForm.THREE ? builder.seqnum : 0, decoder.dtaBase().seqnum(), msg);
            assertEquals(builder.flags, decoder.dtaBase().flags(), msg);
            assertEquals((builder.flags & 0x80) != 0, decoder.dtaBase().immediate(), msg);
            assertEquals(form == DtaBaseHeaderForm.THREE && (builder.flags & 0x40) != 0,
                decoder.dtaBase().retransmittable(), msg);
            assertEquals(form == DtaBaseHeaderForm.THREE && (builder.flags & 0x20) != 0,
                decoder.dtaBase().essential(), msg);
            assertEquals(decoder.dtaOffset() + form.length(), decoder.payloadOffset(), msg);
            assertEquals(subLength, decoder.payloadLength(), msg);

            final UnsafeBuffer sub = new UnsafeBuffer(builder.subHeader);
            switch (builder.opcode)
            {
                case DtaOpcode.KEY_WRITE:
                    assertEquals(sub.getByte(0) & 0xFF, decoder.keyWrite().redundancy(), msg);
                    assertEquals(sub.getInt(1, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL,
                        decoder.keyWrite().key(), msg);
                    assertEquals(dataLength, decoder.keyWrite().dataLength(), msg);
                    for (int w = 0; w < dataLength / 4; w++)
                    {
                        assertEquals(sub.getInt(5 + 4 * w, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL,
                            decoder.keyWrite().dataWord(w), msg);
                    }
                    break;
                case DtaOpcode.KEY_INCREMENT:
                    assertEquals(sub.getByte(0) & 0xFF, decoder.keyIncrement().redundancy(), msg);
                    assertEquals(sub.getInt(1, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL,
                        decoder.keyIncrement().key(), msg);
                    assertEquals(sub.getLong(5, java.nio.ByteOrder.BIG_ENDIAN), decoder.keyIncrement().counter(), msg);
                    break;
                case DtaOpcode.APPEND:
                    assertEquals(sub.getInt(0, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL,
                        decoder.append().listId(), msg);
                    assertEquals(sub.getInt(4, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL,
                        decoder.append().data(), msg);
                    break;
                case DtaOpcode.POSTCARD:
                    assertEquals(sub.getInt(0, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL,
                        decoder.postcard().key(), msg);
                    assertEquals(sub.getByte(4) & 0xFF, decoder.postcard().hop(), msg);
                    assertEquals(sub.getInt(5, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL,
                        decoder.postcard().data(), msg);
                    break;
                default:
                    throw new AssertionError(msg);
            }
        }
    }
}
