package io.dta.appliance.cli;

import io.dta.appliance.dpdk.DpdkBench;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code dta bench --compare-c} option checks that need no EAL, and the median the comparison reports.
 */
class BenchCompareOptionsTest
{
    @Test
    void shouldRefuseCompareCWithoutDpdk()
    {
        assertEquals(2, new CommandLine(new DtaCommand()).execute("bench", "--primitive", "keywrite", "--compare-c"));
    }

    @Test
    void shouldRefuseTheRingInputWithoutDpdk()
    {
        assertEquals(2, new CommandLine(new DtaCommand())
            .execute("bench", "--primitive", "keywrite", "--input", "ring"));
    }

    @Test
    void shouldRefuseAnUnknownInput()
    {
        assertEquals(2, new CommandLine(new DtaCommand())
            .execute("bench", "--io", "dpdk", "--primitive", "keywrite", "--input", "tap"));
    }

    @Test
    void shouldRefuseZeroRounds()
    {
        assertEquals(2, new CommandLine(new DtaCommand())
            .execute("bench", "--io", "dpdk", "--primitive", "keywrite", "--compare-c", "--rounds", "0"));
    }

    @Test
    void shouldRefuseSketchThroughDpdkWhereTheLoopedCaptureRepeatsItsEpochs()
    {
        // Refused before any EAL starts: a rate of stale-epoch drops would pass for a merge rate.
        assertEquals(2, new CommandLine(new DtaCommand()).execute("bench", "--io", "dpdk", "--primitive", "sketch"));
    }

    @Test
    void shouldTakeTheMiddleOfTheSortedRounds()
    {
        assertEquals(3.0, DpdkBench.median(new double[] { 5, 1, 3 }));
        assertEquals(2.5, DpdkBench.median(new double[] { 4, 1, 3, 2 }));
        final long seed = 17;
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 2000; i++)
        {
            final double[] values = new double[1 + 2 * random.nextInt(5)];
            for (int j = 0; j < values.length; j++)
            {
                values[j] = random.nextDouble();
            }
            final double median = DpdkBench.median(values);
            int below = 0;
            int above = 0;
            for (final double v : values)
            {
                below += v < median ? 1 : 0;
                above += v > median ? 1 : 0;
            }
            assertEquals(below, above, "seed " + seed + ", case " + i);
        }
    }
}
