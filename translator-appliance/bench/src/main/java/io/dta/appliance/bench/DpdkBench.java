package io.dta.appliance.bench;

import io.dta.appliance.dpdk.TxQueue;
import io.dta.appliance.dpdk.WorkerAgent;
import io.dta.appliance.dpdk.MbufFrameSink;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.FrameLimits;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.engine.worker.DerivedQueuePairs;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import io.dta.dpdk.Eal;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.Mbuf;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.Mempool;
import io.dta.dpdk.RingFeeder;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

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
    private static final Set<EngineCounter> RESPONSE_COUNTERS = EnumSet.of(
        EngineCounter.ACKS_IN, EngineCounter.ATOMIC_ACKS_IN, EngineCounter.NAK_SEQUENCE_ERRORS_IN,
        EngineCounter.NAK_FATAL_IN, EngineCounter.NAK_RNR_IN);
    /** Reports dropped after they were routed to a primitive (counted in REPORTS_TRANSLATED too). */
    private static final Set<EngineCounter> AFTER_TRANSLATION = EnumSet.of(
        EngineCounter.DROP_GRACE_PERIOD, EngineCounter.DROP_QP_ERROR, EngineCounter.DROP_BACKLOG_FULL,
        EngineCounter.DROP_ATOMIC_QUEUE_FULL);
    /**
     * Distinct reports in the replayed capture by default. {@code net_pcap} copies each from its stored mbuf (about
     * 2.4 KB apart), so 4096 of them (about 10 MB) are read from beyond the caches.
     */
    public static final int DEFAULT_SOURCE_REPORTS = 4096;

    /** The EAL's memory ({@code -m}) in MB: both pools and the ring, on 4 KB pages or on hugepages alike. */
    public static final int EAL_MEMORY_MB = 256;

    /**
     * The most EAL memory ({@code -m}, MB) a bench of a capture asks for by itself, its frames held in mbufs; a
     * capture that needs more is refused unless {@code --eal} gives {@code -m} (or {@code --socket-mem}) itself.
     */
    public static final int MAX_CAPTURE_MEMORY_MB = 4096;

    /**
     * The fewest frames an input holds: a capture with fewer is repeated whole until it holds at least this many, so
     * that a burst of 32 never takes all of it (the ring would run dry, {@code net_pcap} return short bursts).
     */
    public static final int MIN_SOURCE_FRAMES = 64;

    /** Mbufs of the pool the engine's frames come from (with {@code net_pcap}, the capture's copies too). */
    private static final int FRAME_POOL_MBUFS = 16383;
    /** Per mbuf beyond its data room: the mbuf header, the mempool's object header and padding. */
    private static final int MBUF_OVERHEAD = 256;
    /** The EAL's own needs beside the pools (rings, ports, its heap), MB. */
    private static final int EAL_BASE_MB = 64;
    /** The largest data room of an mbuf (a 16-bit field). */
    private static final int MAX_DATA_ROOM = 0xFFFF;
    /** The longest frame one mbuf holds: the largest data room less the headroom. */
    private static final int MAX_MBUF_FRAME = 2 * MAX_DATA_ROOM - Mempool.dataRoomFor(MAX_DATA_ROOM);
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
     * @param sourceFrames    frames the input holds ({@link #sourceFrames}).
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
        return session(frames, config, extraEalArgs, sourceFrames, input, (s) ->
        {
            warmUp(s, warmupFrames);
            return measure(s, measuredFrames);
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
        final boolean scaling)
    {
        final ApplianceConfig config = DerivedQueuePairs.withWorkerQueuePairs(EngineBench.config(primitive, base,
            batchSize, EngineBench.DEFAULT_SKETCH_SWITCHES), workers);
        return WorkersBench.run(synthetic(primitive, config, redundancy, batchSize), config, workers,
            warmupReports / workers, reports / rounds / workers, extraEalArgs, sourceReports, rounds, scaling);
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
     * @param sourceFrames   frames the input holds ({@link #sourceFrames}).
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
        return session(frames, config, extraEalArgs, sourceFrames, input, (s) ->
        {
            try (CReference reference = new CReference(s.config, 0))
            {
                warmUp(s, warmupReports);
                reference.run(s.in.portId(), s.out.portId(), s.pool, warmupReports, s.feeder);
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
                measure(s, Math.max(1, reportsPerRound / 10));
                final long dryBefore = dry(s);
                final long[] referenceBefore = ReferenceCounts.read(reference);
                long referenceReports = 0;
                long referenceDropped = 0;
                for (int r = 0; r < rounds; r++)
                {
                    final long javaCpuBefore = threads.getCurrentThreadCpuTime();
                    final Result java = measure(s, reportsPerRound);
                    // Each side's rate is its own reports over its own time: the engine's REPORTS_IN here, the C
                    // loop's reports-in counter below (for synthetic reports every frame received; with a capture
                    // the reports among the frames of the part of the capture that round received).
                    javaCpuRounds[r] = java.reports() * 1e9 / (threads.getCurrentThreadCpuTime() - javaCpuBefore);
                    javaRounds[r] = java.reportsPerSecond();
                    javaResults[r] = java;
                    final long cReportsBefore = reference.counter(CReference.REPORTS_IN);
                    final long cFramesBefore = reference.counter(CReference.FRAMES_IN);
                    final long referenceCpuBefore = threads.getCurrentThreadCpuTime();
                    final CReference.RunResult c = reference.run(s.in.portId(), s.out.portId(), s.pool,
                        reportsPerRound, s.feeder);
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
                    floorRounds[r] = reference.ioFloor(s.in.portId(), reportsPerRound, s.feeder).reportsPerSecond() *
                        share;
                }
                final long inputDry = dry(s) - dryBefore;
                final ReferenceCounts counts =
                    ReferenceCounts.between(referenceBefore, ReferenceCounts.read(reference));
                final Result java = overRounds(javaResults, inputDry, lowest(s));
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
                    inputDry, lowest(s), counts);
            }
        });
    }

    /**
     * Why the two loops of a {@code --compare-c} run did unequal work with the same frames, which makes their ratio
     * compare unequal work; empty when nothing says so. The keys (in this order) name the reasons in
     * {@code dta bench}'s JSON ({@code unequalWorkReasons}), the values say them with their counts:
     * <ul>
     *     <li>{@code responses}: collector responses among the frames (ACK, NAK, ATOMIC ACK). The engine acts on
     *     them (a NAK resynchronises its QP and drops reports in the grace period that follows), the C loop counts
     *     and skips them.</li>
     *     <li>{@code unsupportedReports}: reports the C loop does not handle (sequence-tracked, essential,
     *     Sketch-Merge).</li>
     *     <li>{@code fewerTranslated}: the C loop translated a smaller share of the frames it received.</li>
     *     <li>{@code droppedAfterTranslation}: the engine dropped reports after routing them (grace period or
     *     probing, QP in error, essential backlog or atomic queue full), which {@code reportsTranslated} counts as
     *     translated; the C loop has none of these states.</li>
     *     <li>{@code dropsDiffer}: the reports the engine dropped before translating them (every other reason but a
     *     full transmit queue) are not the C loop's drops and malformed frames, as they are for equal work; more
     *     than a thousandth of the frames received apart.</li>
     *     <li>{@code roceFramesOutDiffer}: the RoCEv2 frames sent differ by more than 1 % (for equal work they
     *     differ by a few held frames and idle flushes, which depend on the clock).</li>
     * </ul>
     *
     * @param java the Java engine over its rounds.
     * @param c    the C loop's counts over its rounds.
     * @return reason name to its description, in the order above.
     */
    public static Map<String, String> unequalWork(final Result java, final ReferenceCounts c)
    {
        final Map<String, String> reasons = new LinkedHashMap<>();
        long javaResponses = 0;
        long dropsBefore = 0;
        long dropsAfter = 0;
        final StringBuilder after = new StringBuilder();
        for (final EngineCounter counter : COUNTERS)
        {
            final long n = java.delta(counter);
            if (RESPONSE_COUNTERS.contains(counter) || counter.name().startsWith("RESPONSE_DROP_"))
            {
                javaResponses += n;
            }
            else if (AFTER_TRANSLATION.contains(counter))
            {
                dropsAfter += n;
                if (n > 0)
                {
                    after.append(after.isEmpty() ? "" : ", ").append(camel(counter)).append(' ').append(n);
                }
            }
            else if (counter.isDrop() && EngineCounter.DROP_TX_FULL != counter)
            {
                dropsBefore += n;
            }
        }
        if (c.responses() > 0 || javaResponses > 0)
        {
            reasons.put("responses", "the frames hold " + Math.max(c.responses(), javaResponses) + " collector " +
                "responses, which the engine acts on (NAK resyncs, grace periods) and the C loop skips");
        }
        if (c.unsupported() > 0)
        {
            reasons.put("unsupportedReports", c.unsupported() + " reports the C loop does not handle " +
                "(sequence-tracked, essential or Sketch-Merge)");
        }
        final double javaShare = java.framesIn() > 0 ?
            (double)java.delta(EngineCounter.REPORTS_TRANSLATED) / java.framesIn() : 0;
        final double referenceShare = c.framesIn() > 0 ? (double)c.reportsTranslated() / c.framesIn() : 0;
        if (referenceShare + 1e-3 < javaShare)
        {
            reasons.put("fewerTranslated", String.format(Locale.ROOT, "the C loop translated %.1f %% of " +
                "the frames it received, the engine %.1f %%", 100 * referenceShare, 100 * javaShare));
        }
        if (dropsAfter > 0)
        {
            reasons.put("droppedAfterTranslation", "the engine dropped " + dropsAfter + " of the reports it " +
                "translated (" + after + "), which reportsTranslated counts");
        }
        final long referenceDrops = c.drops() + c.malformed();
        if (Math.abs(dropsBefore - referenceDrops) * 1000 > Math.max(java.framesIn(), c.framesIn()))
        {
            reasons.put("dropsDiffer", "the engine dropped " + dropsBefore + " reports before translating them, " +
                "the C loop " + referenceDrops + " (drops and malformed frames)");
        }
        final long javaOut = java.delta(EngineCounter.ROCE_FRAMES_OUT);
        if (Math.abs(javaOut - c.framesOut()) * 100 > Math.max(javaOut, c.framesOut()))
        {
            reasons.put("roceFramesOutDiffer", "the engine sent " + javaOut + " RoCEv2 frames, the C loop " +
                c.framesOut());
        }
        return reasons;
    }

    /**
     * @param counter an engine counter.
     * @return its name as {@code dta replay --json} and {@code dta bench --json} spell it under {@code drops} ({@code dropGracePeriod}).
     */
    private static String camel(final EngineCounter counter)
    {
        final StringBuilder sb = new StringBuilder();
        for (final String word : counter.name().toLowerCase(Locale.ROOT).split("_"))
        {
            sb.append(sb.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
        }
        return sb.toString();
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

    /**
     * @param extraEalArgs the user's EAL arguments.
     * @return the EAL arguments a bench session starts with, less its devices: what decides its pages and memory.
     */
    public static List<String> sessionEalArgs(final List<String> extraEalArgs)
    {
        return sessionEalArgs(extraEalArgs, EAL_MEMORY_MB);
    }

    /**
     * @param extraEalArgs the user's EAL arguments.
     * @param memoryMb     the EAL memory ({@code -m}) unless the user's arguments say otherwise.
     * @return the EAL arguments a bench session starts with, less its devices: what decides its pages and memory.
     */
    public static List<String> sessionEalArgs(final List<String> extraEalArgs, final int memoryMb)
    {
        return Eal.mergeArgs(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("dta-bench"), 0, memoryMb), extraEalArgs);
    }

    /**
     * How many frames the input of a bench of these frames holds: all of them, repeated whole until there are at
     * least {@link #MIN_SOURCE_FRAMES}.
     *
     * @param frames the frames (a capture's).
     * @return how many frames the input holds.
     */
    public static int sourceFrames(final BenchInput frames)
    {
        final int count = frames.count();
        return count * ((MIN_SOURCE_FRAMES + count - 1) / count);
    }

    /**
     * The EAL memory a bench of these frames needs: every frame of the input in an mbuf ({@code net_pcap}'s
     * {@code infinite_rx} loads them all at start, the ring holds them all) beside the frame pool, each mbuf with a
     * data room for the longest frame it may hold, at the cost per mbuf of the pages the EAL runs on
     * ({@link #mbufBytes}: about twice the mbuf on {@code --no-huge}'s 4 KB pages, the mbuf and an eighth on
     * hugepages), and the EAL's own needs.
     *
     * @param frames       the frames.
     * @param config       the configuration the engine runs with (its path MTUs size the frames it builds).
     * @param sourceFrames frames the input holds.
     * @param input        where the frames come from.
     * @param hugepages    whether the EAL runs on hugepages ({@link #onHugepages}).
     * @return megabytes.
     */
    public static long memoryMegabytes(
        final BenchInput frames,
        final ApplianceConfig config,
        final int sourceFrames,
        final Input input,
        final boolean hugepages)
    {
        final int frameRoom = frameDataRoom(frames, config);
        final int inputRoom = Mempool.dataRoomFor(frames.maxLength());
        final long bytes = Input.PCAP == input ?
            (long)(FRAME_POOL_MBUFS + sourceFrames) * mbufBytes(Math.max(frameRoom, inputRoom), hugepages) :
            FRAME_POOL_MBUFS * mbufBytes(frameRoom, hugepages) + (long)sourceFrames * mbufBytes(inputRoom, hugepages);
        return EAL_BASE_MB + ((bytes + (1 << 20) - 1) >> 20);
    }

    /**
     * @param userEalArgs the user's EAL arguments (with {@code --hugepages}, the hugepage option it adds).
     * @return whether a bench session with them runs on hugepages (its arguments lack {@link Eal#NO_HUGE}).
     */
    public static boolean onHugepages(final List<String> userEalArgs)
    {
        return !sessionEalArgs(userEalArgs).contains(Eal.NO_HUGE);
    }

    /**
     * Why a bench of these frames through DPDK cannot work, said before any EAL starts: a frame longer than an mbuf
     * holds ({@code net_pcap}'s {@code infinite_rx} refuses mbuf chains, and the ring takes one mbuf per frame), or
     * more memory than the EAL has ({@code -m} of {@code sessionArgs}) or than a bench asks for by itself.
     *
     * @param frames       the frames.
     * @param config       the configuration the engine runs with.
     * @param sourceFrames frames the input holds.
     * @param input        where the frames come from.
     * @param userEalArgs  the user's EAL arguments (a {@code -m} or {@code --socket-mem} there is the memory).
     * @return the reason, or null when it can work.
     */
    public static String captureProblem(
        final BenchInput frames,
        final ApplianceConfig config,
        final int sourceFrames,
        final Input input,
        final List<String> userEalArgs)
    {
        final int longest = frames.maxLength();
        if (Mempool.dataRoomFor(longest) > MAX_DATA_ROOM)
        {
            int index = 0;
            while (frames.length(index) != longest)
            {
                index++;
            }
            return "frame " + (index + 1) + " of " + frames.file() + " is " + longest + " bytes, longer than an mbuf " +
                "holds (" + MAX_MBUF_FRAME + " bytes; " + input.device() + " takes no mbuf chains there): bench it " +
                "with --io java";
        }
        final long needed = memoryMegabytes(frames, config, sourceFrames, input, onHugepages(userEalArgs));
        final String what = "the " + sourceFrames + " frames of " + frames.file() + " (the longest " + longest +
            " bytes) need about " + needed + " MB of EAL memory in mbufs through " + input.device();
        final long given = Eal.memoryMegabytes(userEalArgs);
        if (0 != given && given < needed)
        {
            return what + ", more than --eal gives (" + given + " MB)";
        }
        if (0 == given && needed > MAX_CAPTURE_MEMORY_MB)
        {
            return what + ", more than the " +
                MAX_CAPTURE_MEMORY_MB + " MB a bench takes by itself: bench a shorter capture, or give the memory " +
                "with --eal \"-m " + needed + "\"";
        }
        return null;
    }

    /**
     * @param frames       the frames.
     * @param config       the configuration the engine runs with.
     * @param sourceFrames frames the input holds.
     * @param input        where the frames come from.
     * @param userEalArgs  the user's EAL arguments (they say whether the EAL runs on hugepages).
     * @return the EAL memory a session asks for unless the user's arguments say: {@link #EAL_MEMORY_MB}, more when
     * the frames need it ({@link #memoryMegabytes}).
     */
    public static int sessionMemoryMegabytes(
        final BenchInput frames,
        final ApplianceConfig config,
        final int sourceFrames,
        final Input input,
        final List<String> userEalArgs)
    {
        return (int)Math.max(EAL_MEMORY_MB,
            memoryMegabytes(frames, config, sourceFrames, input, onHugepages(userEalArgs)));
    }

    /**
     * What one mbuf takes of the EAL's memory: on {@code --no-huge}'s 4 KB pages about twice the mbuf (the pool's
     * objects are laid out in page-sized chunks, so most of a page beyond a 2.4 KB mbuf is lost); on hugepages the
     * objects lie packed, so the mbuf itself and an eighth for the pool's and the heap's slack.
     */
    private static long mbufBytes(final int dataRoom, final boolean hugepages)
    {
        final long mbuf = dataRoom + MBUF_OVERHEAD;
        return hugepages ? mbuf + mbuf / 8 : 2 * mbuf;
    }

    /**
     * The data room of the engine's frames: the default for synthetic reports (as the bench always ran), for a
     * capture room for the largest frame the configuration's path MTUs allow.
     */
    private static int frameDataRoom(final BenchInput frames, final ApplianceConfig config)
    {
        return null == frames.file() ? Mempool.DEFAULT_DATA_ROOM :
            Mempool.dataRoomFor(FrameLimits.largestFrame(config.collectors()));
    }

    private record Session(
        ApplianceConfig config,
        Mempool pool,
        EthPort in,
        EthPort out,
        TxQueue tx,
        WorkerAgent agent,
        RingFeeder feeder)
    {
    }

    @FunctionalInterface
    private interface SessionBody<T>
    {
        T measure(Session session) throws IOException;
    }

    private static <T> T session(
        final BenchInput frames,
        final ApplianceConfig config,
        final List<String> extraEalArgs,
        final int sourceFrames,
        final Input input,
        final SessionBody<T> body) throws IOException
    {
        final boolean capture = null != frames.file();
        final int memoryMb = capture ? sessionMemoryMegabytes(frames, config, sourceFrames, input, extraEalArgs) :
            EAL_MEMORY_MB;
        final int frameRoom = frameDataRoom(frames, config);
        final int inputRoom = Mempool.dataRoomFor(frames.maxLength());
        if (Input.RING == input)
        {
            final List<String> args = Eal.mergeArgs(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("dta-bench"), 0,
                memoryMb, "net_null0"), extraEalArgs);
            try (Eal eal = Eal.init(args);
                Mempool pool = Mempool.create("bench_pool", FRAME_POOL_MBUFS, 256, frameRoom);
                Mempool reportPool = Mempool.create("bench_ring_pool", sourceFrames, 0,
                    capture ? inputRoom : Mempool.DEFAULT_DATA_ROOM);
                RingFeeder feeder = ringInput("bench_ring", reportPool, frames, sourceFrames))
            {
                return session(config, pool, EthPort.open(feeder.portId(), pool, 1024, 1024, false),
                    eal.portId("net_null0"), feeder, body);
            }
        }
        final Path file = Files.createTempFile("dta-bench-", ".pcap");
        // A run ended by a signal before the port started leaves no capture behind (shutdown hooks run on SIGTERM).
        file.toFile().deleteOnExit();
        try
        {
            try (PcapWriter writer = new PcapWriter(file, true))
            {
                frames.write(writer, sourceFrames);
            }
            final List<String> args = Eal.mergeArgs(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("dta-bench"), 0,
                memoryMb, "net_pcap0,rx_pcap=" + file + ",infinite_rx=1", "net_null0"), extraEalArgs);
            // net_pcap's infinite_rx loads every packet of the capture into an mbuf of the port's pool at start, and
            // copies each into a fresh one of the same pool as it delivers it.
            try (Eal eal = Eal.init(args);
                Mempool pool = Mempool.create("bench_pool", capture ? FRAME_POOL_MBUFS + sourceFrames :
                    FRAME_POOL_MBUFS, 256, Math.max(frameRoom, capture ? inputRoom : frameRoom)))
            {
                final EthPort in = EthPort.open(eal.portId("net_pcap0"), pool, 1024, 1024, false);
                // Started, the port holds every packet in mbufs (and the file open, on Linux readable unlinked):
                // the capture, up to a GB, goes now rather than at the end, which a long run may never reach.
                Files.deleteIfExists(file);
                return session(config, pool, in, eal.portId("net_null0"), null, body);
            }
        }
        finally
        {
            Files.deleteIfExists(file);
        }
    }

    private static <T> T session(
        final ApplianceConfig config,
        final Mempool pool,
        final EthPort in,
        final int outPortId,
        final RingFeeder feeder,
        final SessionBody<T> body) throws IOException
    {
        final EthPort out = EthPort.open(outPortId, pool, 1024, 1024, false);
        final TxQueue tx = new TxQueue(out.queue(0), BURST);
        try (MbufFrameSink sink = new MbufFrameSink(pool, tx, BURST))
        {
            final TranslatorEngine engine = new TranslatorEngine(config, sink, false);
            final WorkerAgent agent = WorkerAgent.of(engine, in.queue(0), tx, BURST, SystemNanoClock.INSTANCE);
            final T result = body.measure(new Session(config, pool, in, out, tx, agent, feeder));
            agent.onClose();
            in.close();
            out.close();
            return result;
        }
    }

    /**
     * The ring input: {@code count} mbufs from {@code pool}, each holding one of the source's distinct reports (in
     * the order a capture of {@link EngineBench#writeReports} holds them), handed to a {@link RingFeeder} whose
     * {@code net_ring} port delivers them round after round. Open the port ({@link RingFeeder#portId()}) with
     * {@link EthPort#open}; close it before the feeder, and the feeder before the pool.
     *
     * @param name   unique name of the ring and its port.
     * @param pool   where the report mbufs come from (they stay taken until the feeder is closed).
     * @param source the reports.
     * @param count  how many distinct reports (1..{@link EngineBench#distinctReports()}).
     * @return the feeder, its ring full.
     */
    public static RingFeeder ringInput(final String name, final Mempool pool, final EngineBench source, final int count)
    {
        if (count < 1 || count > source.distinctReports())
        {
            throw new IllegalArgumentException("source reports must be 1.." + source.distinctReports() + ": " + count);
        }
        return ringInput(name, pool, source.input(), count);
    }

    /**
     * The ring input: {@code count} mbufs from {@code pool}, the {@code i}-th holding frame {@code i % frames.count()}
     * (the frames repeated in order when {@code count} is larger, as {@link BenchInput#write} writes them), handed to
     * a {@link RingFeeder} whose {@code net_ring} port delivers them round after round. Open the port
     * ({@link RingFeeder#portId()}) with {@link EthPort#open}; close it before the feeder, and the feeder before the
     * pool. The pool's data room must hold the longest frame.
     *
     * @param name   unique name of the ring and its port.
     * @param pool   where the mbufs come from (they stay taken until the feeder is closed).
     * @param frames the frames.
     * @param count  how many mbufs (at least 1; any number the pool holds).
     * @return the feeder, its ring full.
     */
    public static RingFeeder ringInput(final String name, final Mempool pool, final BenchInput frames, final int count)
    {
        if (count < 1)
        {
            throw new IllegalArgumentException("the ring needs at least one frame: " + count);
        }
        // An MbufArray holds a burst's count at most (65535): the mbufs are taken and written a chunk at a time, their
        // pointers gathered into one native array that the feeder copies, so a ring holds any number of frames.
        final MbufArray chunk = new MbufArray(Math.min(count, RING_FILL_CHUNK));
        final Mbuf mbuf = new Mbuf();
        final UnsafeBuffer room = new UnsafeBuffer(0, 0);
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment all = arena.allocate(ValueLayout.ADDRESS, count);
            int taken = 0;
            try
            {
                while (taken < count)
                {
                    final int n = Math.min(chunk.capacity(), count - taken);
                    if (!pool.allocBulk(chunk, n))
                    {
                        throw new IllegalStateException("mempool " + pool.name() + " cannot give " + count + " mbufs");
                    }
                    for (int i = 0; i < n; i++)
                    {
                        final long address = chunk.get(i);
                        mbuf.wrap(address).wrapRoom(room);
                        mbuf.length(frames.copy((taken + i) % frames.count(), room, 0));
                        all.setAtIndex(ValueLayout.JAVA_LONG, taken + i, address);
                    }
                    taken += n;
                }
                return RingFeeder.create(name, all, count);
            }
            catch (final RuntimeException ex)
            {
                for (int from = 0; from < taken; from += chunk.capacity())
                {
                    final int n = Math.min(chunk.capacity(), taken - from);
                    for (int i = 0; i < n; i++)
                    {
                        chunk.set(i, all.getAtIndex(ValueLayout.JAVA_LONG, from + i));
                    }
                    Mempool.freeBulk(chunk, n);
                }
                throw ex;
            }
        }
    }

    private static void warmUp(final Session s, final long reports)
    {
        cycles(s.agent, s.feeder, reports);
    }

    /**
     * Duty cycles until exactly {@code reports} more frames came in (the last burst partial); with a ring input, the
     * feeder once after each (the C loop does the same).
     */
    private static void cycles(final WorkerAgent agent, final RingFeeder feeder, final long reports)
    {
        final long end = agent.framesIn() + reports;
        if (null == feeder)
        {
            long left;
            while ((left = end - agent.framesIn()) > 0)
            {
                agent.doWork((int)Math.min(BURST, left));
            }
        }
        else
        {
            long left;
            while ((left = end - agent.framesIn()) > 0)
            {
                agent.doWork((int)Math.min(BURST, left));
                feeder.feed();
            }
        }
    }

    private static long dry(final Session s)
    {
        return null == s.feeder ? 0 : s.feeder.dry();
    }

    private static int lowest(final Session s)
    {
        return null == s.feeder ? -1 : s.feeder.lowest();
    }

    private static Result measure(final Session s, final long measuredReports)
    {
        final WorkerAgent agent = s.agent;
        final TxQueue sink = s.tx;
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long thread = Thread.currentThread().threadId();
        final long gcBefore = gcCount();
        final long droppedBefore = sink.notTaken();
        final long inBefore = agent.framesIn();
        final long dropsBefore = agent.engine().counters().totalDrops();
        final long dryBefore = dry(s);
        final EngineCounters engineCounters = agent.engine().counters();
        final long[] counters = new long[COUNTERS.length];
        for (final EngineCounter c : COUNTERS)
        {
            counters[c.ordinal()] = -engineCounters.get(c);
        }
        // The allocation counter is read once outside the window, as EngineBench reads it: a first call may allocate
        // (lazy initialisation) after it read the counter.
        threads.getThreadAllocatedBytes(thread);
        final long allocatedBefore = threads.getThreadAllocatedBytes(thread);
        final long start = System.nanoTime();
        cycles(agent, s.feeder, measuredReports);
        final long elapsed = System.nanoTime() - start;
        final long allocated = threads.getThreadAllocatedBytes(thread) - allocatedBefore;
        final long framesIn = agent.framesIn() - inBefore;
        for (final EngineCounter c : COUNTERS)
        {
            counters[c.ordinal()] += engineCounters.get(c);
        }
        // The RoCEv2 frames, not everything the sink sent: reporter and sketch NACKs go out through it too.
        final long frames = counters[EngineCounter.ROCE_FRAMES_OUT.ordinal()];
        final long reports = counters[EngineCounter.REPORTS_IN.ordinal()];
        final double seconds = elapsed / 1e9;
        return new Result(reports, frames, seconds, reports / seconds, frames / seconds, framesIn / seconds,
            (double)allocated / (reports > 0 ? reports : framesIn), gcCount() - gcBefore,
            sink.notTaken() - droppedBefore, engineCounters.totalDrops() - dropsBefore, dry(s) - dryBefore,
            lowest(s), framesIn, counters);
    }

    static long gcCount()
    {
        long count = 0;
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans())
        {
            count += Math.max(0, gc.getCollectionCount());
        }
        return count;
    }
}
