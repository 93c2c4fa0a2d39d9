package io.dta.collector.responder;

import io.dta.codec.Icrc;
import io.dta.codec.Ipv4Flyweight;
import io.dta.codec.RoceOpcode;
import io.dta.codec.UdpFlyweight;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ApplianceConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.zip.CRC32;

import static io.dta.collector.responder.Requests.BASE;
import static io.dta.collector.responder.Requests.MTU;
import static io.dta.collector.responder.Requests.PEER_QPN;
import static io.dta.collector.responder.Requests.QPN;
import static io.dta.collector.responder.Requests.RKEY;
import static io.dta.collector.responder.Requests.Sink;
import static io.dta.collector.responder.Requests.encoder;
import static io.dta.collector.responder.Requests.fetchAdd;
import static io.dta.collector.responder.Requests.frame;
import static io.dta.collector.responder.Requests.write;
import static io.dta.collector.responder.Requests.writeOnly;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The responder rules of rocev2-reference.md §3–§4 (translation.md §9) that SoftResponderTest does not pin down,
 * one test per rule, each response also checked field by field against §1–§2 (an independent ICRC computation
 * from the §2.1 definition, the IPv4 header checksum, and every fixed header field).
 */
class ResponderRulesTest
{
    private static final int START = 0x123456;
    private static final int BTH = 14 + 20 + 8;

    private final ApplianceConfig config = Requests.config(START);
    private final UnsafeBuffer memory = new UnsafeBuffer(new byte[Requests.LENGTH]);
    private final SoftResponder responder = Requests.responder(config, memory);
    private final Sink sink = new Sink();

    private ResponderQp qp()
    {
        return responder.qp(Requests.COLLECTOR_IP, QPN);
    }

    private void offer(final byte[] frame)
    {
        final int before = sink.responses.size();
        Requests.offer(responder, frame, sink);
        for (int i = before; i < sink.responses.size(); i++)
        {
            assertWellFormed(sink.responses.get(i).bytes());
        }
    }

    private static byte[] vector(final String name) throws IOException
    {
        final Path path = Paths.get("../roce-codec/src/test/resources/vectors/" + name);
        try (PcapReader reader = PcapReader.open(path))
        {
            assertTrue(reader.next());
            final byte[] frame = new byte[reader.capturedLength()];
            reader.buffer().getBytes(reader.offset(), frame);
            return frame;
        }
    }

    /**
     * Every field of an ACK / NAK / ATOMIC ACK (rocev2-reference §1.2–§1.5, §2.1–§2.2), computed here
     * independently of the codec.
     */
    static void assertWellFormed(final byte[] f)
    {
        final UnsafeBuffer b = new UnsafeBuffer(f);
        final int opcode = f[BTH] & 0xFF;
        assertTrue(opcode == RoceOpcode.RC_ACKNOWLEDGE || opcode == RoceOpcode.RC_ATOMIC_ACKNOWLEDGE);
        assertEquals(opcode == RoceOpcode.RC_ATOMIC_ACKNOWLEDGE ? 70 : 62, f.length, "frame length");
        assertEquals(0x0800, b.getShort(12, ByteOrder.BIG_ENDIAN) & 0xFFFF, "EtherType");
        assertEquals(0x45, f[14] & 0xFF, "version/IHL");
        assertEquals((26 << 2) | 2, f[15] & 0xFF, "TOS = DSCP 26, ECT(0)");
        assertEquals(f.length - 14, b.getShort(16, ByteOrder.BIG_ENDIAN) & 0xFFFF, "IP total length");
        assertEquals(0x4000, b.getShort(20, ByteOrder.BIG_ENDIAN) & 0xFFFF, "DF, offset 0");
        assertEquals(64, f[22] & 0xFF, "TTL");
        assertEquals(17, f[23] & 0xFF, "protocol");
        int sum = 0;
        for (int i = 14; i < 34; i += 2)
        {
            sum += b.getShort(i, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        while (sum > 0xFFFF)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        assertEquals(0xFFFF, sum, "IPv4 header checksum");
        assertEquals(Requests.COLLECTOR_IP, b.getInt(26, ByteOrder.BIG_ENDIAN), "IP src");
        assertEquals(Requests.TRANSLATOR_IP, b.getInt(30, ByteOrder.BIG_ENDIAN), "IP dst");
        assertEquals(SoftResponder.RESPONSE_SOURCE_PORT, b.getShort(34, ByteOrder.BIG_ENDIAN) & 0xFFFF);
        assertEquals(UdpFlyweight.ROCEV2_PORT, b.getShort(36, ByteOrder.BIG_ENDIAN) & 0xFFFF);
        assertEquals(f.length - 34, b.getShort(38, ByteOrder.BIG_ENDIAN) & 0xFFFF, "UDP length");
        assertEquals(0, b.getShort(40, ByteOrder.BIG_ENDIAN), "UDP checksum 0");
        assertEquals(0x40, f[BTH + 1] & 0xFF, "SE 0, M 1, PadCnt 0, TVer 0");
        assertEquals(0xFFFF, b.getShort(BTH + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF, "P_Key");
        assertEquals(0, f[BTH + 4], "FECN/BECN/resv");
        assertEquals(PEER_QPN, b.getInt(BTH + 4, ByteOrder.BIG_ENDIAN) & 0xFFFFFF, "DestQP");
        assertEquals(0, f[BTH + 8], "AckReq 0, resv7 0");
        final int syndrome = f[BTH + 12] & 0xFF;
        assertEquals(0, syndrome & 0x80, "AETH reserved bit");

        final byte[] masked = Arrays.copyOfRange(f, 14, f.length - 4);
        masked[1] = (byte)0xFF;
        masked[8] = (byte)0xFF;
        masked[10] = (byte)0xFF;
        masked[11] = (byte)0xFF;
        masked[26] = (byte)0xFF;
        masked[27] = (byte)0xFF;
        masked[28 + 4] = (byte)0xFF;
        final CRC32 crc = new CRC32();
        crc.update(new byte[] { -1, -1, -1, -1, -1, -1, -1, -1 });
        crc.update(masked);
        assertEquals((int)crc.getValue(), b.getInt(f.length - 4, ByteOrder.LITTLE_ENDIAN), "ICRC");
    }

    /** The encoder has no ImmDt: a WRITE Only turned into WRITE Only with Immediate by hand. */
    private static byte[] writeOnlyWithImmediate(final int psn, final byte[] payload)
    {
        final byte[] plain = writeOnly(psn, BASE, payload, true);
        final int ext = BTH + 12 + 16;
        final byte[] f = new byte[plain.length + 4];
        System.arraycopy(plain, 0, f, 0, ext);
        System.arraycopy(new byte[] { 0x0A, 0x0B, 0x0C, 0x0D }, 0, f, ext, 4);
        System.arraycopy(plain, ext, f, ext + 4, plain.length - ext - 4);
        f[BTH] = (byte)RoceOpcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE;
        final UnsafeBuffer b = new UnsafeBuffer(f);
        b.putShort(16, (short)(f.length - 14), ByteOrder.BIG_ENDIAN);
        b.putShort(38, (short)(f.length - 34), ByteOrder.BIG_ENDIAN);
        new Ipv4Flyweight().wrap(b, 14).updateChecksum();
        new Icrc().write(b, 14, f.length - 4);
        return f;
    }

    @Test
    void shouldAnswerTheNakVectorByteForByte() throws IOException
    {
        offer(vector("rocev2_write_only.pcap"));
        offer(writeOnly(START + 2, BASE, new byte[4], false));

        assertEquals(2, sink.responses.size());
        assertArrayEquals(vector("rocev2_nak_seq_err.pcap"), sink.last().bytes());
    }

    @Test
    void shouldSendTheNakEvenWithoutAckReq()
    {
        offer(writeOnly(START + 1, BASE, new byte[4], false));

        assertEquals(1, sink.responses.size());
        assertTrue(sink.last().isNak(0));
        assertEquals(START, sink.last().psn());
    }

    @Test
    void shouldTakeHalfTheSpaceAheadAsADuplicateAndOneLessAsOutOfSequence()
    {
        offer(writeOnly(START, BASE, new byte[] { 1, 1, 1, 1 }, false));
        final int ePsn = START + 1;

        offer(writeOnly((ePsn + (1 << 23)) & 0xFFFFFF, BASE, new byte[] { 2, 2, 2, 2 }, false));
        assertEquals(1, sink.responses.size());
        assertTrue(sink.last().isAck(), "d = 2^23 is behind: duplicate, re-ACKed");
        assertEquals(START, sink.last().psn());

        offer(writeOnly((ePsn + (1 << 23) - 1) & 0xFFFFFF, BASE, new byte[] { 3, 3, 3, 3 }, false));
        assertEquals(2, sink.responses.size());
        assertTrue(sink.last().isNak(0), "d = 2^23 - 1 is ahead: out of sequence");
        assertEquals(ePsn, sink.last().psn());
        assertEquals(0x01010101, memory.getInt(0));
    }

    @Test
    void shouldKeepTheNakFlagAcrossDuplicatesUntilTheExpectedPsnArrives()
    {
        offer(writeOnly(START, BASE, new byte[4], false));
        offer(writeOnly(START + 3, BASE, new byte[4], true));
        offer(writeOnly(START, BASE, new byte[4], true));
        offer(writeOnly(START + 4, BASE, new byte[4], true));

        assertEquals(2, sink.responses.size());
        assertTrue(sink.responses.get(0).isNak(0));
        assertTrue(sink.responses.get(1).isAck(), "the duplicate is re-ACKed");
        assertTrue(qp().nakOutstanding(), "a duplicate does not end the episode");
        assertEquals(1, responder.counter(ResponderCounter.OUT_OF_SEQUENCE_DROPPED));
    }

    @Test
    void shouldCheckThePsnBeforeAnythingElse()
    {
        offer(write(RoceOpcode.RC_RDMA_WRITE_ONLY, START + 1, BASE, RKEY + 1, 4, new byte[4], true));
        offer(write(RoceOpcode.RC_RDMA_WRITE_ONLY, START - 1, BASE, RKEY + 1, 4, new byte[4], false));
        offer(write(RoceOpcode.RC_RDMA_WRITE_MIDDLE, START - 2, 0, 0, 0, new byte[3], true));

        assertEquals(3, sink.responses.size());
        assertTrue(sink.responses.get(0).isNak(0), "a bad R_Key ahead of ePSN is out of sequence first");
        assertTrue(sink.responses.get(1).isAck(), "a duplicate is not checked further");
        assertTrue(sink.responses.get(2).isAck());
        assertEquals(ResponderQp.State.READY, qp().state());
    }

    @Test
    void shouldCheckLengthsBeforeTheRKey()
    {
        offer(write(RoceOpcode.RC_RDMA_WRITE_ONLY, START, BASE, RKEY + 1, MTU + 4, new byte[MTU + 4], true));

        assertTrue(sink.last().isNak(1), "§3.5: length (4) before R_Key (5)");
        assertEquals(START, sink.last().psn());
    }

    @Test
    void shouldCheckAnAtomicsRKeyAndBoundsBeforeItsAlignment()
    {
        offer(frame(encoder().opcode(RoceOpcode.RC_FETCH_ADD).psn(START).ackReq(true).virtualAddress(BASE + 4)
            .rKey(RKEY + 1).swapAddData(1).noPayload()));

        assertTrue(sink.last().isNak(2), "§3.5: R_Key (5) before the alignment check of execution (6)");
    }

    @Test
    void shouldCompareAndSwapOnLittleEndianMemory()
    {
        memory.putLong(24, 0x1122334455667788L, ByteOrder.LITTLE_ENDIAN);
        offer(frame(encoder().opcode(RoceOpcode.RC_COMPARE_SWAP).psn(START).ackReq(true).virtualAddress(BASE + 24)
            .rKey(RKEY).swapAddData(7).compareData(0x1122334455667789L).noPayload()));
        assertEquals(0x1122334455667788L, memory.getLong(24, ByteOrder.LITTLE_ENDIAN), "no swap when different");
        assertEquals(RoceOpcode.RC_ATOMIC_ACKNOWLEDGE, sink.last().opcode());
        assertEquals(0x1122334455667788L, sink.last().original());

        offer(frame(encoder().opcode(RoceOpcode.RC_COMPARE_SWAP).psn(START + 1).ackReq(false)
            .virtualAddress(BASE + 24).rKey(RKEY).swapAddData(0x0102030405060708L)
            .compareData(0x1122334455667788L).noPayload()));
        assertEquals(2, sink.responses.size(), "atomics are acknowledged without AckReq");
        assertEquals(0x1122334455667788L, sink.last().original());
        assertEquals(START + 1, sink.last().psn());
        assertEquals(2, sink.last().msn());
        final byte[] stored = new byte[8];
        memory.getBytes(24, stored);
        assertArrayEquals(new byte[] { 8, 7, 6, 5, 4, 3, 2, 1 }, stored);
        final byte[] bytes = sink.last().bytes();
        assertArrayEquals(new byte[] { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, (byte)0x88 },
            Arrays.copyOfRange(bytes, bytes.length - 12, bytes.length - 4), "original value big-endian");
    }

    @Test
    void shouldReplayADuplicateCompareSwapWithoutSwappingAgain()
    {
        offer(frame(encoder().opcode(RoceOpcode.RC_COMPARE_SWAP).psn(START).ackReq(true).virtualAddress(BASE)
            .rKey(RKEY).swapAddData(9).compareData(0).noPayload()));
        offer(writeOnly(START + 1, BASE, new byte[8], false));
        offer(frame(encoder().opcode(RoceOpcode.RC_COMPARE_SWAP).psn(START).ackReq(true).virtualAddress(BASE)
            .rKey(RKEY).swapAddData(9).compareData(0).noPayload()));

        assertEquals(2, sink.responses.size());
        assertEquals(RoceOpcode.RC_ATOMIC_ACKNOWLEDGE, sink.last().opcode());
        assertEquals(0, sink.last().original());
        // Chosen (older rxe replays the saved ACK; newer rxe rebuilds it with the current MSN): the saved MSN.
        assertEquals(1, sink.last().msn());
        assertEquals(0, memory.getLong(0), "the later WRITE of zeros stays");
    }

    @Test
    void shouldWrapTheMsnAt24Bits()
    {
        qp().msn = 0xFFFFFF;
        offer(writeOnly(START, BASE, new byte[4], true));

        assertEquals(0, sink.last().msn());
        assertEquals(0, qp().msn());
    }

    @Test
    void shouldNakAFirstInsideAMessage()
    {
        offer(write(RoceOpcode.RC_RDMA_WRITE_FIRST, START, BASE, RKEY, 2 * MTU, new byte[MTU], false));
        offer(write(RoceOpcode.RC_RDMA_WRITE_FIRST, START + 1, BASE, RKEY, 2 * MTU, new byte[MTU], false));

        assertTrue(sink.last().isNak(1));
        assertEquals(START + 1, sink.last().psn());
        assertEquals(ResponderQp.State.ERROR, qp().state());
    }

    @Test
    void shouldNakMultiPacketLengthViolations()
    {
        final byte[][][] cases = {
            // MIDDLE shorter than the MTU
            { write(RoceOpcode.RC_RDMA_WRITE_MIDDLE, START + 1, 0, 0, 0, new byte[MTU - 4], false) },
            // LAST longer than what remains
            { write(RoceOpcode.RC_RDMA_WRITE_MIDDLE, START + 1, 0, 0, 0, new byte[MTU], false),
                write(RoceOpcode.RC_RDMA_WRITE_LAST, START + 2, 0, 0, 0, new byte[12], true) },
            // LAST while more than one MTU remains
            { write(RoceOpcode.RC_RDMA_WRITE_LAST, START + 1, 0, 0, 0, new byte[MTU], true) },
            // MIDDLE carrying the last bytes leaves an empty LAST
            { write(RoceOpcode.RC_RDMA_WRITE_MIDDLE, START + 1, 0, 0, 0, new byte[MTU], false),
                write(RoceOpcode.RC_RDMA_WRITE_MIDDLE, START + 2, 0, 0, 0, new byte[MTU], false) },
        };
        for (final byte[][] tail : cases)
        {
            final SoftResponder fresh = Requests.responder(config, new UnsafeBuffer(new byte[Requests.LENGTH]));
            final Sink s = new Sink();
            Requests.offer(fresh, write(RoceOpcode.RC_RDMA_WRITE_FIRST, START, BASE, RKEY, 2 * MTU + 8,
                new byte[MTU], false), s);
            for (final byte[] f : tail)
            {
                Requests.offer(fresh, f, s);
            }
            assertEquals(1, s.responses.size());
            assertTrue(s.last().isNak(1), "NAK 0x61");
            assertEquals(ResponderQp.State.ERROR, fresh.qp(Requests.COLLECTOR_IP, QPN).state());
        }
    }

    @Test
    void shouldNakAFirstWhoseWholeMessageIsOutOfBounds()
    {
        offer(write(RoceOpcode.RC_RDMA_WRITE_FIRST, START, BASE + Requests.LENGTH - MTU, RKEY, MTU + 4,
            new byte[MTU], false));

        assertTrue(sink.last().isNak(2));
        assertEquals(0, memory.getLong(Requests.LENGTH - MTU));
    }

    @Test
    void shouldResumeAMultiPacketWriteInTheMiddleAfterANak()
    {
        final byte[] data = new byte[2 * MTU + 6];
        for (int i = 0; i < data.length; i++)
        {
            data[i] = (byte)(i * 13 + 1);
        }
        final byte[] first = write(RoceOpcode.RC_RDMA_WRITE_FIRST, START, BASE + 64, RKEY, data.length,
            Arrays.copyOfRange(data, 0, MTU), false);
        final byte[] middle = write(RoceOpcode.RC_RDMA_WRITE_MIDDLE, START + 1, 0, 0, 0,
            Arrays.copyOfRange(data, MTU, 2 * MTU), false);
        final byte[] last = write(RoceOpcode.RC_RDMA_WRITE_LAST, START + 2, 0, 0, 0,
            Arrays.copyOfRange(data, 2 * MTU, data.length), true);

        offer(first);
        offer(last);
        assertTrue(sink.last().isNak(0));
        assertEquals(START + 1, sink.last().psn());
        offer(first);
        assertTrue(sink.last().isAck(), "the duplicate FIRST is re-ACKed, not restarted");
        assertEquals(START, sink.last().psn());
        offer(middle);
        offer(last);

        assertEquals(3, sink.responses.size());
        assertTrue(sink.last().isAck());
        assertEquals(START + 2, sink.last().psn());
        assertEquals(1, sink.last().msn(), "one message");
        final byte[] stored = new byte[data.length];
        memory.getBytes(64, stored);
        assertArrayEquals(data, stored);
        assertFalse(qp().inMessage());
    }

    @Test
    void shouldAckAFirstOrMiddleThatAsksForIt()
    {
        offer(write(RoceOpcode.RC_RDMA_WRITE_FIRST, START, BASE, RKEY, 2 * MTU, new byte[MTU], true));

        assertTrue(sink.last().isAck());
        assertEquals(START, sink.last().psn());
        assertEquals(0, sink.last().msn(), "no message completed yet");
    }

    @Test
    void shouldRnrNakRequestsThatNeedAReceiveWqe()
    {
        offer(frame(encoder().opcode(RoceOpcode.RC_SEND_ONLY).psn(START).ackReq(true)
            .payload(new UnsafeBuffer(new byte[8]), 0, 8)));
        assertEquals(1, sink.responses.size());
        assertEquals(RoceOpcode.RC_ACKNOWLEDGE, sink.last().opcode());
        assertEquals(0x20, sink.last().syndrome(), "RNR NAK, timer code 0 (the IB CM's min_rnr_timer)");
        assertEquals(START, sink.last().psn());
        assertEquals(0, sink.last().msn());
        assertEquals(ResponderQp.State.READY, qp().state(), "RNR is recoverable");
        assertEquals(START, qp().expectedPsn());

        offer(writeOnlyWithImmediate(START, new byte[] { 1, 2, 3, 4, 5, 6, 7, 8 }));
        assertEquals(2, sink.responses.size());
        assertEquals(0x20, sink.last().syndrome());
        assertEquals(0, memory.getLong(0), "not executed");

        offer(writeOnly(START, BASE, new byte[] { 1, 2, 3, 4 }, true));
        assertTrue(sink.last().isAck());
        assertEquals(START, sink.last().psn());
        assertEquals(2, responder.counter(ResponderCounter.RNR_NAKS));
        assertEquals(0, responder.counter(ResponderCounter.INVALID_REQUESTS));
    }

    @Test
    void shouldNakASendContinuationOutsideASendMessage()
    {
        offer(frame(encoder().opcode(RoceOpcode.RC_SEND_LAST).psn(START).ackReq(true)
            .payload(new UnsafeBuffer(new byte[8]), 0, 8)));

        assertTrue(sink.last().isNak(1), "opcode sequence (1) comes before resources (3)");
    }

    @Test
    void shouldNakAReadRequest()
    {
        offer(frame(encoder().opcode(RoceOpcode.RC_RDMA_READ_REQUEST).psn(START).ackReq(true)
            .virtualAddress(BASE).rKey(RKEY).dmaLength(8).noPayload()));

        assertTrue(sink.last().isNak(1), "no REMOTE_READ access");
    }

    @Test
    void shouldDropADuplicateReadRequestForWhichNothingIsSaved()
    {
        offer(writeOnly(START, BASE, new byte[4], false));
        offer(frame(encoder().opcode(RoceOpcode.RC_RDMA_READ_REQUEST).psn(START).ackReq(true)
            .virtualAddress(BASE).rKey(RKEY).dmaLength(8).noPayload()));

        assertEquals(0, sink.responses.size(), "§3.4: a duplicate READ without a saved resource is dropped");
        assertEquals(1, responder.counter(ResponderCounter.DUPLICATES));
    }

    @Test
    void shouldDropABadIpv4HeaderChecksumSilently()
    {
        final byte[] f = writeOnly(START, BASE, new byte[4], true);
        f[14 + 10] ^= 0x01;
        // The IPv4 checksum is masked in the ICRC: the ICRC stays valid.
        offer(f);

        assertEquals(0, sink.responses.size());
        assertEquals(1, responder.counter(ResponderCounter.BAD_CHECKSUM));
        assertEquals(START, qp().expectedPsn());
    }

    @Test
    void shouldDropAWrongNonZeroUdpChecksumAndAcceptACorrectOne()
    {
        final byte[] f = writeOnly(START, BASE, new byte[4], true);
        final UnsafeBuffer b = new UnsafeBuffer(f);
        final int correct = UdpFlyweight.computeIpv4Checksum(b, 14, 34, f.length - 34);
        b.putShort(40, (short)(correct ^ 0x0100), ByteOrder.BIG_ENDIAN);
        offer(f);
        assertEquals(0, sink.responses.size());
        assertEquals(1, responder.counter(ResponderCounter.BAD_CHECKSUM));

        b.putShort(40, (short)correct, ByteOrder.BIG_ENDIAN);
        offer(f);
        assertEquals(1, sink.responses.size());
        assertTrue(sink.last().isAck());
    }

    @Test
    void shouldKeepTheIcrcCheckWhenOnlyAnInvariantFieldChanges()
    {
        final byte[] f = writeOnly(START, BASE, new byte[4], true);
        f[14 + 4] ^= 0x01;
        // Identification is covered by the ICRC; fix the IPv4 checksum so only the ICRC is wrong.
        final UnsafeBuffer b = new UnsafeBuffer(f);
        b.putShort(14 + 10, (short)0, ByteOrder.BIG_ENDIAN);
        int sum = 0;
        for (int i = 14; i < 34; i += 2)
        {
            sum += b.getShort(i, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        while (sum > 0xFFFF)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        b.putShort(14 + 10, (short)~sum, ByteOrder.BIG_ENDIAN);
        offer(f);

        assertEquals(0, sink.responses.size());
        assertEquals(1, responder.counter(ResponderCounter.BAD_ICRC));
    }

    @Test
    void shouldAcceptVariantFieldsChangedInFlight()
    {
        final byte[] f = writeOnly(START, BASE, new byte[4], true);
        final UnsafeBuffer b = new UnsafeBuffer(f);
        // A switch marks CE, decrements the TTL and fixes the IPv4 checksum; FECN set: none is covered by the ICRC.
        f[14 + 1] = (byte)(f[14 + 1] | 0x03);
        f[14 + 8] = (byte)((f[14 + 8] & 0xFF) - 1);
        f[BTH + 4] = (byte)0x80;
        b.putShort(14 + 10, (short)0, ByteOrder.BIG_ENDIAN);
        int sum = 0;
        for (int i = 14; i < 34; i += 2)
        {
            sum += b.getShort(i, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        while (sum > 0xFFFF)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        b.putShort(14 + 10, (short)~sum, ByteOrder.BIG_ENDIAN);
        offer(f);

        assertEquals(1, sink.responses.size());
        assertTrue(sink.last().isAck());
    }

    @Test
    void shouldAnswerWithWellFormedFramesOfEveryKind()
    {
        offer(writeOnly(START, BASE, new byte[5], true));
        offer(fetchAdd(START + 1, BASE + 8, 3));
        offer(fetchAdd(START + 1, BASE + 8, 3));
        offer(writeOnly(START, BASE, new byte[5], false));
        offer(writeOnly(START + 5, BASE, new byte[5], false));
        offer(write(RoceOpcode.RC_RDMA_WRITE_ONLY, START + 2, BASE, RKEY + 1, 4, new byte[4], false));

        assertEquals(6, sink.responses.size());
        assertTrue(sink.last().isNak(2));
    }
}
