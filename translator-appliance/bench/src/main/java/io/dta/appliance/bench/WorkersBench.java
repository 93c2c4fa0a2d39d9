package io.dta.appliance.bench;

import io.dta.appliance.dpdk.TxQueue;
import io.dta.appliance.dpdk.WorkerAgent;
import io.dta.appliance.dpdk.MbufFrameSink;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.engine.worker.EngineGroup;
import io.dta.appliance.engine.worker.HandOffQueues;
import io.dta.appliance.engine.worker.RssSpreader;
import io.dta.appliance.engine.worker.WorkerLink;
import io.dta.appliance.engine.worker.WorkerOwnership;
import io.dta.config.ApplianceConfig;
import io.dta.dpdk.Eal;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.EthQueue;
import io.dta.dpdk.Mbuf;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.Mempool;
import io.dta.dpdk.RingFeeder;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code dta bench --io dpdk --workers W}: {@code W} workers, each a {@link WorkerAgent} (the loop of dta run) on an EAL lcore of its own
 * (worker 0 on the main lcore, the others launched with {@link Eal#launch}), each with its own rx queue on the input
 * port, its own tx queue on a {@code net_null} output port, its own engine and QPs, joined by the hand-off queues as
 * {@code dta run}'s workers are. The input is a {@code net_ring} port with one ring per queue, filled once with the
 * reports RSS gives that worker ({@link RssSpreader} over the source reports) and recycled without copies, each
 * worker feeding its own ring after every duty cycle. Each worker receives the same number of reports; a worker that
 * has them all keeps polling (taking what the others hand it) until every worker is done, so no hand-off is lost to
 * a worker that stopped early. The rate is every worker's reports over the time from the common start to the last
 * worker's end.
 */
public final class WorkersBench
{
    private static final int BURST = 32;
    private static final int FRAME_POOL_MBUFS_PER_WORKER = 16383;

    private WorkersBench()
    {
    }

    /**
     * One worker's measurement.
     *
     * @param reports                 reports it received.
     * @param seconds                 from the common start to its end.
     * @param reportsPerSecond        its reports over its time.
     * @param allocatedBytesPerReport bytes its thread allocated per report while measuring.
     * @param handedOff               reports it handed to other workers.
     * @param takenOver               reports it took over from other workers.
     */
    public record Worker(
        long reports, double seconds, double reportsPerSecond, double allocatedBytesPerReport, long handedOff,
        long takenOver)
    {
    }

    /**
     * A measurement of all workers.
     *
     * @param workers          how many.
     * @param reports          reports received by all.
     * @param frames           RoCEv2 frames sent by all.
     * @param seconds          from the common start to the last worker's end.
     * @param reportsPerSecond reports over that time.
     * @param drops            reports dropped (any reason) by all.
     * @param gcCount          collections while measuring.
     * @param perWorker        each worker's figures.
     */
    public record Result(
        int workers, long reports, long frames, double seconds, double reportsPerSecond, long drops, long gcCount,
        List<Worker> perWorker)
    {
    }

    /**
     * {@code --scaling}: rounds of one worker and of {@code W} alternating in one EAL, each round's rate kept; with
     * {@code --compare-c} also rounds of the C reference loop on the W lcores.
     *
     * @param one           the one-worker rounds.
     * @param many          the {@code W}-worker rounds.
     * @param oneMedian     median rate of the one-worker rounds.
     * @param manyMedian    median rate of the {@code W}-worker rounds.
     * @param ratio         {@code manyMedian / oneMedian}.
     * @param reference     the C loop's rate of each round on W lcores (empty without {@code --compare-c}).
     * @param referenceMedian their median (NaN without).
     */
    public record Scaling(
        List<Result> one, List<Result> many, double oneMedian, double manyMedian, double ratio, List<Double> reference,
        double referenceMedian)
    {
    }

    /**
     * @param frames         the source reports.
     * @param config         the configuration (the first worker's QPs are the configuration's own).
     * @param workers        how many workers (lcores).
     * @param warmupReports  reports each worker receives before measuring.
     * @param measured       reports each worker receives while measuring.
     * @param extraEalArgs   EAL arguments merged into the defaults ({@code -l 0-(W-1)}, {@code --no-huge}).
     * @param sourcePerQueue reports each worker's ring holds (the source's, as RSS spreads them, repeated).
     * @param rounds         rounds of {@code W} workers (and, with {@code scaling}, as many of one worker before
     *                       each, on a queue of its own holding every source report).
     * @param scaling        also measure one worker, in alternating rounds.
     * @param compareC       also measure the C reference loop on the W lcores, in alternating rounds.
     * @return the measurement.
     */
    public static Scaling run(
        final BenchInput frames,
        final ApplianceConfig config,
        final int workers,
        final long warmupReports,
        final long measured,
        final List<String> extraEalArgs,
        final int sourcePerQueue,
        final int rounds,
        final boolean scaling,
        final boolean compareC)
    {
        final int[][] byWorker = spread(frames, workers);
        final List<String> args = Eal.mergeArgs(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("dta-bench"), 0,
            DpdkBench.EAL_MEMORY_MB + 64 * workers, "net_null0"), lcores(workers, extraEalArgs));
        try (Eal eal = Eal.init(args);
            Mempool pool = Mempool.create("bench_pool", FRAME_POOL_MBUFS_PER_WORKER * workers, 256,
                Mempool.DEFAULT_DATA_ROOM * 2);
            Mempool reportPool = Mempool.create("bench_ring_pool", sourcePerQueue * (workers + 1), 0,
                Math.max(Mempool.DEFAULT_DATA_ROOM, Mempool.dataRoomFor(frames.maxLength()))))
        {
            final int[] lcores = eal.workerLcores();
            if (lcores.length < workers - 1)
            {
                throw new IllegalArgumentException("--workers " + workers + " needs " + workers + " lcores in the " +
                    "EAL core list (-l), one per worker: it has " + (lcores.length + 1));
            }
            // Queue W holds every source report: the one-worker rounds' input.
            final int[][] queues = java.util.Arrays.copyOf(byWorker, workers + 1);
            queues[workers] = spread(frames, 1)[0];
            final List<RingFeeder> feeders = ringInputs(reportPool, frames, queues, sourcePerQueue);
            try
            {
                final EthPort in = EthPort.open(feeders.get(0).portId(), workers + 1, pool, 1024, 1024, false, 0);
                final EthPort out = EthPort.open(eal.portId("net_null0"), workers, pool, 1024, 1024, false, 0);
                try
                {
                    final Run[] many = runs(config, workers, pool, in, out, feeders, false);
                    final Run[] one = scaling ? runs(config, 1, pool, in, out, feeders, true) : null;
                    final List<Result> oneRounds = new ArrayList<>();
                    final List<Result> manyRounds = new ArrayList<>();
                    final List<Double> cRounds = new ArrayList<>();
                    try (CWorkers c = compareC ? new CWorkers(EngineGroup.workerConfigs(config, workers)) : null)
                    {
                        if (compareC)
                        {
                            c.round(eal, lcores, in, out, pool, feeders, Math.max(1, warmupReports));
                        }
                        for (int r = 0; r < rounds; r++)
                        {
                            if (scaling)
                            {
                                oneRounds.add(measure(eal, lcores, one, 0 == r ? warmupReports : 0,
                                    measured * workers));
                            }
                            manyRounds.add(measure(eal, lcores, many, 0 == r ? warmupReports : 0, measured));
                            if (compareC)
                            {
                                cRounds.add(c.round(eal, lcores, in, out, pool, feeders, measured));
                            }
                        }
                    }
                    close(many);
                    if (scaling)
                    {
                        close(one);
                    }
                    final double oneMedian = scaling ? median(oneRounds) : Double.NaN;
                    final double manyMedian = median(manyRounds);
                    final double cMedian = compareC ?
                        DpdkBench.median(cRounds.stream().mapToDouble(Double::doubleValue).sorted().toArray()) :
                        Double.NaN;
                    return new Scaling(oneRounds, manyRounds, oneMedian, manyMedian, manyMedian / oneMedian,
                        cRounds, cMedian);
                }
                finally
                {
                    in.close();
                    out.close();
                }
            }
            finally
            {
                feeders.forEach(RingFeeder::close);
            }
        }
    }

    /**
     * The EAL core list for {@code workers} lcores (0..W-1) unless the extra arguments give one.
     */
    private static List<String> lcores(final int workers, final List<String> extraEalArgs)
    {
        final List<String> args = new ArrayList<>();
        if (!extraEalArgs.contains("-l") && extraEalArgs.stream().noneMatch(a -> a.startsWith("-l") ||
            a.startsWith("--lcores") || "-c".equals(a)))
        {
            args.add("-l");
            args.add(workers > 1 ? "0-" + (workers - 1) : "0");
        }
        args.addAll(extraEalArgs);
        return args;
    }

    /**
     * The indexes of the source reports each worker receives, as RSS gives them; a worker RSS gives none gets every
     * report (the synthetic source has few reporters only when asked to).
     */
    static int[][] spread(final BenchInput frames, final int workers)
    {
        final RssSpreader rss = new RssSpreader(workers);
        final UnsafeBuffer room = new UnsafeBuffer(new byte[Math.max(64, frames.maxLength())]);
        final int[] counts = new int[workers];
        final int[] worker = new int[frames.count()];
        for (int i = 0; i < frames.count(); i++)
        {
            final int length = frames.copy(i, room, 0);
            worker[i] = rss.workerOf(room, 0, length);
            counts[worker[i]]++;
        }
        final int[][] byWorker = new int[workers][];
        for (int w = 0; w < workers; w++)
        {
            if (0 == counts[w])
            {
                byWorker[w] = new int[frames.count()];
                for (int i = 0; i < frames.count(); i++)
                {
                    byWorker[w][i] = i;
                }
                continue;
            }
            byWorker[w] = new int[counts[w]];
            int n = 0;
            for (int i = 0; i < frames.count(); i++)
            {
                if (worker[i] == w)
                {
                    byWorker[w][n++] = i;
                }
            }
        }
        return byWorker;
    }

    private static List<RingFeeder> ringInputs(
        final Mempool pool, final BenchInput frames, final int[][] byQueue, final int perQueue)
    {
        final List<MbufArray> arrays = new ArrayList<>();
        final List<MemorySegment> segments = new ArrayList<>();
        final int[][] byWorker = byQueue;
        final int[] counts = new int[byWorker.length];
        final Mbuf mbuf = new Mbuf();
        final UnsafeBuffer room = new UnsafeBuffer(0, 0);
        for (int w = 0; w < byWorker.length; w++)
        {
            final MbufArray array = new MbufArray(perQueue);
            if (!pool.allocBulk(array, perQueue))
            {
                throw new IllegalStateException("mempool " + pool.name() + " cannot give " + perQueue + " mbufs");
            }
            for (int i = 0; i < perQueue; i++)
            {
                mbuf.wrap(array.get(i)).wrapRoom(room);
                mbuf.length(frames.copy(byWorker[w][i % byWorker[w].length], room, 0));
            }
            arrays.add(array);
            segments.add(array.segment());
            counts[w] = perQueue;
        }
        return RingFeeder.createQueues("bench_ring", segments, counts);
    }

    /**
     * The agents of {@code workers} workers: worker {@code w} on rx queue {@code w} (the single worker of the
     * one-worker rounds on the last queue, which holds every source report) and tx queue {@code w}.
     */
    private static Run[] runs(
        final ApplianceConfig config,
        final int workers,
        final Mempool pool,
        final EthPort in,
        final EthPort out,
        final List<RingFeeder> feeders,
        final boolean alone)
    {
        final ApplianceConfig[] configs = EngineGroup.workerConfigs(config, workers);
        final HandOffQueues queues = new HandOffQueues(workers, config.workers().handOffQueueBytes());
        final WorkerOwnership ownership = new WorkerOwnership(configs);
        final Run[] runs = new Run[workers];
        for (int w = 0; w < workers; w++)
        {
            final int rx = alone ? feeders.size() - 1 : w;
            final TxQueue tx = new TxQueue(out.queue(w), BURST);
            final MbufFrameSink sink = new MbufFrameSink(pool, tx, BURST);
            final TranslatorEngine engine = new TranslatorEngine(configs[w], sink, false);
            if (workers > 1)
            {
                engine.joinWorkers(new WorkerLink(w, ownership, queues));
            }
            runs[w] = new Run(WorkerAgent.of(engine, in.queue(rx), tx, BURST, SystemNanoClock.INSTANCE), sink,
                feeders.get(rx));
        }
        return runs;
    }

    private static void close(final Run[] runs)
    {
        for (final Run run : runs)
        {
            run.agent.onClose();
            run.sink.close();
        }
    }

    private static double median(final List<Result> rounds)
    {
        final double[] rates = rounds.stream().mapToDouble(Result::reportsPerSecond).sorted().toArray();
        return DpdkBench.median(rates);
    }

    private static Result measure(
        final Eal eal, final int[] lcores, final Run[] runs, final long warmupReports, final long measured)
    {
        final int workers = runs.length;
        final Phases phases = new Phases(workers);
        for (int w = 1; w < workers; w++)
        {
            final Run run = runs[w];
            eal.launch(lcores[w - 1], () -> run.serve(phases, warmupReports, measured));
        }
        final long gcBefore = DpdkBenchSession.gcCount();
        runs[0].serve(phases, warmupReports, measured);
        for (int w = 1; w < workers; w++)
        {
            eal.join(lcores[w - 1]);
        }
        final long gc = DpdkBenchSession.gcCount() - gcBefore;
        final List<Worker> perWorker = new ArrayList<>();
        long reports = 0;
        long frames = 0;
        long drops = 0;
        long end = 0;
        for (final Run run : runs)
        {
            perWorker.add(run.result(phases.startNanos));
            reports += run.reports;
            frames += run.framesOut;
            drops += run.drops;
            end = Math.max(end, run.endNanos);
        }
        final double seconds = (end - phases.startNanos) / 1e9;
        return new Result(workers, reports, frames, seconds, reports / seconds, drops, gc, perWorker);
    }

    /**
     * The phases all workers go through together: warm-up, measuring, done. A counter of workers done with their
     * input per phase; the start of measuring is taken when the last worker finished warming up.
     */
    private static final class Phases
    {
        private final int workers;
        private final AtomicInteger warmedUp = new AtomicInteger();
        private final AtomicInteger measuredDone = new AtomicInteger();
        private final AtomicLong start = new AtomicLong();
        private volatile long startNanos;

        Phases(final int workers)
        {
            this.workers = workers;
        }
    }

    /**
     * One worker: its agent, sink and input, and what it measured.
     */
    private static final class Run
    {
        private final WorkerAgent agent;
        private final MbufFrameSink sink;
        private final RingFeeder feeder;
        private long reports;
        private long framesOut;
        private long drops;
        private long handedOff;
        private long takenOver;
        private long endNanos;
        private long allocated;

        Run(final WorkerAgent agent, final MbufFrameSink sink, final RingFeeder feeder)
        {
            this.agent = agent;
            this.sink = sink;
            this.feeder = feeder;
        }

        void serve(final Phases phases, final long warmup, final long measured)
        {
            cycles(warmup);
            keepServing(phases.warmedUp, phases.workers);
            phases.start.compareAndSet(0, System.nanoTime());
            phases.startNanos = phases.start.get();
            final TranslatorEngine engine = agent.engine();
            final long reportsBefore = engine.counters().get(EngineCounter.REPORTS_IN);
            final long framesBefore = engine.counters().get(EngineCounter.ROCE_FRAMES_OUT);
            final long dropsBefore = engine.counters().totalDrops();
            final long handedBefore = engine.counters().get(EngineCounter.REPORTS_HANDED_OFF);
            final long takenBefore = engine.counters().get(EngineCounter.REPORTS_TAKEN_OVER);
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            threads.getCurrentThreadAllocatedBytes();
            final long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
            cycles(measured);
            endNanos = System.nanoTime();
            allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
            keepServing(phases.measuredDone, phases.workers);
            reports = engine.counters().get(EngineCounter.REPORTS_IN) - reportsBefore;
            framesOut = engine.counters().get(EngineCounter.ROCE_FRAMES_OUT) - framesBefore;
            drops = engine.counters().totalDrops() - dropsBefore;
            handedOff = engine.counters().get(EngineCounter.REPORTS_HANDED_OFF) - handedBefore;
            takenOver = engine.counters().get(EngineCounter.REPORTS_TAKEN_OVER) - takenBefore;
        }

        /** Duty cycles until {@code count} more frames came in, the worker's ring fed after each. */
        private void cycles(final long count)
        {
            final long end = agent.framesIn() + count;
            long left;
            while ((left = end - agent.framesIn()) > 0)
            {
                agent.doWork((int)Math.min(BURST, left));
                feeder.feed();
            }
        }

        /** Marks this worker done and keeps taking hand-offs (no new input) until every worker is. */
        private void keepServing(final AtomicInteger done, final int workers)
        {
            done.incrementAndGet();
            while (done.get() < workers)
            {
                agent.doWork(0);
            }
            agent.doWork(0);
        }

        Worker result(final long startNanos)
        {
            final double seconds = (endNanos - startNanos) / 1e9;
            return new Worker(reports, seconds, reports / seconds, reports > 0 ? (double)allocated / reports : 0,
                handedOff, takenOver);
        }
    }
}
