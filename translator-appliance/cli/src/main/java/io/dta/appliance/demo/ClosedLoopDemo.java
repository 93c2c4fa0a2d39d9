package io.dta.appliance.demo;

import io.dta.appliance.connect.ConnectionManager;
import io.dta.appliance.connect.Reconnector;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.FrameLimits;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.engine.worker.EngineGroup;
import io.dta.appliance.io.FrameSource;
import io.dta.codec.DethFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.Icrc;
import io.dta.codec.RoceOpcode;
import io.dta.collector.responder.ResponderQp;
import io.dta.collector.responder.SoftResponder;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
    /**
     * Sees every frame a link delivers, before its receiver does (tests observe the traffic with it).
     */
    @FunctionalInterface
    public interface FrameTap
    {
        /**
         * @param toCollector true for a frame reaching the collector, false for one reaching the translator.
         * @param buffer      frame memory (valid during the call only).
         * @param offset      frame start.
         * @param length      frame length.
         * @param nowNanos    virtual time of arrival.
         */
        void onFrame(boolean toCollector, DirectBuffer buffer, int offset, int length, long nowNanos);
    }

    private static final long LINK_DELAY_NANOS = 2_000;
    private static final long DRAIN_LIMIT_NANOS = 10_000_000_000L;
    /** Further than any timer: about 73 years, so that "now" plus it cannot overflow. */
    private static final long FAR_NANOS = Long.MAX_VALUE / 4;
    private static final int PSN_SLOTS = 1 << 16;
    /** Rounds of the reconnector at one time: a QP found in error, its back-off of 0 ending, its set-up starting. */
    private static final int RECONNECTOR_ROUNDS = 4;
    /** R_Key offset in a request the engine builds: Ethernet, IPv4 (20), UDP, BTH, then RETH or AtomicETH. */
    private static final int RKEY_OFFSET = 14 + 20 + 8 + 12 + 8;
    private static final int IP_OFFSET = 14;

    private final ApplianceConfig config;
    private final LossyLink toCollector;
    private final LossyLink toTranslator;
    private final ResendingReporters reporters;
    private final ReporterNackTap output;
    private final UnsafeBuffer reportCopy = new UnsafeBuffer(ByteBuffer.allocateDirect(LossyLink.slotFor(2048)));
    private final SoftResponder responder;
    private final ConnectionManager connections;
    private final ConnectionManager[] workerConnections;
    private Reconnector reconnector;
    private Reconnector[] reconnectors = new Reconnector[0];
    private final int workers;
    private EngineGroup group;
    private final FrameDecoder decoder = new FrameDecoder();
    private final UnsafeBuffer mangled;
    private final Icrc icrc = new Icrc();
    private long injectAt;
    private long requestsSeen;
    private long injected;
    private boolean ignoreSetUpAfterError;
    private long loseAt;
    private long requestsSeenForLoss;
    private int lostQpn = -1;
    private int lostQpCollectorIp;
    private long silentlyDropped;
    private long disconnectAt;
    private long requestsSeenForDisconnect;
    private long collectorDisconnects;
    private final LongArrayList ignoredSetUpNanos = new LongArrayList();
    private FrameTap tap;
    private final Histogram latency = new Histogram(3_600_000_000_000L, 3);
    private TranslatorEngine engine;
    private QueuePairSender[] senders;
    private long[][] sentAt;
    private int[] lastMeasuredPsn;
    private long[] reconnectsSeen;
    private long connectedAtNanos;
    private long now;
    // The timers ran at "now" since the last frame or report: one still due then waits for the next event (none
    // should stay due after running; this keeps one that did from stopping the clock).
    private boolean timersCurrent;
    private long reports;
    private long firstReportNanos = Long.MIN_VALUE;
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
        mangled = new UnsafeBuffer(ByteBuffer.allocateDirect(LossyLink.slotFor(largestFrame)));
        reporters = new ResendingReporters(LINK_DELAY_NANOS, translatorSide.reports().nackPort());
        output = new ReporterNackTap(toCollector, reporters);
        responder = new SoftResponder(collectorSide, (collector, region) ->
        {
            final int index = collectorSide.collectors().indexOf(collector);
            return stores.get(index).memory(region);
        }).connectionSeed(seed * 17 + 3);
        if (translatorSide.hasUnconnectedRegions())
        {
            // Each worker connects its own QPs (local QPNs localQpn + (w << 16)) with a manager of its own; the
            // first one's seed is the single worker's, so one worker connects exactly as before.
            workerConnections = new ConnectionManager[workers];
            for (int w = 0; w < workers; w++)
            {
                workerConnections[w] = new ConnectionManager(translatorSide.forWorker(w), toCollector,
                    seed * 13 + 5 + w * 7919L);
            }
            connections = workerConnections[0];
        }
        else
        {
            connections = null;
            workerConnections = new ConnectionManager[0];
            startEngine(EngineGroup.workerConfigs(translatorSide, workers));
        }
    }

    private void startEngine(final ApplianceConfig[] connected)
    {
        group = new EngineGroup(connected, output, true, config.workers().handOffQueueBytes());
        engine = group.engines()[0];
        if (null != connections)
        {
            reconnectors = new Reconnector[workers];
            for (int w = 0; w < workers; w++)
            {
                reconnectors[w] = new Reconnector(workerConnections[w], group.engines()[w]);
            }
            reconnector = reconnectors[0];
        }
        senders = group.senders().toArray(new QueuePairSender[0]);
        sentAt = new long[senders.length][PSN_SLOTS];
        lastMeasuredPsn = new int[senders.length];
        reconnectsSeen = new long[senders.length];
        for (int i = 0; i < senders.length; i++)
        {
            lastMeasuredPsn[i] = (senders[i].nextPsn() - 1) & 0xFFFFFF;
        }
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
        for (final ConnectionManager manager : workerConnections)
        {
            manager.start(now);
        }
        while (!connectionsDone())
        {
            // A set-up under way always has a deadline (a REQ's re-send, the wait for the metadata SEND).
            final long next = nextEventNanos();
            if (Long.MAX_VALUE == next)
            {
                break;
            }
            advanceTo(next);
        }
        connectedAtNanos = now;
        final ApplianceConfig[] connected = new ApplianceConfig[workers];
        for (int w = 0; w < workers; w++)
        {
            if (!workerConnections[w].allConnected())
            {
                return false;
            }
            connected[w] = workerConnections[w].connectedConfig();
        }
        startEngine(connected);
        return true;
    }

    private boolean connectionsDone()
    {
        for (final ConnectionManager manager : workerConnections)
        {
            if (!manager.isDone())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return why connection set-up failed, every worker's failures.
     */
    public List<String> connectionFailures()
    {
        final List<String> failures = new ArrayList<>();
        for (int w = 0; w < workerConnections.length; w++)
        {
            for (final String failure : workerConnections[w].failures())
            {
                failures.add(workers > 1 ? "worker " + w + ": " + failure : failure);
            }
        }
        return failures;
    }

    /**
     * @return the translator's workers (null before {@link #connect()} succeeded when regions are negotiated).
     */
    public EngineGroup group()
    {
        return group;
    }

    private int reconnectsInProgress()
    {
        int n = 0;
        for (final Reconnector r : reconnectors)
        {
            n += r.inProgress();
        }
        return n;
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
            final long t = Math.max(now, source.timeNanos());
            if (Long.MIN_VALUE == firstReportNanos)
            {
                firstReportNanos = t;
            }
            advanceTo(t);
            moveClock(t);
            if (!reporters.send(source.buffer(), source.offset(), source.length(), now))
            {
                group.onFrame(source.buffer(), source.offset(), source.length(), now);
            }
            reports++;
            timers();
        }
        group.flush(now);
        timers();
        final long deadline = now + DRAIN_LIMIT_NANOS;
        while (true)
        {
            if (group.isQuiescent() && toCollector.isEmpty() && toTranslator.isEmpty() && reporters.isEmpty() &&
                collectorSettled() && 0 == reconnectsInProgress())
            {
                quiescent = true;
                break;
            }
            final long next = nextEventNanos();
            if (next > deadline)
            {
                // Nothing more happens before the limit (or at all): not quiescent.
                moveClock(deadline);
                break;
            }
            advanceTo(next);
        }
        // Sketch WRITEs that never found room (the collector stopped answering) are counted, not left waiting.
        group.abandonPendingWrites(now);
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
        long next = responder.nextDeadline();
        for (final ConnectionManager manager : workerConnections)
        {
            next = Math.min(next, manager.nextDeadline());
        }
        for (final Reconnector r : reconnectors)
        {
            next = Math.min(next, r.nextDeadline());
        }
        if (null != group)
        {
            // A limit this side of overflow: the engine compares times by their difference (wrap-safe).
            final long far = now + FAR_NANOS;
            next = group.nextTimerNanos(Math.min(next, far));
            if (far == next)
            {
                next = Long.MAX_VALUE;
            }
        }
        return timersCurrent && next <= now ? Long.MAX_VALUE : next;
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
            moveClock(first);
            if (timer <= now)
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
        group.onFrame(reportCopy, 0, length, now);
    }

    private void moveClock(final long t)
    {
        if (t > now)
        {
            now = t;
            timersCurrent = false;
        }
    }

    /**
     * Polls every timer at {@code now}: the engine's (each due one at its deadline, which is now, see
     * {@link #advanceTo(long)}), the connection manager's, the reconnector's and the collector's.
     */
    private void timers()
    {
        if (null != group)
        {
            group.advanceTo(now);
        }
        for (final ConnectionManager manager : workerConnections)
        {
            manager.poll(now);
        }
        for (final Reconnector r : reconnectors)
        {
            // As a live loop polling continuously would: a QP found in error starts its back-off, one of 0 ends at
            // once and the set-up starts, all at this time.
            for (int round = 0; round < RECONNECTOR_ROUNDS; round++)
            {
                if (0 == r.poll(now) || r.nextDeadline() > now)
                {
                    break;
                }
            }
        }
        toTranslator.now(now);
        responder.poll(now, toTranslator);
        timersCurrent = true;
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
        injectAt = n;
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
        ignoreSetUpAfterError = ignore;
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
        loseAt = n;
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
        disconnectAt = n;
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
        return collectorDisconnects;
    }

    /**
     * @return frames dropped unanswered for the QP that vanished ({@link #loseQpSilently}).
     */
    public long silentlyDropped()
    {
        return silentlyDropped;
    }

    /**
     * @return virtual times at which CM messages reached the deaf collector ({@link #ignoreSetUpAfterError}).
     */
    public long[] ignoredSetUpNanos()
    {
        return ignoredSetUpNanos.toLongArray();
    }

    /**
     * @return requests the collector was made to refuse (0 or 1).
     */
    public long injectedErrors()
    {
        return injected;
    }

    /**
     * @return the reconnector (null when every region is static or before {@link #connect()}).
     */
    public Reconnector reconnector()
    {
        return reconnector;
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
            tap.onFrame(true, ring, offset, length, now);
        }
        if (null != engine && FrameKind.ROCE == decoder.decode(ring, offset, length))
        {
            final int qp = senderIndex(decoder.ipv4().dst(), decoder.bth().destQp(), false);
            if (qp >= 0)
            {
                sentAt[qp][decoder.bth().psn() & (PSN_SLOTS - 1)] = now - LINK_DELAY_NANOS;
            }
        }
        toTranslator.now(now);
        if (ignoreSetUpAfterError && injected > 0 && isSetUpMessage(ring, offset, length))
        {
            ignoredSetUpNanos.addLong(now);
            toCollector.pop();
            return;
        }
        if (lostQpn >= 0 && isSetUpMessage(ring, offset, length))
        {
            // The reconnection's REQ: the collector has a QP for the region again.
            lostQpn = -1;
        }
        else if (lostQpn >= 0 && FrameKind.ROCE == decoder.kind() && decoder.bth().destQp() == lostQpn &&
            decoder.ipv4().dst() == lostQpCollectorIp)
        {
            silentlyDropped++;
            toCollector.pop();
            return;
        }
        else if (loseAt > 0 && null != engine && isRefusable(ring, offset, length) && ++requestsSeenForLoss == loseAt)
        {
            lostQpn = decoder.bth().destQp();
            lostQpCollectorIp = decoder.ipv4().dst();
            silentlyDropped++;
            toCollector.pop();
            return;
        }
        if (disconnectAt > 0 && null != engine && isRefusable(ring, offset, length) &&
            ++requestsSeenForDisconnect == disconnectAt &&
            responder.disconnect(decoder.ipv4().dst(), decoder.bth().destQp(), now, toTranslator))
        {
            collectorDisconnects++;
        }
        if (injectAt > 0 && null != engine && isRefusable(ring, offset, length) && ++requestsSeen == injectAt)
        {
            mangled.putBytes(0, ring, offset, length);
            mangled.putInt(RKEY_OFFSET, ~mangled.getInt(RKEY_OFFSET, ByteOrder.BIG_ENDIAN), ByteOrder.BIG_ENDIAN);
            icrc.writeInPlace(mangled, IP_OFFSET, length - Icrc.LENGTH);
            injected++;
            responder.onFrame(mangled, 0, length, now, toTranslator);
        }
        else
        {
            responder.onFrame(ring, offset, length, now, toTranslator);
        }
        toCollector.pop();
    }

    private boolean isSetUpMessage(final DirectBuffer ring, final int offset, final int length)
    {
        return FrameKind.ROCE == decoder.decode(ring, offset, length) &&
            RoceOpcode.UD_SEND_ONLY == decoder.roceOpcode() && DethFlyweight.GSI_QPN == decoder.bth().destQp();
    }

    private boolean isRefusable(final DirectBuffer ring, final int offset, final int length)
    {
        if (FrameKind.ROCE != decoder.decode(ring, offset, length) || decoder.ipv4().headerLength() != 20)
        {
            return false;
        }
        final int opcode = decoder.roceOpcode();
        return (RoceOpcode.RC_FETCH_ADD == opcode ||
            (RoceOpcode.RC_RDMA_WRITE_ONLY == opcode && decoder.payloadLength() > 0)) && isNextInSequence();
    }

    /**
     * Whether the collector will execute the decoded request: its QP expects exactly this PSN. A request after a
     * loss is dropped as out of sequence before its R_Key is looked at, so refusing it would refuse nothing.
     */
    private boolean isNextInSequence()
    {
        final int destQp = decoder.bth().destQp();
        for (final ResponderQp qp : responder.qps())
        {
            if (qp.qpn() == destQp && qp.collector().ip() == decoder.ipv4().dst() &&
                qp.expectedPsn() == decoder.bth().psn())
            {
                return true;
            }
        }
        return false;
    }

    private void toTranslatorFrame()
    {
        final DirectBuffer ring = toTranslator.ring();
        final int offset = toTranslator.headOffset();
        final int length = toTranslator.headLength();
        if (null != tap)
        {
            tap.onFrame(false, ring, offset, length, now);
        }
        // A CM message names its connection by communication ID, which only the worker that sent the REQ knows:
        // every worker's manager sees it, the others count it unmatched.
        boolean setUp = false;
        for (final ConnectionManager manager : workerConnections)
        {
            setUp |= manager.onFrame(ring, offset, length, now);
        }
        if (setUp)
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
        if (FrameKind.ROCE == decoder.decode(ring, offset, length))
        {
            final int qp = senderIndex(decoder.ipv4().src(), decoder.bth().destQp(), true);
            if (qp >= 0 && decoder.aeth().isAck())
            {
                measure(qp, decoder.bth().psn());
            }
        }
        group.onFrame(ring, offset, length, now);
        toTranslator.pop();
    }

    private void measure(final int qp, final int ackedPsn)
    {
        if (senders[qp].reconnects() != reconnectsSeen[qp])
        {
            // Re-armed on a new connection: its PSNs start afresh.
            reconnectsSeen[qp] = senders[qp].reconnects();
            lastMeasuredPsn[qp] = (senders[qp].path().startPsn() - 1) & 0xFFFFFF;
        }
        int psn = lastMeasuredPsn[qp];
        final int distance = (ackedPsn - psn) & 0xFFFFFF;
        if (0 == distance || distance > PSN_SLOTS / 2)
        {
            return;
        }
        for (int i = 0; i < distance; i++)
        {
            psn = (psn + 1) & 0xFFFFFF;
            final long sent = sentAt[qp][psn & (PSN_SLOTS - 1)];
            if (sent > 0 && now >= sent)
            {
                latency.recordValue(now - sent);
                sentAt[qp][psn & (PSN_SLOTS - 1)] = 0;
            }
        }
        lastMeasuredPsn[qp] = ackedPsn;
    }

    private int senderIndex(final int collectorIp, final int qpn, final boolean local)
    {
        for (int i = 0; i < senders.length; i++)
        {
            final var path = senders[i].path();
            if (path.collectorIp() == collectorIp && (local ? path.localQpn() : path.remoteQpn()) == qpn)
            {
                return i;
            }
        }
        return -1;
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
        return connections;
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
        return latency;
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
        return Long.MIN_VALUE == firstReportNanos ? 0 : now - firstReportNanos;
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
        for (final QueuePairSender s : senders)
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
