package io.dta.appliance.gen;

import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.SketchColumnFlyweight;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.SketchConfig;
import io.dta.config.SketchType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SketchTrafficTest
{
    private static final ApplianceConfig DEMO = ConfigDefaults.load();

    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[ReportGenerator.MAX_FRAME_LENGTH]);

    private static long crc(final long key, final int last)
    {
        final CRC32 crc = new CRC32();
        crc.update(new byte[]{ (byte)key, (byte)(key >>> 8), (byte)(key >>> 16), (byte)(key >>> 24), (byte)last });
        return crc.getValue();
    }

    /** MurmurHash3's fmix32, written out from its reference: the generator's key index to flow key mapping. */
    private static long murmurFinalizer(final long index)
    {
        long h = index & 0xFFFF_FFFFL;
        h ^= h >>> 16;
        h = (h * 0x85EBCA6BL) & 0xFFFF_FFFFL;
        h ^= h >>> 13;
        h = (h * 0xC2B2AE35L) & 0xFFFF_FFFFL;
        h ^= h >>> 16;
        return h;
    }

    @Test
    void shouldMapKeyIndexesToDistinctFlowKeys()
    {
        assertEquals(0L, SketchTraffic.flowKey(0));
        final java.util.Set<Long> seen = new java.util.HashSet<>();
        for (long i = 0; i < 100_000; i++)
        {
            assertEquals(murmurFinalizer(i), SketchTraffic.flowKey(i));
            assertTrue(seen.add(SketchTraffic.flowKey(i)), "a bijection");
        }
    }

    /** The sketch a switch should send, built here from docs/sketch.md with the JDK's CRC32. */
    private static int[] independentSketch(final SketchConfig sketch, final long seed, final int switchId,
        final long epoch, final long items, final long keySpace)
    {
        final int rows = sketch.rows();
        final int columns = sketch.columns();
        final int[] cells = new int[rows * columns];
        final SplittableRandom random = new SplittableRandom(SketchTraffic.streamSeed(seed, 0, sketch.id(),
            switchId, epoch));
        for (long i = 0; i < items; i++)
        {
            final long key = murmurFinalizer(random.nextLong(keySpace));
            for (int r = 0; r < rows; r++)
            {
                if (sketch.type() == SketchType.HYPERLOGLOG)
                {
                    final long h = crc(key, 0xFE) << 32 | crc(key, 0xFF);
                    final int p = Integer.numberOfTrailingZeros(columns);
                    final int register = (int)(h >>> (64 - p));
                    final String bits = String.format("%64s", Long.toBinaryString(h)).replace(' ', '0').substring(p);
                    final int rank = bits.indexOf('1') < 0 ? bits.length() + 1 : bits.indexOf('1') + 1;
                    cells[register] = Math.max(cells[register], rank);
                }
                else
                {
                    final int c = (int)(crc(key, r) & (columns - 1));
                    final int delta = sketch.type() == SketchType.COUNT_MIN ? 1 : ((crc(key, 0x80 | r) & 1) == 0 ?
                        1 : -1);
                    cells[c * rows + r] += delta;
                }
            }
        }
        return cells;
    }

    private static GeneratorSettings settings(final long seed)
    {
        return new GeneratorSettings().mix("sketch=1").seed(seed).switches(3).epochs(2).firstEpoch(7)
            .sketchItems(1500).keySpace(5000).recordTruth(true);
    }

    /** Per (sketch, switch, epoch): the next expected column, as the translator keeps it. */
    private record Stream(long sketchId, int switchId, long epoch)
    {
    }

    @Test
    void shouldSendEverySwitchsRealSketchColumnByColumnInOrderThroughGapsAndDuplicates()
    {
        final long seed = 99;
        final ReportGenerator generator = new ReportGenerator(DEMO, settings(seed).sketchGaps(0.02)
            .sketchDuplicates(0.02));
        final FrameDecoder decoder = new FrameDecoder().verifyUdpChecksum(true);
        final Map<Stream, Integer> expected = new HashMap<>();
        final Map<Stream, int[]> received = new HashMap<>();
        long nacked = 0;
        long duplicates = 0;
        long frames = 0;
        while (!generator.exhausted())
        {
            final int length = generator.next(frame, 0);
            frames++;
            assertEquals(FrameKind.DTA, decoder.decode(frame, 0, length), "frame " + frames + " seed " + seed);
            assertEquals(Primitive.SKETCH, generator.primitive());
            assertEquals(0x0A000201 + generator.switchId(), generator.reporterIp());
            final SketchColumnFlyweight column = decoder.sketchColumn();
            final SketchConfig sketch = DEMO.collectors().get(0).sketches().stream()
                .filter(s -> s.id() == column.sketchId()).findFirst().orElseThrow();
            assertEquals(sketch.rows(), column.rows());
            assertEquals(generator.column(), column.column());
            final Stream key = new Stream(column.sketchId(), column.switchId(), column.epoch());
            final int next = expected.getOrDefault(key, 0);
            if (column.column() > next)
            {
                nacked++;
                continue;
            }
            if (column.column() < next)
            {
                duplicates++;
                continue;
            }
            expected.put(key, next + 1);
            final int[] cells = received.computeIfAbsent(key, k -> new int[sketch.rows() * sketch.columns()]);
            for (int r = 0; r < sketch.rows(); r++)
            {
                cells[column.column() * sketch.rows() + r] = column.counter(r);
            }
        }
        assertTrue(nacked > 0 && duplicates > 0, "nacked " + nacked + " duplicates " + duplicates);
        assertEquals(3 * 3 * 2, received.size());
        long aheadFrames = 0;
        long dupFrames = 0;
        for (final SketchTraffic t : generator.sketchTraffic())
        {
            aheadFrames += t.aheadFrames();
            dupFrames += t.duplicates();
            assertEquals(2, t.truth().size());
            for (final SketchTraffic.EpochTruth truth : t.truth())
            {
                final SketchConfig sketch = t.sketch();
                final int[] merged = new int[sketch.rows() * sketch.columns()];
                for (int s = 0; s < 3; s++)
                {
                    final Stream key = new Stream(sketch.id(), s, truth.epoch());
                    assertEquals(sketch.columns(), expected.get(key), key + " sent every column");
                    final int[] model = independentSketch(sketch, seed, s, truth.epoch(), 1500, 5000);
                    assertArrayEquals(model, received.get(key), key + " seed " + seed);
                    for (int i = 0; i < merged.length; i++)
                    {
                        merged[i] = sketch.type() == SketchType.HYPERLOGLOG ? Math.max(merged[i], model[i]) :
                            merged[i] + model[i];
                    }
                }
                assertArrayEquals(merged, truth.merged(), "truth of sketch " + sketch.id() + " epoch " +
                    truth.epoch());
                assertTrue(truth.complete());
                assertArrayEquals(new int[]{ 0, 1, 2 }, truth.contributors());
                assertEquals(4500, truth.items());
            }
        }
        assertEquals(nacked, aheadFrames);
        assertEquals(duplicates, dupFrames);
        assertEquals(frames, generator.count(Primitive.SKETCH));
    }

    @Test
    void shouldInterleaveSwitchesAndKeepEpochsInOrder()
    {
        final ReportGenerator generator = new ReportGenerator(DEMO, settings(3).sketchIds(1));
        int switches = 0;
        long lastEpoch = 7;
        boolean interleaved = false;
        int previous = -1;
        while (!generator.exhausted())
        {
            generator.next(frame, 0);
            assertTrue(generator.epoch() >= lastEpoch, "epochs never go back");
            lastEpoch = generator.epoch();
            interleaved |= previous >= 0 && previous != generator.switchId() && generator.column() < 1000;
            previous = generator.switchId();
            switches |= 1 << generator.switchId();
        }
        assertEquals(8, lastEpoch);
        assertEquals(7, switches);
        assertTrue(interleaved);
        assertEquals(3 * 2 * 1024, generator.reports());
    }

    @Test
    void shouldLeaveTheLastEpochIncompleteWithAMissingSwitch()
    {
        final ReportGenerator generator = new ReportGenerator(DEMO, settings(5).sketchIds(2).missingSwitch(true));
        while (!generator.exhausted())
        {
            generator.next(frame, 0);
        }
        final SketchTraffic t = generator.sketchTraffic().get(0);
        assertEquals(3 * 2 * 1024 - 512, generator.reports());
        assertEquals(t.plainFrames(), generator.reports());
        final SketchTraffic.EpochTruth first = t.truth().get(0);
        final SketchTraffic.EpochTruth last = t.truth().get(1);
        assertTrue(first.complete());
        assertFalse(last.complete());
        assertArrayEquals(new int[]{ 0, 1 }, last.contributors());
        assertArrayEquals(new int[]{ 1024, 1024, 512 }, last.sentColumns());
        final int[] switch2 = independentSketch(t.sketch(), 5, 2, 8, 1500, 5000);
        final int[] expected = new int[4 * 1024];
        for (int s = 0; s < 3; s++)
        {
            final int[] cells = independentSketch(t.sketch(), 5, s, 8, 1500, 5000);
            for (int i = 0; i < expected.length; i++)
            {
                expected[i] += s < 2 || i < 512 * 4 ? cells[i] : 0;
            }
        }
        assertArrayEquals(expected, last.merged());
        assertNotEquals(0, Arrays.stream(switch2).skip(512 * 4).filter(v -> v != 0).count());
    }

    @Test
    void shouldBeAPureFunctionOfTheSettings()
    {
        final ReportGenerator a = new ReportGenerator(DEMO, settings(11).sketchGaps(0.05).sketchDuplicates(0.05)
            .mix("sketch=3,keywrite=1"));
        final ReportGenerator b = new ReportGenerator(DEMO, settings(11).sketchGaps(0.05).sketchDuplicates(0.05)
            .mix("sketch=3,keywrite=1"));
        final ReportGenerator c = new ReportGenerator(DEMO, settings(12).sketchGaps(0.05).sketchDuplicates(0.05)
            .mix("sketch=3,keywrite=1"));
        final UnsafeBuffer other = new UnsafeBuffer(new byte[ReportGenerator.MAX_FRAME_LENGTH]);
        final UnsafeBuffer third = new UnsafeBuffer(new byte[ReportGenerator.MAX_FRAME_LENGTH]);
        boolean differs = false;
        for (int i = 0; i < 30_000; i++)
        {
            final int la = a.next(frame, 0);
            final int lb = b.next(other, 0);
            final int lc = c.next(third, 0);
            assertEquals(la, lb);
            for (int k = 0; k < la; k++)
            {
                assertEquals(frame.getByte(k), other.getByte(k), "frame " + i + " byte " + k);
            }
            differs |= la != lc || frame.compareTo(third) != 0;
        }
        assertTrue(differs);
        assertTrue(a.count(Primitive.KEY_WRITE) > 0 && a.count(Primitive.SKETCH) > 0);
    }

    @Test
    void shouldRefuseSketchesThatAreNotConfigured()
    {
        assertThrows(GeneratorSettingsException.class, () -> new ReportGenerator(DEMO, settings(1).sketchIds(9)));
        assertThrows(GeneratorSettingsException.class, () -> new GeneratorSettings().switches(257));
        assertThrows(GeneratorSettingsException.class, () -> new GeneratorSettings().sketchGaps(1.0));
    }
}
