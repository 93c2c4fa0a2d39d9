package io.dta.appliance.bench;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.replay.Replay;
import io.dta.codec.pcap.PcapFormat;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta bench --in} on the Java engine ({@link BenchInput#capture}, {@link EngineBench}): a capture fed round
 * and round is translated as that many replays of it translate it, where the translation does not depend on what came
 * before (no sequence tracking); with sequenced reports the first pass is the replay's and the next ones meet the
 * drop paths of repeated traffic; the measured phase allocates nothing.
 */
class CaptureBenchTest
{
    private static final int REPORTS = 3000;
    private static final int PASSES = 3;

    @TempDir
    Path dir;

    @Test
    void shouldCountWhatAsManyReplaysOfTheCaptureCount() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final Path capture = dir.resolve("mixed.pcap");
        final int frames = BenchCaptures.write(capture, config, BenchCaptures.mixed(5), REPORTS);
        final EngineCounters replay = Replay.run(config, capture, null, dir.resolve("out.pcap")).counters();

        final BenchInput input = BenchInput.capture(capture, config.translator().mac());
        assertEquals(frames, input.count());
        assertNull(input.cutShortWarning());
        final EngineBench bench = new EngineBench(input, config, true);
        final EngineBench.Result r = bench.run(0, (long)PASSES * frames);

        assertEquals((long)PASSES * frames, r.framesIn());
        assertEquals(PASSES * replay.get(EngineCounter.REPORTS_IN), r.reports());
        assertEquals(REPORTS, replay.get(EngineCounter.REPORTS_IN), "every report of the capture is one");
        assertEquals(frames - REPORTS, replay.get(EngineCounter.OTHER_FRAMES), "the ARP requests");
        for (final EngineCounter c : new EngineCounter[] { EngineCounter.FRAMES_IN, EngineCounter.REPORTS_IN,
            EngineCounter.REPORTS_TRANSLATED, EngineCounter.OTHER_FRAMES, EngineCounter.APPEND_ENTRIES })
        {
            assertEquals(PASSES * replay.get(c), r.delta(c), c.name());
        }
        long drops = 0;
        for (final EngineCounter c : EngineCounter.values())
        {
            if (c.isDrop())
            {
                assertEquals(PASSES * replay.get(c), r.delta(c), c.name());
                drops += r.delta(c);
            }
        }
        assertTrue(drops > PASSES * REPORTS / 100, "the capture's invalid reports are dropped: " + drops);
        assertEquals(drops, bench.engine().counters().totalDrops(), "measured from the start: the whole run");
        // Frames out: one WRITE per Key-Write copy, batches, records; at least every translated report's share.
        assertTrue(r.frames() > 0 && r.frames() == r.delta(EngineCounter.ROCE_FRAMES_OUT), r.toString());
    }

    @Test
    void shouldReadACaptureFromAFifoOnceAndHoldTheSameFramesAsFromTheFile() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final Path capture = dir.resolve("mixed.pcap");
        final int frames = BenchCaptures.write(capture, config, BenchCaptures.mixed(11), REPORTS);
        final Path fifo = dir.resolve("reports.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
        final Thread writer = new Thread(() ->
        {
            try (OutputStream out = Files.newOutputStream(fifo))
            {
                Files.copy(capture, out);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        });
        writer.start();

        final BenchInput streamed = BenchInput.capture(fifo, config.translator().mac());
        writer.join();
        final BenchInput read = BenchInput.capture(capture, config.translator().mac());
        assertEquals(frames, streamed.count());
        assertEquals(read.count(), streamed.count());
        final UnsafeBuffer a = new UnsafeBuffer(new byte[read.maxLength()]);
        final UnsafeBuffer b = new UnsafeBuffer(new byte[read.maxLength()]);
        for (int i = 0; i < frames; i++)
        {
            a.setMemory(0, a.capacity(), (byte)0);
            b.setMemory(0, b.capacity(), (byte)0);
            final int length = read.copy(i, a, 0);
            assertEquals(length, streamed.copy(i, b, 0), "frame " + i);
            assertEquals(0, a.compareTo(b), "frame " + i);
        }
    }

    @Test
    void shouldTranslateTheFirstPassAsAReplayAndMeetTheDropPathsOfRepeatedSequencedTraffic() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final Path capture = dir.resolve("sequenced.pcap");
        final int frames = BenchCaptures.write(capture, config,
            BenchCaptures.mixed(9).retransmittable(true).essentialFraction(0.1), REPORTS);
        final EngineCounters replay = Replay.run(config, capture, null, dir.resolve("out.pcap")).counters();
        final EngineBench bench = new EngineBench(BenchInput.capture(capture, config.translator().mac()), config, true);

        final EngineBench.Result first = bench.run(0, frames);
        for (final EngineCounter c : EngineCounter.values())
        {
            if (c.isDrop() || EngineCounter.REPORTS_IN == c || EngineCounter.REPORTS_TRANSLATED == c)
            {
                assertEquals(replay.get(c), first.delta(c), c.name());
            }
        }
        final EngineBench.Result second = bench.run(0, frames);
        assertEquals(first.reports(), second.reports());
        assertTrue(second.delta(EngineCounter.DROP_SEQUENCE_GAP) + second.delta(EngineCounter.DROP_SEQUENCE_DUPLICATE) >
            first.delta(EngineCounter.DROP_SEQUENCE_GAP) + first.delta(EngineCounter.DROP_SEQUENCE_DUPLICATE),
            "the second pass starts each reporter's sequence again: " + second);
    }

    @Test
    void shouldAllocateNothingWhileMeasuringACapture() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final Path capture = dir.resolve("mixed.pcap");
        BenchCaptures.write(capture, config, BenchCaptures.mixed(3), REPORTS);
        final EngineBench bench = new EngineBench(BenchInput.capture(capture, config.translator().mac()), config, true);
        final EngineBench.Result r = bench.run(1_000_000, 500_000);
        final double allocated = r.allocatedBytesPerReport() * r.reports();
        // The measurement itself may allocate a few bytes; half a million frames must not.
        assertTrue(allocated < 1024, "allocated " + allocated + " bytes for " + r.reports() + " reports");
        assertEquals(0, r.gcCount());
    }

    @Test
    void shouldAnswerTheRoceRequestsOfACaptureInTheClosedLoopAndNotTheNacksToReporters() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final Path capture = dir.resolve("sequenced.pcap");
        final int frames = BenchCaptures.write(capture, config, BenchCaptures.mixed(9).retransmittable(true),
            REPORTS);
        final EngineBench bench = new EngineBench(BenchInput.capture(capture, config.translator().mac()), config,
            false);
        final EngineBench.Result r = bench.run(0, 2L * frames);
        // Reporter NACKs go through the sink too: before, they were read as RoCEv2 requests of an unknown QP.
        assertTrue(r.delta(EngineCounter.REPORTER_NACKS_OUT) > 0, r.toString());
        assertTrue(r.delta(EngineCounter.ACKS_IN) + r.delta(EngineCounter.ATOMIC_ACKS_IN) > 0, r.toString());
        assertEquals(0, r.delta(EngineCounter.RESPONSE_DROP_UNKNOWN_QPN));
        // roceFramesOut (and roceFramesOutPerSecond) are the RoCEv2 frames out, not the NACKs that went through the sink as well.
        assertEquals(r.delta(EngineCounter.ROCE_FRAMES_OUT), r.frames(), r.toString());
    }

    @Test
    void shouldLoadEveryFrameOfACaptureAsWritten() throws Exception
    {
        final long seed = 23;
        final SplittableRandom random = new SplittableRandom(seed);
        final Path capture = dir.resolve("lengths.pcap");
        final List<byte[]> written = new ArrayList<>();
        try (PcapWriter writer = new PcapWriter(capture, true, PcapFormat.MAX_CAPTURED_LENGTH,
            2 * PcapFormat.MAX_CAPTURED_LENGTH))
        {
            for (int i = 0; i < 3000; i++)
            {
                final int length = 0 == i % 1000 ? 70_000 + random.nextInt(1000) : 14 + random.nextInt(3000);
                final byte[] frame = new byte[length];
                random.nextBytes(frame);
                written.add(frame);
                writer.write(i, new UnsafeBuffer(frame), 0, length);
            }
        }
        final BenchInput input = BenchInput.capture(capture, 0x02_00_00_00_00_01L);
        assertEquals(written.size(), input.count(), "seed " + seed);
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[PcapFormat.MAX_CAPTURED_LENGTH]);
        int longest = 0;
        for (int i = 0; i < written.size(); i++)
        {
            final byte[] expected = written.get(i);
            longest = Math.max(longest, expected.length);
            assertEquals(expected.length, input.length(i), "seed " + seed + ", frame " + i);
            assertEquals(expected.length, input.copy(i, copy, 0), "seed " + seed + ", frame " + i);
            final byte[] actual = new byte[expected.length];
            copy.getBytes(0, actual);
            assertArrayEquals(expected, actual, "seed " + seed + ", frame " + i);
        }
        assertEquals(longest, input.maxLength());
    }

    @Test
    void shouldRefuseACaptureWithoutFrames() throws Exception
    {
        final Path empty = dir.resolve("empty.pcap");
        new PcapWriter(empty).close();
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> BenchInput.capture(empty, 1));
        assertEquals(empty + " holds no frame: there is nothing to bench", ex.getMessage());
    }

    @Test
    void shouldFeedSyntheticReportsAsBefore()
    {
        // The synthetic input through the same path: REPORTS_IN is every frame fed.
        final EngineBench bench = new EngineBench(BenchPrimitive.POSTCARD, ConfigDefaults.load(), 1, 16, 8, true, 1);
        final EngineBench.Result r = bench.run(100, 1000);
        assertEquals(1000, r.reports());
        assertEquals(1000, r.framesIn());
        final TranslatorEngine engine = bench.engine();
        assertEquals(1100, engine.counters().get(EngineCounter.REPORTS_IN));
        assertEquals(1 << 14, bench.distinctReports());
    }
}
