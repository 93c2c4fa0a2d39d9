package io.dta.collector.query;

import io.dta.codec.KeyHash;
import io.dta.config.SketchType;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SketchEstimatorsTest
{
    private final KeyHash hash = new KeyHash();

    @Test
    void shouldNeverUndercountWithCountMinAndEqualTheModelsMinimumExactly()
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            final SplittableRandom random = new SplittableRandom(seed);
            final int rows = 1 + random.nextInt(6);
            final int columns = 1 << random.nextInt(3, 10);
            final int[] cells = new int[rows * columns];
            final Map<Long, Integer> truth = new HashMap<>();
            final int items = random.nextInt(100, 5000);
            for (int i = 0; i < items; i++)
            {
                final long key = random.nextLong(2000) * 2_654_435_761L & 0xFFFF_FFFFL;
                SketchModel.add(SketchType.COUNT_MIN, rows, columns, cells, key);
                truth.merge(key, 1, Integer::sum);
            }
            for (final Map.Entry<Long, Integer> e : truth.entrySet())
            {
                final long key = e.getKey();
                long modelMin = Long.MAX_VALUE;
                for (int r = 0; r < rows; r++)
                {
                    modelMin = Math.min(modelMin, cells[SketchModel.column(key, r, columns) * rows + r]);
                }
                final long estimate = SketchEstimators.countMin(cells, rows, columns, key, hash);
                assertEquals(modelMin, estimate, "seed " + seed + " key " + key);
                assertTrue(estimate >= e.getValue(), "seed " + seed + " key " + key + " undercounted");
            }
        }
    }

    @Test
    void shouldReadCountMinCountersAsUnsigned()
    {
        final int[] cells = { -1, -2 };
        assertEquals(0xFFFF_FFFEL, SketchEstimators.countMin(cells, 2, 1, 5, hash));
    }

    @Test
    void shouldEstimateCountSketchByTheMedianOfSignCorrectedCounters()
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            final SplittableRandom random = new SplittableRandom(seed);
            final int rows = 1 + random.nextInt(7);
            final int columns = 1 << random.nextInt(2, 9);
            final int[] cells = new int[rows * columns];
            final Map<Long, Integer> truth = new HashMap<>();
            for (int i = 0, n = random.nextInt(100, 3000); i < n; i++)
            {
                final long key = random.nextLong(500);
                SketchModel.add(SketchType.COUNT_SKETCH, rows, columns, cells, key);
                truth.merge(key, 1, Integer::sum);
            }
            for (final long key : truth.keySet())
            {
                final double[] v = new double[rows];
                for (int r = 0; r < rows; r++)
                {
                    v[r] = SketchModel.sign(key, r) * (double)cells[SketchModel.column(key, r, columns) * rows + r];
                }
                Arrays.sort(v);
                final double median = rows % 2 == 1 ? v[rows / 2] : (v[rows / 2 - 1] + v[rows / 2]) / 2;
                assertEquals(median, SketchEstimators.countSketch(cells, rows, columns, key, hash), 0.0,
                    "seed " + seed + " key " + key);
            }
        }
        // No collisions: every row holds the key's exact count, whatever its sign.
        final int[] single = new int[4 * 1024];
        for (int i = 0; i < 17; i++)
        {
            SketchModel.add(SketchType.COUNT_SKETCH, 4, 1024, single, 99);
        }
        assertEquals(17.0, SketchEstimators.countSketch(single, 4, 1024, 99, hash), 0.0);
    }

    @Test
    void shouldTakeTheMeanOfTheTwoMiddleValuesForAnEvenRowCount()
    {
        assertEquals(2.5, SketchEstimators.median(new long[]{ 4, 1, 2, 3 }), 0.0);
        assertEquals(3.0, SketchEstimators.median(new long[]{ 5, 1, 3 }), 0.0);
        assertEquals(-1.5, SketchEstimators.median(new long[]{ -1, -2 }), 0.0);
    }

    @Test
    void shouldEstimateDistinctKeysWithinThreeStandardErrors()
    {
        final int[] sizes = { 500, 5_000, 40_000, 200_000 };
        for (final int columns : new int[]{ 64, 256, 1024, 4096 })
        {
            for (final int distinct : sizes)
            {
                for (long seed = 1; seed <= 3; seed++)
                {
                    final SplittableRandom random = new SplittableRandom(seed * 1000 + columns);
                    final int[] registers = new int[columns];
                    final Set<Long> keys = new HashSet<>();
                    while (keys.size() < distinct)
                    {
                        final long key = random.nextLong(1L << 32);
                        keys.add(key);
                        SketchModel.add(SketchType.HYPERLOGLOG, 1, columns, registers, key);
                        // Repeats must not change the count.
                        SketchModel.add(SketchType.HYPERLOGLOG, 1, columns, registers, key);
                    }
                    final HyperLogLogEstimate e = SketchEstimators.hyperLogLog(registers);
                    final double bound = 3 * 1.04 / Math.sqrt(columns) * distinct;
                    assertEquals(distinct, e.cardinality(), bound, "columns " + columns + " distinct " + distinct +
                        " seed " + seed + " " + e);
                }
            }
        }
    }

    @Test
    void shouldApplyTheStandardEstimatorsRangeCorrections()
    {
        final int m = 1024;
        final double alpha = 0.7213 / (1 + 1.079 / m);
        assertEquals(alpha, SketchEstimators.alpha(m), 0.0);
        assertEquals(0.697, SketchEstimators.alpha(32), 0.0);

        // All zero: raw = alpha * m, linear counting gives m ln(m/m) = 0.
        final HyperLogLogEstimate empty = SketchEstimators.hyperLogLog(new int[m]);
        assertEquals(alpha * m, empty.raw(), 1e-9);
        assertEquals(0.0, empty.cardinality(), 0.0);
        assertEquals(HyperLogLogEstimate.Correction.LINEAR_COUNTING, empty.correction());

        // Half the registers 1: V = m/2, raw = alpha m^2 / (m/2 + m/4) = 4/3 alpha m <= 2.5 m.
        final int[] half = new int[m];
        Arrays.fill(half, 0, m / 2, 1);
        final HyperLogLogEstimate linear = SketchEstimators.hyperLogLog(half);
        assertEquals(m * Math.log(2), linear.cardinality(), 1e-9);
        assertEquals(m / 2, linear.zeroRegisters());

        // All registers 5: raw = alpha m 32, no zeros, far below 2^64/30: E itself.
        final int[] fives = new int[m];
        Arrays.fill(fives, 5);
        final HyperLogLogEstimate none = SketchEstimators.hyperLogLog(fives);
        assertEquals(alpha * m * 32, none.cardinality(), 1e-6);
        assertEquals(HyperLogLogEstimate.Correction.NONE, none.correction());

        // The paper's 32-bit case: all registers 22 give raw = alpha m 2^22 ≈ 3.0e9 > 2^32/30.
        final int[] big = new int[m];
        Arrays.fill(big, 22);
        final HyperLogLogEstimate large = SketchEstimators.hyperLogLog(big, 32);
        final double raw = alpha * m * (1 << 22);
        assertEquals(raw, large.raw(), 1e-3);
        assertEquals(-Math.pow(2, 32) * Math.log(1 - raw / Math.pow(2, 32)), large.cardinality(), 1e-3);
        assertEquals(HyperLogLogEstimate.Correction.LARGE_RANGE, large.correction());
        // ... and with our 64-bit hash the same registers need no correction.
        assertEquals(HyperLogLogEstimate.Correction.NONE, SketchEstimators.hyperLogLog(big).correction());
    }
}
