package io.dta.appliance.engine;

import io.dta.appliance.replay.Replay;
import io.dta.codec.DtaOpcode;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

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

    /**
     * §6 in a replay: essential reports that arrive during a grace period are "translated as soon as the QP is
     * healthy again", also when the capture ends before the grace period does. They went nowhere before: the replay
     * flushed at the last frame's time, with the QP still in its grace period.
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
            write(w, t0 + 100_000L, nak(KW_QPN, 0x60, 0x102));
        }
        final TranslatorEngine engine = Replay.run(ConfigLoader.load(new Cfg().yaml()), reports, responses, output);

        final List<long[]> out = new ArrayList<>();
        try (PcapReader r = new PcapReader(output))
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
        assertEquals(t0 + 100_000L + 1_000_000L, out.get(4)[0], "sent when the 1000 us grace period ends");
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
}
