package io.dta.appliance.cli;

import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.CReference;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ListConfig;
import io.dta.config.SketchConfig;
import io.dta.config.WorkersConfig;
import io.dta.dpdk.Eal;
import picocli.CommandLine.ParseResult;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The options of {@code dta bench} checked against each other, then against the configuration: each check says what
 * is wrong (without the {@code dta bench: } prefix), or null when nothing is. The first problem found is the one
 * reported, in the order of the checks, so that a command line with several says the same one every time.
 */
final class BenchOptionChecks
{
    /** The fewest reports a --compare-c round measures: some thousand bursts of 32. */
    static final int MIN_REPORTS_PER_ROUND = 32_768;

    private static final int MIN_RING_SOURCE_REPORTS = 64;
    /** Primitives whose reports never cross between workers: what the C loop on W lcores can run as the workers do. */
    private static final Set<BenchPrimitive> HAND_OFF_FREE = EnumSet.of(BenchPrimitive.KEYWRITE,
        BenchPrimitive.KEYINCREMENT);

    private final BenchOptions o;
    private final ParseResult parsed;

    /**
     * @param options the options as given.
     * @param parsed  the parse, which tells an option given from one left at its default.
     */
    BenchOptionChecks(final BenchOptions options, final ParseResult parsed)
    {
        this.o = options;
        this.parsed = parsed;
    }

    /**
     * @param option an option's name.
     * @return whether the command line gave it.
     */
    boolean given(final String option)
    {
        return parsed.hasMatchedOption(option);
    }

    /**
     * The options among themselves, before the configuration is read; settles {@code --warmup} when left out.
     *
     * @return the first problem, or null.
     */
    String beforeConfiguration()
    {
        return first(this::source, this::io, this::eal, this::dpdkOnly, this::workers, this::sourceReports,
            this::rounds, this::amounts);
    }

    /**
     * The options against the configuration; settles {@code --batch} when the run sends no Append report.
     *
     * @param appliance the configuration.
     * @return the first problem, or null.
     */
    String againstConfiguration(final ApplianceConfig appliance)
    {
        if (appliance.hasNegotiatedRegions())
        {
            // As dta replay: nobody answers the REQs of negotiated regions here, so every report would wait or drop
            // (the engine refuses to start without their connections).
            return "the configuration has negotiated regions (servicePort); bench is open " +
                "loop towards the collectors and needs static regions (qpn, rkey and address configured)";
        }
        final boolean batchGiven = given("--batch");
        if (!o.capture() && BenchPrimitive.APPEND != o.primitive)
        {
            if (batchGiven)
            {
                return "--batch sets the Append batch size of --primitive append (or of an " +
                    "--in capture's Append reports); --primitive " + o.primitive.name().toLowerCase(Locale.ROOT) +
                    " sends none";
            }
            // No Append report is sent: the lists keep the configuration's batch size, which it was validated with.
            o.batch = appliance.append().batchSize();
        }
        else if (!o.capture() || batchGiven)
        {
            return batchProblem(appliance, o.batch);
        }
        return null;
    }

    /**
     * The shape of the synthetic reports of {@code --primitive} against the configuration.
     *
     * @param appliance the configuration.
     * @return the first problem, or null.
     */
    String synthetic(final ApplianceConfig appliance)
    {
        final BenchPrimitive primitive = o.primitive;
        if (given("--redundancy") && BenchPrimitive.KEYWRITE != primitive && BenchPrimitive.KEYINCREMENT != primitive)
        {
            return "--redundancy shapes the traffic of --primitive keywrite and keyincrement only";
        }
        if (o.redundancy < 1 || o.redundancy > appliance.redundancy().max())
        {
            return "--redundancy must be 1.." + appliance.redundancy().max();
        }
        if (BenchPrimitive.SKETCH != primitive && given("--switches"))
        {
            return "--switches shapes the traffic of --primitive sketch only";
        }
        if (o.switches < 1 || o.switches > SketchConfig.MAX_SWITCHES)
        {
            return "--switches must be 1.." + SketchConfig.MAX_SWITCHES;
        }
        final String missing = primitive.missingIn(appliance);
        if (null != missing)
        {
            // Reports no collector hosts would all be dropped as unroutable, a rate of drops.
            return missing;
        }
        if (o.dpdk() && BenchPrimitive.SKETCH == primitive)
        {
            // net_pcap replays the same capture for ever, so its columns' epochs come round again and the engine
            // drops them as stale: the rate would be that of a drop, not of a merge.
            return "--primitive sketch runs with --io java only (a capture replayed in a loop repeats its epochs, " +
                "which the engine drops as stale)";
        }
        return null;
    }

    @SafeVarargs
    private static String first(final Supplier<String>... checks)
    {
        return Stream.of(checks).map(Supplier::get).filter(Objects::nonNull).findFirst().orElse(null);
    }

    private String source()
    {
        if ((null == o.primitive) == (null == o.in))
        {
            return "give exactly one of --primitive (synthetic reports) and --in (a capture)";
        }
        if (o.capture())
        {
            for (final String option : new String[] { "--redundancy", "--switches", "--source-reports" })
            {
                if (given(option))
                {
                    return option + " shapes the synthetic reports of --primitive; " +
                        "with --in the capture's frames are fed as they are";
                }
            }
        }
        return null;
    }

    private String io()
    {
        if (!"java".equals(o.io) && !o.dpdk())
        {
            return "--io must be java or dpdk, not " + o.io;
        }
        if (!"pcap".equals(o.input) && !"ring".equals(o.input))
        {
            return "--input must be pcap or ring, not " + o.input;
        }
        if (o.closedLoop && o.openLoopGiven)
        {
            return "--closed-loop and --open-loop contradict each other";
        }
        if (o.closedLoop && !"java".equals(o.io))
        {
            return "--closed-loop needs --io java (through DPDK the output is a null device that never answers)";
        }
        if (o.hugepages && !o.dpdk())
        {
            return "--hugepages needs --io dpdk (the Java engine's heap takes transparent " +
                "huge pages by itself, see docs/performance.md)";
        }
        return null;
    }

    private String eal()
    {
        for (final String arg : o.userEalArgs())
        {
            if ("--vdev".equals(arg) || arg.startsWith("--vdev="))
            {
                // A device of the same name replaced the bench's own (and its rate was that of other traffic).
                return "--eal must not add devices (--vdev): the bench makes its own input " +
                    "(net_pcap0 or net_ring0) and output (net_null0) ports; give --in CAPTURE for other traffic";
            }
        }
        if (o.hugepages && o.userEalArgs().contains(Eal.NO_HUGE))
        {
            return "--hugepages and --eal " + Eal.NO_HUGE + " contradict each other";
        }
        return null;
    }

    private String dpdkOnly()
    {
        if (!o.dpdk())
        {
            // Options of the DPDK bench would be ignored by the engine bench without a word: refused like --eal.
            for (final String option : new String[] { "--input", "--source-reports" })
            {
                if (given(option))
                {
                    return option + " needs --io dpdk";
                }
            }
        }
        if (o.compareC && !o.dpdk())
        {
            return "--compare-c needs --io dpdk";
        }
        return null;
    }

    private String workers()
    {
        if (o.workers < 1 || o.workers > WorkersConfig.MAX_WORKERS)
        {
            return "--workers must be 1.." + WorkersConfig.MAX_WORKERS + ", not " + o.workers;
        }
        if (o.scaling && o.workers < 2)
        {
            return "--scaling needs --workers 2 or more";
        }
        if (o.workers > 1 && (!o.dpdk() || o.capture() || given("--input") && !"ring".equals(o.input)))
        {
            return "--workers " + o.workers + " runs with --io dpdk, its ring input and " +
                "synthetic reports (not --in or --input pcap)";
        }
        if (o.workers > 1 && o.compareC && !HAND_OFF_FREE.contains(o.primitive))
        {
            return "--compare-c --workers " + o.workers + " compares keywrite and keyincrement (the C reference " +
                "loop has no hand-offs between workers), not " + o.primitive.name().toLowerCase();
        }
        if (o.compareC && !o.capture() && !CReference.PRIMITIVES.contains(o.primitive))
        {
            return "the C reference loop has no " + o.primitive.name().toLowerCase() +
                "; --compare-c works with " + CReference.PRIMITIVES.toString().toLowerCase();
        }
        return null;
    }

    private String sourceReports()
    {
        if (o.sourceReports < 1 || o.sourceReports > 16384)
        {
            return "--source-reports must be 1..16384";
        }
        if ("ring".equals(o.input) && !o.capture() && o.sourceReports < MIN_RING_SOURCE_REPORTS)
        {
            // A burst takes up to 32 of them: with fewer than two bursts in the ring every burst would empty it, and
            // below 32 every burst would come back short, a different measurement.
            return "--source-reports must be at least " + MIN_RING_SOURCE_REPORTS +
                " with --input ring (the ring holds them all and a burst takes up to 32)";
        }
        return null;
    }

    private String rounds()
    {
        if (!o.compareC && o.workers < 2 && given("--rounds"))
        {
            return "--rounds needs --compare-c (the rounds alternate the engine and the C loop)";
        }
        if (o.rounds < 1)
        {
            return "--rounds must be positive";
        }
        if (!o.eal.isBlank() && !o.dpdk())
        {
            return "--eal needs --io dpdk (the Java engine bench starts no EAL)";
        }
        return null;
    }

    private String amounts()
    {
        if (null == o.warmup)
        {
            // An Append report leads to a WRITE every 16 reports and an ACK every 64 WRITEs, a sketch column to one
            // ACK per 512 columns: after 5 M reports their response path was still being compiled in the measured
            // phase, and the JIT's first runs of it allocated (128 bytes in some Append runs, in every sketch run).
            // Through DPDK the measured rounds alternate with C rounds and the loop is warm by then.
            o.warmup = o.dpdk() ? 5_000_000L : BenchPrimitive.SKETCH == o.primitive ? 40_000_000L : 20_000_000L;
        }
        if (o.reports <= 0 || o.warmup < 0)
        {
            return "--reports must be positive and --warmup not negative";
        }
        if (o.compareC && null == o.in && o.reports / o.rounds < MIN_REPORTS_PER_ROUND)
        {
            // A round of a few reports times the clock reads and the first burst around them, not the loops.
            return "--reports / --rounds must be at least " + MIN_REPORTS_PER_ROUND +
                " (each round measures --reports / --rounds reports, rounded down), not " + o.reports + " / " +
                o.rounds;
        }
        if (o.batch < 1 || o.batch > 16 || Integer.bitCount(o.batch) != 1)
        {
            return "--batch must be 1, 2, 4, 8 or 16";
        }
        return null;
    }

    /**
     * The configuration was validated with its own Append batch size; a list it cannot take batches of {@code
     * batchSize} in would fail the engine's start (or, for a reference ring, take a write across its end).
     */
    private static String batchProblem(final ApplianceConfig appliance, final int batchSize)
    {
        final List<CollectorConfig> collectors = appliance.collectors();
        for (int c = 0; c < collectors.size(); c++)
        {
            final List<ListConfig> lists = collectors.get(c).lists();
            for (int l = 0; l < lists.size(); l++)
            {
                final ListConfig list = lists.get(l);
                final String problem = ListConfig.lengthProblem(list.region().length(), list.layout(), batchSize);
                if (null != problem)
                {
                    return "--batch " + batchSize + " does not fit collectors[" + c + "].lists[" + l + "] (id " +
                        list.id() + "): length " + problem.replace("append.batchSize", "batch size") +
                        "; give a smaller --batch";
                }
            }
        }
        return null;
    }
}
