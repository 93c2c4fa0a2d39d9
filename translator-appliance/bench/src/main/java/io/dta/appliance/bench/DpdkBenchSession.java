package io.dta.appliance.bench;

import io.dta.appliance.dpdk.TxQueue;
import io.dta.appliance.dpdk.WorkerAgent;
import io.dta.appliance.dpdk.MbufFrameSink;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
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
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One EAL session of {@code dta bench --io dpdk}: the ports (a capture replayed by {@code net_pcap}, or a
 * {@code net_ring} fed once per duty cycle from mbufs filled once), the pool, the worker loop ({@link WorkerAgent},
 * the loop {@code dta run} runs) and its engine, and the measured duty cycles: reports received, wall and CPU time,
 * the thread's allocation, GCs, the engine's counter deltas.
 */
public final class DpdkBenchSession
{
    private static final int BURST = 32;
    private static final EngineCounter[] COUNTERS = EngineCounter.values();
    private static final int FRAME_POOL_MBUFS = 16383;
    private static final int RING_FILL_CHUNK = 4096;

    private DpdkBenchSession()
    {
    }

    record Session(
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
    interface SessionBody<T>
    {
        T measure(Session session) throws IOException;
    }

    static <T> T session(
        final BenchInput frames,
        final ApplianceConfig config,
        final List<String> extraEalArgs,
        final int sourceFrames,
        final DpdkBench.Input input,
        final SessionBody<T> body) throws IOException
    {
        final boolean capture = null != frames.file();
        final int memoryMb = capture ? BenchMemory.sessionMemoryMegabytes(frames, config, sourceFrames, input, extraEalArgs) :
            DpdkBench.EAL_MEMORY_MB;
        final int frameRoom = BenchMemory.frameDataRoom(frames, config);
        final int inputRoom = Mempool.dataRoomFor(frames.maxLength());
        if (DpdkBench.Input.RING == input)
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

    static <T> T session(
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

    static void warmUp(final Session s, final long reports)
    {
        cycles(s.agent, s.feeder, reports);
    }

    /**
     * Duty cycles until exactly {@code reports} more frames came in (the last burst partial); with a ring input, the
     * feeder once after each (the C loop does the same).
     */
    static void cycles(final WorkerAgent agent, final RingFeeder feeder, final long reports)
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

    static long dry(final Session s)
    {
        return null == s.feeder ? 0 : s.feeder.dry();
    }

    static int lowest(final Session s)
    {
        return null == s.feeder ? -1 : s.feeder.lowest();
    }

    static DpdkBench.Result measure(final Session s, final long measuredReports)
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
        return new DpdkBench.Result(reports, frames, seconds, reports / seconds, frames / seconds, framesIn / seconds,
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
