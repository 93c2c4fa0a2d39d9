package io.dta.collector.query;

import io.dta.codec.KeyHash;
import io.dta.collector.layout.SketchEpochHeader;
import io.dta.collector.layout.SketchLayout;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.RegionType;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.SketchConfig;
import io.dta.config.SketchType;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SketchQueryTest
{
    @TempDir
    Path dir;

    /** Writes one epoch into a region as the translator would: header, cells, header again. */
    static void writeEpoch(final MutableDirectBuffer region, final SketchLayout layout, final long epoch,
        final int state, final int switches, final int[] contributors, final long completeColumns, final int[] cells)
    {
        final int area = (int)layout.areaOffset(epoch);
        region.setMemory(area, SketchEpochHeader.LENGTH, (byte)0);
        final SketchEpochHeader header = new SketchEpochHeader().wrap(region, area)
            .epoch(epoch).state(state).type(SketchLayout.typeCode(layout.type())).rows(layout.rows())
            .columns(layout.columns()).switches(switches).contributors(contributors.length)
            .completeColumns(completeColumns);
        for (final int s : contributors)
        {
            header.contributed(s, true);
        }
        for (int c = 0; c < layout.columns(); c++)
        {
            for (int r = 0; r < layout.rows(); r++)
            {
                region.putInt((int)layout.cellOffset(epoch, c, r), cells[c * layout.rows() + r],
                    ByteOrder.LITTLE_ENDIAN);
            }
        }
    }

    static int[] randomCells(final SplittableRandom random, final SketchType type, final int count)
    {
        final int[] cells = new int[count];
        for (int i = 0; i < count; i++)
        {
            cells[i] = switch (type)
            {
                case COUNT_MIN -> random.nextInt();
                case COUNT_SKETCH -> random.nextInt(-1000, 1000);
                case HYPERLOGLOG -> random.nextInt(0, 40);
            };
        }
        return cells;
    }

    @ParameterizedTest
    @EnumSource(SketchType.class)
    void shouldReadTheMergedMatrixOfEveryEpochInTheRingWithItsHeader(final SketchType type)
    {
        final int rows = type == SketchType.HYPERLOGLOG ? 1 : 3;
        final SketchLayout layout = new SketchLayout(type, rows, 16, 3);
        final UnsafeBuffer region = new UnsafeBuffer(new byte[(int)layout.regionBytes()]);
        final SplittableRandom random = new SplittableRandom(42);
        final int[][] written = new int[3][];
        for (int e = 7; e < 10; e++)
        {
            written[e % 3] = randomCells(random, type, rows * 16);
            writeEpoch(region, layout, e, e == 9 ? SketchLayout.STATE_INCOMPLETE : SketchLayout.STATE_COMPLETE, 5,
                e == 9 ? new int[]{ 0, 3 } : new int[]{ 0, 1, 2, 3, 4 }, e == 9 ? 4 : 16, written[e % 3]);
        }
        final SketchQuery query = new SketchQuery(region, layout);
        for (int e = 7; e < 10; e++)
        {
            final SketchEpoch epoch = query.read(e);
            assertEquals(e == 9 ? SketchEpochState.INCOMPLETE : SketchEpochState.COMPLETE, epoch.state(), "epoch " + e);
            assertEquals(e != 9, epoch.complete());
            assertEquals(e, epoch.epoch());
            assertEquals(5, epoch.switches());
            assertArrayEquals(e == 9 ? new int[]{ 0, 3 } : new int[]{ 0, 1, 2, 3, 4 }, epoch.contributorIds());
            assertEquals(e == 9 ? 2 : 5, epoch.contributors());
            assertEquals(e == 9 ? 4 : 16, epoch.completeColumns());
            assertEquals(1, epoch.attempts());
            final long[][] matrix = epoch.matrix();
            assertEquals(rows, matrix.length);
            for (int r = 0; r < rows; r++)
            {
                assertEquals(16, matrix[r].length);
                for (int c = 0; c < 16; c++)
                {
                    final int raw = written[e % 3][c * rows + r];
                    assertEquals(type == SketchType.COUNT_SKETCH ? raw : raw & 0xFFFF_FFFFL, matrix[r][c],
                        "epoch " + e + " cell " + r + "," + c);
                }
            }
        }
    }

    @Test
    void shouldPutCellsColumnMajorAfterA64ByteHeaderInAreaEpochModEpochs()
    {
        final SketchLayout layout = new SketchLayout(SketchType.COUNT_MIN, 4, 1024, 2);
        assertEquals(64 + 4 * 1024 * 4, layout.epochBytes());
        assertEquals(2 * (64 + 4 * 1024 * 4), layout.regionBytes());
        assertEquals(1, layout.area(5));
        assertEquals(0, layout.area(0xFFFF_FFFEL));
        assertEquals(layout.epochBytes() + 64 + (7 * 4 + 2) * 4, layout.cellOffset(3, 7, 2));
        assertEquals(32896, SketchLayout.of(ConfigDefaults.load().collectors().get(0).sketches().get(0)).regionBytes());
    }

    @Test
    void shouldReportAnEpochNeverWrittenOrOverwrittenAsAbsentNotZeros()
    {
        final SketchLayout layout = new SketchLayout(SketchType.COUNT_MIN, 2, 8, 2);
        final UnsafeBuffer region = new UnsafeBuffer(new byte[(int)layout.regionBytes()]);
        final SketchQuery query = new SketchQuery(region, layout);

        final SketchEpoch never = query.read(0);
        assertEquals(SketchEpochState.ABSENT, never.state());
        assertFalse(never.hasCells());
        assertEquals(0, never.areaState());

        writeEpoch(region, layout, 6, SketchLayout.STATE_COMPLETE, 1, new int[]{ 0 }, 8, new int[16]);
        final SketchEpoch overwritten = query.read(4);
        assertEquals(SketchEpochState.ABSENT, overwritten.state());
        assertEquals(6, overwritten.areaEpoch());
        assertEquals(SketchLayout.STATE_COMPLETE, overwritten.areaState());
        assertEquals(0, overwritten.cells().length);
        assertEquals(SketchEpochState.COMPLETE, query.read(6).state());
        assertThrows(IllegalArgumentException.class, () -> query.estimate(overwritten, 1));
    }

    @Test
    void shouldReportAnOpenEpochAsOpenWithItsCellsSoFar()
    {
        final SketchLayout layout = new SketchLayout(SketchType.COUNT_SKETCH, 2, 8, 2);
        final UnsafeBuffer region = new UnsafeBuffer(new byte[(int)layout.regionBytes()]);
        final int[] cells = new int[16];
        cells[3] = -5;
        writeEpoch(region, layout, 1, SketchLayout.STATE_OPEN, 2, new int[0], 1, cells);
        final SketchEpoch epoch = new SketchQuery(region, layout).read(1);
        assertEquals(SketchEpochState.OPEN, epoch.state());
        assertEquals(-5, epoch.counter(1, 1));
        assertEquals(0, epoch.contributorIds().length);
    }

    @Test
    void shouldReportAHeaderOfAnotherShapeAsInvalid()
    {
        final SketchLayout layout = new SketchLayout(SketchType.COUNT_MIN, 2, 8, 2);
        final UnsafeBuffer region = new UnsafeBuffer(new byte[(int)layout.regionBytes()]);
        writeEpoch(region, layout, 1, SketchLayout.STATE_COMPLETE, 1, new int[]{ 0 }, 8, new int[16]);
        new SketchEpochHeader().wrap(region, (int)layout.areaOffset(1)).rows(3);
        final SketchEpoch epoch = new SketchQuery(region, layout).read(1);
        assertEquals(SketchEpochState.INVALID, epoch.state());
        assertTrue(epoch.problem().contains("3 rows"), epoch.problem());
        new SketchEpochHeader().wrap(region, (int)layout.areaOffset(1)).rows(2).type(SketchLayout.TYPE_HYPERLOGLOG);
        assertEquals(SketchEpochState.INVALID, new SketchQuery(region, layout).read(1).state());
    }

    /** A region whose header a "writer" changes whenever the reader reads the first cell of area 0. */
    private static final class ChangingRegion extends UnsafeBuffer
    {
        private final int firstCell;
        private int changesLeft;

        ChangingRegion(final byte[] bytes, final int changes)
        {
            super(bytes);
            this.firstCell = SketchLayout.HEADER_LENGTH;
            this.changesLeft = changes;
        }

        @Override
        public int getInt(final int index, final ByteOrder byteOrder)
        {
            if (index == firstCell && changesLeft > 0)
            {
                changesLeft--;
                final SketchEpochHeader header = new SketchEpochHeader().wrap(this, 0);
                header.completeColumns(header.completeColumns() + 1).state(SketchLayout.STATE_COMPLETE);
            }
            return super.getInt(index, byteOrder);
        }
    }

    @Test
    void shouldRetryATornReadAndReportTornWhenTheHeaderKeepsChanging()
    {
        final SketchLayout layout = new SketchLayout(SketchType.COUNT_MIN, 1, 4, 1);
        final int[] cells = { 1, 2, 3, 4 };

        final ChangingRegion once = new ChangingRegion(new byte[(int)layout.regionBytes()], 1);
        writeEpoch(once, layout, 3, SketchLayout.STATE_OPEN, 1, new int[0], 0, cells);
        final SketchEpoch retried = new SketchQuery(once, layout).read(3);
        assertEquals(SketchEpochState.COMPLETE, retried.state());
        assertEquals(2, retried.attempts());
        assertEquals(1, retried.completeColumns());

        final ChangingRegion always = new ChangingRegion(new byte[(int)layout.regionBytes()], Integer.MAX_VALUE);
        writeEpoch(always, layout, 3, SketchLayout.STATE_OPEN, 1, new int[0], 0, cells);
        final SketchEpoch torn = new SketchQuery(always, layout).read(3);
        assertEquals(SketchEpochState.TORN, torn.state());
        assertEquals(SketchQuery.READ_ATTEMPTS, torn.attempts());
        assertNotNull(torn.problem());
    }

    @Test
    void shouldHashExactlyAsDocumented()
    {
        final SplittableRandom random = new SplittableRandom(7);
        final KeyHash hash = new KeyHash();
        for (int i = 0; i < 5000; i++)
        {
            final long key = random.nextLong(1L << 32);
            final int row = random.nextInt(64);
            final int columns = 1 << random.nextInt(17);
            final String why = "key " + key + " row " + row + " columns " + columns + " (seed 7)";
            assertEquals(SketchModel.column(key, row, columns), SketchLayout.column(hash, key, row, columns), why);
            assertEquals(SketchModel.sign(key, row), SketchLayout.sign(hash, key, row), why);
            final long h = SketchLayout.hllHash(hash, key);
            assertEquals(SketchModel.hllHash(key), h, why);
            final int[] model = new int[columns];
            SketchModel.add(SketchType.HYPERLOGLOG, 1, columns, model, key);
            final int register = SketchLayout.hllRegister(h, columns);
            assertEquals(model[register], SketchLayout.hllRank(h, columns), why);
        }
        assertEquals(64 - 4 + 1, SketchLayout.hllRank(0xF000_0000_0000_0000L, 16));
        assertEquals(65, SketchLayout.hllRank(0, 1));
        assertEquals(15, SketchLayout.hllRegister(0xF000_0000_0000_0000L, 16));
        assertEquals(1, SketchLayout.hllRank(0x0800_0000_0000_0000L, 16));
    }

    @Test
    void shouldAnswerSketchQueriesFromAStore() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final CollectorConfig collector = config.collectors().get(0);
        final SketchConfig hll = StoreQueries.sketchConfig(collector, 3);
        assertNotNull(hll);
        final SketchLayout layout = SketchLayout.of(hll);
        final int[] registers = new int[hll.columns()];
        for (long key = 0; key < 3000; key++)
        {
            SketchModel.add(SketchType.HYPERLOGLOG, 1, hll.columns(), registers, key * 7919);
        }
        try (CollectorStore writer = CollectorStore.create(dir, config, collector);
            CollectorStore reader = CollectorStore.openReadOnly(dir, config, collector))
        {
            writeEpoch(writer.region(RegionType.SKETCH, 3).buffer(), layout, 12, SketchLayout.STATE_COMPLETE, 1,
                new int[]{ 0 }, hll.columns(), registers);
            final StoreQueries queries = new StoreQueries(config, reader);
            assertNull(queries.sketch(99));
            final SketchQuery query = queries.sketch(3);
            final SketchEpoch epoch = query.read(12);
            assertEquals(SketchEpochState.COMPLETE, epoch.state());
            final HyperLogLogEstimate estimate = query.cardinality(epoch);
            assertEquals(3000, estimate.cardinality(), 3000 * 3 * estimate.standardError());
            assertThrows(IllegalArgumentException.class, () -> query.estimate(epoch, 1));
            assertThrows(IllegalArgumentException.class, () -> queries.sketch(1).cardinality(epoch));
        }
    }
}
