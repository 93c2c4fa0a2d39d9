package io.dta.appliance.dpdk;

import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.EngineBench;
import io.dta.appliance.engine.TranslatorEngine;
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
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code dta bench --io dpdk}: the engine behind DPDK on one core. The reports of {@link EngineBench} come from one of
 * two inputs ({@link Input}): a capture that a {@code net_pcap} port replays forever ({@code infinite_rx=1}, copying
 * each packet into a fresh mbuf), or a {@code net_ring} port over a ring of mbufs filled once and recycled without
 * copies ({@link RingFeeder}, fed once per duty cycle), which is closer to a NIC that DMAs into mbufs. The
 * {@link DataPlaneAgent} reads them in the mbufs, and its frames, written into mbufs, go to a {@code net_null} port.
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
    /**
     * Distinct reports in the replayed capture by default. {@code net_pcap} copies each from its stored mbuf (about
     * 2.4 KB apart), so 4096 of them (about 10 MB) are read from beyond the caches.
     */
    public static final int DEFAULT_SOURCE_REPORTS = 4096;

    /** The EAL's memory ({@code -m}) in MB: both pools and the ring, on 4 KB pages or on hugepages alike. */
    public static final int EAL_MEMORY_MB = 256;

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
            return name().toLowerCase(java.util.Locale.ROOT);
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
     * @param reports                 reports measured.
     * @param frames                  frames sent in the measured phase.
     * @param seconds                 measured wall time.
     * @param reportsPerSecond        reports per second.
     * @param framesPerSecond         frames per second.
     * @param allocatedBytesPerReport bytes the data-plane thread allocated per report while measuring.
     * @param gcCount                 garbage collections while measuring.
     * @param txDropped               frames the null device refused (should be 0).
     * @param drops                   reports and responses the engine dropped while measuring (counted under their
     *                                reasons; 0 in a healthy run, as in {@code dta bench --io java}).
     * @param inputDry                ring input: duty cycles after which the feeder found the ring empty while
     *                                measuring (the input may have run dry; 0 in a healthy run); 0 for pcap.
     * @param inputLowest             ring input: the fewest mbufs the feeder found in the ring since it was filled
     *                                (the ring holds every source report); -1 for pcap.
     */
    public record Result(
        long reports,
        long frames,
        double seconds,
        double reportsPerSecond,
        double framesPerSecond,
        double allocatedBytesPerReport,
        long gcCount,
        long txDropped,
        long drops,
        long inputDry,
        int inputLowest)
    {
    }

    /**
     * The result of a run with {@code --compare-c}: Java and C rounds measured alternately on the same EAL, ports
     * and mempool.
     *
     * @param java                      the Java engine over all its rounds (allocation and GCs included).
     * @param javaRounds                reports per second of each Java round.
     * @param referenceRounds           reports per second of each C round.
     * @param reportsPerSecond          median of the Java rounds.
     * @param referenceReportsPerSecond median of the C rounds.
     * @param ratio                     Java / C of the medians.
     * @param referenceFramesPerSecond  frames per second of the C loop over all its rounds.
     * @param referenceTxDropped        frames the null device refused from the C loop (should be 0).
     * @param crc                       the CRC-32 implementation of the C loop.
     * @param ioFloorReportsPerSecond   median of the input floor rounds (rx, touch, free in C; nothing translated).
     * @param javaCpuRounds             reports per CPU second of the measuring thread, each Java round.
     * @param referenceCpuRounds        reports per CPU second of the measuring thread, each C round.
     * @param reportsPerCpuSecond       median of {@code javaCpuRounds}.
     * @param referenceReportsPerCpuSecond median of {@code referenceCpuRounds}.
     * @param cpuRatio                  Java / C of the CPU-time medians: what a machine whose other tenants steal
     *                                  time unevenly between rounds still measures fairly.
     * @param inputDry                  ring input: feeds that found the ring empty over every measured round (Java,
     *                                  C and input floor); 0 for pcap.
     * @param inputLowest               ring input: the fewest mbufs a feed found in the ring; -1 for pcap.
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
        int inputLowest)
    {
    }

    /**
     * Starts the EAL of this process, measures from the given input, and stops the EAL.
     *
     * @param primitive       what to drive.
     * @param base            configuration whose first collector serves the reports.
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
        return session(primitive, base, redundancy, batchSize, extraEalArgs, sourceReports, input, (s) ->
        {
            warmUp(s, warmupReports);
            return measure(s, measuredReports);
        });
    }

    /**
     * {@code --compare-c}: after a warm-up of both, alternates {@code rounds} Java rounds and {@code rounds} rounds
     * of the C reference loop ({@link CReference}), each of {@code reportsPerRound} reports, in one EAL; each round
     * also measures the input floor ({@link CReference#ioFloor}). With {@link Input#RING} the C loop and the input
     * floor feed the same ring through the same native function as the Java loop.
     *
     * @param primitive       what to drive.
     * @param base            configuration whose first collector serves the reports.
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
        return session(primitive, base, redundancy, batchSize, extraEalArgs, sourceReports, input, (s) ->
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
                final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                // One round measured and discarded, as the measuring loop's own warm-up: the first round counted
                // 7 KB allocated by the JVM (no Java allocation event in its window even with -XX:-UseTLAB; later
                // rounds 0), so every reported round now runs in a warm measuring loop.
                measure(s, Math.max(1, reportsPerRound / 10));
                final long dryBefore = dry(s);
                long javaReports = 0;
                long javaFrames = 0;
                double javaSeconds = 0;
                double allocated = 0;
                long gcs = 0;
                long dropped = 0;
                long engineDrops = 0;
                long referenceReports = 0;
                long referenceFrames = 0;
                long referenceNanos = 0;
                long referenceDropped = 0;
                for (int r = 0; r < rounds; r++)
                {
                    final long javaCpuBefore = threads.getCurrentThreadCpuTime();
                    final Result java = measure(s, reportsPerRound);
                    javaCpuRounds[r] = java.reports() * 1e9 / (threads.getCurrentThreadCpuTime() - javaCpuBefore);
                    javaRounds[r] = java.reportsPerSecond();
                    javaReports += java.reports();
                    javaFrames += java.frames();
                    javaSeconds += java.seconds();
                    allocated += java.allocatedBytesPerReport() * java.reports();
                    gcs += java.gcCount();
                    dropped += java.txDropped();
                    engineDrops += java.drops();
                    final long referenceCpuBefore = threads.getCurrentThreadCpuTime();
                    final CReference.RunResult c = reference.run(s.in.portId(), s.out.portId(), s.pool,
                        reportsPerRound, s.feeder);
                    referenceCpuRounds[r] = c.reports() * 1e9 / (threads.getCurrentThreadCpuTime() -
                        referenceCpuBefore);
                    referenceRounds[r] = c.reportsPerSecond();
                    referenceReports += c.reports();
                    referenceFrames += c.frames();
                    referenceNanos += c.nanos();
                    referenceDropped += c.txDropped();
                    floorRounds[r] = reference.ioFloor(s.in.portId(), reportsPerRound, s.feeder).reportsPerSecond();
                }
                final long inputDry = dry(s) - dryBefore;
                final Result java = new Result(javaReports, javaFrames, javaSeconds, javaReports / javaSeconds,
                    javaFrames / javaSeconds, allocated / javaReports, gcs, dropped, engineDrops, inputDry,
                    lowest(s));
                final double javaMedian = median(javaRounds);
                final double referenceMedian = median(referenceRounds);
                final double javaCpuMedian = median(javaCpuRounds);
                final double referenceCpuMedian = median(referenceCpuRounds);
                return new Comparison(java, javaRounds, referenceRounds, javaMedian, referenceMedian,
                    javaMedian / referenceMedian, referenceFrames * 1e9 / referenceNanos, referenceDropped,
                    reference.crcName(), median(floorRounds), javaCpuRounds, referenceCpuRounds,
                    javaCpuMedian, referenceCpuMedian, javaCpuMedian / referenceCpuMedian, inputDry, lowest(s));
            }
        });
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
        return Eal.mergeArgs(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("dta-bench"), 0, EAL_MEMORY_MB), extraEalArgs);
    }

    private record Session(
        ApplianceConfig config,
        Mempool pool,
        EthPort in,
        EthPort out,
        MbufFrameSink sink,
        DataPlaneAgent agent,
        RingFeeder feeder)
    {
    }

    @FunctionalInterface
    private interface SessionBody<T>
    {
        T measure(Session session) throws IOException;
    }

    private static <T> T session(
        final BenchPrimitive primitive,
        final ApplianceConfig base,
        final int redundancy,
        final int batchSize,
        final List<String> extraEalArgs,
        final int sourceReports,
        final Input input,
        final SessionBody<T> body) throws IOException
    {
        final EngineBench source = new EngineBench(primitive, base, redundancy, batchSize, 1);
        if (Input.RING == input)
        {
            final List<String> args = Eal.mergeArgs(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("dta-bench"), 0,
                EAL_MEMORY_MB, "net_null0"), extraEalArgs);
            try (Eal eal = Eal.init(args);
                Mempool pool = Mempool.create("bench_pool", 16383, 256, Mempool.DEFAULT_DATA_ROOM);
                Mempool reportPool = Mempool.create("bench_ring_pool", sourceReports, 0, Mempool.DEFAULT_DATA_ROOM);
                RingFeeder feeder = ringInput("bench_ring", reportPool, source, sourceReports))
            {
                return session(source, pool, EthPort.open(feeder.portId(), pool, 1024, 1024, false),
                    eal.portId("net_null0"), feeder, body);
            }
        }
        final Path capture = Files.createTempFile("dta-bench-", ".pcap");
        try
        {
            try (PcapWriter writer = new PcapWriter(capture, true))
            {
                source.writeReports(writer, sourceReports);
            }
            final List<String> args = Eal.mergeArgs(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("dta-bench"), 0,
                EAL_MEMORY_MB, "net_pcap0,rx_pcap=" + capture + ",infinite_rx=1", "net_null0"), extraEalArgs);
            try (Eal eal = Eal.init(args);
                Mempool pool = Mempool.create("bench_pool", 16383, 256, Mempool.DEFAULT_DATA_ROOM))
            {
                return session(source, pool, EthPort.open(eal.portId("net_pcap0"), pool, 1024, 1024, false),
                    eal.portId("net_null0"), null, body);
            }
        }
        finally
        {
            Files.deleteIfExists(capture);
        }
    }

    private static <T> T session(
        final EngineBench source,
        final Mempool pool,
        final EthPort in,
        final int outPortId,
        final RingFeeder feeder,
        final SessionBody<T> body) throws IOException
    {
        final EthPort out = EthPort.open(outPortId, pool, 1024, 1024, false);
        try (MbufFrameSink sink = new MbufFrameSink(pool, out, BURST, false))
        {
            final TranslatorEngine engine = new TranslatorEngine(source.config(), sink, false);
            final DataPlaneAgent agent = new DataPlaneAgent(engine, sink, new EthPort[] { in }, BURST,
                SystemNanoClock.INSTANCE);
            final T result = body.measure(new Session(source.config(), pool, in, out, sink, agent, feeder));
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
        final MbufArray mbufs = new MbufArray(count);
        if (!pool.allocBulk(mbufs, count))
        {
            throw new IllegalStateException("mempool " + pool.name() + " cannot give " + count + " mbufs");
        }
        final Mbuf mbuf = new Mbuf();
        final UnsafeBuffer room = new UnsafeBuffer(0, 0);
        for (int i = 0; i < count; i++)
        {
            mbuf.wrap(mbufs.get(i)).wrapRoom(room);
            mbuf.length(source.copyReport(i, room, 0));
        }
        try
        {
            return RingFeeder.create(name, mbufs, count);
        }
        catch (final RuntimeException ex)
        {
            Mempool.freeBulk(mbufs, count);
            throw ex;
        }
    }

    private static void warmUp(final Session s, final long reports)
    {
        cycles(s.agent, s.feeder, reports);
    }

    /**
     * Duty cycles until {@code reports} more frames came in; with a ring input, the feeder once after each (the C
     * loop does the same).
     */
    private static void cycles(final DataPlaneAgent agent, final RingFeeder feeder, final long reports)
    {
        final long before = agent.framesIn();
        if (null == feeder)
        {
            while (agent.framesIn() - before < reports)
            {
                agent.doWork();
            }
        }
        else
        {
            while (agent.framesIn() - before < reports)
            {
                agent.doWork();
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
        final DataPlaneAgent agent = s.agent;
        final MbufFrameSink sink = s.sink;
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long thread = Thread.currentThread().threadId();
        final long gcBefore = gcCount();
        final long framesBefore = sink.framesSent();
        final long droppedBefore = sink.framesDropped();
        final long inBefore = agent.framesIn();
        final long dropsBefore = agent.engine().counters().totalDrops();
        final long dryBefore = dry(s);
        final long allocatedBefore = threads.getThreadAllocatedBytes(thread);
        final long start = System.nanoTime();
        cycles(agent, s.feeder, measuredReports);
        final long elapsed = System.nanoTime() - start;
        final long allocated = threads.getThreadAllocatedBytes(thread) - allocatedBefore;
        final long reports = agent.framesIn() - inBefore;
        final long frames = sink.framesSent() - framesBefore;
        final double seconds = elapsed / 1e9;
        return new Result(reports, frames, seconds, reports / seconds, frames / seconds,
            (double)allocated / reports, gcCount() - gcBefore, sink.framesDropped() - droppedBefore,
            agent.engine().counters().totalDrops() - dropsBefore, dry(s) - dryBefore, lowest(s));
    }

    private static long gcCount()
    {
        long count = 0;
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans())
        {
            count += Math.max(0, gc.getCollectionCount());
        }
        return count;
    }
}
