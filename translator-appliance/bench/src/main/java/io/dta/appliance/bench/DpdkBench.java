package io.dta.appliance.bench;

import io.dta.appliance.dpdk.WorkerAgent;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.worker.DerivedQueuePairs;
import io.dta.config.ApplianceConfig;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.RingFeeder;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;

/**
 * {@code dta bench --io dpdk}: the engine behind DPDK on one core. The reports of {@link EngineBench} come from one of
 * two inputs ({@link Input}): a capture that a {@code net_pcap} port replays forever ({@code infinite_rx=1}, copying
 * each packet into a fresh mbuf), or a {@code net_ring} port over a ring of mbufs filled once and recycled without
 * copies ({@link RingFeeder}, fed once per duty cycle), which is closer to a NIC that DMAs into mbufs. The
 * {@link WorkerAgent} (the loop of dta run) reads them in the mbufs, and its frames, written into mbufs, go to a {@code net_null} port.
 * The engine runs open loop
 * (no collector answers through a null device), so ACK timeouts and atomic credits are off, as in an open-loop
 * replay. The agent's duty cycle runs on the calling thread, which EAL pinned to the main lcore.
 * <p>
 * {@link #compare} ({@code --compare-c}) measures the C reference loop ({@link CReference}) on the same EAL, ports and
 * mempool, in rounds alternating with the engine's, so both see the same machine load; it reports the medians.
 */
public final class DpdkBench
{
    private static final int BURST = 32;
    private static final EngineCounter[] COUNTERS = EngineCounter.values();
    /** The collector's responses the engine took (the dropped ones are the RESPONSE_DROP_ counters). */
    /** Reports dropped after they were routed to a primitive (counted in REPORTS_TRANSLATED too). */
    /**
     * Distinct reports in the replayed capture by default. {@code net_pcap} copies each from its stored mbuf (about
     * 2.4 KB apart), so 4096 of them (about 10 MB) are read from beyond the caches.
     */
    public static final int DEFAULT_SOURCE_REPORTS = 4096;

    /** The EAL's memory ({@code -m}) in MB: both pools and the ring, on 4 KB pages or on hugepages alike. */
    public static final int EAL_MEMORY_MB = 256;

    /** Mbufs the ring input takes and writes at a time (an {@link MbufArray} holds at most 65535). */
    private static final int RING_FILL_CHUNK = 4096;

    private DpdkBench()
    {
    }

    /**
     * Where the reports come from.
     */
    public enum Input
    {
        /** A {@code net_pcap} port replaying a capture forever: one copy per packet, into a fresh mbuf. */
        PCAP,
        /**
         * A {@code net_ring} port over a ring of mbufs written once, recycled without copies: each keeps an extra
         * reference, so the data plane's free leaves it alive, and the feeder enqueues it again (one downcall per
         * duty cycle, for the Java loop as for the C loop).
         */
        RING;

        /**
         * @return the option's spelling ({@code pcap}, {@code ring}).
         */
        public String text()
        {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * @return the input device's driver ({@code net_pcap}, {@code net_ring}).
         */
        public String device()
        {
            return "net_" + text();
        }
    }

    /**
     * The result of a measured run.
     *
     * @param reports                 DTA reports among the frames received while measuring (the engine's
     *                                {@code REPORTS_IN}; every frame received for synthetic reports).
     * @param frames                  frames sent in the measured phase.
     * @param seconds                 measured wall time.
     * @param reportsPerSecond        reports per second (over several rounds, {@link #overRounds}, the median of
     *                                the rounds' rates).
     * @param framesPerSecond         frames sent per second (likewise).
     * @param framesInPerSecond       frames received per second (likewise): never below {@code reportsPerSecond},
     *                                the reports being among the frames received.
     * @param allocatedBytesPerReport bytes the data-plane thread allocated per report while measuring (per frame
     *                                received when none was a report).
     * @param gcCount                 garbage collections while measuring.
     * @param txDropped               frames the null device refused (should be 0).
     * @param drops                   reports and responses the engine dropped while measuring (counted under their
     *                                reasons; 0 in a healthy run, as in {@code dta bench --io java}).
     * @param inputDry                ring input: duty cycles after which the feeder found the ring empty while
     *                                measuring (the input may have run dry; 0 in a healthy run); 0 for pcap.
     * @param inputLowest             ring input: the fewest mbufs the feeder found in the ring since it was filled
     *                                (the ring holds every source report); -1 for pcap.
     * @param framesIn                frames received while measuring (reports or not).
     * @param counters                how much each engine counter grew while measuring, indexed by
     *                                {@link EngineCounter#ordinal()}.
     */
    public record Result(
        long reports,
        long frames,
        double seconds,
        double reportsPerSecond,
        double framesPerSecond,
        double framesInPerSecond,
        double allocatedBytesPerReport,
        long gcCount,
        long txDropped,
        long drops,
        long inputDry,
        int inputLowest,
        long framesIn,
        long[] counters) implements MeasuredPhase
    {
    }

    /**
     * What the C reference loop counted over its measured rounds ({@link CReference}'s counters): with a capture
     * ({@code dta bench --in}) it shows the traffic the C loop does not translate as the engine does (sequence
     * tracking, essential reports and Sketch-Merge are the engine's alone), which makes a comparison over such
     * traffic unequal.
     *
     * @param framesIn          frames received.
     * @param reportsIn         DTA reports among them.
     * @param reportsTranslated reports translated.
     * @param drops             reports dropped (no route, bad redundancy, length, hop, checksum, no mbuf).
     * @param unsupported       reports the C loop does not handle (sequence-tracked, essential, Sketch-Merge).
     * @param other             frames neither DTA nor RoCEv2.
     * @param malformed         malformed frames.
     * @param responses         collector responses (ignored: open loop).
     * @param framesOut         RoCEv2 frames sent.
     */
    public record ReferenceCounts(
        long framesIn,
        long reportsIn,
        long reportsTranslated,
        long drops,
        long unsupported,
        long other,
        long malformed,
        long responses,
        long framesOut)
    {
        private static final int[] INDEXES = { CReference.FRAMES_IN, CReference.REPORTS_IN,
            CReference.REPORTS_TRANSLATED, CReference.DROPS, CReference.UNSUPPORTED, CReference.OTHER,
            CReference.MALFORMED, CReference.RESPONSES, CReference.FRAMES_OUT };

        static long[] read(final CReference reference)
        {
            final long[] values = new long[INDEXES.length];
            for (int i = 0; i < INDEXES.length; i++)
            {
                values[i] = reference.counter(INDEXES[i]);
            }
            return values;
        }

        static ReferenceCounts between(final long[] before, final long[] after)
        {
            final long[] d = new long[before.length];
            for (int i = 0; i < d.length; i++)
            {
                d[i] = after[i] - before[i];
            }
            return new ReferenceCounts(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8]);
        }
    }

    /**
     * The result of a run with {@code --compare-c}: Java and C rounds measured alternately on the same EAL, ports
     * and mempool.
     *
     * @param java                      the Java engine over all its rounds (allocation and GCs included; its rates
     *                                  the medians of the rounds', {@link #overRounds}).
     * @param javaRounds                reports per second of each Java round (the engine's {@code REPORTS_IN}).
     * @param referenceRounds           reports per second of each C round (the C loop's own reports-in counter).
     * @param reportsPerSecond          median of the Java rounds.
     * @param referenceReportsPerSecond median of the C rounds.
     * @param ratio                     Java / C of the medians; NaN when either side counted no report.
     * @param referenceFramesPerSecond  frames per second of the C loop over all its rounds.
     * @param referenceTxDropped        frames the null device refused from the C loop (should be 0).
     * @param crc                       the CRC-32 implementation of the C loop.
     * @param ioFloorReportsPerSecond   median of the input floor rounds (rx, touch, free in C; nothing translated),
     *                                  its frames counted at the share of reports of the C round before each.
     * @param javaCpuRounds             reports per CPU second of the measuring thread, each Java round.
     * @param referenceCpuRounds        reports per CPU second of the measuring thread, each C round.
     * @param reportsPerCpuSecond       median of {@code javaCpuRounds}.
     * @param referenceReportsPerCpuSecond median of {@code referenceCpuRounds}.
     * @param cpuRatio                  Java / C of the CPU-time medians: what a machine whose other tenants steal
     *                                  time unevenly between rounds still measures fairly; NaN as {@code ratio}.
     * @param inputDry                  ring input: feeds that found the ring empty over every measured round (Java,
     *                                  C and input floor); 0 for pcap.
     * @param inputLowest               ring input: the fewest mbufs a feed found in the ring; -1 for pcap.
     * @param reference                 what the C loop counted over its measured rounds.
     */
    public record Comparison(
        Result java,
        double[] javaRounds,
        double[] referenceRounds,
        double reportsPerSecond,
        double referenceReportsPerSecond,
        double ratio,
        double referenceFramesPerSecond,
        long referenceTxDropped,
        String crc,
        double ioFloorReportsPerSecond,
        double[] javaCpuRounds,
        double[] referenceCpuRounds,
        double reportsPerCpuSecond,
        double referenceReportsPerCpuSecond,
        double cpuRatio,
        long inputDry,
        int inputLowest,
        ReferenceCounts reference)
    {
    }

    /**
     * Starts the EAL of this process, measures from the given input, and stops the EAL.
     *
     * @param primitive       what to drive.
     * @param base            configuration; its first collector with the primitive's region serves the reports.
     * @param redundancy      N for Key-Write and Key-Increment.
     * @param batchSize       Append batch size.
     * @param warmupReports   reports before measuring.
     * @param measuredReports reports measured.
     * @param extraEalArgs    EAL arguments appended to the defaults.
     * @param sourceReports   distinct reports the input repeats (1..16384).
     * @param input           where the reports come from.
     * @return the measurement.
     * @throws IOException if the source capture cannot be written.
     */
    public static Result run(
        final BenchPrimitive primitive,
        final ApplianceConfig base,
        final int redundancy,
        final int batchSize,
        final long warmupReports,
        final long measuredReports,
        final List<String> extraEalArgs,
        final int sourceReports,
        final Input input) throws IOException
    {
        return run(synthetic(primitive, base, redundancy, batchSize), EngineBench.config(primitive, base, batchSize,
            EngineBench.DEFAULT_SKETCH_SWITCHES), warmupReports, measuredReports, extraEalArgs, sourceReports, input);
    }

    /**
     * Starts the EAL of this process, measures the given frames (a capture's: {@code dta bench --io dpdk --in}) from
     * the given input, and stops the EAL. The input holds {@code sourceFrames} frames, the given ones repeated in
     * order ({@link BenchInput#write}); the EAL's memory is {@link #memoryMegabytes} unless the extra arguments say.
     *
     * @param frames          the frames.
     * @param config          the configuration the engine runs with.
     * @param warmupFrames    frames received before measuring.
     * @param measuredFrames  frames received while measuring (exactly: the last burst partial).
     * @param extraEalArgs    EAL arguments merged into the defaults.
     * @param sourceFrames    frames the input holds ({@link BenchMemory#sourceFrames}).
     * @param input           where the frames come from.
     * @return the measurement.
     * @throws IOException if the source capture cannot be written.
     */
    public static Result run(
        final BenchInput frames,
        final ApplianceConfig config,
        final long warmupFrames,
        final long measuredFrames,
        final List<String> extraEalArgs,
        final int sourceFrames,
        final Input input) throws IOException
    {
        return DpdkBenchSession.session(frames, config, extraEalArgs, sourceFrames, input, (s) ->
        {
            DpdkBenchSession.warmUp(s, warmupFrames);
            return DpdkBenchSession.measure(s, measuredFrames);
        });
    }

    /**
     * {@code --workers W}: the synthetic reports of one primitive through {@code W} workers ({@link WorkersBench}).
     *
     * @param primitive     what to drive.
     * @param base          configuration; its first collector with the primitive's region serves the reports.
     * @param redundancy    N for Key-Write and Key-Increment.
     * @param batchSize     Append batch size.
     * @param warmupReports reports before measuring, over all workers.
     * @param reports       reports measured, over all workers.
     * @param extraEalArgs  EAL arguments merged into the defaults.
     * @param sourceReports distinct reports each worker's ring holds.
     * @param workers       how many workers.
     * @param rounds        rounds (each {@code reports / rounds} reports).
     * @param scaling       also one worker, in alternating rounds.
     * @param compareC      also the C reference loop on the W lcores, in alternating rounds.
     * @return the measurement.
     */
    public static WorkersBench.Scaling runWorkers(
        final BenchPrimitive primitive,
        final ApplianceConfig base,
        final int redundancy,
        final int batchSize,
        final long warmupReports,
        final long reports,
        final List<String> extraEalArgs,
        final int sourceReports,
        final int workers,
        final int rounds,
        final boolean scaling,
        final boolean compareC)
    {
        final ApplianceConfig config = DerivedQueuePairs.withWorkerQueuePairs(EngineBench.config(primitive, base,
            batchSize, EngineBench.DEFAULT_SKETCH_SWITCHES), workers);
        return WorkersBench.run(synthetic(primitive, config, redundancy, batchSize), config, workers,
            warmupReports / workers, reports / rounds / workers, extraEalArgs, sourceReports, rounds, scaling, compareC);
    }

    private static BenchInput synthetic(
        final BenchPrimitive primitive, final ApplianceConfig base, final int redundancy, final int batchSize)
    {
        return BenchInput.synthetic(primitive, EngineBench.config(primitive, base, batchSize,
            EngineBench.DEFAULT_SKETCH_SWITCHES), redundancy, 1);
    }

    /**
     * {@code --compare-c}: after a warm-up of both, alternates {@code rounds} Java rounds and {@code rounds} rounds
     * of the C reference loop ({@link CReference}), each of {@code reportsPerRound} reports, in one EAL; each round
     * also measures the input floor ({@link CReference#ioFloor}). With {@link Input#RING} the C loop and the input
     * floor feed the same ring through the same native function as the Java loop.
     *
     * @param primitive       what to drive.
     * @param base            configuration; its first collector with the primitive's region serves the reports.
     * @param redundancy      N for Key-Write and Key-Increment.
     * @param batchSize       Append batch size.
     * @param warmupReports   reports before measuring (each side).
     * @param reportsPerRound reports measured per round.
     * @param rounds          rounds of each side.
     * @param extraEalArgs    EAL arguments appended to the defaults.
     * @param sourceReports   distinct reports the input repeats (1..16384).
     * @param input           where the reports come from.
     * @return both measurements.
     * @throws IOException if the source capture cannot be written.
     */
    public static Comparison compare(
        final BenchPrimitive primitive,
        final ApplianceConfig base,
        final int redundancy,
        final int batchSize,
        final long warmupReports,
        final long reportsPerRound,
        final int rounds,
        final List<String> extraEalArgs,
        final int sourceReports,
        final Input input) throws IOException
    {
        return compare(synthetic(primitive, base, redundancy, batchSize), EngineBench.config(primitive, base,
            batchSize, EngineBench.DEFAULT_SKETCH_SWITCHES), warmupReports, reportsPerRound, rounds, extraEalArgs,
            sourceReports, input);
    }

    /**
     * {@code --compare-c} over the given frames (a capture's: {@code dta bench --io dpdk --in --compare-c}): as
     * {@link #compare(BenchPrimitive, ApplianceConfig, int, int, long, long, int, List, int, Input)}, rounds of
     * {@code framesPerRound} frames received rounded up to whole passes of the capture ({@link #framesPerRound}),
     * each side's rate its own reports received per second, the C loop's counters over its rounds in
     * {@link Comparison#reference()}.
     *
     * @param frames         the frames.
     * @param config         the configuration both loops run with.
     * @param warmupFrames   frames before measuring (each side).
     * @param framesPerRound frames received per round.
     * @param rounds         rounds of each side.
     * @param extraEalArgs   EAL arguments merged into the defaults.
     * @param sourceFrames   frames the input holds ({@link BenchMemory#sourceFrames}).
     * @param input          where the frames come from.
     * @return both measurements.
     * @throws IOException if the source capture cannot be written.
     */
    public static Comparison compare(
        final BenchInput frames,
        final ApplianceConfig config,
        final long warmupFrames,
        final long framesPerRound,
        final int rounds,
        final List<String> extraEalArgs,
        final int sourceFrames,
        final Input input) throws IOException
    {
        final long warmupReports = warmupFrames;
        final long reportsPerRound = framesPerRound(frames, framesPerRound);
        return DpdkBenchSession.session(frames, config, extraEalArgs, sourceFrames, input, (s) ->
        {
            try (CReference reference = new CReference(s.config(), 0))
            {
                DpdkBenchSession.warmUp(s, warmupReports);
                reference.run(s.in().portId(), s.out().portId(), s.pool(), warmupReports, s.feeder());
                final double[] javaRounds = new double[rounds];
                final double[] referenceRounds = new double[rounds];
                final double[] floorRounds = new double[rounds];
                final double[] javaCpuRounds = new double[rounds];
                final double[] referenceCpuRounds = new double[rounds];
                final Result[] javaResults = new Result[rounds];
                final double[] referenceFrameRounds = new double[rounds];
                final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                // One round measured and discarded, as the measuring loop's own warm-up: the first round counted
                // 7 KB allocated by the JVM (no Java allocation event in its window even with -XX:-UseTLAB; later
                // rounds 0), so every reported round now runs in a warm measuring loop.
                DpdkBenchSession.measure(s, Math.max(1, reportsPerRound / 10));
                final long dryBefore = DpdkBenchSession.dry(s);
                final long[] referenceBefore = ReferenceCounts.read(reference);
                long referenceReports = 0;
                long referenceDropped = 0;
                for (int r = 0; r < rounds; r++)
                {
                    final long javaCpuBefore = threads.getCurrentThreadCpuTime();
                    final Result java = DpdkBenchSession.measure(s, reportsPerRound);
                    // Each side's rate is its own reports over its own time: the engine's REPORTS_IN here, the C
                    // loop's reports-in counter below (for synthetic reports every frame received; with a capture
                    // the reports among the frames of the part of the capture that round received).
                    javaCpuRounds[r] = java.reports() * 1e9 / (threads.getCurrentThreadCpuTime() - javaCpuBefore);
                    javaRounds[r] = java.reportsPerSecond();
                    javaResults[r] = java;
                    final long cReportsBefore = reference.counter(CReference.REPORTS_IN);
                    final long cFramesBefore = reference.counter(CReference.FRAMES_IN);
                    final long referenceCpuBefore = threads.getCurrentThreadCpuTime();
                    final CReference.RunResult c = reference.run(s.in().portId(), s.out().portId(), s.pool(),
                        reportsPerRound, s.feeder());
                    final long referenceCpu = threads.getCurrentThreadCpuTime() - referenceCpuBefore;
                    final long cReports = reference.counter(CReference.REPORTS_IN) - cReportsBefore;
                    final long cFrames = reference.counter(CReference.FRAMES_IN) - cFramesBefore;
                    referenceCpuRounds[r] = cReports * 1e9 / referenceCpu;
                    referenceRounds[r] = cReports * 1e9 / c.nanos();
                    referenceFrameRounds[r] = c.frames() * 1e9 / c.nanos();
                    referenceReports += cReports;
                    referenceDropped += c.txDropped();
                    // The input floor parses nothing: its frame rate at the share of reports the C round just
                    // counted among as many frames (whole passes of a capture: the same mix).
                    final double share = cFrames > 0 ? (double)cReports / cFrames : 0;
                    floorRounds[r] = reference.ioFloor(s.in().portId(), reportsPerRound, s.feeder()).reportsPerSecond() *
                        share;
                }
                final long inputDry = DpdkBenchSession.dry(s) - dryBefore;
                final ReferenceCounts counts =
                    ReferenceCounts.between(referenceBefore, ReferenceCounts.read(reference));
                final Result java = overRounds(javaResults, inputDry, DpdkBenchSession.lowest(s));
                final double javaMedian = java.reportsPerSecond();
                final double referenceMedian = median(referenceRounds);
                final double javaCpuMedian = median(javaCpuRounds);
                final double referenceCpuMedian = median(referenceCpuRounds);
                // No ratio when a side counted no report (a capture without any): 0 / 0 is no comparison.
                final boolean comparable = java.reports() > 0 && referenceReports > 0;
                return new Comparison(java, javaRounds, referenceRounds, javaMedian, referenceMedian,
                    comparable ? javaMedian / referenceMedian : Double.NaN, median(referenceFrameRounds),
                    referenceDropped, reference.crcName(), median(floorRounds), javaCpuRounds, referenceCpuRounds,
                    javaCpuMedian, referenceCpuMedian, comparable ? javaCpuMedian / referenceCpuMedian : Double.NaN,
                    inputDry, DpdkBenchSession.lowest(s), counts);
            }
        });
    }

    /**
     * The Java engine over its {@code --compare-c} rounds: counts summed, allocation per report over all of them, and
     * every rate the median of the rounds' rates, as the ratio's is (a slow round must not weigh more). Each rate of
     * the result is on that one basis: a total over the total time beside medians compared a mean-like rate with a
     * median, and showed more reports per second than frames received per second though every report was a frame
     * received. The median being monotone, a round's reports never outnumbering its frames received keeps
     * {@code reportsPerSecond <= framesInPerSecond}.
     *
     * @param rounds      each round's measurement (at least one).
     * @param inputDry    ring input: feeds that found the ring empty over the measured rounds.
     * @param inputLowest ring input: the fewest mbufs a feed found; -1 for pcap.
     * @return the rounds as one result.
     */
    public static Result overRounds(final Result[] rounds, final long inputDry, final int inputLowest)
    {
        final double[] reportRates = new double[rounds.length];
        final double[] frameRates = new double[rounds.length];
        final double[] frameInRates = new double[rounds.length];
        final long[] counters = new long[COUNTERS.length];
        long reports = 0;
        long frames = 0;
        long framesIn = 0;
        double seconds = 0;
        double allocated = 0;
        long gcs = 0;
        long txDropped = 0;
        long drops = 0;
        for (int r = 0; r < rounds.length; r++)
        {
            final Result round = rounds[r];
            reportRates[r] = round.reportsPerSecond();
            frameRates[r] = round.framesPerSecond();
            frameInRates[r] = round.framesInPerSecond();
            reports += round.reports();
            frames += round.frames();
            framesIn += round.framesIn();
            seconds += round.seconds();
            allocated += round.allocatedBytesPerReport() * (round.reports() > 0 ? round.reports() : round.framesIn());
            gcs += round.gcCount();
            txDropped += round.txDropped();
            drops += round.drops();
            for (int i = 0; i < counters.length; i++)
            {
                counters[i] += round.counters()[i];
            }
        }
        return new Result(reports, frames, seconds, median(reportRates), median(frameRates), median(frameInRates),
            allocated / (reports > 0 ? reports : framesIn), gcs, txDropped, drops, inputDry, inputLowest, framesIn,
            counters);
    }

    /**
     * The frames a {@code --compare-c} round receives: as asked for synthetic reports; for a capture rounded up to
     * whole passes of it, so that every round, Java's, C's and the input floor's, receives the capture's mix of
     * frames (exactly: each loop's last burst of a round is partial), wherever in the capture it starts.
     *
     * @param frames    the frames.
     * @param requested frames asked per round.
     * @return frames per round.
     */
    public static long framesPerRound(final BenchInput frames, final long requested)
    {
        if (null == frames.file())
        {
            return requested;
        }
        final long pass = frames.count();
        return Math.max(1, (requested + pass - 1) / pass) * pass;
    }

    /**
     * @param values at least one value.
     * @return their median (the mean of the middle two for an even count).
     */
    public static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        final int middle = sorted.length / 2;
        return 0 == (sorted.length & 1) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle];
    }
}
