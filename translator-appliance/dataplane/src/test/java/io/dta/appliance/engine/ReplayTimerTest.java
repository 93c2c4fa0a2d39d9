package io.dta.appliance.engine;

import io.dta.appliance.engine.TestFrames.Cfg;
import io.dta.appliance.engine.TestFrames.Request;
import io.dta.appliance.replay.Replay;
import io.dta.codec.DtaOpcode;
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
import java.util.List;

import static io.dta.appliance.engine.TestFrames.KW_REMOTE;
import static io.dta.appliance.engine.TestFrames.ack;
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
 * A replay's clock jumps from one capture frame to the next; the timers due in between must run at their own times,
 * as in a live engine polled continuously, not when the next frame happens to come. Polled only at the frames, an
 * Append batch or postcard record flushed for idleness went out when the next frame came, and when that frame's own
 * operation went to the same QP it pushed the flushed one out without the AckReq of a QP going idle (translation.md
 * §3 "flushed after idleFlushMicros without new entries", §5 AckReq "on the last packet before the QP goes idle");
 * ACK timeouts counted from the late departure.
 */
class ReplayTimerTest
{
    private static final long T0 = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    @Test
    void shouldFlushAnIdleAppendBatchAtItsIdleTimeWithAckReq() throws IOException
    {
        final Cfg cfg = new Cfg();
        cfg.batchSize = 2;
        final List<Out> out = replay(cfg, List.of(
            new In(T0, report(DtaOpcode.APPEND, append(1, 0x11))),
            new In(T0 + 5 * MS, report(DtaOpcode.APPEND, append(1, 0x22))),
            new In(T0 + 5 * MS, report(DtaOpcode.APPEND, append(1, 0x33)))), null);

        assertEquals(2, out.size(), "the partial batch, then the full one");
        final Out partial = out.get(0);
        assertEquals(L1_REMOTE, partial.request.destQp());
        assertEquals(1, ByteBuffer.wrap(partial.request.payload()).order(ByteOrder.LITTLE_ENDIAN).getInt(8),
            "one entry in the partial record");
        assertEquals(T0 + MS + TranslatorEngine.HOLD_NANOS, partial.time,
            "flushed 1000 us after its entry, out once held 20 us with nothing after it");
        assertTrue(partial.request.ackReq(), "the last packet before its QP went idle for 4 ms");
        assertTrue(out.get(1).request.ackReq(), "the last packet of the capture");
    }

    @Test
    void shouldFlushAnIdlePostcardRecordAtItsIdleTimeWithAckReq() throws IOException
    {
        final List<In> in = new ArrayList<>();
        in.add(new In(T0, report(DtaOpcode.POSTCARD, postcard(7, 1, 0x70))));
        for (int hop = 1; hop <= 5; hop++)
        {
            in.add(new In(T0 + 5 * MS, report(DtaOpcode.POSTCARD, postcard(8, hop, 0x80 + hop))));
        }
        final List<Out> out = replay(new Cfg(), in, null);

        assertEquals(2, out.size());
        assertEquals(PC_REMOTE, out.get(0).request.destQp());
        assertEquals(7, ByteBuffer.wrap(out.get(0).request.payload()).order(ByteOrder.LITTLE_ENDIAN).getInt(0));
        assertEquals(T0 + MS + TranslatorEngine.HOLD_NANOS, out.get(0).time);
        assertTrue(out.get(0).request.ackReq(), "the last packet before its QP went idle for 4 ms");
    }

    @Test
    void shouldReleaseAHeldFrameAndProbeAtTheirOwnTimesInAClosedLoopReplay() throws IOException
    {
        // The responses capture lasts until the second report (an ACK for a QPN nobody has, ignored): until then
        // every acks.timeoutMicros without an answer sends a probe, as a live engine would.
        final List<Out> out = replay(new Cfg(), List.of(
            new In(T0, report(DtaOpcode.KEY_WRITE, keyWrite(1, 1, new byte[4]))),
            new In(T0 + 3 * MS, report(DtaOpcode.KEY_WRITE, keyWrite(1, 2, new byte[4])))),
            List.of(new In(T0 + 3 * MS, ack(0x777, 0))));

        assertEquals(7, out.size(), "a frame, five probes, a frame");
        assertEquals(0x100, out.get(0).request.psn());
        assertEquals(T0 + TranslatorEngine.HOLD_NANOS, out.get(0).time, "held 20 us, then out alone");
        assertTrue(out.get(0).request.ackReq());
        for (int i = 1; i <= 5; i++)
        {
            final Out probe = out.get(i);
            assertEquals(KW_REMOTE, probe.request.destQp());
            assertEquals(0xFF, probe.request.psn(), "on the last acknowledged PSN");
            assertEquals(0, probe.request.dmaLength());
            assertEquals(T0 + TranslatorEngine.HOLD_NANOS + i * 500_000L, probe.time,
                "every acks.timeoutMicros from the AckReq'd frame's departure");
        }
        assertEquals(0x101, out.get(6).request.psn());
        assertEquals(T0 + 3 * MS, out.get(6).time, "the held frame flushed at the end of the capture");
    }

    @Test
    void shouldStopProbingWhenTheResponsesCaptureHasEnded() throws IOException
    {
        // No answer can come after the responses capture's last record: probing on would only repeat every
        // acks.timeoutMicros for as long as the reports go on (here 10 s: 20 000 probes).
        final List<Out> out = replay(new Cfg(), List.of(
            new In(T0, report(DtaOpcode.KEY_WRITE, keyWrite(1, 1, new byte[4]))),
            new In(T0 + 10_000 * MS, report(DtaOpcode.KEY_WRITE, keyWrite(1, 2, new byte[4])))),
            List.of(new In(T0 + MS, ack(0x777, 0))));

        assertEquals(3, out.size(), "a frame, one probe before the responses ended, a frame");
        assertEquals(0, out.get(1).request.dmaLength());
        assertEquals(T0 + TranslatorEngine.HOLD_NANOS + 500_000L, out.get(1).time);
        assertEquals(0x101, out.get(2).request.psn());
        assertEquals(2, replay(new Cfg(), List.of(
            new In(T0, report(DtaOpcode.KEY_WRITE, keyWrite(1, 1, new byte[4]))),
            new In(T0 + 10_000 * MS, report(DtaOpcode.KEY_WRITE, keyWrite(1, 2, new byte[4])))), List.of()).size(),
            "an empty responses capture: nothing can answer from the start");
    }

    private List<Out> replay(final Cfg cfg, final List<In> reports, final List<In> responses) throws IOException
    {
        final Path in = dir.resolve("reports.pcap");
        final Path back = null == responses ? null : dir.resolve("responses.pcap");
        final Path output = dir.resolve("out.pcap");
        write(in, reports);
        if (null != back)
        {
            write(back, responses);
        }
        Replay.run(ConfigLoader.load(cfg.yaml()), in, back, output);
        final List<Out> out = new ArrayList<>();
        try (PcapReader r = PcapReader.open(output))
        {
            while (r.next())
            {
                final byte[] f = new byte[r.capturedLength()];
                r.buffer().getBytes(r.offset(), f);
                out.add(new Out(r.timestampNanos(), parseRequest(f)));
            }
        }
        return out;
    }

    private static void write(final Path path, final List<In> frames) throws IOException
    {
        try (PcapWriter w = new PcapWriter(path, true))
        {
            for (final In f : frames)
            {
                w.write(f.time, new UnsafeBuffer(f.frame), 0, f.frame.length);
            }
        }
    }

    private record In(long time, byte[] frame)
    {
    }

    private record Out(long time, Request request)
    {
    }
}
