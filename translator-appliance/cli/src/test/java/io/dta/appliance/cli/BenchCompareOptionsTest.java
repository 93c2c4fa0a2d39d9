package io.dta.appliance.cli;

import io.dta.appliance.bench.DpdkBench;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta bench} option checks that need no EAL ({@code --compare-c}, {@code --input}, {@code --closed-loop},
 * {@code --hugepages}), and the median the comparison reports.
 */
class BenchCompareOptionsTest
{
    @Test
    void shouldRefuseCompareCWithoutDpdk()
    {
        refused("--compare-c needs --io dpdk", "bench", "--primitive", "keywrite", "--compare-c");
    }

    @Test
    void shouldRefuseComparingTheCLoopOnWorkersForAPrimitiveThatHandsOff()
    {
        refused("--compare-c --workers 2 compares keywrite and keyincrement (the C reference loop has no hand-offs " +
            "between workers), not append", "bench", "--io", "dpdk", "--primitive", "append", "--workers", "2",
            "--compare-c");
        refused("--workers 2 runs with --io dpdk, its ring input and synthetic reports (not --in or --input pcap)",
            "bench", "--io", "dpdk", "--primitive", "keywrite", "--workers", "2", "--input", "pcap");
    }

    @Test
    void shouldRefuseTheRingInputWithoutDpdk()
    {
        refused("--input needs --io dpdk", "bench", "--primitive", "keywrite", "--input", "ring");
    }

    @Test
    void shouldRefuseTheOptionsOfTheDpdkBenchThatTheEngineBenchWouldIgnore()
    {
        refused("--input needs --io dpdk", "bench", "--primitive", "keywrite", "--input", "pcap");
        refused("--source-reports needs --io dpdk", "bench", "--primitive", "keywrite", "--source-reports", "100");
        refused("--rounds needs --compare-c", "bench", "--primitive", "keywrite", "--rounds", "3");
        refused("--rounds needs --compare-c", "bench", "--io", "dpdk", "--primitive", "keywrite", "--rounds", "3");
        refused("--switches shapes the traffic of --primitive sketch only", "bench", "--io", "dpdk", "--primitive",
            "postcard", "--switches", "3");
        refused("--switches shapes the traffic of --primitive sketch only", "bench", "--primitive", "keywrite",
            "--switches", "3");
    }

    @Test
    void shouldRefuseAnUnknownInput()
    {
        refused("--input must be pcap or ring, not tap", "bench", "--io", "dpdk", "--primitive", "keywrite", "--input",
            "tap");
    }

    @Test
    void shouldRefuseARingInputThatABurstCouldEmpty()
    {
        refused("--source-reports must be at least 64 with --input ring", "bench", "--io", "dpdk", "--primitive",
            "keywrite", "--input", "ring", "--source-reports", "63");
    }

    @Test
    void shouldRefuseZeroRounds()
    {
        refused("--rounds must be positive", "bench", "--io", "dpdk", "--primitive", "keywrite", "--compare-c",
            "--rounds", "0");
    }

    @Test
    void shouldRefuseRoundsTooShortToMeasure()
    {
        // Rounds of one report each would measure the clock, not the loop.
        refused("--reports / --rounds must be at least 32768", "bench", "--io", "dpdk", "--primitive", "keywrite",
            "--compare-c", "--reports", "3", "--rounds", "5");
        refused("--reports / --rounds must be at least 32768 (each round measures --reports / --rounds reports, " +
            "rounded down), not 163839 / 5", "bench", "--io", "dpdk", "--primitive", "keywrite", "--compare-c",
            "--reports", "163839", "--rounds", "5");
    }

    @Test
    void shouldRefuseAnEalLineWithoutDpdk()
    {
        // The Java engine starts no EAL: the line would be ignored without a word.
        refused("--eal needs --io dpdk", "bench", "--primitive", "keywrite", "--eal", "-l 1");
    }

    @Test
    void shouldRefuseSketchThroughDpdkWhereTheLoopedCaptureRepeatsItsEpochs()
    {
        // Refused before any EAL starts: a rate of stale-epoch drops would pass for a merge rate.
        refused("--primitive sketch runs with --io java only", "bench", "--io", "dpdk", "--primitive", "sketch");
    }

    @Test
    void shouldRunOpenLoopByDefaultAndSayInTheSummaryWhichLoopRan()
    {
        // The bench by default: frames out to a discarding sink, which answers nothing.
        final CliRunner.Result open = CliRunner.run("bench", "--primitive", "keyincrement", "--reports", "2000",
            "--warmup", "0", "--json");
        assertEquals(0, open.exitCode(), open.err());
        assertTrue(open.out().contains("\"openLoop\":true"), open.out());
        assertTrue(open.out().contains("\"reports\":2000,") && open.out().contains("\"totalDrops\":0,"), open.out());
        final CliRunner.Result explicit = CliRunner.run("bench", "--primitive", "keyincrement", "--open-loop",
            "--reports", "2000", "--warmup", "0", "--json");
        assertEquals(0, explicit.exitCode(), explicit.err());
        assertTrue(explicit.out().contains("\"openLoop\":true"), explicit.out());
        final CliRunner.Result closed = CliRunner.run("bench", "--primitive", "keyincrement", "--closed-loop",
            "--reports", "2000", "--warmup", "0", "--json");
        assertEquals(0, closed.exitCode(), closed.err());
        assertTrue(closed.out().contains("\"openLoop\":false"), closed.out());
        final CliRunner.Result openText = CliRunner.run("bench", "--primitive", "keywrite", "--reports", "100",
            "--warmup", "0");
        assertTrue(openText.out().startsWith("keywrite (open loop): "), openText.out());
        final CliRunner.Result closedText = CliRunner.run("bench", "--primitive", "keywrite", "--closed-loop",
            "--reports", "100", "--warmup", "0");
        assertTrue(closedText.out().startsWith("keywrite (closed loop): "), closedText.out());
    }

    @Test
    void shouldRefuseHugepagesWithoutDpdkOrBesideNoHuge()
    {
        refused("--hugepages needs --io dpdk", "bench", "--primitive", "keywrite", "--hugepages");
        refused("--hugepages and --eal --no-huge contradict each other", "bench", "--io", "dpdk", "--primitive",
            "keywrite", "--hugepages", "--eal", "-l 0 --no-huge");
    }

    @Test
    void shouldRefuseBothLoopsAndAClosedLoopThroughDpdk()
    {
        refused("--closed-loop and --open-loop contradict each other", "bench", "--primitive", "keywrite",
            "--closed-loop", "--open-loop");
        refused("--closed-loop needs --io java", "bench", "--io", "dpdk", "--primitive", "keywrite",
            "--closed-loop");
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

    /**
     * Through the command line users get (case-insensitive primitives): the option's own refusal, exit 2, not a
     * parse error of some other option.
     */
    private static void refused(final String message, final String... args)
    {
        final CliRunner.Result r = CliRunner.run(args);
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("dta bench: " + message), r.err());
    }
}
