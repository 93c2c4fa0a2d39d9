package io.dta.appliance.engine;

import io.dta.appliance.replay.Replay;
import io.dta.codec.DtaOpcode;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.codec.UdpFlyweight;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rules of translation.md §4–§7 (frames out, responses and resynchronisation, essential reports, reporter sequence
 * tracking) that no other engine test could fail on, each checked from the text of the specification with plain
 * byte arithmetic; docs/engine.md "Spec audit (§4–§7)" maps every rule to its test.
 */
class PsnSpecAuditTest
{
    private static byte[] essentialKw(final int key)
    {
        return report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 0, 0x20, keyWrite(1, key, new byte[4]));
    }

    private static long slotVa(final int key)
    {
        return KW_BASE + (slotHash(key, 0) & 255) * 8;
    }

    /**
     * §5/§6: a grace period by packets only (resync.graceMicros 0) on a QP that carries essential reports alone
     * must end: the essential operations offered during it are its packets. Counting only refused ones kept the QP
     * in its grace period for ever and filled the essential ring until it dropped what §6 says must arrive.
     */
    @Test
    void shouldEndAPacketCountedGraceOnEssentialTrafficAlone()
    {
        final Cfg cfg = new Cfg();
        cfg.graceMicros = 0;
        cfg.gracePackets = 3;
        final EngineHarness h = new EngineHarness(cfg);
        for (int key = 0; key < 4; key++)
        {
            h.feed(essentialKw(key));
        }
        assertEquals(List.of(0x100, 0x101, 0x102, 0x103), h.settle().stream().map(Request::psn).toList());
        h.feed(nak(KW_QPN, 0x60, 0x102));
        h.feed(essentialKw(10));
        h.feed(essentialKw(11));
        assertEquals(QueuePairSender.State.GRACE, h.sender(KW_QPN).state(), "two packets of three");
        h.feed(essentialKw(12));
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state(), "the third ends the grace period");
        final List<Request> after = h.settle();
        assertEquals(List.of(0x102, 0x103, 0x104, 0x105, 0x106), after.stream().map(Request::psn).toList());
        assertEquals(List.of(slotVa(2), slotVa(3), slotVa(10), slotVa(11), slotVa(12)),
            after.stream().map(Request::va).toList(), "the unexecuted ones again, then the new ones, in order");
        assertEquals(0, h.count(EngineCounter.DROP_GRACE_PERIOD));
        assertEquals(0, h.count(EngineCounter.DROP_BACKLOG_FULL));
    }

    @Test
    void shouldCountAnEssentialReportRefusedForAFullRingAsAPacketOfTheGracePeriod()
    {
        final Cfg cfg = new Cfg();
        cfg.graceMicros = 0;
        cfg.gracePackets = 3;
        cfg.backlog = 2;
        final EngineHarness h = new EngineHarness(cfg);
        h.feed(kw(0));
        h.feed(kw(1));
        h.settle();
        h.feed(nak(KW_QPN, 0x60, 0x101));
        h.feed(essentialKw(10));
        h.feed(essentialKw(11));
        assertEquals(QueuePairSender.State.GRACE, h.sender(KW_QPN).state(), "two packets of three");
        h.feed(essentialKw(12));
        assertEquals(1, h.count(EngineCounter.DROP_BACKLOG_FULL), "the ring holds two");
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state(),
            "offered to the QP, so the third packet of the grace period, refused or not");
        h.feed(kw(13));
        assertEquals(0, h.count(EngineCounter.DROP_GRACE_PERIOD), "after the grace period");
        assertEquals(List.of(slotVa(10), slotVa(11), slotVa(13)), h.settle().stream().map(Request::va).toList());
    }

    /**
     * §6 in a replay: essential reports that arrive while an RNR NAK's timer pauses the QP are "translated as soon as
     * the QP is healthy again", also when the capture ends before the pause does. They went nowhere before: the replay
     * flushed at the last frame's time, with the QP still paused. (After a NAK 0x60 they go at once: only
     * non-essential reports wait for the grace period.)
     */
    @Test
    void shouldSendWhatAGracePeriodKeptWhenTheReplayedCaptureEndsDuringIt(@TempDir final Path dir) throws IOException
    {
        final Path reports = dir.resolve("reports.pcap");
        final Path responses = dir.resolve("responses.pcap");
        final Path output = dir.resolve("out.pcap");
        final long t0 = 1_000_000_000L;
        try (PcapWriter w = new PcapWriter(reports, true))
        {
            for (int key = 0; key < 4; key++)
            {
                write(w, t0 + key * 1_000L, essentialKw(key));
            }
            write(w, t0 + 200_000L, essentialKw(10));
            write(w, t0 + 201_000L, kw(11));
        }
        try (PcapWriter w = new PcapWriter(responses, true))
        {
            // RNR NAK, timer code 14: 1.28 ms.
            write(w, t0 + 100_000L, nak(KW_QPN, 0x20 | 14, 0x102));
        }
        final TranslatorEngine engine = Replay.run(ConfigLoader.load(new Cfg().yaml()), reports, responses, output);

        final List<long[]> out = new ArrayList<>();
        try (PcapReader r = PcapReader.open(output))
        {
            while (r.next())
            {
                final byte[] f = new byte[r.capturedLength()];
                r.buffer().getBytes(r.offset(), f);
                final Request q = parseRequest(f);
                out.add(new long[] {r.timestampNanos(), q.psn(), q.va()});
            }
        }
        assertEquals(7, out.size());
        assertEquals(List.of(0x100L, 0x101L, 0x102L, 0x103L, 0x102L, 0x103L, 0x104L),
            out.stream().map(f -> f[1]).toList());
        assertEquals(List.of(slotVa(2), slotVa(3), slotVa(10)), out.subList(4, 7).stream().map(f -> f[2]).toList());
        assertEquals(t0 + 100_000L + 1_280_000L, out.get(4)[0], "sent when the 1.28 ms RNR timer ends");
        assertEquals(1, engine.counters().get(EngineCounter.DROP_GRACE_PERIOD), "the non-essential report");
        assertEquals(QueuePairSender.State.ACTIVE, engine.sender(KW_QPN).state());
    }

    private static byte[] kw(final int key)
    {
        return report(DtaOpcode.KEY_WRITE, keyWrite(1, key, new byte[4]));
    }

    private static void write(final PcapWriter w, final long t, final byte[] frame) throws IOException
    {
        w.write(t, new UnsafeBuffer(frame), 0, frame.length);
    }

    private static void sendKw(final EngineHarness h, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            h.feed(kw(i));
            h.now += 1000;
        }
    }

    /**
     * §5 with rocev2-reference.md §3.6/§3.9: an RNR NAK for PSN p says the responder executed everything before p
     * and wants p again after its timer. Out of the window it is dropped like any response; in the window the QP
     * resynchronises to p and sends nothing new before the timer (here code 14, 1.28 ms, longer than the 1 ms grace
     * period). It was counted and ignored: the QP went on past p, every frame a sequence error for the responder.
     */
    @Test
    void shouldResynchroniseOnAnRnrNakAfterItsTimer()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        sendKw(h, 5);
        h.settle();
        h.feed(nak(KW_QPN, 0x20 | 14, 0x0F0));
        h.feed(nak(KW_QPN, 0x20 | 14, 0x106));
        assertEquals(2, h.count(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW));
        assertEquals(0, h.count(EngineCounter.NAK_RNR_IN));
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state());

        h.feed(nak(KW_QPN, 0x20 | 14, 0x102));
        assertEquals(1, h.count(EngineCounter.NAK_RNR_IN));
        assertEquals(QueuePairSender.State.GRACE, h.sender(KW_QPN).state());
        assertEquals(0x102, h.sender(KW_QPN).nextPsn());
        assertEquals(0x101, h.sender(KW_QPN).lastAckedPsn(), "an RNR NAK acknowledges everything before it");
        h.advance(1_100_000);
        h.feed(kw(20));
        assertEquals(1, h.count(EngineCounter.DROP_GRACE_PERIOD), "1.28 ms timer: still waiting after 1.1 ms");
        h.advance(180_000);
        h.feed(kw(21));
        final List<Request> after = h.settle().stream().filter(r -> r.destQp() == KW_REMOTE).toList();
        assertEquals(List.of(0x102), after.stream().map(Request::psn).toList());
        assertEquals(slotVa(21), after.get(0).va());

        // No grace period configured: the timer alone pauses the QP (code 1, 0.01 ms).
        final Cfg cfg = new Cfg();
        cfg.graceMicros = 0;
        final EngineHarness g = new EngineHarness(cfg);
        sendKw(g, 3);
        g.settle();
        g.feed(nak(KW_QPN, 0x21, 0x101));
        g.feed(kw(30));
        assertEquals(1, g.count(EngineCounter.DROP_GRACE_PERIOD));
        g.advance(10_000);
        g.feed(kw(31));
        assertEquals(List.of(0x101), g.settle().stream().filter(r -> r.destQp() == KW_REMOTE).map(Request::psn)
            .toList());
    }

    /**
     * A grace period of both kinds whose packet count is reached during an RNR NAK's pause ends with the pause, and
     * says so to the replay's clock ({@code graceEndNanos}, {@code nextTimerNanos}): it reported the time limit, so a
     * replay ({@code TranslatorEngine.advanceTo}) and {@code finish} ended it 100 ms late.
     */
    @Test
    void shouldEndAGraceWhosePacketsRanOutWhenTheRnrPauseEnds()
    {
        final Cfg cfg = new Cfg();
        cfg.graceMicros = 100_000;
        cfg.gracePackets = 2;
        final EngineHarness h = new EngineHarness(cfg);
        sendKw(h, 3);
        h.settle();
        h.feed(nak(KW_QPN, 0x20 | 14, 0x101));
        final long pauseEnd = h.now + 1_280_000;
        h.feed(kw(40));
        h.feed(kw(41));
        assertEquals(2, h.count(EngineCounter.DROP_GRACE_PERIOD));
        final QueuePairSender qp = h.sender(KW_QPN);
        assertEquals(QueuePairSender.State.GRACE, qp.state(), "the RNR timer still runs");
        assertEquals(pauseEnd, qp.graceEndNanos());
        assertEquals(pauseEnd, qp.nextTimerNanos(Long.MAX_VALUE));
        h.engine.pollNow(pauseEnd);
        assertEquals(QueuePairSender.State.ACTIVE, qp.state());
    }

    /**
     * §5 with rocev2-reference.md §3.6: the ACK type is bits 6..5 of the syndrome, its low 5 bits a credit count
     * (0x1F none) that WRITE and atomic requesters ignore, so every credit code acknowledges; bit 7 is reserved, and
     * a syndrome with it set is no ACK, NAK or RNR NAK whatever its type bits (dropped and counted, the QP unmoved).
     */
    @Test
    void shouldAcknowledgeWithAnyCreditCodeAndDropSyndromesWithTheReservedBit()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        sendKw(h, 40);
        h.settle();
        for (int credit = 0; credit <= 0x1F; credit++)
        {
            h.feed(response(COLLECTOR_A, KW_QPN, 0x11, credit, 0x100 + credit));
            assertEquals(0x100 + credit, h.sender(KW_QPN).lastAckedPsn(), "credit code " + credit);
        }
        assertEquals(32, h.count(EngineCounter.ACKS_IN));
        for (final int syndrome : new int[] {0x80, 0x9F, 0xA5, 0xE0})
        {
            h.feed(response(COLLECTOR_A, KW_QPN, 0x11, syndrome, 0x125));
        }
        h.feed(response(COLLECTOR_A, KW_QPN, 0x12, 0x9F, 0x125));
        assertEquals(5, h.count(EngineCounter.RESPONSE_DROP_RESERVED_SYNDROME));
        assertEquals(32, h.count(EngineCounter.ACKS_IN));
        assertEquals(0, h.count(EngineCounter.ATOMIC_ACKS_IN) + h.count(EngineCounter.NAK_RNR_IN) +
            h.count(EngineCounter.NAK_SEQUENCE_ERRORS_IN) + h.count(EngineCounter.NAK_FATAL_IN));
        assertEquals(0x11F, h.sender(KW_QPN).lastAckedPsn());
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state());
        assertEquals(0x128, h.sender(KW_QPN).nextPsn());
    }

    // ------------------------------------------------------------------ §4 WRITE First/Middle/Last

    private static final int SEG_LOCAL_QPN = 0x777;
    private static final int SEG_REMOTE_QPN = 0x123456;
    private static final int SEG_RKEY = 0xCAFEF00D;
    private static final long SEG_BASE = 0x7f00_0000_0000L;

    private static final class Segmenting
    {
        final FrameCollector out = new FrameCollector();
        final EngineCounters counters = new EngineCounters();
        final QueuePairSender sender;
        final int mtu;
        long now = 1_000_000;

        Segmenting(final int mtu, final int startPsn, final int requestInterval)
        {
            this.mtu = mtu;
            final QpPath path = new QpPath("test/seg", COLLECTOR_MAC, COLLECTOR_A, 0xC000 | (SEG_LOCAL_QPN & 0x3FFF),
                SEG_LOCAL_QPN, SEG_REMOTE_QPN, SEG_RKEY, SEG_BASE, 1 << 20, startPsn, mtu);
            final RoceFrameBuilder builder =
                new RoceFrameBuilder(APPLIANCE_MAC, APPLIANCE_IP, (26 << 2) | 2, 64, 0xFFFF, path);
            sender = new QueuePairSender(builder, out, counters,
                new SenderSettings(requestInterval, 500_000, 1_000_000, 0, 20_000, 16, 8, 64, 0), 4096);
        }

        void write(final long address, final byte[] payload, final boolean essential)
        {
            assertTrue(sender.admit(essential, 1, now));
            assertTrue(sender.write(address, new UnsafeBuffer(payload), 0, payload.length, essential, 1, now));
        }

        List<byte[]> settle()
        {
            now += 20_000;
            sender.poll(now);
            return out.drain().stream().map(FrameCollector.Frame::bytes).toList();
        }

        void response(final int syndrome, final int psn)
        {
            final byte[] f = TestFrames.response(COLLECTOR_A, SEG_LOCAL_QPN, 0x11, syndrome, psn);
            if (0x60 == syndrome)
            {
                sender.onNak(syndrome, psn, now);
            }
            else
            {
                sender.onAck(psn, now);
            }
            assertEquals(0x11, f[42]);
        }
    }

    private static byte[] expectedWrite(
        final int opcode, final int psn, final boolean ackReq, final long va, final int dmaLength, final byte[] data)
    {
        return TestFrames.write((26 << 2) | 2, SEG_LOCAL_QPN, SEG_REMOTE_QPN, SEG_RKEY, opcode, psn, ackReq, va,
            dmaLength, data);
    }

    private static byte[] slice(final byte[] data, final int from, final int to)
    {
        return java.util.Arrays.copyOfRange(data, from, Math.min(to, data.length));
    }

    private static String hex(final byte[] b)
    {
        return HexFormat.of().formatHex(b);
    }

    /**
     * §4: a payload longer than the path MTU goes out as WRITE First (RETH: start address, the whole length; exactly
     * one MTU), Middles (no RETH, exactly one MTU) and a Last (no RETH, the rest, PadCnt), on consecutive PSNs that
     * wrap at 2^24; AckReq on every n-th packet and on the last before idle. Seeded random lengths and PSNs, every
     * byte of every frame. Before, every WRITE was a WRITE Only whatever its length.
     */
    @Test
    void shouldSplitAWriteLongerThanThePathMtuIntoFirstMiddlesAndLast()
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 200; round++)
        {
            final int mtu = 256 << random.nextInt(3);
            final int startPsn = random.nextBoolean() ? 0xFFFFFF - random.nextInt(4) : random.nextInt(1 << 24);
            final int interval = 1 + random.nextInt(4);
            final int length = 1 + random.nextInt(4 * mtu);
            final byte[] data = new byte[length];
            random.nextBytes(data);
            final long va = SEG_BASE + random.nextInt(1 << 19);
            final Segmenting s = new Segmenting(mtu, startPsn, interval);
            s.write(va, data, random.nextBoolean());
            final List<byte[]> frames = s.settle();
            final String ctx = "seed " + seed + " round " + round + " mtu " + mtu + " length " + length;
            final int packets = (length + mtu - 1) / mtu;
            assertEquals(packets, frames.size(), ctx);
            for (int i = 0; i < packets; i++)
            {
                final int opcode = 1 == packets ? 0x0A : 0 == i ? 0x06 : i == packets - 1 ? 0x08 : 0x07;
                final int psn = (startPsn + i) & 0xFFFFFF;
                final boolean ackReq = (i + 1) % interval == 0 || i == packets - 1;
                final byte[] expected =
                    expectedWrite(opcode, psn, ackReq, va, length, slice(data, i * mtu, (i + 1) * mtu));
                assertEquals(hex(expected), hex(frames.get(i)), ctx + " packet " + i);
            }
        }
    }

    /**
     * §5 with rocev2-reference.md §3.5/§3.9: a NAK 0x60 into the middle of a multi-packet WRITE means the responder
     * executed its first packets and keeps the message open: anything but its next Middle or Last is an Invalid
     * Request (fatal). So the QP resumes that message at the NAK's PSN with the same packets, then re-sends what
     * followed; a NAK at the message's First re-sends it whole; a NAK after its Last acknowledges it.
     */
    @Test
    void shouldResumeAMultiPacketWriteAtTheNakPsnAndNotRestartIt()
    {
        final byte[] big = new byte[600];
        new SplittableRandom(7).nextBytes(big);
        final byte[] small = new byte[100];
        java.util.Arrays.fill(small, (byte)0x5A);
        final long va = SEG_BASE + 0x1000;
        final long va2 = SEG_BASE + 0x2000;
        final byte[] first = expectedWrite(0x06, 0x100, false, va, 600, slice(big, 0, 256));
        final byte[] middle = expectedWrite(0x07, 0x101, false, va, 600, slice(big, 256, 512));
        final byte[] last = expectedWrite(0x08, 0x102, false, va, 600, slice(big, 512, 600));
        final byte[] only = expectedWrite(0x0A, 0x103, true, va2, 100, small);

        for (final int nakPsn : new int[] {0x101, 0x102, 0x100, 0x103})
        {
            final Segmenting s = new Segmenting(256, 0x100, 64);
            s.write(va, big, false);
            s.write(va2, small, true);
            assertEquals(List.of(hex(first), hex(middle), hex(last), hex(only)),
                s.settle().stream().map(PsnSpecAuditTest::hex).toList());
            s.response(0x60, nakPsn);
            assertEquals(QueuePairSender.State.GRACE, s.sender.state());
            s.now += 1_000_000;
            s.sender.poll(s.now);
            final List<String> expected = switch (nakPsn)
            {
                case 0x101 -> List.of(hex(middle), hex(last), hex(only));
                case 0x102 -> List.of(hex(last), hex(only));
                case 0x100 -> List.of(hex(first), hex(middle), hex(last), hex(only));
                default -> List.of(hex(only));
            };
            assertEquals(expected, s.settle().stream().map(PsnSpecAuditTest::hex).toList(), "NAK at " + nakPsn);
            s.response(0x1F, 0x103);
            assertEquals(0, s.sender.essentialBacklog(), "NAK at " + nakPsn);
            assertEquals(2, s.counters.get(EngineCounter.REPORTS_DELIVERED), "NAK at " + nakPsn);
            assertEquals(0x104, s.sender.nextPsn());
        }
    }

    /**
     * §4 and rocev2-reference.md §1.5/§2: a FETCH_ADD is 86 bytes: BTH opcode 0x14 with M = 1 and no pad, AtomicETH
     * (VA, R_Key, add, compare 0, big-endian), ICRC; AckReq on every n-th packet and on the last before idle; PSNs
     * consecutive across the 2^24 wrap. Seeded random VAs, addends and PSNs, every byte, the ICRC computed from the
     * spec (the builder patches it from precomputed registers).
     */
    @Test
    void shouldBuildEveryFetchAddByteAsTheSpecSays()
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 300; round++)
        {
            final int startPsn = random.nextBoolean() ? 0xFFFFFF - random.nextInt(3) : random.nextInt(1 << 24);
            final int interval = 1 + random.nextInt(3);
            final int count = 1 + random.nextInt(4);
            final Segmenting s = new Segmenting(1024, startPsn, interval);
            final long[] va = new long[count];
            final long[] add = new long[count];
            for (int i = 0; i < count; i++)
            {
                va[i] = random.nextLong() & ~7L;
                add[i] = random.nextLong();
                assertTrue(s.sender.admit(false, 1, s.now));
                assertTrue(s.sender.fetchAdd(va[i], add[i], random.nextBoolean(), 1, s.now));
            }
            final List<byte[]> frames = s.settle();
            final String ctx = "seed " + seed + " round " + round;
            assertEquals(count, frames.size(), ctx);
            for (int i = 0; i < count; i++)
            {
                final int psn = (startPsn + i) & 0xFFFFFF;
                final boolean ackReq = (i + 1) % interval == 0 || i == count - 1;
                final ByteBuffer e = ByteBuffer.allocate(86).order(ByteOrder.BIG_ENDIAN);
                e.putShort((short)(COLLECTOR_MAC >>> 32)).putInt((int)COLLECTOR_MAC);
                e.putShort((short)(APPLIANCE_MAC >>> 32)).putInt((int)APPLIANCE_MAC).putShort((short)0x0800);
                e.put((byte)0x45).put((byte)0x6A).putShort((short)72).putShort((short)(psn & 0xFFFF))
                    .putShort((short)0x4000).put((byte)64).put((byte)17).putShort((short)0).putInt(APPLIANCE_IP)
                    .putInt(COLLECTOR_A);
                e.putShort(24, (short)ipChecksum(e.array(), 14));
                e.putShort((short)(0xC000 | (SEG_LOCAL_QPN & 0x3FFF))).putShort((short)4791).putShort((short)52)
                    .putShort((short)0);
                e.put((byte)0x14).put((byte)0x40).putShort((short)0xFFFF).putInt(SEG_REMOTE_QPN)
                    .putInt((ackReq ? 0x8000_0000 : 0) | psn);
                e.putLong(va[i]).putInt(SEG_RKEY).putLong(add[i]).putLong(0);
                TestFrames.putIcrc(e);
                assertEquals(hex(e.array()), hex(frames.get(i)), ctx + " packet " + i);
            }
        }
    }

    /**
     * §5: what an ACK for an older PSN means (stale: dropped, counted, the QP unmoved), what a duplicate ACK means
     * (the responder's expected PSN − 1 again: accepted, no effect), and that only ACKNOWLEDGE and ATOMIC ACKNOWLEDGE
     * are responses: a request opcode from the collector's address, even with a valid ICRC, is dropped and counted.
     */
    @Test
    void shouldDropStaleAndUnexpectedResponsesAndTakeDuplicateAcks()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        sendKw(h, 5);
        h.settle();
        h.feed(ack(KW_QPN, 0x103));
        assertEquals(0x103, h.sender(KW_QPN).lastAckedPsn());
        h.feed(ack(KW_QPN, 0x101));
        assertEquals(1, h.count(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW), "older than the last acknowledged");
        assertEquals(0x103, h.sender(KW_QPN).lastAckedPsn());
        h.feed(ack(KW_QPN, 0x103));
        assertEquals(2, h.count(EngineCounter.ACKS_IN), "a duplicate ACK is a valid answer");
        h.feed(nak(KW_QPN, 0x60, 0x103));
        assertEquals(2, h.count(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW), "a NAK for an acknowledged PSN is stale");
        h.feed(atomicAck(KW_QPN, 0x104).clone());
        assertEquals(1, h.count(EngineCounter.ATOMIC_ACKS_IN), "an ATOMIC ACK acknowledges like an ACK");
        assertEquals(0x104, h.sender(KW_QPN).lastAckedPsn());

        for (final int opcode : new int[] {RoceOpcode.RC_RDMA_WRITE_ONLY, RoceOpcode.RC_FETCH_ADD})
        {
            final RoceFrameEncoder enc = new RoceFrameEncoder()
                .srcMac(0x02000a000033L).dstMac(0x02000a000065L).srcIp(COLLECTOR_A).dstIp(APPLIANCE_IP).srcPort(50000)
                .dstPort(4791).opcode(opcode).destQp(KW_QPN).psn(0x104).pKey(0xFFFF).syndrome(0x1F).msn(1)
                .virtualAddress(KW_BASE).rKey(0x1234).dmaLength(0).swapAddData(1).compareData(0).noPayload();
            final UnsafeBuffer buf = new UnsafeBuffer(new byte[256]);
            final int length = enc.encode(buf, 0);
            h.feed(java.util.Arrays.copyOf(buf.byteArray(), length));
        }
        assertEquals(2, h.count(EngineCounter.RESPONSE_DROP_UNEXPECTED_OPCODE));
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state());
        assertEquals(0x105, h.sender(KW_QPN).nextPsn());
        h.feed(kw(40));
        assertEquals(List.of(0x105), h.settle().stream().map(Request::psn).toList());
    }

    /**
     * §7: the seqnum is 8 bits, so 255 is followed by 0; the table keeps every reporter it took in, and a reporter
     * it has no room for is dropped and counted (never tracked in a slot of another reporter).
     */
    @Test
    void shouldWrapSeqnumsAndRefuseANewReporterWhenTheTableIsFull()
    {
        final ReporterSequenceTracker t = new ReporterSequenceTracker(16, 0);
        for (int r = 0; r < 12; r++)
        {
            assertEquals(ReporterSequenceTracker.IN_ORDER, t.track(0x0A000000 + r, 254, 0));
        }
        assertEquals(ReporterSequenceTracker.TABLE_FULL, t.track(0x0B000000, 1, 0));
        for (int r = 0; r < 12; r++)
        {
            assertEquals(ReporterSequenceTracker.IN_ORDER, t.track(0x0A000000 + r, 255, 0));
            assertEquals(ReporterSequenceTracker.IN_ORDER, t.track(0x0A000000 + r, 0, 0), "255 then 0");
            assertEquals(0, t.track(0x0A000000 + r, 2, 0), "a gap NACKs the last in-order seqnum, 0");
        }
        assertEquals(12, t.size());
    }

    /**
     * §5 with rocev2-reference.md §2.1: the ICRC masks TOS (DSCP/ECN), TTL, the IPv4 and UDP checksums and the BTH's
     * FECN/BECN byte, and covers nothing of L2, so a response a switch re-marked (ECN CE, a lower TTL, a BECN, a
     * UDP checksum filled in) or tagged on the way is still valid; a change in a covered byte (the MSN) is not.
     */
    @Test
    void shouldTakeResponsesWhoseVariantFieldsChangedInFlight()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        sendKw(h, 5);
        h.settle();
        final byte[] first = ack(KW_QPN, 0x100);
        h.feed(first);
        final byte[] remarked = ack(KW_QPN, 0x101);
        remarked[15] = (byte)0x03;                 // ECN CE
        remarked[22] = 7;                          // TTL
        remarked[24] = 0;
        remarked[25] = 0;
        final int sum = ipChecksum(remarked, 14);
        remarked[24] = (byte)(sum >> 8);
        remarked[25] = (byte)sum;
        remarked[46] = 0x40;                       // BECN
        final int udp = UdpFlyweight.computeIpv4Checksum( // a UDP checksum filled in
            new UnsafeBuffer(remarked), 14, 34, ((remarked[38] & 0xFF) << 8) | (remarked[39] & 0xFF));
        remarked[40] = (byte)(udp >> 8);
        remarked[41] = (byte)udp;
        h.feed(remarked);
        assertEquals(2, h.count(EngineCounter.ACKS_IN));
        assertEquals(0x101, h.sender(KW_QPN).lastAckedPsn());
        h.feed(tagged(ack(KW_QPN, 0x102), 0x8100, 0x2007));
        assertEquals(0x102, h.sender(KW_QPN).lastAckedPsn(), "a VLAN tag is not covered");
        final byte[] msn = ack(KW_QPN, 0x103);
        msn[57] ^= 1;
        h.feed(msn);
        assertEquals(1, h.count(EngineCounter.RESPONSE_DROP_BAD_ICRC));
        assertEquals(0x102, h.sender(KW_QPN).lastAckedPsn());
    }
}
