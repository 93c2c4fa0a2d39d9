package io.dta.appliance.demo;

import io.dta.appliance.connect.ConnectionManager;
import io.dta.appliance.connect.Reconnector;
import io.dta.appliance.connect.WorkerConnections;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.FrameLimits;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.engine.worker.EngineGroup;
import io.dta.appliance.io.FrameSource;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.collector.responder.ResponderQp;
import io.dta.collector.responder.SoftResponder;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole system in one process, closed loop, on a virtual clock: reports → translator → a lossy link →
 * soft collector (writing into memory-mapped stores) → a lossy link back → translator, until every report is
 * processed and every QP is quiescent.
 * <p>
 * When the configuration has negotiated regions, the translator first connects them through the same lossy link
 * with a {@link ConnectionManager} (translation.md §8) and only then builds its engine from the learned parameters;
 * CM frames and metadata SENDs that arrive later (duplicates) still go to the connection manager, and a
 * {@link Reconnector} connects a negotiated region again when its QP goes to the error state (see
 * {@link #injectRemoteAccessError(long)}).
 * <p>
 * Latency is measured per RoCEv2 request, from the moment the translator sends it to the moment the first
 * response covering its PSN reaches the translator (RC acknowledgements are cumulative).
 */
public final class ClosedLoopDemo
{
    private static final long LINK_DELAY_NANOS = 2_000;
    private static final long DRAIN_LIMIT_NANOS = 10_000_000_000L;

    private final ApplianceConfig config;
    private final LossyLink toCollector;
    private final LossyLink toTranslator;
    private final ResendingReporters reporters;
    private final ReporterNackTap output;
    private final UnsafeBuffer reportCopy = new UnsafeBuffer(ByteBuffer.allocateDirect(LossyLink.slotFor(2048)));
    private final SoftResponder responder;
    private final WorkerConnections connections;
    private final int workers;
    private EngineGroup group;
    private final FrameDecoder decoder = new FrameDecoder();
    private final CollectorFaults faults;
    private FrameTap tap;
    private final LatencyProbe latency = new LatencyProbe();
    private TranslatorEngine engine;
    private long connectedAtNanos;
    private final VirtualClock clock = new VirtualClock();
    private long reports;
    private boolean quiescent;

    /**
     * @param config configuration of translator and collectors (negotiated regions are hosted where
     *               {@link NegotiatedRegions} puts them).
     * @param stores one open store per collector, in configuration order, created from
     *               {@code NegotiatedRegions.assign(config)}.
     * @param loss   probability that a frame is lost, in each direction.
     * @param seed   seed of the loss pattern.
     */
    public ClosedLoopDemo(
        final ApplianceConfig config, final List<CollectorStore> stores, final double loss, final long seed)
    {
        this(config, NegotiatedRegions.assign(config), stores, loss, seed);
    }

    /**
     * @param translatorSide the translator's configuration (negotiated regions without QP parameters).
     * @param collectorSide  the collector's configuration: the same regions, negotiated ones with the QPN, R_Key
     *                       and address the collector hosts them at.
     * @param stores         one open store per collector, in configuration order, created from
     *                       {@code collectorSide}.
     * @param loss           probability that a frame is lost, in each direction.
     * @param seed           seed of the loss pattern, the connection IDs and the collector's starting PSNs.
     */
    public ClosedLoopDemo(
        final ApplianceConfig translatorSide,
        final ApplianceConfig collectorSide,
        final List<CollectorStore> stores,
        final double loss,
        final long seed)
    {
        this(translatorSide, collectorSide, stores, loss, seed, 1);
    }

    /**
     * @param translatorSide the translator's configuration (negotiated regions without QP parameters).
     * @param collectorSide  the collector's configuration: the same regions, negotiated ones with the QPN, R_Key
     *                       and address the collector hosts them at; a static region has a QP for every worker.
     * @param stores         one open store per collector, in configuration order, created from
     *                       {@code collectorSide}.
     * @param loss           probability that a frame is lost, in each direction.
     * @param seed           seed of the loss pattern, the connection IDs and the collector's starting PSNs.
     * @param workers        translator workers ({@link EngineGroup}): each connects and writes every region
     *                       through a QP of its own.
     */
    public ClosedLoopDemo(
        final ApplianceConfig translatorSide,
        final ApplianceConfig collectorSide,
        final List<CollectorStore> stores,
        final double loss,
        final long seed,
        final int workers)
    {
        this.config = translatorSide;
        this.workers = workers;
        final int largestFrame = FrameLimits.largestFrame(translatorSide.collectors());
        toCollector = new LossyLink(largestFrame, loss, LINK_DELAY_NANOS, seed);
        toTranslator = new LossyLink(largestFrame, loss, LINK_DELAY_NANOS, seed * 31 + 7);
        reporters = new ResendingReporters(LINK_DELAY_NANOS, translatorSide.reports().nackPort());
        output = new ReporterNackTap(toCollector, reporters);
        responder = new SoftResponder(collectorSide, (collector, region) ->
        {
            final int index = collectorSide.collectors().indexOf(collector);
            return stores.get(index).memory(region);
        }).connectionSeed(seed * 17 + 3);
        faults = new CollectorFaults(responder, largestFrame);
        if (translatorSide.hasUnconnectedRegions())
        {
            connections = WorkerConnections.of(translatorSide, workers, toCollector, seed);
        }
        else
        {
            connections = WorkerConnections.none();
            startEngine(EngineGroup.workerConfigs(translatorSide, workers));
        }
    }

    private void startEngine(final ApplianceConfig[] connected)
    {
        group = new EngineGroup(connected, output, true, config.workers().handOffQueueBytes());
        engine = group.engines()[0];
        connections.attach(group.engines());
        latency.attach(group.senders().toArray(new QueuePairSender[0]));
    }

    /**
     * Connects the negotiated regions through the lossy link (nothing to do without any), then builds the engine.
     *
     * @return true when every region is connected (the engine exists); false when some failed, see
     * {@link #connections()}.
     */
    public boolean connect()
    {
        if (null != engine)
        {
            return true;
        }
        connections.start(clock.now());
        while (!connections.done())
        {
            // A set-up under way always has a deadline (a REQ's re-send, the wait for the metadata SEND).
            final long next = nextEventNanos();
            if (Long.MAX_VALUE == next)
            {
                break;
            }
            advanceTo(next);
        }
        connectedAtNanos = clock.now();
        final ApplianceConfig[] connected = connections.connected();
        if (null == connected)
        {
            return false;
        }
        startEngine(connected);
        return true;
    }

    /**
     * @return why connection set-up failed, every worker's failures.
     */
    public List<String> connectionFailures()
    {
        return connections.failures();
    }

    /**
     * @return the translator's workers (null before {@link #connect()} succeeded when regions are negotiated).
     */
    public EngineGroup group()
    {
        return group;
    }

    /**
     * Runs the demo to quiescence.
     * <p>
     * The virtual clock goes from one event to the next, in time order: a report, a frame arriving over either link,
     * and every timer's deadline (the engine's held frames, idle Append batches and postcards, ACK timeouts, grace
     * ends and sketch timers, {@link TranslatorEngine#nextTimerNanos(long)}; the connection manager's and the
     * collector's connection set-up timers; the reconnector's back-off), so each timer runs at its own time, as in
     * a live loop polling continuously, not when the next report or frame comes. After every frame and report the
     * timers are polled at that time as well, as a live loop does, so that a change of state (a QP gone to the error
     * state) is acted on at once.
     *
     * @param source the reports.
     * @throws Exception if the source fails.
     */
    public void run(final FrameSource source) throws Exception
    {
        if (!connect())
        {
            throw new IllegalStateException("connection set-up failed: " + String.join("; ",
                connectionFailures()));
        }
        while (source.next())
        {
            final long t = Math.max(clock.now(), source.timeNanos());
            clock.report(t);
            advanceTo(t);
            clock.moveTo(t);
            if (!reporters.send(source.buffer(), source.offset(), source.length(), clock.now()))
            {
                group.onFrame(source.buffer(), source.offset(), source.length(), clock.now());
            }
            reports++;
            timers();
        }
        group.flush(clock.now());
        timers();
        final long deadline = clock.now() + DRAIN_LIMIT_NANOS;
        while (true)
        {
            if (group.isQuiescent() && toCollector.isEmpty() && toTranslator.isEmpty() && reporters.isEmpty() &&
                collectorSettled() && 0 == connections.reconnectsInProgress())
            {
                quiescent = true;
                break;
            }
            final long next = nextEventNanos();
            if (next > deadline)
            {
                // Nothing more happens before the limit (or at all): not quiescent.
                clock.moveTo(deadline);
                break;
            }
            advanceTo(next);
        }
        // Sketch WRITEs that never found room (the collector stopped answering) are counted, not left waiting.
        group.abandonPendingWrites(clock.now());
    }

    /**
     * @return the time of the next event other than a report (a frame's arrival, a timer's deadline), or
     * {@link Long#MAX_VALUE} when nothing will happen.
     */
    private long nextEventNanos()
    {
        return Math.min(Math.min(nextArrival(), reporters.nextArrival()), nextTimerNanos());
    }

    /**
     * @return the earliest deadline of every timer (not those due now when the timers already ran now), or
     * {@link Long#MAX_VALUE}.
     */
    private long nextTimerNanos()
    {
        long next = connections.nextDeadline(responder.nextDeadline());
        if (null != group)
        {
            // A limit this side of overflow: the engine compares times by their difference (wrap-safe).
            final long far = clock.far();
            next = group.nextTimerNanos(Math.min(next, far));
            if (far == next)
            {
                next = Long.MAX_VALUE;
            }
        }
        // None should stay due after running; this keeps one that did from stopping the clock.
        return clock.pending(next);
    }

    /**
     * Runs every event up to and including {@code t} in time order, each at its own time: timers first at a time
     * both have, then the frames arriving then, one at a time, the timers polled again after each.
     */
    private void advanceTo(final long t)
    {
        while (true)
        {
            final long arrival = Math.min(nextArrival(), reporters.nextArrival());
            final long timer = nextTimerNanos();
            final long first = Math.min(arrival, timer);
            if (first > t)
            {
                return;
            }
            clock.moveTo(first);
            if (timer <= clock.now())
            {
                timers();
                continue;
            }
            if (reporters.nextArrival() < nextArrival())
            {
                reporterFrame();
            }
            else if (toCollector.nextArrival() <= toTranslator.nextArrival())
            {
                toCollectorFrame();
            }
            else
            {
                toTranslatorFrame();
            }
            timers();
        }
    }

    private long nextArrival()
    {
        return Math.min(toCollector.nextArrival(), toTranslator.nextArrival());
    }

    /**
     * A report a reporter sent again (or one that waited behind such) reaches the translator. It is taken off its
     * queue first: the NACK it may draw reaches its reporter at once and must find its re-send arrived.
     */
    private void reporterFrame()
    {
        final int length = reporters.take(reportCopy);
        group.onFrame(reportCopy, 0, length, clock.now());
    }

    /**
     * Polls every timer at {@code now}: the engine's (each due one at its deadline, which is now, see
     * {@link #advanceTo(long)}), the connection manager's, the reconnector's and the collector's.
     */
    private void timers()
    {
        if (null != group)
        {
            group.advanceTo(clock.now());
        }
        connections.poll(clock.now());
        toTranslator.now(clock.now());
        responder.poll(clock.now(), toTranslator);
        clock.timersRan();
    }

    /**
     * Makes the collector refuse one request: the {@code n}-th RDMA WRITE with a payload or FETCH_ADD that reaches
     * it in sequence (counting from 1, after set-up; one that follows a loss would be dropped unexecuted anyway)
     * arrives with a wrong R_Key (and a correct ICRC), so the collector answers
     * NAK 0x62 (remote access error) and puts the QP in the error state, as a real one does. A negotiated region is
     * then connected again and its QP re-armed; a static one stays in the error state.
     *
     * @param n which request; 0 for none.
     * @return this.
     */
    public ClosedLoopDemo injectRemoteAccessError(final long n)
    {
        faults.injectAt = n;
        return this;
    }

    /**
     * Makes the collector deaf to connection set-up once it refused a request ({@link #injectRemoteAccessError}):
     * every CM message the translator sends it afterwards is lost, as if its listener had gone away, so each
     * reconnection's set-up fails.
     *
     * @param ignore whether to.
     * @return this.
     */
    public ClosedLoopDemo ignoreSetUpAfterError(final boolean ignore)
    {
        faults.ignoreSetUpAfterError = ignore;
        return this;
    }

    /**
     * Makes one collector QP vanish without a word: from the {@code n}-th RDMA WRITE with a payload or FETCH_ADD
     * that reaches the collector (counting from 1, after set-up), every frame to that QP is dropped unanswered, as
     * a NIC drops frames for a QP that no longer exists (a restarted collector), until a connection request
     * reaches the collector. The translator can only notice by the silence ({@code connection.silenceTimeoutMillis}).
     *
     * @param n which request; 0 for none.
     * @return this.
     */
    public ClosedLoopDemo loseQpSilently(final long n)
    {
        faults.loseAt = n;
        return this;
    }

    /**
     * Makes the collector end one connection (IB CM DREQ): when the {@code n}-th RDMA WRITE with a payload or
     * FETCH_ADD reaches it (counting from 1, after set-up), the collector disconnects that request's QP
     * ({@code SoftResponder.disconnect}) before the request arrives, so it and everything after it are dropped as
     * not connected. The translator answers with a DREP, stops its QP and connects the region again.
     *
     * @param n which request; 0 for none.
     * @return this.
     */
    public ClosedLoopDemo collectorDisconnectsAt(final long n)
    {
        faults.disconnectAt = n;
        return this;
    }

    /**
     * Shows every delivered frame to {@code tap} (after a loss: lost frames are not shown), in both directions.
     *
     * @param tap the observer, or null for none.
     * @return this.
     */
    public ClosedLoopDemo frameTap(final FrameTap tap)
    {
        this.tap = tap;
        return this;
    }

    /**
     * @return DREQs the collector was made to send ({@link #collectorDisconnectsAt}; 0 or 1, not counting re-sends).
     */
    public long collectorDisconnects()
    {
        return faults.collectorDisconnects();
    }

    /**
     * @return frames dropped unanswered for the QP that vanished ({@link #loseQpSilently}).
     */
    public long silentlyDropped()
    {
        return faults.silentlyDropped();
    }

    /**
     * @return virtual times at which CM messages reached the deaf collector ({@link #ignoreSetUpAfterError}).
     */
    public long[] ignoredSetUpNanos()
    {
        return faults.ignoredSetUpNanos();
    }

    /**
     * @return requests the collector was made to refuse (0 or 1).
     */
    public long injectedErrors()
    {
        return faults.injected();
    }

    /**
     * @return the reconnector (null when every region is static or before {@link #connect()}).
     */
    public Reconnector reconnector()
    {
        return connections.firstReconnector();
    }

    /**
     * No negotiated collector QP still waits for an RTU, the ACK of its metadata SEND or the DREP of its DREQ.
     */
    private boolean collectorSettled()
    {
        for (final ResponderQp qp : responder.qps())
        {
            final ResponderQp.Connection c = qp.connection();
            if (ResponderQp.Connection.REP_SENT == c ||
                ResponderQp.Connection.SEND_PENDING == c ||
                ResponderQp.Connection.DREQ_SENT == c)
            {
                return false;
            }
        }
        return true;
    }

    private void toCollectorFrame()
    {
        final DirectBuffer ring = toCollector.ring();
        final int offset = toCollector.headOffset();
        final int length = toCollector.headLength();
        if (null != tap)
        {
            tap.onFrame(true, ring, offset, length, clock.now());
        }
        if (null != engine && FrameKind.ROCE == decoder.decode(ring, offset, length))
        {
            latency.onRequest(decoder.ipv4().dst(), decoder.bth().destQp(), decoder.bth().psn(),
                clock.now() - LINK_DELAY_NANOS);
        }
        toTranslator.now(clock.now());
        faults.deliver(ring, offset, length, clock.now(), null != engine, toTranslator);
        toCollector.pop();
    }

    private void toTranslatorFrame()
    {
        final DirectBuffer ring = toTranslator.ring();
        final int offset = toTranslator.headOffset();
        final int length = toTranslator.headLength();
        if (null != tap)
        {
            tap.onFrame(false, ring, offset, length, clock.now());
        }
        if (connections.onFrame(ring, offset, length, clock.now()))
        {
            toTranslator.pop();
            return;
        }
        if (null == engine)
        {
            // Before the engine exists only set-up frames matter; anything else has no QP to go to.
            toTranslator.pop();
            return;
        }
        if (FrameKind.ROCE == decoder.decode(ring, offset, length) && decoder.aeth().isAck())
        {
            latency.onAck(decoder.ipv4().src(), decoder.bth().destQp(), decoder.bth().psn(), clock.now());
        }
        group.onFrame(ring, offset, length, clock.now());
        toTranslator.pop();
    }

    /**
     * @return reports the reporters sent again because the translator NACKed them.
     */
    public long reportsResent()
    {
        return reporters.resent();
    }

    /**
     * @return NACKs that reached a reporter, and of those the ones it ignored as copies: {nacks, ignored}.
     */
    public long[] reporterNacks()
    {
        return new long[] { reporters.nacks(), reporters.nacksIgnored() };
    }

    /**
     * @return NACKs or reports a reporter could not honour or keep (more outstanding than 8-bit seqnums tell apart);
     * 0 in a sound run.
     */
    public long reporterUnrecoverable()
    {
        return reporters.unrecoverable();
    }

    /**
     * @return the translator (null before {@link #connect()} succeeded when regions are negotiated).
     */
    public TranslatorEngine engine()
    {
        return engine;
    }

    /**
     * @return the connection manager, or null when every region is static.
     */
    public ConnectionManager connections()
    {
        return connections.first();
    }

    /**
     * @return every worker's connection set-up, or null when every region is static.
     */
    public WorkerConnections workerConnections()
    {
        return connections.any() ? connections : null;
    }

    /**
     * @return virtual time at which connection set-up finished (0 without negotiated regions).
     */
    public long connectedAtNanos()
    {
        return connectedAtNanos;
    }

    /**
     * @return the soft collector.
     */
    public SoftResponder responder()
    {
        return responder;
    }

    /**
     * @return request-to-acknowledgement latency in nanoseconds.
     */
    public Histogram latency()
    {
        return latency.histogram();
    }

    /**
     * @return reports fed.
     */
    public long reports()
    {
        return reports;
    }

    /**
     * @return virtual time from the first report to quiescence.
     */
    public long simulatedNanos()
    {
        return clock.sinceFirstReport();
    }

    /**
     * @return true when every QP went quiescent with both links empty.
     */
    public boolean quiescent()
    {
        return quiescent;
    }

    /**
     * @return frames offered and lost towards the collector: {offered, lost, overflowed}.
     */
    public long[] toCollectorStats()
    {
        return new long[] { toCollector.offered(), toCollector.dropped(), toCollector.overflowed() };
    }

    /**
     * @return frames offered and lost towards the translator: {offered, lost, overflowed}.
     */
    public long[] toTranslatorStats()
    {
        return new long[] { toTranslator.offered(), toTranslator.dropped(), toTranslator.overflowed() };
    }

    /**
     * @return essential operations that did not land: still unacknowledged ({@link #essentialUnacknowledged()}) or
     * dropped for a full backlog ({@link #essentialDroppedBacklogFull()}); 0 when every one landed.
     */
    public long essentialOutstanding()
    {
        return essentialUnacknowledged() + essentialDroppedBacklogFull();
    }

    /**
     * @return essential operations (essential reports' WRITEs, every sketch WRITE) still in a QP's essential ring,
     * sent or not, not yet acknowledged.
     */
    public long essentialUnacknowledged()
    {
        long sum = 0;
        for (final QueuePairSender s : latency.senders())
        {
            sum += s.essentialBacklog();
        }
        return sum;
    }

    /**
     * @return essential operations the QPs refused for a full essential ring ({@code OPERATIONS_DROPPED_BACKLOG_FULL});
     * they never go out. Sketch WRITEs count here even when no report was merged into them (a closing epoch's
     * unwritten columns and its final header), so they need not show among the report drops.
     */
    public long essentialDroppedBacklogFull()
    {
        return group.counters().get(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL);
    }

    /**
     * @return the collectors of the configuration.
     */
    public List<CollectorConfig> collectors()
    {
        return new ArrayList<>(config.collectors());
    }
}
