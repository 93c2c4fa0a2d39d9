package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.HotSpotDiagnosticMXBean;
import io.dta.appliance.bench.BenchContext;
import io.dta.appliance.bench.BenchInput;
import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.EngineBench;
import io.dta.appliance.bench.CReference;
import io.dta.appliance.bench.DpdkBench;
import io.dta.appliance.bench.WorkersBench;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.io.RunFiles;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.FileErrors;
import io.dta.config.ListConfig;
import io.dta.dpdk.DpdkException;
import io.dta.dpdk.DpdkLibrary;
import io.dta.dpdk.Eal;
import io.dta.dpdk.Hugepages;
import io.dta.config.SketchConfig;
import io.dta.config.WorkersConfig;
import org.agrona.DirectBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToLongFunction;

/**
 * {@code dta bench}: the engine alone on one thread, or through DPDK on one core, after a warm-up; synthetic reports of
 * one primitive ({@code --primitive}) or every frame of a capture ({@code --in}), fed round and round.
 */
@Command(
    name = "bench",
    header = "Measure the translation engine: alone on one thread, or through DPDK on one core.",
    mixinStandardHelpOptions = true,
    description = {
        "Measure the translation engine alone on one thread: pre-built report frames in memory, frames out to a " +
            "discarding sink that nobody answers (open loop, as dta replay without --responses), or with " +
            "--closed-loop the collector's ACKs and ATOMIC ACKs answered as its soft responder would. Prints " +
            "reportsPerSecond, roceFramesOutPerSecond, allocatedBytesPerReport (this thread's allocation over the measured " +
            "phase), gcCount, reportsPerCpuSecond (over the thread's CPU time: robust on a shared machine; through " +
            "DPDK with --compare-c only) and whether Agrona's bounds checks were on (agronaBoundsChecks; bin/dta " +
            "turns them off for bench; see docs/performance.md).",
        "The reports are synthetic ones of one --primitive, addressed to the first collector of the configuration " +
            "that has that primitive's region (a Key-Write store, a Key-Increment counter store, a list, a postcard " +
            "store, a sketch; refused when none has it), or with --in every frame of a capture (your traffic), fed " +
            "round and round in capture order; then the drops by reason over the measured phase are printed too. " +
            "totalDrops counts what the engine dropped while measuring, never in the warm-up, and drops names the " +
            "reasons.",
        "With --baseline DIR the rounds' rates of this build and of DIR's are compared (see docs/perf-regression.md)." },
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = { "0:measured; with --baseline: no regression (the ratio of medians is within --max-regression)",
        "1:the benchmark could not run (a round failed, a file could not be read or written)",
        "2:bad options or configuration",
        "3:with --baseline: a regression: this build is slower than the baseline by more than --max-regression, " +
            "and so is the whole 95 %% interval",
        "4:with --baseline: inconclusive: slower than allowed by the medians, but the interval reaches into the " +
            "allowance (more --rounds, or a quieter machine)" })
public final class BenchCommand implements Callable<Integer>
{
    @Mixin
    private ConfigOption config = new ConfigOption();

    @Spec
    private CommandSpec spec;

    @Option(names = "--primitive", paramLabel = "keywrite|keyincrement|append|postcard|sketch",
        description = "primitive of the synthetic reports to drive (or --in). They go to the first collector of " +
            "the configuration that has the primitive's region (keyWrite, keyIncrement, lists, postcards, sketches); " +
            "a configuration where none has it is refused")
    private BenchPrimitive primitive;

    @Option(names = "--in", paramLabel = "REPORTS.pcap", description =
        "instead of --primitive: every frame of this capture (pcap or pcapng, as dta replay --in takes; reports, " +
        "responses, anything) loaded once into memory and fed round and round in capture order, translated with " +
        "--config. --reports and --warmup then count frames fed; reports and reportsPerSecond count the DTA " +
        "reports among them, and the drops by reason over the measured phase are printed. Repeated traffic is " +
        "what it is: after the first round, sequenced reports are duplicates and sketch epochs stale (see " +
        "docs/performance.md)")
    private Path in;

    /** The fewest reports a --compare-c round measures: some thousand bursts of 32. */
    static final int MIN_REPORTS_PER_ROUND = 32_768;

    @Option(names = "--reports", defaultValue = "20000000",
        description = "reports measured; with --in, frames of the capture fed (default: ${DEFAULT-VALUE})")
    private long reports;

    @Option(names = "--warmup", description = "reports (with --in: frames) fed before measuring (default: 20000000, " +
        "sketch 40000000, so that even rare paths are compiled, the responses' with --closed-loop; 5000000 with " +
        "--io dpdk)")
    private Long warmup;

    @Option(names = "--redundancy", defaultValue = "1",
        description = "N of the synthetic Key-Write / Key-Increment reports (default: ${DEFAULT-VALUE}; only with " +
            "--primitive keywrite or keyincrement)")
    private int redundancy;

    @Option(names = "--batch", defaultValue = "16", description = "Append batch size of --primitive append, " +
        "overriding the configuration's (default: ${DEFAULT-VALUE}; with --in, the configuration's own unless given; " +
        "every list must take batches of it)")
    private int batch;

    @Option(names = "--closed-loop", description = "with --io java: the collector's answers are modelled, as a " +
        "live translator receives them from a soft-RoCE responder (an ACK per AckReq'd WRITE, for keyincrement one " +
        "ATOMIC ACK per report, decoded and ICRC-checked by the engine). Without it the sink discards and nobody " +
        "answers (open loop, as dta replay without --responses and --io dpdk run the engine)")
    private boolean closedLoop;

    @Option(names = "--open-loop", description = "nobody answers: the default, accepted for scripts that say so")
    private boolean openLoopGiven;

    @Option(names = "--io", defaultValue = "java", paramLabel = "java|dpdk", description =
        "java (default): engine alone; dpdk: through DPDK on one core, net_pcap (infinite_rx) or net_ring in " +
        "(--input), net_null out, open loop (needs DPDK 22.11; runs as any user on 4 KB pages, --hugepages needs a " +
        "hugetlbfs mount the user can write)")
    private String io;

    private static final int MIN_RING_SOURCE_REPORTS = 64;

    @Option(names = "--input", defaultValue = "pcap", paramLabel = "pcap|ring", description =
        "with --io dpdk: where the reports come from. pcap (default): a net_pcap port replaying a capture forever " +
        "(one copy per packet into a fresh mbuf); ring: a net_ring port over mbufs filled once and recycled without " +
        "copies (an extra reference each, re-enqueued once per duty cycle by the same native feeder for Java and C), " +
        "closer to a NIC that DMAs into mbufs")
    private String input;

    @Option(names = "--switches", defaultValue = "" + EngineBench.DEFAULT_SKETCH_SWITCHES,
        description = "sketch: switches contributing to the first sketch of the first collector with a sketch, " +
            "each sending its " +
            "columns in turn, epochs rolling over (default: ${DEFAULT-VALUE}; not with --in)")
    private int switches;

    @Option(names = "--compare-c", description =
        "with --io dpdk: also measure the C reference loop (perf/target/native/libdta_cref.so: same parsing, frames " +
        "and ICRC in C) in rounds alternating with the engine's on the same EAL and ports; prints both medians " +
        "(reportsPerSecond, referenceReportsPerSecond) and their ratio. With --in both read the same frames, but the " +
        "C loop translates no sequence-tracked, essential or Sketch-Merge report: its counters are printed " +
        "(reference). When the two loops did unequal work (collector responses in the capture, reports the C loop " +
        "does not handle, reports the engine dropped after translating them, drops or frames out that differ) a " +
        "warning says so, and unequalWork in the JSON")
    private boolean compareC;

    @Option(names = "--rounds", defaultValue = "5",
        description = "with --compare-c: rounds of each side, --reports / rounds reports each (with --in frames, " +
            "rounded up to whole passes of the capture; default: ${DEFAULT-VALUE}); with --baseline: rounds of each " +
            "build, each a whole bench run of its own")
    private int rounds;

    @Option(names = "--source-reports", defaultValue = "4096", description =
        "with --io dpdk: distinct reports the input repeats (1..16384, default: ${DEFAULT-VALUE}); net_pcap copies " +
        "each from its stored mbuf, so fewer stay in the caches and the input costs less; the ring holds them all " +
        "(at least 64 with --input ring, so a burst of 32 never empties it). Not with --in, whose input holds every " +
        "frame of the capture (repeated whole to at least 64)")
    private int sourceReports;

    @Option(names = "--eal", paramLabel = "ARGS", preprocessor = EalLinePreprocessor.class,
        description = "extra EAL arguments for --io dpdk, separated by spaces (e.g. \"-l 1\")")
    private String eal = "";

    @Option(names = "--hugepages", description = "with --io dpdk: run the EAL on the host's hugepages (" +
        DpdkBench.EAL_MEMORY_MB + " MB of them, and a hugetlbfs mount) instead of --no-huge's 4 KB pages, as a " +
        "production DPDK deployment does; an --eal hugepage option (--huge-dir, --socket-mem, ...) does the same")
    private boolean hugepages;

    @Option(names = "--workers", defaultValue = "1", paramLabel = "W", description = "with --io dpdk: workers, " +
        "each on an EAL lcore of its own (-l 0-(W-1) unless --eal gives a core list) with its own input queue (a " +
        "net_ring ring filled with the reports RSS gives it), its own tx queue, engine and QPs, joined by hand-off " +
        "queues as dta run's are; --reports and --warmup are shared among them (default: ${DEFAULT-VALUE})")
    private int workers;

    @Option(names = "--scaling", description = "with --workers W: also measure one worker (the same code on a queue " +
        "of its own holding every report) in rounds alternating with the W workers' rounds in the same EAL, and " +
        "print both medians and their ratio (--rounds rounds each)")
    private boolean scaling;

    @Option(names = "--json", description = "print one JSON object: the result, the context it was measured in " +
        "(version, commit, JVM and its flags, CPU, kernel, DPDK, configuration digest, time) and every round's figures")
    private boolean json;

    @Option(names = "--baseline", paramLabel = "DIR", description = "compare this build with another: DIR is an " +
        "unpacked release archive or a source checkout (any directory with an executable bin/dta). Both run this " +
        "same benchmark in alternating rounds (--rounds each), every round in a JVM of its own started by its own " +
        "launcher; prints each round's rates, candidate / baseline of the medians with a 95 %% bootstrap interval, " +
        "and a verdict as the exit status (below)")
    private Path baseline;

    @Option(names = "--max-regression", paramLabel = "PCT", defaultValue = "5", description = "with --baseline: how " +
        "much slower than the baseline this build may be, in percent (default: ${DEFAULT-VALUE})")
    private double maxRegression;

    @Option(names = "--report", paramLabel = "FILE.html", description = "with --baseline: also write one " +
        "self-contained HTML file (inline SVG charts): rates per round, the ratio and its interval, both contexts")
    private Path report;

    private boolean onHugepages;

    /**
     * {@inheritDoc}
     */
    @Override
    public Integer call() throws Exception
    {
        // SIGINT and SIGTERM end the JVM through its shutdown hooks, which say so in one line as dta replay does (a
        // bench writes no output file, and its temporary capture is deleted on exit).
        try (RunFiles signalled = RunFiles.onSignal("bench", null, System.err))
        {
            return null == baseline && null == report ? bench() : BaselineOptions.gate(baseline, report,
                maxRegression, rounds, json, spec.commandLine().getParseResult().originalArgs());
        }
    }

    private int bench() throws Exception
    {
        if ((null == primitive) == (null == in))
        {
            System.err.println("dta bench: give exactly one of --primitive (synthetic reports) and --in (a capture)");
            return 2;
        }
        final boolean capture = null != in;
        if (capture)
        {
            for (final String option : new String[] { "--redundancy", "--switches", "--source-reports" })
            {
                if (spec.commandLine().getParseResult().hasMatchedOption(option))
                {
                    System.err.println("dta bench: " + option + " shapes the synthetic reports of --primitive; " +
                        "with --in the capture's frames are fed as they are");
                    return 2;
                }
            }
        }
        if (!"java".equals(io) && !"dpdk".equals(io))
        {
            System.err.println("dta bench: --io must be java or dpdk, not " + io);
            return 2;
        }
        if (!"pcap".equals(input) && !"ring".equals(input))
        {
            System.err.println("dta bench: --input must be pcap or ring, not " + input);
            return 2;
        }
        if (closedLoop && openLoopGiven)
        {
            System.err.println("dta bench: --closed-loop and --open-loop contradict each other");
            return 2;
        }
        if (closedLoop && !"java".equals(io))
        {
            System.err.println("dta bench: --closed-loop needs --io java (through DPDK the output is a null device " +
                "that never answers)");
            return 2;
        }
        if (hugepages && !"dpdk".equals(io))
        {
            System.err.println("dta bench: --hugepages needs --io dpdk (the Java engine's heap takes transparent " +
                "huge pages by itself, see docs/performance.md)");
            return 2;
        }
        for (final String arg : userEalArgs())
        {
            if ("--vdev".equals(arg) || arg.startsWith("--vdev="))
            {
                // A device of the same name replaced the bench's own (and its rate was that of other traffic).
                System.err.println("dta bench: --eal must not add devices (--vdev): the bench makes its own input " +
                    "(net_pcap0 or net_ring0) and output (net_null0) ports; give --in CAPTURE for other traffic");
                return 2;
            }
        }
        if (hugepages && userEalArgs().contains(Eal.NO_HUGE))
        {
            System.err.println("dta bench: --hugepages and --eal " + Eal.NO_HUGE + " contradict each other");
            return 2;
        }
        if (!"dpdk".equals(io))
        {
            // Options of the DPDK bench would be ignored by the engine bench without a word: refused like --eal.
            for (final String option : new String[] { "--input", "--source-reports" })
            {
                if (spec.commandLine().getParseResult().hasMatchedOption(option))
                {
                    System.err.println("dta bench: " + option + " needs --io dpdk");
                    return 2;
                }
            }
        }
        if (compareC && !"dpdk".equals(io))
        {
            System.err.println("dta bench: --compare-c needs --io dpdk");
            return 2;
        }
        if (workers < 1 || workers > WorkersConfig.MAX_WORKERS)
        {
            System.err.println("dta bench: --workers must be 1.." + WorkersConfig.MAX_WORKERS + ", not " +
                workers);
            return 2;
        }
        if (scaling && workers < 2)
        {
            System.err.println("dta bench: --scaling needs --workers 2 or more");
            return 2;
        }
        if (workers > 1 && (!"dpdk".equals(io) || compareC || capture ||
            spec.commandLine().getParseResult().hasMatchedOption("--input") && !"ring".equals(input)))
        {
            System.err.println("dta bench: --workers " + workers + " runs with --io dpdk, its ring input and " +
                "synthetic reports (not --compare-c, --in or --input pcap)");
            return 2;
        }
        if (compareC && !capture && !CReference.PRIMITIVES.contains(primitive))
        {
            System.err.println("dta bench: the C reference loop has no " + primitive.name().toLowerCase() +
                "; --compare-c works with " + CReference.PRIMITIVES.toString().toLowerCase());
            return 2;
        }
        if (sourceReports < 1 || sourceReports > 16384)
        {
            System.err.println("dta bench: --source-reports must be 1..16384");
            return 2;
        }
        if ("ring".equals(input) && !capture && sourceReports < MIN_RING_SOURCE_REPORTS)
        {
            // A burst takes up to 32 of them: with fewer than two bursts in the ring every burst would empty it, and
            // below 32 every burst would come back short, a different measurement.
            System.err.println("dta bench: --source-reports must be at least " + MIN_RING_SOURCE_REPORTS +
                " with --input ring (the ring holds them all and a burst takes up to 32)");
            return 2;
        }
        if (!compareC && workers < 2 && spec.commandLine().getParseResult().hasMatchedOption("--rounds"))
        {
            System.err.println("dta bench: --rounds needs --compare-c (the rounds alternate the engine and the C " +
                "loop)");
            return 2;
        }
        if (rounds < 1)
        {
            System.err.println("dta bench: --rounds must be positive");
            return 2;
        }
        if (!eal.isBlank() && !"dpdk".equals(io))
        {
            System.err.println("dta bench: --eal needs --io dpdk (the Java engine bench starts no EAL)");
            return 2;
        }
        if (null == warmup)
        {
            // An Append report leads to a WRITE every 16 reports and an ACK every 64 WRITEs, a sketch column to one
            // ACK per 512 columns: after 5 M reports their response path was still being compiled in the measured
            // phase, and the JIT's first runs of it allocated (128 bytes in some Append runs, in every sketch run).
            // Through DPDK the measured rounds alternate with C rounds and the loop is warm by then.
            warmup = "dpdk".equals(io) ? 5_000_000L : BenchPrimitive.SKETCH == primitive ? 40_000_000L : 20_000_000L;
        }
        if (reports <= 0 || warmup < 0)
        {
            System.err.println("dta bench: --reports must be positive and --warmup not negative");
            return 2;
        }
        if (compareC && null == in && reports / rounds < MIN_REPORTS_PER_ROUND)
        {
            // A round of a few reports times the clock reads and the first burst around them, not the loops.
            System.err.println("dta bench: --reports / --rounds must be at least " + MIN_REPORTS_PER_ROUND +
                " (each round measures --reports / --rounds reports, rounded down), not " + reports + " / " + rounds);
            return 2;
        }
        if (batch < 1 || batch > 16 || Integer.bitCount(batch) != 1)
        {
            System.err.println("dta bench: --batch must be 1, 2, 4, 8 or 16");
            return 2;
        }
        final ApplianceConfig appliance = config.load("bench");
        if (null == appliance)
        {
            return 2;
        }
        if (appliance.hasNegotiatedRegions())
        {
            // As dta replay: nobody answers the REQs of negotiated regions here, so every report would wait or drop
            // (the engine refuses to start without their connections).
            System.err.println("dta bench: the configuration has negotiated regions (servicePort); bench is open " +
                "loop towards the collectors and needs static regions (qpn, rkey and address configured)");
            return 2;
        }
        final boolean batchGiven = spec.commandLine().getParseResult().hasMatchedOption("--batch");
        if (!capture && BenchPrimitive.APPEND != primitive)
        {
            if (batchGiven)
            {
                System.err.println("dta bench: --batch sets the Append batch size of --primitive append (or of an " +
                    "--in capture's Append reports); --primitive " + primitive.name().toLowerCase(Locale.ROOT) +
                    " sends none");
                return 2;
            }
            // No Append report is sent: the lists keep the configuration's batch size, which it was validated with.
            batch = appliance.append().batchSize();
        }
        else if (!capture || batchGiven)
        {
            final String problem = batchProblem(appliance, batch);
            if (null != problem)
            {
                System.err.println("dta bench: " + problem);
                return 2;
            }
        }
        if (capture)
        {
            return benchCapture(appliance);
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--redundancy") &&
            BenchPrimitive.KEYWRITE != primitive && BenchPrimitive.KEYINCREMENT != primitive)
        {
            System.err.println("dta bench: --redundancy shapes the traffic of --primitive keywrite and keyincrement " +
                "only");
            return 2;
        }
        if (redundancy < 1 || redundancy > appliance.redundancy().max())
        {
            System.err.println("dta bench: --redundancy must be 1.." + appliance.redundancy().max());
            return 2;
        }
        if (BenchPrimitive.SKETCH != primitive && spec.commandLine().getParseResult().hasMatchedOption("--switches"))
        {
            System.err.println("dta bench: --switches shapes the traffic of --primitive sketch only");
            return 2;
        }
        if (switches < 1 || switches > SketchConfig.MAX_SWITCHES)
        {
            System.err.println("dta bench: --switches must be 1.." + SketchConfig.MAX_SWITCHES);
            return 2;
        }
        final String missing = primitive.missingIn(appliance);
        if (null != missing)
        {
            // Reports no collector hosts would all be dropped as unroutable, a rate of drops.
            System.err.println("dta bench: " + missing);
            return 2;
        }
        if ("dpdk".equals(io))
        {
            if (BenchPrimitive.SKETCH == primitive)
            {
                // net_pcap replays the same capture for ever, so its columns' epochs come round again and the
                // engine drops them as stale: the rate would be that of a drop, not of a merge.
                System.err.println("dta bench: --primitive sketch runs with --io java only (a capture replayed in a " +
                    "loop repeats its epochs, which the engine drops as stale)");
                return 2;
            }
            return dpdk(appliance, null);
        }
        return java(new EngineBench(primitive, appliance, redundancy, batch, switches, !closedLoop, 1), appliance);
    }

    /**
     * {@code --in}: the capture is read before any EAL starts, so that a file that cannot be benched is said in the
     * words of {@code dta replay}, exit 1, as the replay says it.
     */
    private int benchCapture(final ApplianceConfig base) throws Exception
    {
        final String unreadable = FileErrors.unreadable(in);
        if (null != unreadable)
        {
            System.err.println("dta bench: cannot read " + in + ": " + unreadable);
            return 1;
        }
        final BenchInput frames;
        try
        {
            frames = BenchInput.capture(in, base.translator().mac());
        }
        catch (final IOException ex)
        {
            System.err.println("dta bench: " + FileErrors.reason(ex));
            return 1;
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("dta bench: " + ex.getMessage());
            return 1;
        }
        if (null != frames.cutShortWarning())
        {
            System.err.println("dta bench: warning: " + frames.cutShortWarning());
        }
        // The configuration as given, translated as dta replay translates the capture; --batch only when said.
        final ApplianceConfig appliance = spec.commandLine().getParseResult().hasMatchedOption("--batch") ?
            EngineBench.withBatchSize(base, batch) : base;
        if ("dpdk".equals(io))
        {
            return dpdk(appliance, frames);
        }
        return java(new EngineBench(frames, appliance, !closedLoop), appliance);
    }

    private int java(final EngineBench bench, final ApplianceConfig appliance) throws Exception
    {
        final EngineBench.Result r = bench.run(warmup, reports);
        // The measured phase's drops, as through DPDK (none expected for synthetic reports; a capture's by reason
        // below): the warm-up's are not the measurement's.
        final long drops = totalDrops(r::delta);
        final Map<String, Object> out = new LinkedHashMap<>();
        putSource(out, bench.input());
        out.put("reports", r.reports());
        out.put("roceFramesOut", r.frames());
        out.put("seconds", r.seconds());
        out.put("reportsPerSecond", Math.round(r.reportsPerSecond()));
        out.put("roceFramesOutPerSecond", Math.round(r.framesPerSecond()));
        out.put("allocatedBytesPerReport", r.allocatedBytesPerReport());
        out.put("gcCount", r.gcCount());
        out.put("totalDrops", drops);
        out.put("drops", EngineSummary.nonZeroDrops(r::delta));
        if (null == in)
        {
            out.put("redundancy", redundancy);
        }
        // What the engine ran with: --batch (default 16) for synthetic reports, the configuration's for a capture.
        out.put("batchSize", bench.config().append().batchSize());
        out.put("openLoop", bench.openLoop());
        if (BenchPrimitive.SKETCH == primitive)
        {
            final SketchConfig sketch = primitive.collectorIn(appliance).sketches().get(0);
            out.put("switches", switches);
            final Map<String, Object> shape = new LinkedHashMap<>();
            shape.put("type", sketch.type().text());
            shape.put("rows", sketch.rows());
            shape.put("columns", sketch.columns());
            shape.put("batchColumns", sketch.batchColumns());
            out.put("sketchShape", shape);
            out.put("epochsCompleted", bench.engine().counters().get(EngineCounter.SKETCH_EPOCHS_COMPLETED));
        }
        out.put("reportsPerCpuSecond", Math.round(r.reportsPerCpuSecond()));
        putCaptureCounts(out, r.framesIn(), r.framesInPerSecond(), r::delta);
        out.put("agronaBoundsChecks", DirectBuffer.SHOULD_BOUNDS_CHECK);
        out.put("compressedOops", vmFlag("UseCompressedOops"));
        out.put("transparentHugePages", vmFlag("UseTransparentHugePages"));
        if (json)
        {
            BenchContext.attach(out, appliance);
            System.out.println(new ObjectMapper().writeValueAsString(out));
        }
        else
        {
            System.out.printf("%s%s: %.2f M reports/s, %.2f M frames/s, %.3f bytes allocated per report, %d GCs " +
                "(%d reports in %.2f s, %d drops; %.2f M reports per CPU second; Agrona bounds checks %s)%n",
                sourceName(bench.input()), bench.openLoop() ? " (open loop)" : " (closed loop)",
                r.reportsPerSecond() / 1e6, r.framesPerSecond() / 1e6,
                r.allocatedBytesPerReport(), r.gcCount(), r.reports(), r.seconds(), drops,
                r.reportsPerCpuSecond() / 1e6, DirectBuffer.SHOULD_BOUNDS_CHECK ? "on" : "off");
            printCaptureCounts(bench.input(), r.framesIn(), r.framesInPerSecond(), r.reports(), r::delta);
        }
        if (null == in)
        {
            warnOfDrops(drops, r::delta);
        }
        warnOfNoReports(r.reports(), appliance);
        return 0;
    }

    private int dpdk(final ApplianceConfig appliance, final BenchInput frames) throws Exception
    {
        if (!DpdkLibrary.isAvailable())
        {
            System.err.println("dta bench: " + DpdkLibrary.unavailableReason());
            return 1;
        }
        final List<String> ealArgs = userEalArgs();
        if (hugepages && ealArgs.stream().noneMatch(a -> a.startsWith("--huge-unlink") || a.equals("--in-memory") ||
            a.equals("--single-file-segments")))
        {
            // Unlinked at once: a bench that dies leaves no hugepage files behind (EAL refuses it beside the other
            // two).
            ealArgs.add("--huge-unlink");
        }
        final int sourceFrames = null == frames ? sourceReports : DpdkBench.sourceFrames(frames);
        final List<String> sessionArgs;
        if (null == frames)
        {
            sessionArgs = DpdkBench.sessionEalArgs(ealArgs);
        }
        else
        {
            final String problem = DpdkBench.captureProblem(frames, appliance, sourceFrames, inputKind(), ealArgs);
            if (null != problem)
            {
                System.err.println("dta bench: " + problem);
                return 1;
            }
            sessionArgs = DpdkBench.sessionEalArgs(ealArgs,
                DpdkBench.sessionMemoryMegabytes(frames, appliance, sourceFrames, inputKind(), ealArgs));
        }
        onHugepages = !sessionArgs.contains(Eal.NO_HUGE);
        final String missing = Hugepages.shortfallFor(sessionArgs);
        if (null != missing)
        {
            System.err.println("dta bench: hugepages: " + missing);
            return 1;
        }
        if (compareC)
        {
            return compare(appliance, ealArgs, frames, sourceFrames);
        }
        if (workers > 1)
        {
            return workers(appliance, ealArgs);
        }
        final DpdkBench.Result r;
        try
        {
            r = null == frames ?
                DpdkBench.run(primitive, appliance, redundancy, batch, warmup, reports, ealArgs, sourceReports,
                    inputKind()) :
                DpdkBench.run(frames, appliance, warmup, reports, ealArgs, sourceFrames, inputKind());
        }
        catch (final DpdkException | IllegalStateException ex)
        {
            System.err.println("dta bench: " + ex.getMessage());
            return 1;
        }
        final Map<String, Object> out = new LinkedHashMap<>();
        putSource(out, frames);
        out.put("io", "dpdk");
        out.put("input", input);
        out.put("hugepages", onHugepages);
        out.put("openLoop", true);
        out.put("reports", r.reports());
        out.put("roceFramesOut", r.frames());
        out.put("seconds", r.seconds());
        out.put("reportsPerSecond", Math.round(r.reportsPerSecond()));
        out.put("roceFramesOutPerSecond", Math.round(r.framesPerSecond()));
        out.put("allocatedBytesPerReport", r.allocatedBytesPerReport());
        out.put("gcCount", r.gcCount());
        out.put("txDropped", r.txDropped());
        out.put("totalDrops", r.drops());
        out.put("drops", EngineSummary.nonZeroDrops(r::delta));
        out.put("agronaBoundsChecks", DirectBuffer.SHOULD_BOUNDS_CHECK);
        if (null == frames)
        {
            out.put("redundancy", redundancy);
            out.put("batchSize", batch);
        }
        else
        {
            out.put("batchSize", appliance.append().batchSize());
            out.put("sourceFrames", sourceFrames);
            putCaptureCounts(out, r.framesIn(), r.framesInPerSecond(), r::delta);
        }
        putRing(out, r.inputDry(), r.inputLowest());
        if (json)
        {
            BenchContext.attach(out, appliance);
            System.out.println(new ObjectMapper().writeValueAsString(out));
        }
        else
        {
            System.out.printf("%s through DPDK (%s -> net_null, one core, %s): %.2f M reports/s, %.2f M frames/s, " +
                "%.3f bytes allocated per report, %d GCs (%d reports in %.2f s, %d drops)%n",
                null == frames ? primitive.name().toLowerCase() : sourceName(frames),
                inputKind().device(), onHugepages ? "hugepages" : "4 KB pages", r.reportsPerSecond() / 1e6,
                r.framesPerSecond() / 1e6,
                r.allocatedBytesPerReport(), r.gcCount(), r.reports(), r.seconds(), r.drops());
            if (null != frames)
            {
                printCaptureCounts(frames, r.framesIn(), r.framesInPerSecond(), r.reports(), r::delta);
            }
        }
        if (null == frames)
        {
            warnOfDrops(r.drops(), r::delta);
        }
        warnOfNoReports(r.reports(), appliance);
        warnOfDryRing(r.inputDry());
        return 0;
    }

    private int workers(final ApplianceConfig appliance, final List<String> ealArgs) throws Exception
    {
        final int measuredRounds = spec.commandLine().getParseResult().hasMatchedOption("--rounds") || scaling ?
            rounds : 1;
        final WorkersBench.Scaling s;
        try
        {
            s = DpdkBench.runWorkers(primitive, appliance, redundancy, batch, warmup, reports, ealArgs, sourceReports,
                workers, measuredRounds, scaling);
        }
        catch (final DpdkException | IllegalStateException | IllegalArgumentException ex)
        {
            System.err.println("dta bench: " + ex.getMessage());
            return 1;
        }
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("primitive", primitive.name().toLowerCase());
        out.put("io", "dpdk");
        out.put("input", "ring");
        out.put("hugepages", onHugepages);
        out.put("openLoop", true);
        out.put("workers", workers);
        out.put("rounds", measuredRounds);
        out.put("redundancy", redundancy);
        out.put("batchSize", batch);
        out.put("reportsPerSecond", Math.round(s.manyMedian()));
        if (scaling)
        {
            out.put("oneWorkerReportsPerSecond", Math.round(s.oneMedian()));
            out.put("scaling", s.ratio());
            out.put("oneWorkerRounds", s.one().stream().map(BenchCommand::workersRound).toList());
        }
        out.put("workerRounds", s.many().stream().map(BenchCommand::workersRound).toList());
        out.put("agronaBoundsChecks", DirectBuffer.SHOULD_BOUNDS_CHECK);
        if (json)
        {
            BenchContext.attach(out, appliance);
            System.out.println(new ObjectMapper().writeValueAsString(out));
            return 0;
        }
        System.out.printf("%s through DPDK (net_ring -> net_null, %d workers, %s), median of %d round(s): %.2f M " +
            "reports/s%n", primitive.name().toLowerCase(), workers, onHugepages ? "hugepages" : "4 KB pages",
            measuredRounds, s.manyMedian() / 1e6);
        if (scaling)
        {
            System.out.printf("  one worker, alternating rounds: %.2f M reports/s; %d workers / one: %.3f%n",
                s.oneMedian() / 1e6, workers, s.ratio());
        }
        final WorkersBench.Result last = s.many().getLast();
        for (int i = 0; i < last.perWorker().size(); i++)
        {
            final WorkersBench.Worker w = last.perWorker().get(i);
            System.out.printf("  worker %d (last round): %.2f M reports/s, %.3f bytes allocated per report, %d " +
                "handed off, %d taken over%n", i, w.reportsPerSecond() / 1e6, w.allocatedBytesPerReport(),
                w.handedOff(), w.takenOver());
        }
        return 0;
    }

    private static Map<String, Object> workersRound(final WorkersBench.Result r)
    {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("workers", r.workers());
        m.put("reports", r.reports());
        m.put("frames", r.frames());
        m.put("seconds", r.seconds());
        m.put("reportsPerSecond", Math.round(r.reportsPerSecond()));
        m.put("drops", r.drops());
        m.put("gcCount", r.gcCount());
        final List<Map<String, Object>> each = new ArrayList<>();
        for (final WorkersBench.Worker w : r.perWorker())
        {
            final Map<String, Object> e = new LinkedHashMap<>();
            e.put("reports", w.reports());
            e.put("seconds", w.seconds());
            e.put("reportsPerSecond", Math.round(w.reportsPerSecond()));
            e.put("allocatedBytesPerReport", w.allocatedBytesPerReport());
            e.put("reportsHandedOff", w.handedOff());
            e.put("reportsTakenOver", w.takenOver());
            each.add(e);
        }
        m.put("perWorker", each);
        return m;
    }

    private int compare(
        final ApplianceConfig appliance,
        final List<String> ealArgs,
        final BenchInput frames,
        final int sourceFrames) throws Exception
    {
        if (!CReference.isAvailable())
        {
            System.err.println("dta bench: --compare-c: " + CReference.unavailableReason());
            return 1;
        }
        final DpdkBench.Comparison c;
        final long perRound = null == frames ? reports / rounds : DpdkBench.framesPerRound(frames, reports / rounds);
        if (null != frames && perRound < MIN_REPORTS_PER_ROUND)
        {
            // With --in a round is whole passes of the capture, so the floor applies to that, not to the request.
            System.err.println("dta bench: --reports / --rounds must come to at least " + MIN_REPORTS_PER_ROUND +
                " frames per round (each round whole passes of the capture's " + frames.count() + " frames), not " +
                perRound + " from " + reports + " / " + rounds);
            return 2;
        }
        try
        {
            c = null == frames ?
                DpdkBench.compare(primitive, appliance, redundancy, batch, warmup, reports / rounds, rounds, ealArgs,
                    sourceReports, inputKind()) :
                DpdkBench.compare(frames, appliance, warmup, reports / rounds, rounds, ealArgs, sourceFrames,
                    inputKind());
        }
        catch (final DpdkException | IllegalStateException | IllegalArgumentException ex)
        {
            System.err.println("dta bench: " + ex.getMessage());
            return 1;
        }
        final DpdkBench.Result r = c.java();
        final Map<String, String> unequalWork = DpdkBench.unequalWork(r, c.reference());
        final Map<String, Object> out = new LinkedHashMap<>();
        putSource(out, frames);
        out.put("io", "dpdk");
        out.put("input", input);
        out.put("hugepages", onHugepages);
        out.put("openLoop", true);
        out.put("reportsPerSecond", Math.round(c.reportsPerSecond()));
        out.put("referenceReportsPerSecond", Math.round(c.referenceReportsPerSecond()));
        out.put("ratio", ratio(c.ratio()));
        out.put("reportsPerCpuSecond", Math.round(c.reportsPerCpuSecond()));
        out.put("referenceReportsPerCpuSecond", Math.round(c.referenceReportsPerCpuSecond()));
        out.put("cpuRatio", ratio(c.cpuRatio()));
        out.put("unequalWork", !unequalWork.isEmpty());
        out.put("unequalWorkReasons", List.copyOf(unequalWork.keySet()));
        out.put("rounds", rounds);
        out.put(null == frames ? "sourceReports" : "sourceFrames", null == frames ? sourceReports : sourceFrames);
        out.put(null == frames ? "reportsPerRound" : "framesPerRound", perRound);
        out.put("javaRounds", Arrays.stream(c.javaRounds()).mapToLong(Math::round).toArray());
        out.put("referenceRounds", Arrays.stream(c.referenceRounds()).mapToLong(Math::round).toArray());
        out.put("roceFramesOutPerSecond", Math.round(r.framesPerSecond()));
        out.put("referenceRoceFramesOutPerSecond", Math.round(c.referenceFramesPerSecond()));
        out.put("allocatedBytesPerReport", r.allocatedBytesPerReport());
        out.put("agronaBoundsChecks", DirectBuffer.SHOULD_BOUNDS_CHECK);
        out.put("gcCount", r.gcCount());
        out.put("txDropped", r.txDropped());
        out.put("referenceTxDropped", c.referenceTxDropped());
        out.put("referenceCrc", c.crc());
        out.put("ioFloorReportsPerSecond", Math.round(c.ioFloorReportsPerSecond()));
        out.put("totalDrops", r.drops());
        out.put("drops", EngineSummary.nonZeroDrops(r::delta));
        if (null == frames)
        {
            out.put("redundancy", redundancy);
            out.put("batchSize", batch);
        }
        else
        {
            out.put("batchSize", appliance.append().batchSize());
            out.put("reports", r.reports());
            putCaptureCounts(out, r.framesIn(), r.framesInPerSecond(), r::delta);
            final DpdkBench.ReferenceCounts counts = c.reference();
            final Map<String, Object> reference = new LinkedHashMap<>();
            reference.put("framesIn", counts.framesIn());
            reference.put("reportsIn", counts.reportsIn());
            reference.put("reportsTranslated", counts.reportsTranslated());
            reference.put("totalDrops", counts.drops());
            reference.put("unsupported", counts.unsupported());
            reference.put("otherFrames", counts.other());
            reference.put("malformed", counts.malformed());
            reference.put("responses", counts.responses());
            reference.put("roceFramesOut", counts.framesOut());
            out.put("reference", reference);
        }
        putRing(out, c.inputDry(), c.inputLowest());
        if (json)
        {
            BenchContext.attach(out, appliance);
            System.out.println(new ObjectMapper().writeValueAsString(out));
        }
        else
        {
            System.out.printf("%s through DPDK (%s -> net_null, one core, %s), median of %d rounds each:%n" +
                "  Java engine  %.2f M reports/s (%.3f bytes allocated per %s, %d GCs)%n" +
                "  C reference  %.2f M reports/s (CRC-32: %s)%n" +
                "  %s%n" +
                "  input floor  %.2f M reports/s (rx, touch, free%s in C; nothing translated or sent)%n",
                null == frames ? primitive.name().toLowerCase() : sourceName(frames), inputKind().device(),
                onHugepages ? "hugepages" : "4 KB pages", rounds, c.reportsPerSecond() / 1e6,
                r.allocatedBytesPerReport(), r.reports() > 0 ? "report" : "frame", r.gcCount(),
                c.referenceReportsPerSecond() / 1e6, c.crc(), Double.isNaN(c.ratio()) ?
                "no ratio Java / C: a side counted no DTA report" :
                String.format("ratio Java / C = %.3f (per CPU second of the measuring thread: %.2f M against %.2f M, " +
                "%.3f)", c.ratio(), c.reportsPerCpuSecond() / 1e6, c.referenceReportsPerCpuSecond() / 1e6,
                c.cpuRatio()), c.ioFloorReportsPerSecond() / 1e6, "ring".equals(input) ? ", the ring fed," : "");
            if (null != frames)
            {
                printCaptureCounts(frames, r.framesIn(), r.framesInPerSecond(), r.reports(), r::delta);
                final DpdkBench.ReferenceCounts counts = c.reference();
                System.out.printf("  C reference over its rounds: %d frames in, %d reports in, %d translated, %d " +
                    "unsupported (sequence-tracked, essential, Sketch-Merge), %d dropped, %d other frames, %d " +
                    "malformed, %d responses, %d RoCEv2 frames out%n", counts.framesIn(), counts.reportsIn(),
                    counts.reportsTranslated(), counts.unsupported(), counts.drops(), counts.other(), counts.malformed(),
                    counts.responses(), counts.framesOut());
            }
        }
        if (null == frames)
        {
            warnOfDrops(r.drops(), r::delta);
        }
        if (!unequalWork.isEmpty())
        {
            System.err.println("dta bench: warning: the ratio compares unequal work (unequalWork in the JSON): " +
                String.join("; ", unequalWork.values()));
        }
        warnOfNoReports(r.reports(), appliance);
        warnOfDryRing(c.inputDry());
        return 0;
    }

    /**
     * A ratio to three decimals, or null (JSON {@code null}) when there is none (NaN: a side counted no report).
     */
    private static Double ratio(final double ratio)
    {
        return Double.isNaN(ratio) ? null : Math.round(ratio * 1000) / 1000.0;
    }

    private static long totalDrops(final ToLongFunction<EngineCounter> delta)
    {
        long total = 0;
        for (final EngineCounter c : EngineCounter.values())
        {
            total += c.isDrop() ? delta.applyAsLong(c) : 0;
        }
        return total;
    }

    private static String sourceName(final BenchInput frames)
    {
        return null == frames.file() ? frames.primitive().name().toLowerCase() : frames.file().toString();
    }

    private void putSource(final Map<String, Object> out, final BenchInput frames)
    {
        if (null == frames || null == frames.file())
        {
            out.put("primitive", primitive.name().toLowerCase());
            return;
        }
        out.put("in", frames.file().toString());
        out.put("captureFrames", frames.count());
    }

    /**
     * With {@code --in}: frames fed against the reports among them, and the drops by reason over the measured phase
     * (the names of {@code dta replay --json}).
     */
    private void putCaptureCounts(
        final Map<String, Object> out,
        final long framesIn,
        final double framesInPerSecond,
        final ToLongFunction<EngineCounter> delta)
    {
        if (null == in)
        {
            return;
        }
        out.put("framesIn", framesIn);
        out.put("framesInPerSecond", Math.round(framesInPerSecond));
        out.put("reportsTranslated", delta.applyAsLong(EngineCounter.REPORTS_TRANSLATED));
        out.put("roceFramesOut", delta.applyAsLong(EngineCounter.ROCE_FRAMES_OUT));
        out.put("otherFrames", delta.applyAsLong(EngineCounter.OTHER_FRAMES));
    }

    private static void printCaptureCounts(
        final BenchInput frames,
        final long framesIn,
        final double framesInPerSecond,
        final long reportsIn,
        final ToLongFunction<EngineCounter> delta)
    {
        if (null == frames.file())
        {
            return;
        }
        System.out.printf("%s: %d frames, fed %d of them round and round (%.2f M frames/s): %d DTA reports among " +
            "them, %d routed to primitives, %d RoCEv2 frames out, %d other frames skipped%n", frames.file(),
            frames.count(), framesIn, framesInPerSecond / 1e6, reportsIn,
            delta.applyAsLong(EngineCounter.REPORTS_TRANSLATED), delta.applyAsLong(EngineCounter.ROCE_FRAMES_OUT),
            delta.applyAsLong(EngineCounter.OTHER_FRAMES));
        EngineSummary.printDrops(delta, System.out);
    }

    private void warnOfNoReports(final long reportsIn, final ApplianceConfig appliance)
    {
        if (null != in && 0 == reportsIn)
        {
            System.err.println("dta bench: warning: no frame fed from " + in + " was a DTA report for this " +
                "configuration (reports.udpPort " + appliance.reports().udpPort() + "): the rates are those of " +
                "frames skipped");
        }
    }

    private List<String> userEalArgs()
    {
        return new ArrayList<>(eal.isBlank() ? List.of() : List.of(eal.trim().split("\\s+")));
    }

    private DpdkBench.Input inputKind()
    {
        return "ring".equals(input) ? DpdkBench.Input.RING : DpdkBench.Input.PCAP;
    }

    private void putRing(final Map<String, Object> out, final long dry, final int lowest)
    {
        if ("ring".equals(input))
        {
            out.put("inputRingDry", dry);
            out.put("inputRingLowest", lowest);
        }
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

    private static void warnOfDryRing(final long dry)
    {
        if (dry > 0)
        {
            // A burst that found the ring empty measured idle time, not translation.
            System.err.println("dta bench: warning: the input ring ran dry " + dry + " times while measuring");
        }
    }

    /**
     * Synthetic reports should not be dropped (open loop through DPDK nothing is): a rate that includes drops is not
     * a translation rate, so say how many and why, by the names of {@code drops}.
     */
    static void warnOfDrops(final long drops, final ToLongFunction<EngineCounter> delta)
    {
        if (drops > 0)
        {
            System.err.println("dta bench: warning: the engine dropped " + drops + " reports or responses while " +
                "measuring (" + dropReasons(delta) + ")");
        }
    }

    /**
     * @param delta each counter's growth over the measured phase.
     * @return the non-zero drop reasons with their counts, as {@code drops} names them, largest first:
     * {@code dropAtomicQueueFull 79631, dropGracePeriod 12}.
     */
    static String dropReasons(final ToLongFunction<EngineCounter> delta)
    {
        final List<Map.Entry<String, Long>> reasons = new ArrayList<>(EngineSummary.nonZeroDrops(delta).entrySet());
        reasons.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        final StringBuilder sb = new StringBuilder();
        for (final Map.Entry<String, Long> e : reasons)
        {
            sb.append(sb.isEmpty() ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
        }
        return sb.toString();
    }

    /**
     * A boolean HotSpot option as the JVM runs with it: the JVM turns some off itself (transparent huge pages on a
     * kernel without them), so the command line alone would not say.
     */
    private static boolean vmFlag(final String name)
    {
        return Boolean.parseBoolean(
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption(name).getValue());
    }
}
