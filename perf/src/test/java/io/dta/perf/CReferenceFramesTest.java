package io.dta.perf;

import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.EngineBench;
import io.dta.appliance.bench.CReference;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.SendOutcome;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigLoader;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The C reference loop of {@code dta bench --compare-c} builds the engine's frames byte for byte: the same report
 * streams (the benchmark's own reports, every primitive, mixed, some corrupted) with the same clock go through the
 * Java engine (open loop) and through the C loop in buffer mode, and the frame sequences must be identical.
 */
final class CReferenceFramesTest
{
    private static final int REPORTS = 4096;

    @TempDir
    Path dir;

    @Test
    void shouldBuildTheEnginesKeyWriteFrames() throws IOException
    {
        compare(ConfigDefaults.load(), BenchPrimitive.KEYWRITE, 1, 16, 1, 0.0);
        compare(ConfigDefaults.load(), BenchPrimitive.KEYWRITE, 3, 16, 2, 0.0);
    }

    @Test
    void shouldBuildTheEnginesKeyIncrementFrames() throws IOException
    {
        compare(ConfigDefaults.load(), BenchPrimitive.KEYINCREMENT, 1, 16, 3, 0.0);
        compare(ConfigDefaults.load(), BenchPrimitive.KEYINCREMENT, 2, 16, 4, 0.0);
    }

    @Test
    void shouldBuildTheEnginesAppendFrames() throws IOException
    {
        compare(ConfigDefaults.load(), BenchPrimitive.APPEND, 1, 16, 5, 0.0);
        compare(ConfigDefaults.load(), BenchPrimitive.APPEND, 1, 4, 6, 0.0);
    }

    @Test
    void shouldBuildTheEnginesPostcardFrames() throws IOException
    {
        compare(ConfigDefaults.load(), BenchPrimitive.POSTCARD, 1, 16, 7, 0.0);
    }

    @Test
    void shouldEvictPostcardsFromACacheOfTheConfiguredSize() throws IOException
    {
        // The flows' postcards shuffled over a cache of 64 entries: many flows' entries are taken by another flow
        // before their path is complete, and their later postcards join or replace records.
        final ApplianceConfig smallCache =
            ConfigLoader.load(ConfigDefaults.yaml() + "\npostcards:\n  cacheEntries: 64\n");
        final long seed = 8;
        final EngineBench source = new EngineBench(BenchPrimitive.POSTCARD, smallCache, 1, 16, seed);
        final List<byte[]> postcards = shuffled(reports(source, REPORTS), seed);
        final EngineCounters counters = run(source.config(), postcards, seed, 0.0, "postcards, 64-entry cache");
        assertTrue(counters.get(EngineCounter.POSTCARD_EVICTIONS) > REPORTS / 20,
            "evictions " + counters.get(EngineCounter.POSTCARD_EVICTIONS));
        assertTrue(counters.get(EngineCounter.POSTCARD_CARRIED_RECORDS) > 0, "no record carried earlier hops");
    }

    @Test
    void shouldTreatCorruptedReportsAsTheEngineDoes() throws IOException
    {
        final ApplianceConfig strict = ConfigLoader.load(ConfigDefaults.yaml()
            .replace("  baseHeader: \"3\"\n", "  baseHeader: \"3\"\n  verifyChecksums: true\n") +
            "\nacks:\n  requestInterval: 4\n");
        for (final BenchPrimitive primitive : CReference.PRIMITIVES)
        {
            compare(ConfigDefaults.load(), primitive, 2, 8, 10 + primitive.ordinal(), 0.05);
            compare(strict, primitive, 2, 8, 20 + primitive.ordinal(), 0.05);
        }
    }

    @Test
    void shouldBuildTheEnginesFramesForMixedReports() throws IOException
    {
        final long seed = 31;
        final ApplianceConfig base = ConfigDefaults.load();
        final List<byte[]> mixed = new ArrayList<>();
        for (final BenchPrimitive primitive : CReference.PRIMITIVES)
        {
            mixed.addAll(reports(new EngineBench(primitive, base, 2, 16, seed), REPORTS / 2));
        }
        run(new EngineBench(BenchPrimitive.APPEND, base, 2, 16, seed).config(), shuffled(mixed, seed), seed, 0.02,
            "mixed");
    }

    private static List<byte[]> shuffled(final List<byte[]> frames, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = frames.size() - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final byte[] t = frames.get(i);
            frames.set(i, frames.get(j));
            frames.set(j, t);
        }
        return frames;
    }

    private EngineCounters compare(
        final ApplianceConfig base,
        final BenchPrimitive primitive,
        final int redundancy,
        final int batch,
        final long seed,
        final double corruption) throws IOException
    {
        final EngineBench source = new EngineBench(primitive, base, redundancy, batch, seed);
        return run(source.config(), reports(source, REPORTS), seed, corruption,
            primitive + " N=" + redundancy + " B=" + batch);
    }

    private List<byte[]> reports(final EngineBench source, final int count) throws IOException
    {
        final Path capture = dir.resolve("reports-" + System.nanoTime() + ".pcap");
        try (PcapWriter writer = new PcapWriter(capture, true))
        {
            source.writeReports(writer, count);
        }
        final List<byte[]> frames = new ArrayList<>();
        try (PcapReader reader = PcapReader.open(capture))
        {
            while (reader.next())
            {
                final byte[] frame = new byte[reader.capturedLength()];
                reader.buffer().getBytes(reader.offset(), frame);
                frames.add(frame);
            }
        }
        return frames;
    }

    private static EngineCounters run(
        final ApplianceConfig config,
        final List<byte[]> input,
        final long seed,
        final double corruption,
        final String what)
    {
        assumeTrue(CReference.isAvailable(), CReference.unavailableReason());
        final String context = what + " (seed " + seed + ")";
        final SplittableRandom random = new SplittableRandom(seed);
        final List<byte[]> frames = new ArrayList<>();
        for (final byte[] report : input)
        {
            final byte[] frame = report.clone();
            if (random.nextDouble() < corruption)
            {
                // Any header byte but the DTA flags (an essential or retransmittable report is not in the C loop).
                int at;
                do
                {
                    at = random.nextInt(Math.min(frame.length, 60));
                }
                while (44 == at);
                frame[at] = (byte)random.nextInt(256);
            }
            frames.add(frame);
        }

        final UnsafeBuffer in = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final CapturingSink sink = new CapturingSink();
        final TranslatorEngine engine = new TranslatorEngine(config, sink, false);
        try (CReference reference = new CReference(config, 0))
        {
            reference.output(8 << 20);
            long now = 1_000_000_000L;
            for (int i = 0; i < frames.size(); i++)
            {
                if (0 == (i & 31))
                {
                    // Now and then a pause, so that held frames, idle batches and idle postcards leave on timers.
                    now += random.nextInt(16) == 0 ? 10_000 + random.nextInt(2_000_000) : random.nextInt(3_000);
                    engine.poll(now);
                    reference.poll(now);
                }
                now += random.nextInt(200);
                final byte[] frame = frames.get(i);
                in.putBytes(0, frame);
                engine.onFrame(in, 0, frame.length, now);
                reference.onFrame(frame, 0, frame.length, now);
            }
            now += 1_000;
            engine.flush(now);
            reference.flush(now);

            final List<byte[]> expected = sink.frames;
            final List<byte[]> actual = parse(reference.outputBytes());
            assertEquals(0, reference.counter(CReference.OUTPUT_OVERFLOW), context);
            assertEquals(0, reference.counter(CReference.UNSUPPORTED), context);
            assertTrue(expected.size() >= frames.size() / 20, context + ": the engine sent " + expected.size());
            for (int i = 0; i < Math.min(expected.size(), actual.size()); i++)
            {
                final int index = i;
                assertArrayEquals(expected.get(i), actual.get(i), () -> context + ": frame " + index + " differs\n" +
                    " java " + HexFormat.of().formatHex(expected.get(index)) + "\n    c " +
                    HexFormat.of().formatHex(actual.get(index)));
            }
            assertEquals(expected.size(), actual.size(), context + ": frame count");
            assertEquals(engine.counters().get(EngineCounter.REPORTS_TRANSLATED),
                reference.counter(CReference.REPORTS_TRANSLATED), context + ": reports translated");
            assertEquals(engine.counters().get(EngineCounter.REPORTS_IN), reference.counter(CReference.REPORTS_IN),
                context + ": reports in");
            return engine.counters();
        }
    }

    private static List<byte[]> parse(final byte[] output)
    {
        final List<byte[]> frames = new ArrayList<>();
        int at = 0;
        while (at < output.length)
        {
            final int length = (output[at] & 0xFF) | (output[at + 1] & 0xFF) << 8;
            frames.add(Arrays.copyOfRange(output, at + 2, at + 2 + length));
            at += 2 + length;
        }
        return frames;
    }

    private static final class CapturingSink implements FrameSink
    {
        private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
        private final List<byte[]> frames = new ArrayList<>();

        @Override
        public MutableDirectBuffer buffer()
        {
            return buffer;
        }

        @Override
        public int claim(final int maxLength)
        {
            return 0;
        }

        @Override
        public SendOutcome commit(
            final int offset, final int length, final long timeNanos, final OutFrameKind kind, final int reports)
        {
            final byte[] frame = new byte[length];
            buffer.getBytes(offset, frame);
            frames.add(frame);
            return SendOutcome.SENT;
        }
    }
}
