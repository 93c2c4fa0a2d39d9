package io.dta.collector.responder;

import io.dta.codec.Icrc;
import io.dta.codec.RoceOpcode;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ApplianceConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;

import static io.dta.collector.responder.Requests.BASE;
import static io.dta.collector.responder.Requests.MTU;
import static io.dta.collector.responder.Requests.PEER_QPN;
import static io.dta.collector.responder.Requests.QPN;
import static io.dta.collector.responder.Requests.RKEY;
import static io.dta.collector.responder.Requests.Sink;
import static io.dta.collector.responder.Requests.encoder;
import static io.dta.collector.responder.Requests.fetchAdd;
import static io.dta.collector.responder.Requests.frame;
import static io.dta.collector.responder.Requests.offer;
import static io.dta.collector.responder.Requests.write;
import static io.dta.collector.responder.Requests.writeOnly;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SoftResponderTest
{
    private static final int START = 0x123456;

    private final ApplianceConfig config = Requests.config(START);
    private final UnsafeBuffer memory = new UnsafeBuffer(new byte[Requests.LENGTH]);
    private final SoftResponder responder = Requests.responder(config, memory);
    private final Sink sink = new Sink();

    private ResponderQp qp()
    {
        return responder.qp(Requests.COLLECTOR_IP, QPN);
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

    private static byte[] fixIcrc(final byte[] frame)
    {
        new Icrc().write(new UnsafeBuffer(frame), 14, frame.length - 4);
        return frame;
    }

    @Test
    void shouldAnswerTheVectorsByteForByte() throws IOException
    {
        memory.putLong(0x100, 5, ByteOrder.LITTLE_ENDIAN);

        offer(responder, vector("rocev2_write_only.pcap"), sink);
        offer(responder, vector("rocev2_fetch_add.pcap"), sink);

        assertEquals(2, sink.responses.size());
        assertArrayEquals(vector("rocev2_ack.pcap"), sink.responses.get(0).bytes());
        assertArrayEquals(vector("rocev2_atomic_ack.pcap"), sink.responses.get(1).bytes());
        final byte[] written = new byte[13];
        memory.getBytes(0x40, written);
        assertEquals("hello, rocev2", new String(written, StandardCharsets.US_ASCII));
        assertEquals(6, memory.getLong(0x100, ByteOrder.LITTLE_ENDIAN));
        assertEquals(2, qp().msn());
        assertEquals(START + 2, qp().expectedPsn());
    }

    @Test
    void shouldNakTheVectorFetchAddOnceWhenTheWriteWasLost() throws IOException
    {
        offer(responder, vector("rocev2_fetch_add.pcap"), sink);
        offer(responder, vector("rocev2_fetch_add.pcap"), sink);

        assertEquals(1, sink.responses.size());
        final Requests.Response nak = sink.last();
        assertTrue(nak.isNak(0), "NAK 0x60");
        assertEquals(START, nak.psn());
        assertEquals(0, nak.msn());
        assertEquals(PEER_QPN, nak.destQp());
        assertTrue(nak.icrcValid());
        assertEquals(1, responder.counter(ResponderCounter.OUT_OF_SEQUENCE_NAKED));
        assertEquals(1, responder.counter(ResponderCounter.OUT_OF_SEQUENCE_DROPPED));
        assertEquals(0, memory.getLong(0x100, ByteOrder.LITTLE_ENDIAN));
    }

    @Test
    void shouldDropAndCountEveryBadHeaderSilently()
    {
        final byte[] badIcrc = writeOnly(START, BASE, new byte[8], true);
        badIcrc[60] ^= 1;
        offer(responder, badIcrc, sink);
        offer(responder, frame(encoder().opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).psn(START).ackReq(true)
            .virtualAddress(BASE).rKey(RKEY).dmaLength(-1).payload(new UnsafeBuffer(new byte[8]), 0, 8)
            .destQp(0x999)), sink);
        offer(responder, frame(encoder().opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).psn(START).ackReq(true)
            .virtualAddress(BASE).rKey(RKEY).dmaLength(-1).payload(new UnsafeBuffer(new byte[8]), 0, 8)
            .srcIp(0x0A000009)), sink);
        offer(responder, frame(encoder().opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).psn(START).ackReq(true)
            .virtualAddress(BASE).rKey(RKEY).dmaLength(-1).payload(new UnsafeBuffer(new byte[8]), 0, 8)
            .dstIp(0x0A000009)), sink);
        offer(responder, frame(encoder().opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).psn(START).ackReq(true)
            .virtualAddress(BASE).rKey(RKEY).dmaLength(-1).payload(new UnsafeBuffer(new byte[8]), 0, 8)
            .pKey(0x8001)), sink);
        offer(responder, frame(encoder().opcode(RoceOpcode.UC_BASE + RoceOpcode.RC_RDMA_WRITE_ONLY).psn(START)
            .ackReq(true).virtualAddress(BASE).rKey(RKEY).dmaLength(-1)
            .payload(new UnsafeBuffer(new byte[8]), 0, 8)), sink);
        offer(responder, frame(encoder().opcode(RoceOpcode.RC_ATOMIC_ACKNOWLEDGE).psn(START).noPayload()), sink);
        // An ACK to a hosted QP is taken for the ACK of a metadata SEND; a static QP has none outstanding.
        offer(responder, frame(encoder().opcode(RoceOpcode.RC_ACKNOWLEDGE).psn(START).noPayload()), sink);
        final byte[] tver = writeOnly(START, BASE, new byte[8], true);
        tver[14 + 20 + 8 + 1] |= 0x01;
        offer(responder, fixIcrc(tver), sink);
        offer(responder, new byte[] { 1, 2, 3 }, sink);

        assertEquals(0, sink.responses.size());
        assertEquals(1, responder.counter(ResponderCounter.BAD_ICRC));
        assertEquals(1, responder.counter(ResponderCounter.UNKNOWN_QPN));
        assertEquals(1, responder.counter(ResponderCounter.BAD_IP_SRC));
        assertEquals(1, responder.counter(ResponderCounter.BAD_IP_DST));
        assertEquals(1, responder.counter(ResponderCounter.BAD_PKEY));
        assertEquals(1, responder.counter(ResponderCounter.NON_RC_OPCODE));
        assertEquals(1, responder.counter(ResponderCounter.UNEXPECTED_OPCODE));
        assertEquals(1, responder.counter(ResponderCounter.STALE_ACKS));
        assertEquals(1, responder.counter(ResponderCounter.BAD_TVER));
        assertEquals(1, responder.counter(ResponderCounter.MALFORMED));
        assertEquals(10, responder.counter(ResponderCounter.FRAMES_IN));
        assertEquals(START, qp().expectedPsn());
        assertEquals(0, memory.getLong(0, ByteOrder.LITTLE_ENDIAN));
    }

    @Test
    void shouldAcceptALimitedMemberPKeyFromTheFullMemberPartition()
    {
        offer(responder, frame(encoder().opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).psn(START).ackReq(true)
            .virtualAddress(BASE).rKey(RKEY).dmaLength(-1).payload(new UnsafeBuffer(new byte[8]), 0, 8)
            .pKey(0x7FFF)), sink);

        assertEquals(1, sink.responses.size());
        assertTrue(sink.last().isAck());
    }

    @Test
    void shouldAckAWriteOnlyWhenAckReqIsSet()
    {
        offer(responder, writeOnly(START, BASE, new byte[] { 1, 2, 3, 4 }, false), sink);
        offer(responder, writeOnly(START + 1, BASE + 8, new byte[] { 5, 6, 7, 8 }, false), sink);
        assertEquals(0, sink.responses.size());
        offer(responder, writeOnly(START + 2, BASE + 16, new byte[] { 9 }, true), sink);

        assertEquals(1, sink.responses.size());
        assertTrue(sink.last().isAck());
        assertEquals(START + 2, sink.last().psn());
        assertEquals(3, sink.last().msn());
        assertEquals(0x04030201, memory.getInt(0, ByteOrder.LITTLE_ENDIAN));
        assertEquals(0x08070605, memory.getInt(8, ByteOrder.LITTLE_ENDIAN));
        assertEquals(9, memory.getByte(16));
    }

    @Test
    void shouldReAckADuplicateWriteWithThePreviousPsnWithoutReExecutingIt()
    {
        offer(responder, writeOnly(START, BASE, new byte[] { 1, 1, 1, 1 }, false), sink);
        offer(responder, writeOnly(START + 1, BASE, new byte[] { 2, 2, 2, 2 }, false), sink);
        offer(responder, writeOnly(START, BASE, new byte[] { 3, 3, 3, 3 }, false), sink);

        assertEquals(1, sink.responses.size());
        assertTrue(sink.last().isAck());
        assertEquals(START + 1, sink.last().psn());
        assertEquals(2, sink.last().msn());
        assertEquals(0x02020202, memory.getInt(0, ByteOrder.LITTLE_ENDIAN));
        assertEquals(1, responder.counter(ResponderCounter.DUPLICATES));
    }

    @Test
    void shouldAnswerAZeroLengthProbeOnADuplicatePsnWithTheExpectedPsnMinusOne()
    {
        offer(responder, writeOnly(START, BASE, new byte[4], false), sink);
        offer(responder, write(RoceOpcode.RC_RDMA_WRITE_ONLY, START - 5, 0, 0, 0, new byte[0], true), sink);

        assertEquals(START, sink.last().psn());
        assertTrue(sink.last().isAck());
    }

    @Test
    void shouldExecuteAZeroLengthWriteWithoutAKeyCheck()
    {
        offer(responder, write(RoceOpcode.RC_RDMA_WRITE_ONLY, START, 0xDEAD, 0x999, 0, new byte[0], true), sink);

        assertTrue(sink.last().isAck());
        assertEquals(START, sink.last().psn());
        assertEquals(1, qp().msn());
        assertEquals(ResponderQp.State.READY, qp().state());
    }

    @Test
    void shouldReplayADuplicateFetchAddFromTheSavedResults()
    {
        memory.putLong(8, 40, ByteOrder.LITTLE_ENDIAN);
        offer(responder, fetchAdd(START, BASE + 8, 2), sink);
        offer(responder, fetchAdd(START + 1, BASE + 8, 3), sink);
        offer(responder, fetchAdd(START, BASE + 8, 2), sink);

        assertEquals(3, sink.responses.size());
        final Requests.Response replay = sink.last();
        assertEquals(RoceOpcode.RC_ATOMIC_ACKNOWLEDGE, replay.opcode());
        assertEquals(START, replay.psn());
        assertEquals(40, replay.original());
        assertEquals(1, replay.msn());
        assertEquals(45, memory.getLong(8, ByteOrder.LITTLE_ENDIAN));
        assertEquals(1, responder.counter(ResponderCounter.DUPLICATE_ATOMICS_REPLAYED));
    }

    @Test
    void shouldDropADuplicateFetchAddWhoseResultIsNoLongerSaved()
    {
        for (int i = 0; i <= ResponderQp.SAVED_ATOMICS; i++)
        {
            offer(responder, fetchAdd(START + i, BASE, 1), sink);
        }
        final int answered = sink.responses.size();
        offer(responder, fetchAdd(START, BASE, 1), sink);
        offer(responder, fetchAdd(START + 1, BASE, 1), sink);

        assertEquals(answered + 1, sink.responses.size());
        assertEquals(START + 1, sink.last().psn());
        assertEquals(1, sink.last().original());
        assertEquals(1, responder.counter(ResponderCounter.DUPLICATE_ATOMICS_DROPPED));
        assertEquals(ResponderQp.SAVED_ATOMICS + 1, memory.getLong(0, ByteOrder.LITTLE_ENDIAN));
    }

    @Test
    void shouldNakOncePerOutOfSequenceEpisode()
    {
        offer(responder, writeOnly(START + 1, BASE, new byte[4], true), sink);
        offer(responder, writeOnly(START + 2, BASE, new byte[4], true), sink);
        offer(responder, writeOnly(START + 3, BASE, new byte[4], true), sink);
        assertEquals(1, sink.responses.size());
        assertTrue(sink.last().isNak(0));
        assertEquals(START, sink.last().psn());
        assertTrue(qp().nakOutstanding());

        offer(responder, writeOnly(START, BASE, new byte[4], false), sink);
        assertEquals(1, sink.responses.size());
        offer(responder, writeOnly(START + 5, BASE, new byte[4], true), sink);

        assertEquals(2, sink.responses.size());
        assertTrue(sink.last().isNak(0));
        assertEquals(START + 1, sink.last().psn());
        assertEquals(1, sink.last().msn());
    }

    @Test
    void shouldWriteAMultiPacketMessageAndCountOneMessage()
    {
        final byte[] data = new byte[MTU * 2 + 10];
        for (int i = 0; i < data.length; i++)
        {
            data[i] = (byte)(i * 7);
        }
        final long va = BASE + 1000;
        offer(responder, write(RoceOpcode.RC_RDMA_WRITE_FIRST, START, va, RKEY, data.length,
            Arrays.copyOfRange(data, 0, MTU), false), sink);
        assertTrue(qp().inMessage());
        offer(responder, write(RoceOpcode.RC_RDMA_WRITE_MIDDLE, START + 1, 0, 0, 0,
            Arrays.copyOfRange(data, MTU, 2 * MTU), false), sink);
        offer(responder, write(RoceOpcode.RC_RDMA_WRITE_LAST, START + 2, 0, 0, 0,
            Arrays.copyOfRange(data, 2 * MTU, data.length), true), sink);

        assertEquals(1, sink.responses.size());
        assertTrue(sink.last().isAck());
        assertEquals(START + 2, sink.last().psn());
        assertEquals(1, sink.last().msn());
        final byte[] stored = new byte[data.length];
        memory.getBytes(1000, stored);
        assertArrayEquals(data, stored);
        assertEquals(3, responder.counter(ResponderCounter.WRITE_PACKETS));
    }

    @Test
    void shouldNakAMiddleWithoutAFirstAndThenDropEverything()
    {
        offer(responder, write(RoceOpcode.RC_RDMA_WRITE_MIDDLE, START, 0, 0, 0, new byte[MTU], true), sink);

        assertTrue(sink.last().isNak(1));
        assertEquals(START, sink.last().psn());
        assertEquals(ResponderQp.State.ERROR, qp().state());

        offer(responder, writeOnly(START, BASE, new byte[4], true), sink);
        offer(responder, writeOnly(START + 1, BASE, new byte[4], true), sink);
        assertEquals(1, sink.responses.size());
        assertEquals(2, responder.counter(ResponderCounter.QP_ERROR_DROPS));
        assertEquals(0, memory.getInt(0));
    }

    @Test
    void shouldNakANewMessageInsideAMessage()
    {
        offer(responder, write(RoceOpcode.RC_RDMA_WRITE_FIRST, START, BASE, RKEY, 2 * MTU, new byte[MTU], false),
            sink);
        offer(responder, writeOnly(START + 1, BASE, new byte[4], true), sink);

        assertTrue(sink.last().isNak(1));
        assertEquals(START + 1, sink.last().psn());
        assertEquals(1, responder.counter(ResponderCounter.INVALID_REQUESTS));
    }

    @Test
    void shouldNakLengthViolations()
    {
        for (final byte[] bad : new byte[][] {
            write(RoceOpcode.RC_RDMA_WRITE_ONLY, START, BASE, RKEY, MTU + 4, new byte[MTU + 4], true),
            write(RoceOpcode.RC_RDMA_WRITE_FIRST, START, BASE, RKEY, 3 * MTU, new byte[MTU - 4], true),
            write(RoceOpcode.RC_RDMA_WRITE_ONLY, START, BASE, RKEY, 16, new byte[12], true),
            write(RoceOpcode.RC_RDMA_WRITE_ONLY, START, BASE, RKEY, 0x8000_0001L, new byte[12], true) })
        {
            final SoftResponder fresh = Requests.responder(config, memory);
            final Sink s = new Sink();
            offer(fresh, bad, s);
            assertEquals(1, s.responses.size());
            assertTrue(s.last().isNak(1), "NAK 0x61");
            assertEquals(ResponderQp.State.ERROR, fresh.qp(Requests.COLLECTOR_IP, QPN).state());
        }
    }

    @Test
    void shouldNakAWrongPadCount()
    {
        final byte[] frame = writeOnly(START, BASE, new byte[6], true);
        // Payload 6 needs PadCnt 2; claim 3 so the payload reads as 5 bytes.
        frame[14 + 20 + 8 + 1] = (byte)((frame[14 + 20 + 8 + 1] & 0xCF) | 0x30);
        offer(responder, fixIcrc(frame), sink);

        assertTrue(sink.last().isNak(1));
    }

    @Test
    void shouldNakABadRKeyOrOutOfBoundsAccessAndEnterTheErrorState()
    {
        for (final byte[] bad : new byte[][] {
            write(RoceOpcode.RC_RDMA_WRITE_ONLY, START, BASE, RKEY + 1, 4, new byte[4], false),
            write(RoceOpcode.RC_RDMA_WRITE_ONLY, START, BASE + Requests.LENGTH - 2, RKEY, 4, new byte[4], false),
            write(RoceOpcode.RC_RDMA_WRITE_ONLY, START, BASE - 4, RKEY, 4, new byte[4], false),
            frame(encoder().opcode(RoceOpcode.RC_FETCH_ADD).psn(START).virtualAddress(BASE + Requests.LENGTH)
                .rKey(RKEY).swapAddData(1).noPayload()) })
        {
            final SoftResponder fresh = Requests.responder(config, memory);
            final Sink s = new Sink();
            offer(fresh, bad, s);
            assertEquals(1, s.responses.size());
            assertTrue(s.last().isNak(2), "NAK 0x62");
            assertEquals(START, s.last().psn());
            assertEquals(ResponderQp.State.ERROR, fresh.qp(Requests.COLLECTOR_IP, QPN).state());
            assertEquals(1, fresh.counter(ResponderCounter.REMOTE_ACCESS_ERRORS));
        }
        assertEquals(0, memory.getLong(0));
    }

    @Test
    void shouldNakAMisalignedAtomic()
    {
        offer(responder, fetchAdd(START, BASE + 4, 1), sink);

        assertTrue(sink.last().isNak(1));
        assertEquals(0, memory.getLong(0));
    }

    @Test
    void shouldExecuteFetchAddOnLittleEndianMemoryAndReturnTheOriginalBigEndian()
    {
        memory.putLong(16, 0xFFFF_FFFF_FFFF_FFFFL, ByteOrder.LITTLE_ENDIAN);
        offer(responder, fetchAdd(START, BASE + 16, 2), sink);

        assertEquals(1, memory.getLong(16, ByteOrder.LITTLE_ENDIAN));
        assertEquals(-1L, sink.last().original());
        final byte[] bytes = sink.last().bytes();
        assertEquals((byte)0xFF, bytes[bytes.length - 5]);
    }

    @Test
    void shouldWrapThePsnAt24Bits()
    {
        final ApplianceConfig wrapping = Requests.config(0xFFFFFF);
        final SoftResponder r = Requests.responder(wrapping, memory);
        offer(r, writeOnly(0xFFFFFF, BASE, new byte[4], false), sink);
        offer(r, writeOnly(0, BASE, new byte[4], true), sink);

        assertEquals(0, sink.last().psn());
        assertTrue(sink.last().isAck());
        assertEquals(1, r.qp(Requests.COLLECTOR_IP, QPN).expectedPsn());
        offer(r, writeOnly(0xFFFFFF, BASE, new byte[4], true), sink);
        assertEquals(0, sink.last().psn(), "duplicate across the wrap re-ACKs ePSN - 1");
    }

    @Test
    void shouldAnswerFromTheCollectorToTheTranslator()
    {
        offer(responder, writeOnly(START, BASE, new byte[4], true), sink);
        final UnsafeBuffer ack = new UnsafeBuffer(sink.last().bytes());

        assertEquals(Requests.TRANSLATOR_MAC, readMac(ack, 0));
        assertEquals(Requests.COLLECTOR_MAC, readMac(ack, 6));
        assertEquals(Requests.COLLECTOR_IP, ack.getInt(26, ByteOrder.BIG_ENDIAN));
        assertEquals(Requests.TRANSLATOR_IP, ack.getInt(30, ByteOrder.BIG_ENDIAN));
        assertEquals(SoftResponder.RESPONSE_SOURCE_PORT, ack.getShort(34, ByteOrder.BIG_ENDIAN) & 0xFFFF);
        assertEquals(4791, ack.getShort(36, ByteOrder.BIG_ENDIAN) & 0xFFFF);
        assertEquals(0x40, ack.getByte(43) & 0x40, "MigReq");
        assertEquals(PEER_QPN, sink.last().destQp());
        assertTrue(sink.last().icrcValid());
    }

    private static long readMac(final UnsafeBuffer b, final int offset)
    {
        return ((long)(b.getShort(offset, ByteOrder.BIG_ENDIAN) & 0xFFFF) << 32) |
            (b.getInt(offset + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL);
    }

    @Test
    void shouldNotAllocatePerFrame()
    {
        final int rounds = 200;
        final int perRound = 64;
        final UnsafeBuffer[] buffers = new UnsafeBuffer[rounds * perRound];
        for (int i = 0; i < buffers.length; i++)
        {
            final long va = BASE + 8L * (i % 256);
            buffers[i] = new UnsafeBuffer(i % 2 == 0 ? writeOnly(START + i, va, new byte[8], i % 4 == 0) :
                fetchAdd(START + i, va, 1));
        }
        final ResponseSink discard = (b, o, l) -> { };
        final com.sun.management.ThreadMXBean bean =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        long allocated = 0;
        for (int round = 0; round < rounds; round++)
        {
            final long before = bean.getCurrentThreadAllocatedBytes();
            for (int i = round * perRound; i < (round + 1) * perRound; i++)
            {
                responder.onFrame(buffers[i], 0, buffers[i].capacity(), 0, discard);
                // A duplicate of the previous frame: the re-ACK and replay paths too.
                if (i > 0)
                {
                    responder.onFrame(buffers[i - 1], 0, buffers[i - 1].capacity(), 0, discard);
                }
            }
            final long after = bean.getCurrentThreadAllocatedBytes();
            if (round >= rounds / 2)
            {
                allocated += after - before;
            }
        }
        assertEquals(rounds * perRound, responder.counter(ResponderCounter.WRITE_PACKETS) +
            responder.counter(ResponderCounter.ATOMICS));
        // One allocation per frame would be at least 16 B x 12 800 frames; allow a little JIT/runtime noise.
        assertTrue(allocated < 1024, "bytes allocated in the last 100 rounds of 128 frames: " + allocated);
    }
}
