package io.dta.appliance.cli;

import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.DpdkBench;
import io.dta.appliance.bench.EngineBench;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of {@code dta bench}, as given (a {@code --warmup} left out and a {@code --batch} the run does not use
 * are settled by {@link BenchOptionChecks}).
 */
final class BenchOptions
{
    @Option(names = "--primitive", paramLabel = "keywrite|keyincrement|append|postcard|sketch",
        description = "primitive of the synthetic reports to drive (or --in). They go to the first collector of " +
            "the configuration that has the primitive's region (keyWrite, keyIncrement, lists, postcards, sketches); " +
            "a configuration where none has it is refused")
    BenchPrimitive primitive;

    @Option(names = "--in", paramLabel = "REPORTS.pcap", description =
        "instead of --primitive: every frame of this capture (pcap or pcapng, as dta replay --in takes; reports, " +
        "responses, anything) loaded once into memory and fed round and round in capture order, translated with " +
        "--config. --reports and --warmup then count frames fed; reports and reportsPerSecond count the DTA " +
        "reports among them, and the drops by reason over the measured phase are printed. Repeated traffic is " +
        "what it is: after the first round, sequenced reports are duplicates and sketch epochs stale (see " +
        "docs/performance.md)")
    Path in;

    @Option(names = "--reports", defaultValue = "20000000",
        description = "reports measured; with --in, frames of the capture fed (default: ${DEFAULT-VALUE})")
    long reports;

    @Option(names = "--warmup", description = "reports (with --in: frames) fed before measuring (default: 20000000, " +
        "sketch 40000000, so that even rare paths are compiled, the responses' with --closed-loop; 5000000 with " +
        "--io dpdk)")
    Long warmup;

    @Option(names = "--redundancy", defaultValue = "1",
        description = "N of the synthetic Key-Write / Key-Increment reports (default: ${DEFAULT-VALUE}; only with " +
            "--primitive keywrite or keyincrement)")
    int redundancy;

    @Option(names = "--batch", defaultValue = "16", description = "Append batch size of --primitive append, " +
        "overriding the configuration's (default: ${DEFAULT-VALUE}; with --in, the configuration's own unless given; " +
        "every list must take batches of it)")
    int batch;

    @Option(names = "--closed-loop", description = "with --io java: the collector's answers are modelled, as a " +
        "live translator receives them from a soft-RoCE responder (an ACK per AckReq'd WRITE, for keyincrement one " +
        "ATOMIC ACK per report, decoded and ICRC-checked by the engine). Without it the sink discards and nobody " +
        "answers (open loop, as dta replay without --responses and --io dpdk run the engine)")
    boolean closedLoop;

    @Option(names = "--open-loop", description = "nobody answers: the default, accepted for scripts that say so")
    boolean openLoopGiven;

    @Option(names = "--io", defaultValue = "java", paramLabel = "java|dpdk", description =
        "java (default): engine alone; dpdk: through DPDK on one core, net_pcap (infinite_rx) or net_ring in " +
        "(--input), net_null out, open loop (needs DPDK 22.11; runs as any user on 4 KB pages, --hugepages needs a " +
        "hugetlbfs mount the user can write)")
    String io;

    @Option(names = "--input", defaultValue = "pcap", paramLabel = "pcap|ring", description =
        "with --io dpdk: where the reports come from. pcap (default): a net_pcap port replaying a capture forever " +
        "(one copy per packet into a fresh mbuf); ring: a net_ring port over mbufs filled once and recycled without " +
        "copies (an extra reference each, re-enqueued once per duty cycle by the same native feeder for Java and C), " +
        "closer to a NIC that DMAs into mbufs")
    String input;

    @Option(names = "--switches", defaultValue = "" + EngineBench.DEFAULT_SKETCH_SWITCHES,
        description = "sketch: switches contributing to the first sketch of the first collector with a sketch, " +
            "each sending its " +
            "columns in turn, epochs rolling over (default: ${DEFAULT-VALUE}; not with --in)")
    int switches;

    @Option(names = "--compare-c", description =
        "with --io dpdk: also measure the C reference loop (perf/target/native/libdta_cref.so: same parsing, frames " +
        "and ICRC in C) in rounds alternating with the engine's on the same EAL and ports; prints both medians " +
        "(reportsPerSecond, referenceReportsPerSecond) and their ratio. With --in both read the same frames, but the " +
        "C loop translates no sequence-tracked, essential or Sketch-Merge report: its counters are printed " +
        "(reference). When the two loops did unequal work (collector responses in the capture, reports the C loop " +
        "does not handle, reports the engine dropped after translating them, drops or frames out that differ) a " +
        "warning says so, and unequalWork in the JSON. With --workers W the C loop runs on the W workers' lcores, " +
        "queues and rings (one context each, with the worker's QPs): keywrite and keyincrement, which need no " +
        "hand-off between workers")
    boolean compareC;

    @Option(names = "--rounds", defaultValue = "5",
        description = "with --compare-c: rounds of each side, --reports / rounds reports each (with --in frames, " +
            "rounded up to whole passes of the capture; default: ${DEFAULT-VALUE}); with --baseline: rounds of each " +
            "build, each a whole bench run of its own")
    int rounds;

    @Option(names = "--source-reports", defaultValue = "4096", description =
        "with --io dpdk: distinct reports the input repeats (1..16384, default: ${DEFAULT-VALUE}); net_pcap copies " +
        "each from its stored mbuf, so fewer stay in the caches and the input costs less; the ring holds them all " +
        "(at least 64 with --input ring, so a burst of 32 never empties it). Not with --in, whose input holds every " +
        "frame of the capture (repeated whole to at least 64)")
    int sourceReports;

    @Option(names = "--eal", paramLabel = "ARGS", preprocessor = EalLinePreprocessor.class,
        description = "extra EAL arguments for --io dpdk, separated by spaces (e.g. \"-l 1\")")
    String eal = "";

    @Option(names = "--hugepages", description = "with --io dpdk: run the EAL on the host's hugepages (" +
        DpdkBench.EAL_MEMORY_MB + " MB of them, and a hugetlbfs mount) instead of --no-huge's 4 KB pages, as a " +
        "production DPDK deployment does; an --eal hugepage option (--huge-dir, --socket-mem, ...) does the same")
    boolean hugepages;

    @Option(names = "--workers", defaultValue = "1", paramLabel = "W", description = "with --io dpdk: workers, " +
        "each on an EAL lcore of its own (-l 0-(W-1) unless --eal gives a core list) with its own input queue (a " +
        "net_ring ring filled with the reports RSS gives it), its own tx queue, engine and QPs, joined by hand-off " +
        "queues as dta run's are; --reports and --warmup are shared among them (default: ${DEFAULT-VALUE})")
    int workers;

    @Option(names = "--scaling", description = "with --workers W: also measure one worker (the same code on a queue " +
        "of its own holding every report) in rounds alternating with the W workers' rounds in the same EAL, and " +
        "print both medians and their ratio (--rounds rounds each)")
    boolean scaling;

    @Option(names = "--json", description = "print one JSON object: the result, the context it was measured in " +
        "(version, commit, JVM and its flags, CPU, kernel, DPDK, configuration digest, time) and every round's figures")
    boolean json;

    @Option(names = "--baseline", paramLabel = "DIR", description = "compare this build with another: DIR is an " +
        "unpacked release archive or a source checkout (any directory with an executable bin/dta). Both run this " +
        "same benchmark in alternating rounds (--rounds each), every round in a JVM of its own started by its own " +
        "launcher; prints each round's rates, candidate / baseline of the medians with a 95 %% bootstrap interval, " +
        "and a verdict as the exit status (below)")
    Path baseline;

    @Option(names = "--max-regression", paramLabel = "PCT", defaultValue = "5", description = "with --baseline: how " +
        "much slower than the baseline this build may be, in percent (default: ${DEFAULT-VALUE})")
    double maxRegression;

    @Option(names = "--cpu", paramLabel = "CPU", description = "with --baseline: the CPU every round of both builds " +
        "runs on (taskset -c CPU), or none; default: the last CPU this process may use. CPUs of a shared or virtual " +
        "machine need not run at one speed, and unpinned rounds land on either")
    String cpu;

    @Option(names = "--report", paramLabel = "FILE.html", description = "with --baseline: also write one " +
        "self-contained HTML file (inline SVG charts): rates per round, the ratio and its interval, both contexts")
    Path report;

    /**
     * @return true with {@code --in}: the frames of a capture rather than synthetic reports.
     */
    boolean capture()
    {
        return null != in;
    }

    /**
     * @return true with {@code --io dpdk}.
     */
    boolean dpdk()
    {
        return "dpdk".equals(io);
    }

    /**
     * @return the words of {@code --eal}, in a list the caller may add to.
     */
    List<String> userEalArgs()
    {
        return new ArrayList<>(eal.isBlank() ? List.of() : List.of(eal.trim().split("\\s+")));
    }

    /**
     * @return the DPDK bench's input of {@code --input}.
     */
    DpdkBench.Input inputKind()
    {
        return "ring".equals(input) ? DpdkBench.Input.RING : DpdkBench.Input.PCAP;
    }

    /**
     * @return the primitive's name as the output spells it.
     */
    String primitiveName()
    {
        return primitive.name().toLowerCase();
    }
}
