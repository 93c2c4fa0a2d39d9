package io.dta.appliance.engine;

import io.dta.appliance.state.ListRegion;
import io.dta.appliance.state.PreviousRun;
import io.dta.appliance.state.ResumeStateFile;
import io.dta.appliance.state.StaticQp;
import io.dta.codec.DtaOpcode;
import io.dta.codec.Psn;
import io.dta.collector.responder.ResponderCounter;
import io.dta.collector.responder.SoftResponder;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import io.dta.config.RegionConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.dta.appliance.engine.TestFrames.keyWrite;
import static io.dta.appliance.engine.TestFrames.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A restarted translator with a static region continues its QP at the PSN the previous run recorded at its clean
 * stop, so the collector's QP, which kept running, executes the first WRITE instead of taking it for a duplicate
 * (docs/layouts.md, "Across restarts").
 */
class QpPsnRestartTest
{
    private static final String YAML = """
        translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101, dscp: 26, ecn: 0, ttl: 64, pKey: 0xffff}
        reports: {udpPort: 40040}
        acks: {requestInterval: 64, timeoutMicros: 500}
        collectors:
          - name: a
            mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            keyWrite: {localQpn: 0x539, qpn: 0x456, rkey: 0x1234, address: 0x7f0000000000, length: 4096,
                       slotSize: 8, startPsn: 0xFFFFF0}
        """;
    private static final int START_PSN = 0xFFFFF0;
    /** Offset of the BTH PSN (3 bytes) in an untagged RoCEv2 frame: Ethernet 14, IPv4 20, UDP 8, BTH byte 9. */
    private static final int BTH_PSN_OFFSET = 14 + 20 + 8 + 9;

    @TempDir
    Path dir;

    private final ApplianceConfig config = ConfigLoader.load(YAML);
    private final RegionConfig region = config.collectors().get(0).keyWrite().region();
    private final UnsafeBuffer memory = new UnsafeBuffer(new byte[(int)region.length()]);
    private final SoftResponder responder = new SoftResponder(config, (c, r) -> r == region ? memory : null);
    private long now = 1_000_000;

    private ResumeStateFile open()
    {
        final PreviousRun previous = ResumeStateFile.read(dir.resolve("translator.lists"), false);
        return ResumeStateFile.create(previous, ListRegion.allOf(config), StaticQp.allOf(config), 1);
    }

    private static byte[] kw(final int key, final int value)
    {
        return report(DtaOpcode.KEY_WRITE, keyWrite(1, key, ByteBuffer.allocate(4).putInt(value).array()));
    }

    /** Delivers every frame to the collector and every response back, until nothing moves. */
    private void exchange(final TranslatorEngine engine, final FrameCollector out)
    {
        exchange(engine, out, responder, 10_000, 100);
    }

    /** Delivers every frame to {@code peer} and every response back, {@code stepNanos} apart, until all is quiet. */
    private void exchange(
        final TranslatorEngine engine, final FrameCollector out, final SoftResponder peer, final long stepNanos,
        final int rounds)
    {
        for (int round = 0; round < rounds; round++)
        {
            final List<byte[]> responses = new ArrayList<>();
            final List<FrameCollector.Frame> frames = out.drain();
            for (final FrameCollector.Frame f : frames)
            {
                peer.onFrame(new UnsafeBuffer(f.bytes()), 0, f.bytes().length, now, (b, o, l) ->
                {
                    final byte[] r = new byte[l];
                    b.getBytes(o, r);
                    responses.add(r);
                });
            }
            for (final byte[] r : responses)
            {
                engine.onFrame(new UnsafeBuffer(r), 0, r.length, now);
            }
            now += stepNanos;
            engine.pollNow(now);
            if (frames.isEmpty() && responses.isEmpty() && engine.isQuiescent())
            {
                return;
            }
        }
    }

    private static int psn(final FrameCollector.Frame frame)
    {
        return ByteBuffer.wrap(frame.bytes()).getInt(BTH_PSN_OFFSET - 1) & 0xFFFFFF;
    }

    @Test
    void shouldContinueAtThePsnTheCollectorExpectsAfterACleanStop()
    {
        // Run A: 40 reports from 0xFFFFF0, past the PSN wrap, then a clean stop.
        final int nextPsn;
        try (ResumeStateFile state = open())
        {
            assertEquals(START_PSN, state.startPsn(0), "no previous file: the configured PSN");
            final FrameCollector out = new FrameCollector();
            final TranslatorEngine a = new TranslatorEngine(config, out, true, new EngineCounters(), state);
            for (int i = 0; i < 40; i++)
            {
                final byte[] report = kw(i, 1000 + i);
                a.onFrame(new UnsafeBuffer(report), 0, report.length, now);
                now += 1_000;
                a.poll(now);
                exchange(a, out);
            }
            a.flush(now);
            exchange(a, out);
            assertTrue(a.isQuiescent());
            nextPsn = a.sender(region.localQpn()).nextPsn();
            assertTrue(nextPsn < START_PSN, "the QP wrapped: next PSN 0x" + Integer.toHexString(nextPsn));
            a.recordNextPsns();
        }
        assertEquals(0, responder.counter(ResponderCounter.DUPLICATES));
        final long writes = responder.counter(ResponderCounter.WRITE_PACKETS);

        // Run B, the collector's QP still running: its first frame carries A's next PSN and is executed.
        try (ResumeStateFile state = open())
        {
            assertTrue(state.psnResumed(0), state.notes().toString());
            final FrameCollector out = new FrameCollector();
            final TranslatorEngine b = new TranslatorEngine(config, out, true, new EngineCounters(), state);
            assertEquals(nextPsn, b.sender(region.localQpn()).nextPsn());
            final byte[] report = kw(0x5EED, 0xCAFE);
            b.onFrame(new UnsafeBuffer(report), 0, report.length, now);
            b.flush(now);
            final List<FrameCollector.Frame> frames = out.frames();
            assertFalse(frames.isEmpty());
            assertEquals(nextPsn, psn(frames.getFirst()), "the first frame's BTH PSN");
            exchange(b, out);
            assertEquals(0, responder.counter(ResponderCounter.DUPLICATES), "no duplicate at the collector");
            assertEquals(writes + 1, responder.counter(ResponderCounter.WRITE_PACKETS), "the WRITE was executed");
            assertEquals(0, b.sender(region.localQpn()).resyncs(), "nothing to resynchronise");
        }

        // Without the recorded PSN (what a restart did before): the collector takes the first WRITE for a duplicate.
        final FrameCollector out = new FrameCollector();
        final TranslatorEngine c = new TranslatorEngine(config, out, true);
        final byte[] report = kw(0x5EED, 0xBEEF);
        c.onFrame(new UnsafeBuffer(report), 0, report.length, now);
        c.flush(now);
        assertEquals(START_PSN, psn(out.frames().getFirst()));
        exchange(c, out);
        assertTrue(responder.counter(ResponderCounter.DUPLICATES) > 0, "the control run must be a duplicate");
    }

    /**
     * The docs/dpdk.md pair, both stopped cleanly and both restarted: the translator resumes its recorded PSNs, the
     * restarted collector's QP expects its configured startPsn again, NAKs the first frame once (dropped: outside the
     * window) and then ignores every probe, so without a restart test the QP would probe for ever with nothing
     * landing. The QP tests the PSN the responder named (a zero-length WRITE on it, executed only by a responder that
     * expects it), takes it up once RESTART_EVIDENCE_ANSWERS tests in a row were answered so, and its essential
     * reports land in the restarted collector's memory.
     */
    @Test
    void shouldContinueAtARestartedCollectorsPsnAndLandTheEssentialReports()
    {
        final int nextPsn;
        try (ResumeStateFile state = open())
        {
            final FrameCollector out = new FrameCollector();
            final TranslatorEngine a = new TranslatorEngine(config, out, true, new EngineCounters(), state);
            for (int i = 0; i < 40; i++)
            {
                final byte[] report = kw(i, 1000 + i);
                a.onFrame(new UnsafeBuffer(report), 0, report.length, now);
                exchange(a, out);
            }
            a.flush(now);
            exchange(a, out);
            nextPsn = a.sender(region.localQpn()).nextPsn();
            a.recordNextPsns();
        }

        final UnsafeBuffer fresh = new UnsafeBuffer(new byte[(int)region.length()]);
        final SoftResponder restarted = new SoftResponder(config, (c, r) -> r == region ? fresh : null);
        try (ResumeStateFile state = open())
        {
            assertTrue(state.psnResumed(0), state.notes().toString());
            final FrameCollector out = new FrameCollector();
            final EngineCounters counters = new EngineCounters();
            final TranslatorEngine b = new TranslatorEngine(config, out, true, counters, state);
            final QueuePairSender sender = b.sender(region.localQpn());
            assertEquals(nextPsn, sender.nextPsn());
            final int keys = 5;
            for (int i = 0; i < keys; i++)
            {
                final byte[] report = essential(kw(0x5EED + i, 0xCAFE + i));
                b.onFrame(new UnsafeBuffer(report), 0, report.length, now);
            }
            b.flush(now);
            // Every frame is offered to the restarted collector, 50 µs apart: its one NAK, then silence, then probes.
            exchange(b, out, restarted, 50_000, 1_000);
            assertTrue(b.isQuiescent(), "the QP recovered; state " + sender.state());
            assertTrue(counters.get(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW) >= 1, "the collector's one NAK");
            assertEquals(1, counters.get(EngineCounter.RESPONDER_RESTARTS));
            assertTrue(counters.get(EngineCounter.PROBES_OUT) >= QueuePairSender.RESTART_EVIDENCE_ANSWERS);
            assertEquals(counters.get(EngineCounter.REPORTS_TRANSLATED), counters.get(EngineCounter.REPORTS_DELIVERED),
                "every essential report acknowledged");
            assertEquals(keys + 1, restarted.counter(ResponderCounter.WRITE_PACKETS),
                "the first zero-length test, then each essential WRITE once");
            assertEquals(Psn.add(START_PSN, keys), sender.lastAckedPsn(),
                "the QP went on from the collector's configured PSN");
            for (int i = 0; i < keys; i++)
            {
                assertTrue(containsValue(fresh, 0xCAFE + i), "key " + i + " in the restarted collector's memory");
            }
        }
    }

    private static boolean containsValue(final UnsafeBuffer memory, final int value)
    {
        for (int at = 0; at + 4 <= memory.capacity(); at += 4)
        {
            if (memory.getInt(at, ByteOrder.BIG_ENDIAN) == value)
            {
                return true;
            }
        }
        return false;
    }

    private static byte[] essential(final byte[] report)
    {
        // DTA base header flags byte (3-byte form: opcode, seqnum, flags) after Ethernet, IPv4 and UDP.
        report[14 + 20 + 8 + 2] |= 0x20;
        return report;
    }
}
