package io.dta.appliance.live;

import io.dta.appliance.dpdk.WorkerAgent;
import io.dta.appliance.dpdk.MbufFrameSink;
import io.dta.appliance.connect.ConnectionCounter;
import io.dta.appliance.connect.ConnectionManager;
import io.dta.appliance.connect.EngineThread;
import io.dta.appliance.connect.Reconnector;
import io.dta.appliance.connect.WorkerConnections;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.worker.EngineGroup;
import io.dta.appliance.engine.worker.HandOffQueues;
import io.dta.appliance.engine.worker.WorkerLink;
import io.dta.appliance.engine.worker.WorkerOwnership;
import io.dta.appliance.engine.FrameLimits;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.state.ListRegion;
import io.dta.appliance.state.PreviousRun;
import io.dta.appliance.state.ResumeStateFile;
import io.dta.appliance.state.StaticQp;
import io.dta.appliance.stat.CountersFile;
import io.dta.config.ApplianceConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * {@code dta run}: the translator live on DPDK. Reports come in on the reports port; the engine's RoCEv2 frames go
 * out on the collector link, and the collector's ACKs, NAKs and ATOMIC ACKs come back on it (the two may be one
 * port); NACKs to reporters go out on the reports port. ARP requests for {@code translator.ip} are answered on both.
 * The engine clock is {@link System#nanoTime()}; its timers run every duty cycle.
 * <p>
 * Reports are not read until every link is up (a {@code net_memif} link is up once its peer connected), or the
 * link wait is over, so that the first reports are not translated into frames a dead link would drop.
 * <p>
 * Negotiated regions (translation.md §8, docs/connection.md): once the links are up, a {@link ConnectionManager}
 * (clock {@link System#nanoTime()}) connects them on the collector link, and only then is the engine built, from
 * {@link ConnectionManager#connectedConfig()}. Until then the reports port is not read (reports wait in its rx ring);
 * when reports share the collector link's port, whatever arrives there that is not set-up traffic is dropped and
 * counted ({@code frames dropped: connection set-up in progress}). When a region fails, the agent fails with one
 * line per failed region (exit status 1): running without a region would silently lose its reports. After set-up,
 * the collector link's frames go to the connection manager first (duplicate REPs and SENDs are answered again),
 * and a {@link Reconnector} connects a region again when its QP goes to the error state. At a stop, after the
 * drain, every connected region is disconnected (IB CM DREQ/DREP, {@link ConnectionManager#disconnect(long)}),
 * waiting at most {@link ConnectionManager#disconnectTimeoutNanos()}, and one line says how it went. The connection
 * counters ({@link ConnectionCounter}) are in the counters file.
 * <p>
 * Append lists (docs/layouts.md): when the engine is built (with negotiated regions, once their addresses are known),
 * the agent creates the list state file from what the previous run recorded ({@link ResumeStateFile#create}) and prints
 * its notes, one line each; every list whose region is unchanged continues its numbering and ring position, and
 * every static QP unchanged since a clean stop continues at the PSN it would have sent next. The agent records the
 * QPs' next PSNs ({@link TranslatorEngine#recordNextPsns()}) and closes the file ({@link #listState()}) itself, at the
 * end of {@link #onClose()}.
 */
public final class LiveTranslatorAgent extends LiveAgent
{
    /** Role index of the reports port. */
    public static final int REPORTS = 0;
    /** Role index of the collector link. */
    public static final int COLLECTOR_LINK = 1;

    /** Agrona counter type id of connection counters; the key holds the {@link ConnectionCounter} ordinal. */
    public static final int CONNECTION_TYPE_ID = 0x0D7A_0005;

    private static final ConnectionCounter[] ALL = ConnectionCounter.values();

    private final ApplianceConfig config;
    private final EngineCounters counters;
    private final AtomicCounter[] connectionCounters;
    private final AtomicCounter setUpDrops;
    private MbufFrameSink sink;
    private WorkerConnections connections;
    private boolean setUpStarted;
    private boolean setUpFailed;
    private long setUpStartNanos;
    private long disconnectStartNanos;
    private boolean disconnectLogged;
    private TranslatorEngine engine;
    // With several workers: each worker's counters (worker 0's beside this agent's totals, which publish() adds up).
    private EngineCounters[] workerCounters = new EngineCounters[0];
    private TranslatorEngine[] engines = new TranslatorEngine[0];
    private final PreviousRun previousLists;
    private ResumeStateFile listState;

    /**
     * An agent whose lists start from batch 1 every run and record nothing.
     *
     * @param config       validated configuration (static regions).
     * @param settings     EAL arguments, ports (reports, then collector link), timings.
     * @param countersFile the shared-memory counters file (the caller creates and closes it).
     */
    public LiveTranslatorAgent(
        final ApplianceConfig config, final LiveSettings settings, final CountersFile countersFile)
    {
        this(config, settings, countersFile, null);
    }

    /**
     * @param config        validated configuration (static regions).
     * @param settings      EAL arguments, ports (reports, then collector link), timings.
     * @param countersFile  the shared-memory counters file (the caller creates and closes it).
     * @param previousLists what the list state file held at start ({@link ResumeStateFile#read}); null for lists that
     *                      start from batch 1 every run and record nothing.
     */
    public LiveTranslatorAgent(
        final ApplianceConfig config,
        final LiveSettings settings,
        final CountersFile countersFile,
        final PreviousRun previousLists)
    {
        super(settings, new String[] { "reports", "collector link" }, countersFile,
            new ArpResponder(config.translator().mac(), config.translator().ip()),
            FrameLimits.largestFrame(config.collectors()));
        this.config = config;
        this.previousLists = previousLists;
        this.counters = settings.workers() > 1 ? EngineCounters.totals(countersFile.manager()) :
            new EngineCounters(countersFile.manager());
        final CountersManager manager = countersFile.manager();
        if (settings.workers() > 1)
        {
            workerCounters = new EngineCounters[settings.workers()];
            for (int w = 0; w < workerCounters.length; w++)
            {
                workerCounters[w] = new EngineCounters(manager, w);
            }
        }
        if (config.hasUnconnectedRegions())
        {
            connectionCounters = new AtomicCounter[ALL.length];
            for (final ConnectionCounter c : ALL)
            {
                connectionCounters[c.ordinal()] = manager.newCounter("connection " + c.label(), CONNECTION_TYPE_ID,
                    key -> key.putInt(0, c.ordinal()));
            }
            setUpDrops = manager.newCounter("frames dropped: connection set-up in progress", CONNECTION_TYPE_ID,
                key -> key.putInt(0, -1));
        }
        else
        {
            connectionCounters = null;
            setUpDrops = null;
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected void onStarted(final MbufFrameSink sink)
    {
        this.sink = sink;
        sink.countEngineFramesIn(counters);
        if (null == connectionCounters)
        {
            engine = newEngine(EngineGroup.workerConfigs(config, Math.max(1, workerCounters.length)));
            startOwn(engine);
        }
        else
        {
            // The clock seeds the IDs: a restarted appliance never reuses the previous run's. Every worker's QPs are
            // connected here, on worker 0's thread and through its sink.
            connections = WorkerConnections.of(config, Math.max(1, workerCounters.length), sink, System.nanoTime());
        }
    }

    /**
     * @param workerConfigs each worker's configuration, its regions connected (one with one worker).
     */
    private TranslatorEngine newEngine(final ApplianceConfig[] workerConfigs)
    {
        final ApplianceConfig connected = workerConfigs[0];
        if (null != previousLists)
        {
            // Once per run, at start-up: not the hot path.
            listState = ResumeStateFile.create(previousLists, ListRegion.allOf(connected),
                StaticQp.allOf(connected), System.currentTimeMillis());
            for (final String note : listState.notes())
            {
                System.err.println(messagePrefix() + ": " + note);
            }
        }
        if (workerCounters.length > 1)
        {
            return newWorkerEngines(workerConfigs);
        }
        engines = new TranslatorEngine[] { new TranslatorEngine(connected, sink, true, counters, listState) };
        return engines[0];
    }

    /**
     * The workers' engines, joined by hand-off queues, each counting into its own counters: worker 0's is returned
     * (this agent runs it), the others are given to their workers.
     */
    private TranslatorEngine newWorkerEngines(final ApplianceConfig[] configs)
    {
        final int count = workerCounters.length;
        final WorkerOwnership ownership = new WorkerOwnership(configs);
        final HandOffQueues queues = new HandOffQueues(count, configs[0].workers().handOffQueueBytes());
        engines = new TranslatorEngine[count];
        sink.countEngineFramesIn(workerCounters[0]);
        engines[0] = new TranslatorEngine(configs[0], sink, true, workerCounters[0], listState);
        for (int w = 1; w < count; w++)
        {
            final MbufFrameSink workerSink = workerSink(w);
            workerSink.countEngineFramesIn(workerCounters[w]);
            engines[w] = new TranslatorEngine(configs[w], workerSink, true, workerCounters[w], listState);
        }
        for (int w = 0; w < count; w++)
        {
            engines[w].joinWorkers(new WorkerLink(w, ownership, queues));
        }
        for (int w = 1; w < count; w++)
        {
            workers()[w].start(engines[w]);
        }
        return engines[0];
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected boolean translatesReports()
    {
        return true;
    }

    /**
     * @return every worker's engine (worker 0's first); the one engine with one worker.
     */
    public TranslatorEngine[] engines()
    {
        return engines.clone();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected int timers(final long nowNanos)
    {
        if (null == engine)
        {
            return setUp(nowNanos);
        }
        // The engine's own timers run in worker 0's loop.
        if (null == connections)
        {
            return 0;
        }
        if (closing())
        {
            // Disconnecting: the engine has drained, and a region must not be connected again now.
            return connections.pollManagers(nowNanos);
        }
        return connections.pollOnce(nowNanos);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected long startClosing(final long nowNanos)
    {
        if (null != engine)
        {
            // The drain is over (or its time is): sketch WRITEs still waiting for room in a full ring are counted.
            engine.abandonPendingWrites(nowNanos);
        }
        if (null == connections || null == engine)
        {
            return 0;
        }
        disconnectStartNanos = nowNanos;
        if (0 == connections.disconnect(nowNanos))
        {
            return 0;
        }
        publish();
        return connections.disconnectTimeoutNanos();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected boolean closingDone()
    {
        return null == connections || null == engine || connections.disconnectDone();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void onClose()
    {
        if (!disconnectLogged && null != connections && connections.counter(ConnectionCounter.DREQS_SENT) > 0)
        {
            disconnectLogged = true;
            publish();
            // Once per run, at the stop: not the hot path.
            System.err.printf("%s: %s in %.1f ms%n", messagePrefix(), connections.disconnectSummary(),
                (System.nanoTime() - disconnectStartNanos) / 1e6);
        }
        super.onClose();
        if (null != listState)
        {
            // On the agent's own thread, after its last store and the engine's last frame: nothing can write into the
            // mapping once it is gone, and the QPs' next PSNs are final.
            if (null != engine)
            {
                engine.recordNextPsns();
            }
            listState.close();
        }
    }

    private int setUp(final long nowNanos)
    {
        if (null == connections || setUpFailed || !linksReady())
        {
            return 0;
        }
        if (!setUpStarted)
        {
            setUpStarted = true;
            setUpStartNanos = nowNanos;
            connections.start(nowNanos);
            publish();
            return 1;
        }
        final int work = connections.pollManagers(nowNanos);
        if (!connections.done())
        {
            return work;
        }
        publish();
        if (!connections.allConnected())
        {
            setUpFailed = true;
            fail(new IllegalStateException("connection set-up failed:" + System.lineSeparator() + "  " +
                String.join(System.lineSeparator() + "  ", connections.failures())));
            return 1;
        }
        engine = newEngine(connections.connected());
        final EngineThread[] threads = new EngineThread[engines.length];
        threads[0] = EngineThread.SAME;
        for (int w = 1; w < threads.length; w++)
        {
            threads[w] = workers()[w]::offer;
        }
        connections.attach(engines, threads);
        startOwn(engine);
        // Once per run, at start-up: not the hot path.
        System.err.printf("%s: %s in %.1f ms%n", messagePrefix(), connections.summary(),
            (nowNanos - setUpStartNanos) / 1e6);
        return 1;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected void onFrame(final int role, final UnsafeBuffer frame, final long nowNanos)
    {
        // Reports on a port of their own never carry set-up traffic; only the collector link's frames are offered.
        if (null != connections && COLLECTOR_LINK == role && connections.onFrame(frame, 0, frame.capacity(), nowNanos))
        {
            return;
        }
        if (null == engine)
        {
            if (null != setUpDrops)
            {
                setUpDrops.increment();
            }
            return;
        }
        engine.onFrame(frame, 0, frame.capacity(), nowNanos);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected boolean reads(final int role, final boolean linksReady, final boolean draining)
    {
        // The collector link is always read (responses, set-up, ARP); new reports wait for the links and for
        // connection set-up, and stop at a drain.
        return COLLECTOR_LINK == role || (linksReady && !draining && null != engine);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected void startDrain(final long nowNanos)
    {
        if (null != engine)
        {
            engine.flush(nowNanos);
        }
        own().drain();
        for (final WorkerAgent worker : workers())
        {
            if (null != worker)
            {
                worker.drain();
            }
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected boolean drained()
    {
        for (final WorkerAgent worker : workers())
        {
            if (null != worker && !worker.drained())
            {
                return false;
            }
        }
        return null == engine || own().drained() && engine.isQuiescent();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    protected void publish()
    {
        // The engine's counters are published here (with the stats tick and at the stop), the connection manager's
        // copied.
        if (workerCounters.length > 1)
        {
            // Worker 0's counters are its own to publish; the others publish theirs on their lcores. The totals
            // are their sums.
            workerCounters[0].publish();
            for (final EngineCounter c : EngineCounter.values())
            {
                long total = 0;
                for (final EngineCounters w : workerCounters)
                {
                    total += w.published(c);
                }
                counters.setPublished(c, total);
            }
        }
        else
        {
            counters.publish();
        }
        if (null != connectionCounters && null != connections)
        {
            for (final ConnectionCounter c : ALL)
            {
                connectionCounters[c.ordinal()].setRelease(connections.counter(c));
            }
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String messagePrefix()
    {
        return "dta run";
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String roleName()
    {
        return "dta-translator";
    }

    /**
     * @return the engine (null before {@link #onStart()}).
     */
    public TranslatorEngine engine()
    {
        return engine;
    }

    /**
     * @return the list state file the engine records its lists' positions in (null before the engine is built, or
     * without one); the caller closes it after the run.
     */
    public ResumeStateFile listState()
    {
        return listState;
    }

    /**
     * @return every worker's connection set-up (null with static regions only).
     */
    public WorkerConnections connections()
    {
        return connections;
    }

    /**
     * @return the engine's counters (in the counters file).
     */
    public EngineCounters counters()
    {
        return counters;
    }
}
