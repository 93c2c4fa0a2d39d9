package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.HotSpotDiagnosticMXBean;
import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.EngineBench;
import io.dta.appliance.dpdk.CReference;
import io.dta.appliance.dpdk.DpdkBench;
import io.dta.appliance.engine.EngineCounter;
import io.dta.config.ApplianceConfig;
import io.dta.dpdk.DpdkException;
import io.dta.dpdk.DpdkLibrary;
import io.dta.dpdk.Eal;
import io.dta.dpdk.Hugepages;
import io.dta.config.SketchConfig;
import org.agrona.DirectBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code dta bench}: the engine alone on one thread, after a warm-up.
 */
@Command(
    name = "bench",
    header = "Measure the translation engine: alone on one thread, or through DPDK on one core.",
    mixinStandardHelpOptions = true,
    description = {
        "Measure the translation engine alone on one thread: pre-built report frames in memory, frames out to a " +
            "discarding sink that nobody answers (open loop, as dta replay without --responses), or with " +
            "--closed-loop the collector's ACKs and ATOMIC ACKs answered as its soft responder would. Prints " +
            "reportsPerSecond, framesPerSecond, allocatedBytesPerReport (this thread's allocation over the measured " +
            "phase), gcCount, reportsPerCpuSecond (over the thread's CPU time: robust on a shared machine) and " +
            "whether Agrona's bounds checks were on (bin/dta turns them off for bench; see docs/performance.md)." })
public final class BenchCommand implements Callable<Integer>
{
    @Mixin
    private ConfigOption config = new ConfigOption();

    @Option(names = "--primitive", required = true, paramLabel = "keywrite|keyincrement|append|postcard|sketch",
        description = "primitive to drive")
    private BenchPrimitive primitive;

    /** The fewest reports a --compare-c round measures: some thousand bursts of 32. */
    static final int MIN_REPORTS_PER_ROUND = 32_768;

    @Option(names = "--reports", defaultValue = "20000000", description = "reports measured (default: ${DEFAULT-VALUE})")
    private long reports;

    @Option(names = "--warmup", description = "reports fed before measuring (default: 20000000, sketch 40000000, so "
        + "that even rare paths are compiled, the responses' with --closed-loop; 5000000 with --io dpdk)")
    private Long warmup;

    @Option(names = "--redundancy", defaultValue = "1", description = "N of Key-Write / Key-Increment (default: ${DEFAULT-VALUE})")
    private int redundancy;

    @Option(names = "--batch", defaultValue = "16", description = "Append batch size (default: ${DEFAULT-VALUE})")
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
        "(--input), net_null out, open loop (needs DPDK 22.11 and root)")
    private String io;

    private static final int MIN_RING_SOURCE_REPORTS = 64;

    @Option(names = "--input", defaultValue = "pcap", paramLabel = "pcap|ring", description =
        "with --io dpdk: where the reports come from. pcap (default): a net_pcap port replaying a capture forever " +
        "(one copy per packet into a fresh mbuf); ring: a net_ring port over mbufs filled once and recycled without " +
        "copies (an extra reference each, re-enqueued once per duty cycle by the same native feeder for Java and C), " +
        "closer to a NIC that DMAs into mbufs")
    private String input;

    @Option(names = "--switches", defaultValue = "" + EngineBench.DEFAULT_SKETCH_SWITCHES,
        description = "sketch: switches contributing to the first collector's first sketch, each sending its " +
            "columns in turn, epochs rolling over (default: ${DEFAULT-VALUE})")
    private int switches;

    @Option(names = "--compare-c", description =
        "with --io dpdk: also measure the C reference loop (perf/target/native/libdta_cref.so: same parsing, frames " +
        "and ICRC in C) in rounds alternating with the engine's on the same EAL and ports; prints both medians " +
        "(reportsPerSecond, referenceReportsPerSecond) and their ratio")
    private boolean compareC;

    @Option(names = "--rounds", defaultValue = "5",
        description = "with --compare-c: rounds of each side, --reports / rounds reports each (default: ${DEFAULT-VALUE})")
    private int rounds;

    @Option(names = "--source-reports", defaultValue = "4096", description =
        "with --io dpdk: distinct reports the input repeats (1..16384, default: ${DEFAULT-VALUE}); net_pcap copies " +
        "each from its stored mbuf, so fewer stay in the caches and the input costs less; the ring holds them all " +
        "(at least 64 with --input ring, so a burst of 32 never empties it)")
    private int sourceReports;

    @Option(names = "--eal", paramLabel = "ARGS", preprocessor = EalLinePreprocessor.class,
        description = "extra EAL arguments for --io dpdk, separated by spaces (e.g. \"-l 1\")")
    private String eal = "";

    @Option(names = "--hugepages", description = "with --io dpdk: run the EAL on the host's hugepages (" +
        DpdkBench.EAL_MEMORY_MB + " MB of them, and a hugetlbfs mount) instead of --no-huge's 4 KB pages, as a " +
        "production DPDK deployment does; an --eal hugepage option (--huge-dir, --socket-mem, ...) does the same")
    private boolean hugepages;

    @Option(names = "--json", description = "print one JSON object")
    private boolean json;

    private boolean onHugepages;

    /**
     * {@inheritDoc}
     */
    @Override
    public Integer call() throws Exception
    {
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
        if (hugepages && userEalArgs().contains(Eal.NO_HUGE))
        {
            System.err.println("dta bench: --hugepages and --eal " + Eal.NO_HUGE + " contradict each other");
            return 2;
        }
        if ("ring".equals(input) && !"dpdk".equals(io))
        {
            System.err.println("dta bench: --input ring needs --io dpdk");
            return 2;
        }
        if (compareC && !"dpdk".equals(io))
        {
            System.err.println("dta bench: --compare-c needs --io dpdk");
            return 2;
        }
        if (compareC && !CReference.PRIMITIVES.contains(primitive))
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
        if ("ring".equals(input) && sourceReports < MIN_RING_SOURCE_REPORTS)
        {
            // A burst takes up to 32 of them: with fewer than two bursts in the ring every burst would empty it, and
            // below 32 every burst would come back short, a different measurement.
            System.err.println("dta bench: --source-reports must be at least " + MIN_RING_SOURCE_REPORTS +
                " with --input ring (the ring holds them all and a burst takes up to 32)");
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
        if (compareC && reports / rounds < MIN_REPORTS_PER_ROUND)
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
        if (redundancy < 1 || redundancy > appliance.redundancy().max())
        {
            System.err.println("dta bench: --redundancy must be 1.." + appliance.redundancy().max());
            return 2;
        }
        if (switches < 1 || switches > SketchConfig.MAX_SWITCHES)
        {
            System.err.println("dta bench: --switches must be 1.." + SketchConfig.MAX_SWITCHES);
            return 2;
        }
        if (BenchPrimitive.SKETCH == primitive &&
            (appliance.collectors().isEmpty() || appliance.collectors().get(0).sketches().isEmpty()))
        {
            System.err.println("dta bench: --primitive sketch needs a sketch on the first collector");
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
            return dpdk(appliance);
        }
        final EngineBench bench = new EngineBench(primitive, appliance, redundancy, batch, switches, !closedLoop, 1);
        final EngineBench.Result r = bench.run(warmup, reports);
        final long drops = bench.engine().counters().totalDrops();
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("primitive", primitive.name().toLowerCase());
        out.put("reports", r.reports());
        out.put("frames", r.frames());
        out.put("seconds", r.seconds());
        out.put("reportsPerSecond", Math.round(r.reportsPerSecond()));
        out.put("framesPerSecond", Math.round(r.framesPerSecond()));
        out.put("allocatedBytesPerReport", r.allocatedBytesPerReport());
        out.put("gcCount", r.gcCount());
        out.put("drops", drops);
        out.put("redundancy", redundancy);
        out.put("batchSize", batch);
        out.put("openLoop", bench.openLoop());
        if (BenchPrimitive.SKETCH == primitive)
        {
            final SketchConfig sketch = appliance.collectors().get(0).sketches().get(0);
            out.put("switches", switches);
            out.put("sketch", sketch.type().text() + " " + sketch.rows() + "x" + sketch.columns() +
                ", batchColumns " + sketch.batchColumns());
            out.put("epochsCompleted", bench.engine().counters().get(EngineCounter.SKETCH_EPOCHS_COMPLETED));
        }
        out.put("reportsPerCpuSecond", Math.round(r.reportsPerCpuSecond()));
        out.put("agronaBoundsChecks", DirectBuffer.SHOULD_BOUNDS_CHECK);
        out.put("compressedOops", vmFlag("UseCompressedOops"));
        out.put("transparentHugePages", vmFlag("UseTransparentHugePages"));
        if (json)
        {
            System.out.println(new ObjectMapper().writeValueAsString(out));
        }
        else
        {
            System.out.printf("%s%s: %.2f M reports/s, %.2f M frames/s, %.3f bytes allocated per report, %d GCs " +
                "(%d reports in %.2f s, %d drops; %.2f M reports per CPU second; Agrona bounds checks %s)%n",
                out.get("primitive"), bench.openLoop() ? " (open loop)" : " (closed loop)",
                r.reportsPerSecond() / 1e6, r.framesPerSecond() / 1e6,
                r.allocatedBytesPerReport(), r.gcCount(), r.reports(), r.seconds(), drops,
                r.reportsPerCpuSecond() / 1e6, DirectBuffer.SHOULD_BOUNDS_CHECK ? "on" : "off");
        }
        if (drops > 0)
        {
            System.err.println("dta bench: warning: the engine dropped " + drops + " reports or responses (" +
                bench.engine().counters().get(EngineCounter.DROP_GRACE_PERIOD) + " reports in grace periods or probing)");
        }
        return 0;
    }

    private int dpdk(final ApplianceConfig appliance) throws Exception
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
        final List<String> sessionArgs = DpdkBench.sessionEalArgs(ealArgs);
        onHugepages = !sessionArgs.contains(Eal.NO_HUGE);
        final String missing = Hugepages.shortfallFor(sessionArgs);
        if (null != missing)
        {
            System.err.println("dta bench: hugepages: " + missing);
            return 1;
        }
        if (compareC)
        {
            return compare(appliance, ealArgs);
        }
        final DpdkBench.Result r;
        try
        {
            r = DpdkBench.run(primitive, appliance, redundancy, batch, warmup, reports, ealArgs, sourceReports,
                inputKind());
        }
        catch (final DpdkException | IllegalStateException ex)
        {
            System.err.println("dta bench: " + ex.getMessage());
            return 1;
        }
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("primitive", primitive.name().toLowerCase());
        out.put("io", "dpdk");
        out.put("input", input);
        out.put("hugepages", onHugepages);
        out.put("openLoop", true);
        out.put("reports", r.reports());
        out.put("frames", r.frames());
        out.put("seconds", r.seconds());
        out.put("reportsPerSecond", Math.round(r.reportsPerSecond()));
        out.put("framesPerSecond", Math.round(r.framesPerSecond()));
        out.put("allocatedBytesPerReport", r.allocatedBytesPerReport());
        out.put("gcCount", r.gcCount());
        out.put("txDropped", r.txDropped());
        out.put("drops", r.drops());
        out.put("redundancy", redundancy);
        out.put("batchSize", batch);
        putRing(out, r.inputDry(), r.inputLowest());
        if (json)
        {
            System.out.println(new ObjectMapper().writeValueAsString(out));
        }
        else
        {
            System.out.printf("%s through DPDK (%s -> net_null, one core, %s): %.2f M reports/s, %.2f M frames/s, " +
                "%.3f bytes allocated per report, %d GCs (%d reports in %.2f s, %d drops)%n", out.get("primitive"),
                inputKind().device(), onHugepages ? "hugepages" : "4 KB pages", r.reportsPerSecond() / 1e6,
                r.framesPerSecond() / 1e6,
                r.allocatedBytesPerReport(), r.gcCount(), r.reports(), r.seconds(), r.drops());
        }
        warnOfDrops(r.drops());
        warnOfDryRing(r.inputDry());
        return 0;
    }

    private int compare(final ApplianceConfig appliance, final List<String> ealArgs) throws Exception
    {
        if (!CReference.isAvailable())
        {
            System.err.println("dta bench: --compare-c: " + CReference.unavailableReason());
            return 1;
        }
        final DpdkBench.Comparison c;
        try
        {
            c = DpdkBench.compare(primitive, appliance, redundancy, batch, warmup, reports / rounds,
                rounds, ealArgs, sourceReports, inputKind());
        }
        catch (final DpdkException | IllegalStateException | IllegalArgumentException ex)
        {
            System.err.println("dta bench: " + ex.getMessage());
            return 1;
        }
        final DpdkBench.Result r = c.java();
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("primitive", primitive.name().toLowerCase());
        out.put("io", "dpdk");
        out.put("input", input);
        out.put("hugepages", onHugepages);
        out.put("openLoop", true);
        out.put("reportsPerSecond", Math.round(c.reportsPerSecond()));
        out.put("referenceReportsPerSecond", Math.round(c.referenceReportsPerSecond()));
        out.put("ratio", Math.round(c.ratio() * 1000) / 1000.0);
        out.put("reportsPerCpuSecond", Math.round(c.reportsPerCpuSecond()));
        out.put("referenceReportsPerCpuSecond", Math.round(c.referenceReportsPerCpuSecond()));
        out.put("cpuRatio", Math.round(c.cpuRatio() * 1000) / 1000.0);
        out.put("rounds", rounds);
        out.put("sourceReports", sourceReports);
        out.put("reportsPerRound", reports / rounds);
        out.put("javaRounds", Arrays.stream(c.javaRounds()).mapToLong(Math::round).toArray());
        out.put("referenceRounds", Arrays.stream(c.referenceRounds()).mapToLong(Math::round).toArray());
        out.put("framesPerSecond", Math.round(r.framesPerSecond()));
        out.put("referenceFramesPerSecond", Math.round(c.referenceFramesPerSecond()));
        out.put("allocatedBytesPerReport", r.allocatedBytesPerReport());
        out.put("gcCount", r.gcCount());
        out.put("txDropped", r.txDropped());
        out.put("referenceTxDropped", c.referenceTxDropped());
        out.put("referenceCrc", c.crc());
        out.put("ioFloorReportsPerSecond", Math.round(c.ioFloorReportsPerSecond()));
        out.put("drops", r.drops());
        out.put("redundancy", redundancy);
        out.put("batchSize", batch);
        putRing(out, c.inputDry(), c.inputLowest());
        if (json)
        {
            System.out.println(new ObjectMapper().writeValueAsString(out));
        }
        else
        {
            System.out.printf("%s through DPDK (%s -> net_null, one core, %s), median of %d rounds each:%n" +
                "  Java engine  %.2f M reports/s (%.3f bytes allocated per report, %d GCs)%n" +
                "  C reference  %.2f M reports/s (CRC-32: %s)%n" +
                "  ratio Java / C = %.3f (per CPU second of the measuring thread: %.2f M against %.2f M, %.3f)%n" +
                "  input floor  %.2f M reports/s (rx, touch, free%s in C; nothing translated or sent)%n",
                out.get("primitive"), inputKind().device(), onHugepages ? "hugepages" : "4 KB pages", rounds,
                c.reportsPerSecond() / 1e6,
                r.allocatedBytesPerReport(), r.gcCount(), c.referenceReportsPerSecond() / 1e6, c.crc(), c.ratio(),
                c.reportsPerCpuSecond() / 1e6, c.referenceReportsPerCpuSecond() / 1e6, c.cpuRatio(),
                c.ioFloorReportsPerSecond() / 1e6, "ring".equals(input) ? ", the ring fed," : "");
        }
        warnOfDrops(r.drops());
        warnOfDryRing(c.inputDry());
        return 0;
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

    private static void warnOfDryRing(final long dry)
    {
        if (dry > 0)
        {
            // A burst that found the ring empty measured idle time, not translation.
            System.err.println("dta bench: warning: the input ring ran dry " + dry + " times while measuring");
        }
    }

    private static void warnOfDrops(final long drops)
    {
        if (drops > 0)
        {
            // Open loop through DPDK nothing should be dropped: a rate that includes drops is not a translation rate.
            System.err.println("dta bench: warning: the engine dropped " + drops + " reports while measuring");
        }
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
