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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code dta bench --io dpdk}: the engine behind DPDK on one core. The reports of {@link EngineBench} are written to
 * a capture that a {@code net_pcap} port replays forever ({@code infinite_rx=1}); the {@link DataPlaneAgent} reads
 * them in the mbufs, and its frames, written into mbufs, go to a {@code net_null} port. The engine runs open loop
 * (no collector answers through a null device), so ACK timeouts and atomic credits are off, as in an open-loop
 * replay. The agent's duty cycle runs on the calling thread, which EAL pinned to the main lcore.
 */
public final class DpdkBench
{
    private static final int BURST = 32;
    private static final int SOURCE_REPORTS = 4096;

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
     */
    public record Result(
        long reports,
        long frames,
        double seconds,
        double reportsPerSecond,
        double framesPerSecond,
        double allocatedBytesPerReport,
        long gcCount,
        long txDropped)
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
        final EngineBench source = new EngineBench(primitive, base, redundancy, batchSize, 1);
        final Path capture = Files.createTempFile("dta-bench-", ".pcap");
        try
        {
            try (PcapWriter writer = new PcapWriter(capture, true))
            {
                source.writeReports(writer, SOURCE_REPORTS);
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
                    while (agent.framesIn() < warmupReports)
                    {
                        agent.doWork();
                    }
                    final com.sun.management.ThreadMXBean threads =
                        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
                    final long thread = Thread.currentThread().threadId();
                    final long gcBefore = gcCount();
                    final long framesBefore = sink.framesSent();
                    final long droppedBefore = sink.framesDropped();
                    final long inBefore = agent.framesIn();
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
                    final Result result = new Result(reports, frames, seconds, reports / seconds, frames / seconds,
                        (double)allocated / reports, gcCount() - gcBefore, sink.framesDropped() - droppedBefore);
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
