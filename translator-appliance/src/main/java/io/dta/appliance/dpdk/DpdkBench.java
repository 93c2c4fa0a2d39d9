package io.dta.appliance.dpdk;

import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.EngineBench;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import io.dta.dpdk.Eal;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.Mempool;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code dta bench --io dpdk}: the engine behind DPDK on one core. The reports of {@link EngineBench} are written to
 * a capture that a {@code net_pcap} port replays forever ({@code infinite_rx=1}); the {@link DataPlaneAgent} reads
 * them in the mbufs, and its frames, written into mbufs, go to a {@code net_null} port. The engine runs open loop
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

    private DpdkBench()
    {
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
        long drops)
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
        double cpuRatio)
    {
    }

    /**
     * Starts the EAL of this process, measures, and stops the EAL.
     *
     * @param primitive       what to drive.
     * @param base            configuration whose first collector serves the reports.
     * @param redundancy      N for Key-Write and Key-Increment.
     * @param batchSize       Append batch size.
     * @param warmupReports   reports before measuring.
     * @param measuredReports reports measured.
     * @param extraEalArgs    EAL arguments appended to the defaults.
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
        final List<String> extraEalArgs) throws IOException
    {
        return run(primitive, base, redundancy, batchSize, warmupReports, measuredReports, extraEalArgs,
            DEFAULT_SOURCE_REPORTS);
    }

    /**
     * As {@link #run(BenchPrimitive, ApplianceConfig, int, int, long, long, List)}, with the number of distinct
     * reports the input port replays.
     *
     * @param primitive       what to drive.
     * @param base            configuration whose first collector serves the reports.
     * @param redundancy      N for Key-Write and Key-Increment.
     * @param batchSize       Append batch size.
     * @param warmupReports   reports before measuring.
     * @param measuredReports reports measured.
     * @param extraEalArgs    EAL arguments appended to the defaults.
     * @param sourceReports   distinct reports replayed (1..16384).
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
        final int sourceReports) throws IOException
    {
        return session(primitive, base, redundancy, batchSize, extraEalArgs, sourceReports, (s) ->
        {
            warmUp(s.agent, warmupReports);
            return measure(s, measuredReports);
        });
    }

    /**
     * {@code --compare-c}: after a warm-up of both, alternates {@code rounds} Java rounds and {@code rounds} rounds
     * of the C reference loop ({@link CReference}), each of {@code reportsPerRound} reports, in one EAL; each round
     * also measures the input floor ({@link CReference#ioFloor}).
     *
     * @param primitive       what to drive.
     * @param base            configuration whose first collector serves the reports.
     * @param redundancy      N for Key-Write and Key-Increment.
     * @param batchSize       Append batch size.
     * @param warmupReports   reports before measuring (each side).
     * @param reportsPerRound reports measured per round.
     * @param rounds          rounds of each side.
     * @param extraEalArgs    EAL arguments appended to the defaults.
     * @param sourceReports   distinct reports replayed (1..16384).
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
        final int sourceReports) throws IOException
    {
        return session(primitive, base, redundancy, batchSize, extraEalArgs, sourceReports, (s) ->
        {
            try (CReference reference = new CReference(s.config, 0))
            {
                warmUp(s.agent, warmupReports);
                reference.run(s.in.portId(), s.out.portId(), s.pool, warmupReports);
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
                        reportsPerRound);
                    referenceCpuRounds[r] = c.reports() * 1e9 / (threads.getCurrentThreadCpuTime() -
                        referenceCpuBefore);
                    referenceRounds[r] = c.reportsPerSecond();
                    referenceReports += c.reports();
                    referenceFrames += c.frames();
                    referenceNanos += c.nanos();
                    referenceDropped += c.txDropped();
                    floorRounds[r] = reference.ioFloor(s.in.portId(), reportsPerRound).reportsPerSecond();
                }
                final Result java = new Result(javaReports, javaFrames, javaSeconds, javaReports / javaSeconds,
                    javaFrames / javaSeconds, allocated / javaReports, gcs, dropped, engineDrops);
                final double javaMedian = median(javaRounds);
                final double referenceMedian = median(referenceRounds);
                final double javaCpuMedian = median(javaCpuRounds);
                final double referenceCpuMedian = median(referenceCpuRounds);
                return new Comparison(java, javaRounds, referenceRounds, javaMedian, referenceMedian,
                    javaMedian / referenceMedian, referenceFrames * 1e9 / referenceNanos, referenceDropped,
                    reference.crcName(), median(floorRounds), javaCpuRounds, referenceCpuRounds,
                    javaCpuMedian, referenceCpuMedian, javaCpuMedian / referenceCpuMedian);
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

    private record Session(
        ApplianceConfig config, Mempool pool, EthPort in, EthPort out, MbufFrameSink sink, DataPlaneAgent agent)
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
        final SessionBody<T> body) throws IOException
    {
        final EngineBench source = new EngineBench(primitive, base, redundancy, batchSize, 1);
        final Path capture = Files.createTempFile("dta-bench-", ".pcap");
        try
        {
            try (PcapWriter writer = new PcapWriter(capture, true))
            {
                source.writeReports(writer, sourceReports);
            }
            final List<String> args = Eal.mergeArgs(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("dta-bench"), 0,
                256, "net_pcap0,rx_pcap=" + capture + ",infinite_rx=1", "net_null0"), extraEalArgs);
            try (Eal eal = Eal.init(args);
                Mempool pool = Mempool.create("bench_pool", 16383, 256, Mempool.DEFAULT_DATA_ROOM))
            {
                final EthPort in = EthPort.open(eal.portId("net_pcap0"), pool, 1024, 1024, false);
                final EthPort out = EthPort.open(eal.portId("net_null0"), pool, 1024, 1024, false);
                try (MbufFrameSink sink = new MbufFrameSink(pool, out, BURST, false))
                {
                    final TranslatorEngine engine = new TranslatorEngine(source.config(), sink, false);
                    final DataPlaneAgent agent = new DataPlaneAgent(engine, sink, new EthPort[] { in }, BURST,
                        SystemNanoClock.INSTANCE);
                    final T result = body.measure(new Session(source.config(), pool, in, out, sink, agent));
                    agent.onClose();
                    in.close();
                    out.close();
                    return result;
                }
            }
        }
        finally
        {
            Files.deleteIfExists(capture);
        }
    }

    private static void warmUp(final DataPlaneAgent agent, final long reports)
    {
        final long before = agent.framesIn();
        while (agent.framesIn() - before < reports)
        {
            agent.doWork();
        }
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
        final long allocatedBefore = threads.getThreadAllocatedBytes(thread);
        final long start = System.nanoTime();
        while (agent.framesIn() - inBefore < measuredReports)
        {
            agent.doWork();
        }
        final long elapsed = System.nanoTime() - start;
        final long allocated = threads.getThreadAllocatedBytes(thread) - allocatedBefore;
        final long reports = agent.framesIn() - inBefore;
        final long frames = sink.framesSent() - framesBefore;
        final double seconds = elapsed / 1e9;
        return new Result(reports, frames, seconds, reports / seconds, frames / seconds,
            (double)allocated / reports, gcCount() - gcBefore, sink.framesDropped() - droppedBefore,
            agent.engine().counters().totalDrops() - dropsBefore);
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
