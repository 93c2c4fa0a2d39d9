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
}
