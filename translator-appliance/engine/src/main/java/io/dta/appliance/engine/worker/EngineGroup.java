package io.dta.appliance.engine.worker;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.config.ApplianceConfig;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code W} worker engines run on one thread, in turn, for the commands that have no NIC and no cores to spread
 * over (the demo and the replays): each frame goes to the worker RSS would give it ({@link RssSpreader}), and after
 * every frame and timer each worker takes what the others handed it, so the result is deterministic and shows the
 * many-worker semantics (hand-offs, a QP per worker per region, per-worker counters) exactly as the DPDK workers run
 * them on their cores. With one worker it is the single engine, unchanged.
 */
public final class EngineGroup
{
    private final TranslatorEngine[] engines;
    private final RssSpreader rss;

    /**
     * @param workerConfigs each worker's configuration ({@link ApplianceConfig#forWorker(int)}, connected).
     * @param sink          where every worker's frames go.
     * @param closedLoop    whether responses reach the engines ({@link TranslatorEngine}).
     * @param queueBytes    capacity of each hand-off queue.
     */
    public EngineGroup(
        final ApplianceConfig[] workerConfigs, final FrameSink sink, final boolean closedLoop, final int queueBytes)
    {
        final int workers = workerConfigs.length;
        this.engines = new TranslatorEngine[workers];
        this.rss = new RssSpreader(workers);
        for (int w = 0; w < workers; w++)
        {
            engines[w] = new TranslatorEngine(workerConfigs[w], sink, closedLoop);
        }
        if (workers > 1)
        {
            final WorkerOwnership ownership = new WorkerOwnership(workerConfigs);
            final HandOffQueues queues = new HandOffQueues(workers, queueBytes);
            for (int w = 0; w < workers; w++)
            {
                engines[w].joinWorkers(new WorkerLink(w, ownership, queues));
            }
        }
    }

    private EngineGroup(final TranslatorEngine[] engines)
    {
        this.engines = engines.clone();
        this.rss = new RssSpreader(engines.length);
    }

    /**
     * @param engines engines already built (and joined, when several): one that works alone, or the workers of a
     *                live data plane, for their counters and QPs.
     * @return a group of them.
     */
    public static EngineGroup of(final TranslatorEngine... engines)
    {
        return new EngineGroup(engines);
    }

    /**
     * A frame of a replay's reports capture, to the worker RSS gives it
     * ({@link TranslatorEngine#onReportsCaptureFrame}); then every worker takes its hand-offs.
     *
     * @param buffer   frame memory.
     * @param offset   frame start.
     * @param length   frame length.
     * @param nowNanos the clock.
     */
    public void onReportsCaptureFrame(final DirectBuffer buffer, final int offset, final int length, final long nowNanos)
    {
        engines[rss.workerOf(buffer, offset, length)].onReportsCaptureFrame(buffer, offset, length, nowNanos);
        takeHandOffs(nowNanos);
    }

    /**
     * A frame of a replay's responses capture, to the worker RSS gives it (which hands it to the QP's owner)
     * ({@link TranslatorEngine#onResponsesCaptureFrame}); then every worker takes its hand-offs.
     *
     * @param buffer   frame memory.
     * @param offset   frame start.
     * @param length   frame length.
     * @param nowNanos the clock.
     */
    public void onResponsesCaptureFrame(
        final DirectBuffer buffer, final int offset, final int length, final long nowNanos)
    {
        engines[rss.workerOf(buffer, offset, length)].onResponsesCaptureFrame(buffer, offset, length, nowNanos);
        takeHandOffs(nowNanos);
    }

    /**
     * Ends a replay on every worker ({@link TranslatorEngine#finish}).
     *
     * @param nowNanos the clock.
     * @return the latest end of any worker.
     */
    public long finish(final long nowNanos)
    {
        takeHandOffs(nowNanos);
        long end = nowNanos;
        for (final TranslatorEngine engine : engines)
        {
            final long e = engine.finish(nowNanos);
            end = e - end > 0 ? e : end;
        }
        return end;
    }

    /**
     * The configurations of {@code workers} workers of one connected configuration.
     *
     * @param config  the configuration (every region static or connected).
     * @param workers how many.
     * @return worker {@code w}'s configuration at index {@code w}.
     */
    public static ApplianceConfig[] workerConfigs(final ApplianceConfig config, final int workers)
    {
        final ApplianceConfig[] configs = new ApplianceConfig[workers];
        for (int w = 0; w < workers; w++)
        {
            configs[w] = config.forWorker(w);
        }
        return configs;
    }

    /**
     * @return the worker engines, worker {@code w} at index {@code w}.
     */
    public TranslatorEngine[] engines()
    {
        return engines.clone();
    }

    /**
     * @return how many workers.
     */
    public int workers()
    {
        return engines.length;
    }

    /**
     * One frame, to the worker RSS gives it; then every worker takes its hand-offs.
     *
     * @param buffer   frame memory.
     * @param offset   frame start.
     * @param length   frame length.
     * @param nowNanos the clock.
     * @return the worker that received it.
     */
    public int onFrame(final DirectBuffer buffer, final int offset, final int length, final long nowNanos)
    {
        final int worker = rss.workerOf(buffer, offset, length);
        engines[worker].onFrame(buffer, offset, length, nowNanos);
        takeHandOffs(nowNanos);
        return worker;
    }

    private void takeHandOffs(final long nowNanos)
    {
        if (engines.length > 1)
        {
            boolean again = true;
            while (again)
            {
                again = false;
                for (final TranslatorEngine engine : engines)
                {
                    again |= engine.takeHandOffs(nowNanos) > 0;
                }
            }
        }
    }

    /**
     * @param limitNanos the latest time of interest.
     * @return the earliest timer of any worker, at most {@code limitNanos}.
     */
    public long nextTimerNanos(final long limitNanos)
    {
        long due = limitNanos;
        for (final TranslatorEngine engine : engines)
        {
            due = engine.nextTimerNanos(due);
        }
        return due;
    }

    /**
     * Runs every worker's timers up to {@code nowNanos} ({@link TranslatorEngine#advanceTo}).
     *
     * @param nowNanos the clock.
     */
    public void advanceTo(final long nowNanos)
    {
        for (final TranslatorEngine engine : engines)
        {
            engine.advanceTo(nowNanos);
        }
        takeHandOffs(nowNanos);
    }

    /**
     * Flushes every worker ({@link TranslatorEngine#flush}).
     *
     * @param nowNanos the clock.
     */
    public void flush(final long nowNanos)
    {
        takeHandOffs(nowNanos);
        for (final TranslatorEngine engine : engines)
        {
            engine.flush(nowNanos);
        }
    }

    /**
     * @return true when every worker is quiescent and no hand-off waits.
     */
    public boolean isQuiescent()
    {
        for (final TranslatorEngine engine : engines)
        {
            if (!engine.isQuiescent())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param nowNanos the clock.
     */
    public void abandonPendingWrites(final long nowNanos)
    {
        for (final TranslatorEngine engine : engines)
        {
            engine.abandonPendingWrites(nowNanos);
        }
    }

    /**
     * Tells every worker that no more responses will come ({@link TranslatorEngine#responsesEnded()}).
     */
    public void responsesEnded()
    {
        for (final TranslatorEngine engine : engines)
        {
            engine.responsesEnded();
        }
    }

    /**
     * @return every worker's QPs, worker 0's first.
     */
    public List<QueuePairSender> senders()
    {
        final List<QueuePairSender> all = new ArrayList<>();
        for (final TranslatorEngine engine : engines)
        {
            all.addAll(engine.senders());
        }
        return all;
    }

    /**
     * @param sender a QP of one of the workers.
     * @return that worker's index, or -1.
     */
    public int workerOf(final QueuePairSender sender)
    {
        for (int w = 0; w < engines.length; w++)
        {
            if (engines[w].senders().contains(sender))
            {
                return w;
            }
        }
        return -1;
    }

    /**
     * @return the workers' counters added up, now (a copy).
     */
    public EngineCounters counters()
    {
        return sum(engines);
    }

    /**
     * @param engines worker engines.
     * @return their counters added up (a copy).
     */
    public static EngineCounters sum(final TranslatorEngine[] engines)
    {
        final EngineCounters total = new EngineCounters();
        for (final TranslatorEngine engine : engines)
        {
            for (final EngineCounter c : EngineCounter.values())
            {
                total.add(c, engine.counters().get(c));
            }
        }
        total.publish();
        return total;
    }
}
