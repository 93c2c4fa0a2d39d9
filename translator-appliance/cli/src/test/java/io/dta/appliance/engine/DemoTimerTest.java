package io.dta.appliance.engine;

import io.dta.appliance.demo.ClosedLoopDemo;
import io.dta.appliance.engine.TestFrames.Cfg;
import io.dta.appliance.engine.TestFrames.Request;
import io.dta.codec.DtaOpcode;
import io.dta.collector.store.CollectorStore;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ConfigLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static io.dta.appliance.engine.TestFrames.KW_REMOTE;
import static io.dta.appliance.engine.TestFrames.L1_REMOTE;
import static io.dta.appliance.engine.TestFrames.PC_REMOTE;
import static io.dta.appliance.engine.TestFrames.append;
import static io.dta.appliance.engine.TestFrames.keyWrite;
import static io.dta.appliance.engine.TestFrames.parseRequest;
import static io.dta.appliance.engine.TestFrames.postcard;
import static io.dta.appliance.engine.TestFrames.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's virtual clock runs every engine timer at its own deadline, as a live engine polled continuously does:
 * not when the next report or the next frame over a link happens to come. Run only at those times, a frame held for
 * {@link TranslatorEngine#HOLD_NANOS} or an idle Append batch or postcard went out when the next report came,
 * milliseconds late (translation.md §3 "flushed after idleFlushMicros without new entries", §5 AckReq "on the last
 * packet before the QP goes idle").
 */
class DemoTimerTest
{
    private static final long T0 = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    /** ClosedLoopDemo's one-way link delay. */
    private static final long LINK_NANOS = 2_000;

    @TempDir
    Path dir;

    @Test
    void shouldReleaseAHeldFrameWithAckReqAtItsDeadline() throws Exception
    {
        final List<Seen> seen = run(new Cfg(), List.of(
            new In(T0, report(DtaOpcode.KEY_WRITE, keyWrite(1, 1, new byte[4]))),
            new In(T0 + 5 * MS, report(DtaOpcode.KEY_WRITE, keyWrite(1, 2, new byte[4])))));

        final Seen first = seen.get(0);
        assertEquals(KW_REMOTE, first.request.destQp());
        assertEquals(0x100, first.request.psn());
        assertEquals(T0 + TranslatorEngine.HOLD_NANOS + LINK_NANOS, first.nanos,
            "held 20 us with nothing after it, then out, 2 us on the link");
        assertTrue(first.request.ackReq(), "the last packet before its QP went idle");
        final Seen second = seen.get(1);
        assertEquals(0x101, second.request.psn());
        assertEquals(T0 + 5 * MS + LINK_NANOS, second.nanos, "flushed when the input ended");
        assertTrue(second.request.ackReq());
        assertEquals(2, seen.size(), "nothing lost, nothing re-sent, no probe");
    }

    @Test
    void shouldFlushAnIdleAppendBatchAtItsIdleTimeWithAckReq() throws Exception
    {
        final Cfg cfg = new Cfg();
        cfg.batchSize = 2;
        final List<Seen> seen = run(cfg, List.of(
            new In(T0, report(DtaOpcode.APPEND, append(1, 0x11))),
            new In(T0 + 5 * MS, report(DtaOpcode.KEY_WRITE, keyWrite(1, 2, new byte[4])))));

        final Seen partial = seen.get(0);
        assertEquals(L1_REMOTE, partial.request.destQp());
        assertEquals(1, ByteBuffer.wrap(partial.request.payload()).order(ByteOrder.LITTLE_ENDIAN).getInt(8),
            "one entry in the partial record");
        assertEquals(T0 + MS + TranslatorEngine.HOLD_NANOS + LINK_NANOS, partial.nanos,
            "flushed 1000 us after its entry, out once held 20 us with nothing after it");
        assertTrue(partial.request.ackReq(), "the last packet before its QP went idle");
        assertEquals(KW_REMOTE, seen.get(1).request.destQp());
        assertEquals(2, seen.size());
    }

    @Test
    void shouldFlushAnIdlePostcardRecordAtItsIdleTimeWithAckReq() throws Exception
    {
        final List<Seen> seen = run(new Cfg(), List.of(
            new In(T0, report(DtaOpcode.POSTCARD, postcard(7, 1, 0x70))),
            new In(T0 + 5 * MS, report(DtaOpcode.KEY_WRITE, keyWrite(1, 2, new byte[4])))));

        final Seen record = seen.get(0);
        assertEquals(PC_REMOTE, record.request.destQp());
        assertEquals(7, ByteBuffer.wrap(record.request.payload()).order(ByteOrder.LITTLE_ENDIAN).getInt(0));
        assertEquals(T0 + MS + TranslatorEngine.HOLD_NANOS + LINK_NANOS, record.nanos);
        assertTrue(record.request.ackReq());
        assertEquals(2, seen.size());
    }

    @Test
    void shouldProbeAtEachAckTimeoutOfAQpThatFellSilent() throws Exception
    {
        final List<Seen> seen = new ArrayList<>();
        final ClosedLoopDemo[] demo = new ClosedLoopDemo[1];
        final List<Seen> all = run(new Cfg(), List.of(
            new In(T0, report(DtaOpcode.KEY_WRITE, keyWrite(1, 1, new byte[4]))),
            new In(T0 + 3 * MS, report(DtaOpcode.KEY_WRITE, keyWrite(1, 2, new byte[4])))),
            d -> demo[0] = d.loseQpSilently(1), false);
        for (final Seen s : all)
        {
            if (s.nanos < T0 + 3 * MS)
            {
                seen.add(s);
            }
        }

        assertTrue(demo[0].silentlyDropped() > 0);
        assertEquals(6, seen.size(), "the frame, then a probe every acks.timeoutMicros until the next report");
        assertEquals(T0 + TranslatorEngine.HOLD_NANOS + LINK_NANOS, seen.get(0).nanos);
        for (int i = 1; i < seen.size(); i++)
        {
            final Request probe = seen.get(i).request;
            assertEquals(KW_REMOTE, probe.destQp());
            assertEquals(0xFF, probe.psn(), "on the last acknowledged PSN");
            assertEquals(0, probe.dmaLength());
            assertEquals(T0 + TranslatorEngine.HOLD_NANOS + i * 500_000L + LINK_NANOS, seen.get(i).nanos,
                "every acks.timeoutMicros from the AckReq'd frame's departure");
        }
    }

    private List<Seen> run(final Cfg cfg, final List<In> reports) throws Exception
    {
        return run(cfg, reports, d -> d, true);
    }

    /**
     * Runs the demo without loss and returns the requests that reached the collectors, with their arrival times.
     */
    private List<Seen> run(
        final Cfg cfg,
        final List<In> reports,
        final UnaryOperator<ClosedLoopDemo> setUp,
        final boolean healthy) throws Exception
    {
        final ApplianceConfig config = ConfigLoader.load(cfg.yaml());
        final List<CollectorStore> stores = new ArrayList<>();
        final List<Seen> seen = new ArrayList<>();
        try
        {
            for (final CollectorConfig collector : config.collectors())
            {
                stores.add(CollectorStore.create(dir, config, collector));
            }
            final ClosedLoopDemo demo = setUp.apply(new ClosedLoopDemo(config, stores, 0.0, 1));
            demo.frameTap((toCollector, buffer, offset, length, nowNanos) ->
            {
                if (toCollector)
                {
                    final byte[] f = new byte[length];
                    buffer.getBytes(offset, f);
                    seen.add(new Seen(nowNanos, parseRequest(f)));
                }
            });
            demo.run(new ListReportSource(reports.stream().map(In::frame).toList(),
                reports.stream().mapToLong(In::nanos).toArray()));
            if (healthy)
            {
                assertTrue(demo.quiescent());
                assertEquals(0, demo.essentialOutstanding());
            }
        }
        finally
        {
            for (final CollectorStore store : stores)
            {
                store.close();
            }
        }
        return seen;
    }

    private record In(long nanos, byte[] frame)
    {
    }

    private record Seen(long nanos, Request request)
    {
    }
}
