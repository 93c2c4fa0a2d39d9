package io.dta.appliance.engine;

import io.dta.appliance.engine.primitive.AppendList;
import io.dta.appliance.engine.primitive.KeyIncrementHandler;
import io.dta.appliance.engine.primitive.KeyWriteHandler;
import io.dta.appliance.engine.primitive.PostcardHandler;
import io.dta.appliance.engine.primitive.SketchMergeHandler;
import io.dta.appliance.state.ListRegion;
import io.dta.appliance.state.ResumeStateFile;
import io.dta.appliance.state.StaticQp;
import io.dta.codec.AethFlyweight;
import io.dta.codec.BthFlyweight;
import io.dta.codec.DtaBaseHeaderFlyweight;
import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.DtaOpcode;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.KeyWriteFlyweight;
import io.dta.codec.RoceOpcode;
import io.dta.codec.UdpFlyweight;
import io.dta.collector.layout.ListLayout;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ListConfig;
import io.dta.config.RegionConfig;
import io.dta.config.SketchConfig;
import io.dta.config.TranslatorConfig;
import io.dta.appliance.engine.worker.HandOffBatches;
import io.dta.appliance.engine.worker.HandOffQueues;
import io.dta.appliance.engine.worker.WorkerLink;
import io.dta.appliance.engine.worker.WorkerOwnership;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The translator: DTA reports in, RoCEv2 frames out (translation.md §1–§7). Single-threaded and driven by an
 * explicit clock, so a replay of a capture is deterministic; it does not know where frames come from or go.
 * <p>
 * Per frame: {@link FrameDecoder} classifies it; a DTA report is sequence-checked, routed (collector by IPv4
 * destination, list by id) and handed to its primitive's handler, which computes addresses and payloads and
 * hands operations to the region's {@link QueuePairSender}; a RoCEv2 response is checked (collector source IP,
 * local QPN, ICRC) and handed to the QP it belongs to. {@link #poll(long)} runs the timers.
 */
public final class TranslatorEngine
{
    /**
     * How long a QP's newest frame is held for a successor before it goes out alone, with AckReq.
     */
    public static final long HOLD_NANOS = 20_000;

    /**
     * Reporters whose sequence numbers are tracked at once (three quarters of the table).
     */
    public static final int REPORTER_TABLE_SIZE = 1 << 16;

    /**
     * Engine clock granularity for timer checks.
     */
    public static final long TIMER_GRANULARITY_NANOS = 1_000;

    private final FrameDecoder decoder = new FrameDecoder();
    private final EngineCounters counters;
    private final ReporterNackSender nackSender;
    private final ReporterSequenceTracker sequenceTracker;
    private final SmallIntMap<CollectorRoutes> collectorsByIp = new SmallIntMap<>();
    private final SmallIntMap<AppendList> listsById = new SmallIntMap<>();
    private final SmallIntMap<QueuePairSender> listSendersById = new SmallIntMap<>();
    private final SmallIntMap<QueuePairSender> sendersByLocalQpn = new SmallIntMap<>();
    private final QueuePairSender[] senders;
    private final AppendList[] lists;
    private final PostcardHandler[] postcardHandlers;
    private final SketchMergeHandler[] sketchHandlers;
    private final int redundancyMax;
    private final int postcardHops;
    private final boolean verifyChecksums;
    private long nextTimerNanos;
    private boolean timersArmed;
    // The last time given to advanceTo (a replay's or the demo's clock), so that no timer runs before it.
    private long replayClockNanos;
    private boolean replayClockSet;

    // The report being translated carries the retransmittable flag (its reporter keeps it for a NACK).
    private boolean retransmittable;

    private final boolean closedLoop;
    private final ResumeStateFile listState;
    private final TranslatorConfig translator;

    // Set when this engine is one of several workers: the frame being decoded, kept so that it can be handed whole
    // to the worker that owns its list, flow, sketch or QP.
    private WorkerLink worker;
    private DirectBuffer frameBuffer;
    private int frameOffset;
    private int frameLength;
    private long handOffNowNanos;
    private final MessageHandler handOffHandler = this::onHandedOff;
    // Handed-off Append entries and postcards cross as records of their fields, in batches: the owner need not
    // decode them again.
    private HandOffBatches handOffBatches;

    /**
     * Builds the engine for a validated configuration, in closed loop (responses from the collectors reach it).
     *
     * @param config the configuration.
     * @param sink   where frames go.
     */
    public TranslatorEngine(final ApplianceConfig config, final FrameSink sink)
    {
        this(config, sink, true);
    }

    /**
     * Builds the engine for a validated configuration.
     *
     * @param config     the configuration.
     * @param sink       where frames go.
     * @param closedLoop true when the collectors' responses reach the engine; false for an open-loop replay with
     *                   no responses, where ACK timeouts and probes would only stall the QPs.
     */
    public TranslatorEngine(final ApplianceConfig config, final FrameSink sink, final boolean closedLoop)
    {
        this(config, sink, closedLoop, new EngineCounters());
    }

    /**
     * Builds the engine for a validated configuration, counting into the given counters (for example counters in
     * a shared-memory file that {@code dta stat} reads).
     *
     * @param config     the configuration.
     * @param sink       where frames go.
     * @param closedLoop see {@link #TranslatorEngine(ApplianceConfig, FrameSink, boolean)}.
     * @param counters   where to count; used by this engine alone.
     */
    public TranslatorEngine(
        final ApplianceConfig config, final FrameSink sink, final boolean closedLoop, final EngineCounters counters)
    {
        this(config, sink, closedLoop, counters, null);
    }

    /**
     * Builds the engine for a validated configuration, each Append list starting at the position a list state file
     * holds for it and storing its position there once per batch (the live appliance: numbering continues across
     * restarts, docs/layouts.md).
     *
     * @param config     the configuration.
     * @param sink       where frames go.
     * @param closedLoop see {@link #TranslatorEngine(ApplianceConfig, FrameSink, boolean)}.
     * @param counters   where to count; used by this engine alone.
     * @param listState  the list state file created for this configuration's lists
     *                   ({@link ListRegion#allOf(ApplianceConfig)}); null for lists that start from batch 1 and
     *                   record nothing. A static QP it has an entry for starts at its {@link ResumeStateFile#startPsn}
     *                   (the PSN recorded at the previous clean stop, else the configured one); see
     *                   {@link #recordNextPsns()}.
     * @throws IllegalArgumentException when the file has no entry for a list or one for another region, or a QP entry
     *                                  for another QP.
     */
    public TranslatorEngine(
        final ApplianceConfig config,
        final FrameSink sink,
        final boolean closedLoop,
        final EngineCounters counters,
        final ResumeStateFile listState)
    {
        if (config.hasUnconnectedRegions())
        {
            throw new IllegalArgumentException("negotiated regions must be connected first (ConnectionManager." +
                "connectedConfig()): their QPN, R_Key and address are not known yet");
        }
        this.closedLoop = closedLoop;
        this.counters = counters;
        this.listState = listState;
        this.translator = config.translator();
        nackSender = new ReporterNackSender(sink, counters, translator.mac(), translator.ip(),
            config.reports().udpPort(), config.reports().nackPort());
        redundancyMax = config.redundancy().max();
        sequenceTracker = new ReporterSequenceTracker(
            REPORTER_TABLE_SIZE, config.reports().sequenceTimeoutMicros() * 1_000L);
        postcardHops = config.postcards().hops();
        verifyChecksums = config.reports().verifyChecksums();
        configureDecoder(decoder, config);

        final List<QueuePairSender> allSenders = new ArrayList<>();
        final List<AppendList> allLists = new ArrayList<>();
        final List<PostcardHandler> allPostcards = new ArrayList<>();
        final List<SketchMergeHandler> allSketches = new ArrayList<>();
        final long hold = HOLD_NANOS;
        for (final CollectorConfig collector : config.collectors())
        {
            final CollectorRoutes routes = new CollectorRoutes();
            if (null != collector.keyWrite())
            {
                final RegionConfig r = collector.keyWrite().region();
                final QueuePairSender s = sender(config, collector, r, "keyWrite", 16, 1, sink, hold);
                routes.keyWrite = new KeyWriteHandler(s, r.address(), r.length(), collector.keyWrite().slotSize());
                routes.keyWriteSender = s;
                allSenders.add(s);
            }
            if (null != collector.keyIncrement())
            {
                final var ki = collector.keyIncrement();
                final RegionConfig r = ki.region();
                final QueuePairSender s = sender(config, collector, r, "keyIncrement", ki.maxOutstandingAtomics(),
                    ki.atomicQueueSize(), sink, hold);
                routes.keyIncrement = new KeyIncrementHandler(s, r.address(), r.length());
                routes.keyIncrementSender = s;
                allSenders.add(s);
            }
            if (null != collector.postcards())
            {
                final RegionConfig r = collector.postcards().region();
                final QueuePairSender s = sender(config, collector, r, "postcards", 16, 1, sink, hold);
                routes.postcards = new PostcardHandler(s, counters, r.address(), r.length(), postcardHops,
                    config.postcards().idleFlushMicros() * 1000, config.postcards().cacheEntries());
                routes.postcardSender = s;
                allPostcards.add(routes.postcards);
                allSenders.add(s);
            }
            for (final ListConfig list : collector.lists())
            {
                final RegionConfig r = list.region();
                final QueuePairSender s = sender(config, collector, r, "list" + list.id(), 16, 1, sink, hold);
                final ListLayout layout = new ListLayout(ListRegion.kindOf(list.layout()),
                    config.append().batchSize(), r.length());
                final long idleFlushNanos = config.append().idleFlushMicros() * 1000;
                final AppendList appendList;
                if (null == listState)
                {
                    appendList = new AppendList((int)list.id(), s, counters, layout, r.address(), idleFlushNanos);
                }
                else
                {
                    final int index = listState.indexOf(list.id());
                    final ListRegion recorded = index < 0 ? null : listState.region(index);
                    if (null == recorded || !recorded.sameAs(ListRegion.of(list, layout.batchSize())))
                    {
                        throw new IllegalArgumentException("list state file " + listState.path() +
                            " was not created for list " + list.id() + " as configured");
                    }
                    appendList = new AppendList((int)list.id(), s, counters, layout, r.address(), idleFlushNanos,
                        listState.buffer(), listState.positionOffset(index), listState.position(index));
                }
                listsById.put((int)list.id(), appendList);
                listSendersById.put((int)list.id(), s);
                allLists.add(appendList);
                allSenders.add(s);
            }
            for (final SketchConfig sketch : collector.sketches())
            {
                final RegionConfig r = sketch.region();
                final QueuePairSender s = sender(config, collector, r, "sketch" + sketch.id(), 16, 1, sink, hold,
                    SketchMergeHandler.maxPayload(sketch));
                final SketchMergeHandler handler = new SketchMergeHandler(sketch, s, counters, nackSender);
                routes.sketches.put((int)sketch.id(), handler);
                allSketches.add(handler);
                allSenders.add(s);
            }
            collectorsByIp.put(collector.ip(), routes);
        }
        for (final QueuePairSender s : allSenders)
        {
            sendersByLocalQpn.put(s.path().localQpn(), s);
        }
        senders = allSenders.toArray(new QueuePairSender[0]);
        lists = allLists.toArray(new AppendList[0]);
        postcardHandlers = allPostcards.toArray(new PostcardHandler[0]);
        sketchHandlers = allSketches.toArray(new SketchMergeHandler[0]);
    }

    /**
     * A static region's QP resumes the PSN the list state file recorded at the previous run's clean stop (the
     * collector's QP kept running and expects it); a negotiated one starts where connection set-up agreed.
     */
    private int startPsn(final CollectorConfig collector, final RegionConfig region)
    {
        if (null == listState || region.negotiated())
        {
            return region.startPsn();
        }
        final int index = listState.qpIndexOf(region.localQpn());
        if (index < 0)
        {
            return region.startPsn();
        }
        if (!listState.qp(index).equals(StaticQp.of(collector, region)))
        {
            throw new IllegalArgumentException("list state file " + listState.path() + " was not created for QP " +
                region.localQpn() + " (" + region.path() + ") as configured");
        }
        return listState.startPsn(index);
    }

    private QueuePairSender sender(
        final ApplianceConfig config,
        final CollectorConfig collector,
        final RegionConfig region,
        final String regionName,
        final int maxOutstandingAtomics,
        final int atomicQueueSize,
        final FrameSink sink,
        final long holdNanos)
    {
        return sender(config, collector, region, regionName, maxOutstandingAtomics, atomicQueueSize, sink, holdNanos,
            0);
    }

    private QueuePairSender sender(
        final ApplianceConfig config,
        final CollectorConfig collector,
        final RegionConfig region,
        final String regionName,
        final int maxOutstandingAtomics,
        final int atomicQueueSize,
        final FrameSink sink,
        final long holdNanos,
        final int maxPayload)
    {
        final QpPath path = new QpPath(collector.name() + "/" + regionName, collector.mac(), collector.ip(),
            region.udpSourcePort(), region.localQpn(), region.qpn(), (int)region.rkey(), region.address(),
            region.length(), startPsn(collector, region), collector.pathMtu());
        final SenderSettings settings = new SenderSettings(
            config.acks().requestInterval(),
            closedLoop ? config.acks().timeoutMicros() * 1000 : 0,
            config.resync().graceMicros() * 1000,
            config.resync().gracePackets(),
            holdNanos,
            maxOutstandingAtomics,
            atomicQueueSize,
            config.essential().backlog(),
            closedLoop && region.negotiated() ? config.connection().silenceTimeoutNanos() : 0,
            config.resync().maxRnrWaitMicros() * 1000,
            config.acks().window());
        final RoceFrameBuilder builder = new RoceFrameBuilder(translator.mac(), translator.ip(),
            (translator.dscp() << 2) | translator.ecn(), translator.ttl(), translator.pKey(), path);
        return 0 == maxPayload ? new QueuePairSender(builder, sink, counters, settings) :
            new QueuePairSender(builder, sink, counters, settings, maxPayload);
    }

    /**
     * @return whether ACK timeouts and probes are active.
     */
    public boolean closedLoop()
    {
        return closedLoop;
    }

    /**
     * @return the engine's counters.
     */
    public EngineCounters counters()
    {
        return counters;
    }

    /**
     * @return every QP sender, in configuration order.
     */
    public List<QueuePairSender> senders()
    {
        return Collections.unmodifiableList(List.of(senders));
    }

    /**
     * @param localQpn the appliance's QPN of a region.
     * @return its sender, or null.
     */
    public QueuePairSender sender(final int localQpn)
    {
        return sendersByLocalQpn.get(localQpn);
    }

    /**
     * @param listId an Append list id.
     * @return the list, or null.
     */
    public AppendList list(final int listId)
    {
        return listsById.get(listId);
    }

    /**
     * Re-arms the QP of a region that was connected again (a negotiated region after its QP went to the error
     * state): see {@link QueuePairSender#reconnect(RoceFrameBuilder, long)}. Allocates (a new frame builder); not
     * for the per-packet path.
     *
     * @param connected the region with its new QPN, R_Key, address and starting PSN (same local QPN and length).
     * @param nowNanos  engine clock.
     * @return essential operations that will be sent again.
     * @throws IllegalArgumentException when no QP of this engine has the region's local QPN.
     */
    public int reconnect(final RegionConfig connected, final long nowNanos)
    {
        return reconnect(connected, 0, nowNanos);
    }

    /**
     * Re-arms the QP of a region that was connected again, as {@link #reconnect(RegionConfig, long)}, with the
     * outstanding atomics the new connection's REP granted: the QP never has more FETCH_ADDs unanswered than that
     * ({@link QueuePairSender#maxOutstandingAtomics(int, long)}).
     *
     * @param connected             the region with its new QPN, R_Key, address and starting PSN.
     * @param maxOutstandingAtomics the new limit on unanswered FETCH_ADDs; 0 keeps the current one (regions written
     *                              with WRITEs).
     * @param nowNanos              engine clock.
     * @return essential operations that will be sent again.
     * @throws IllegalArgumentException when no QP of this engine has the region's local QPN.
     */
    public int reconnect(final RegionConfig connected, final int maxOutstandingAtomics, final long nowNanos)
    {
        final QueuePairSender sender = sendersByLocalQpn.get(connected.localQpn());
        if (null == sender)
        {
            throw new IllegalArgumentException(String.format("no QP with local QPN 0x%06x", connected.localQpn()));
        }
        if (maxOutstandingAtomics > 0)
        {
            // Before the re-arm: the essential operations it sends again must already see the new limit.
            sender.maxOutstandingAtomics(maxOutstandingAtomics, nowNanos);
        }
        final QpPath old = sender.path();
        final QpPath path = new QpPath(old.name(), old.collectorMac(), old.collectorIp(), old.udpSourcePort(),
            old.localQpn(), connected.qpn(), (int)connected.rkey(), connected.address(), connected.length(),
            connected.startPsn(), old.pathMtu());
        final RoceFrameBuilder builder = new RoceFrameBuilder(translator.mac(), translator.ip(),
            (translator.dscp() << 2) | translator.ecn(), translator.ttl(), translator.pKey(), path);
        return sender.reconnect(builder, nowNanos);
    }

    /**
     * Sets a decoder up to read reports as this configuration's engine reads them: the DTA port, the base-header
     * form, UDP checksum verification and the Key-Write data length. Collectors may use different Key-Write slot
     * sizes: the decoder admits the shortest data and longer, and each store checks that its report carries exactly
     * its own data length.
     *
     * @param decoder the decoder.
     * @param config  the configuration.
     * @return the decoder.
     */
    public static FrameDecoder configureDecoder(final FrameDecoder decoder, final ApplianceConfig config)
    {
        int keyWriteDataLength = Integer.MAX_VALUE;
        for (final CollectorConfig collector : config.collectors())
        {
            if (null != collector.keyWrite())
            {
                keyWriteDataLength = Math.min(keyWriteDataLength, collector.keyWrite().slotSize() - 4);
            }
        }
        return decoder.dtaPort(config.reports().udpPort())
            .baseHeaderForm(switch (config.reports().baseHeader())
            {
                case TWO -> DtaBaseHeaderForm.TWO;
                case AUTO -> DtaBaseHeaderForm.AUTO;
                default -> DtaBaseHeaderForm.THREE;
            })
            .verifyUdpChecksum(config.reports().verifyChecksums())
            .keyWriteDataLength(Integer.MAX_VALUE == keyWriteDataLength ? 4 : keyWriteDataLength);
    }

    /**
     * Takes one frame from the wire: a report, a collector's response, or something to count and skip.
     *
     * @param buffer   frame memory.
     * @param offset   frame start.
     * @param length   frame length.
     * @param nowNanos engine clock.
     */
    public void onFrame(final DirectBuffer buffer, final int offset, final int length, final long nowNanos)
    {
        counters.increment(EngineCounter.FRAMES_IN);
        frameBuffer = buffer;
        frameOffset = offset;
        frameLength = length;
        dispatch(decoder.decode(buffer, offset, length), buffer, nowNanos);
    }

    /**
     * Makes this engine one of several workers: from now on a report of an Append list, a postcard flow or a sketch
     * that another worker owns, and a response to a QP of another worker, is handed to that worker (after this one
     * counted it in and tracked its reporter's sequence), and the frames other workers hand to this one are taken by
     * {@link #takeHandOffs(long)}. The configuration this engine was built for must be the worker's own
     * ({@link ApplianceConfig#forWorker(int)}).
     *
     * @param link the worker's place among the others.
     */
    public void joinWorkers(final WorkerLink link)
    {
        this.worker = link;
        this.handOffBatches = new HandOffBatches(link.ownership().workers());
    }

    /**
     * @return the worker link ({@link #joinWorkers}), or null for an engine that works alone.
     */
    public WorkerLink worker()
    {
        return worker;
    }

    /**
     * Takes the reports and responses other workers handed to this one (at most a burst from each), as if they had
     * arrived here, without counting them in again or tracking their reporters (the receiving worker did both).
     *
     * @param nowNanos engine clock.
     * @return frames taken.
     */
    public int takeHandOffs(final long nowNanos)
    {
        if (null == worker)
        {
            return 0;
        }
        handOffNowNanos = nowNanos;
        flushHandOffBatches();
        return worker.drain(handOffHandler);
    }

    private void flushHandOffBatches()
    {
        if (handOffBatches.isEmpty())
        {
            return;
        }
        for (int owner = 0; owner < worker.ownership().workers(); owner++)
        {
            countBatch(handOffBatches.flush(worker, owner));
        }
    }

    private void countBatch(final int written)
    {
        if (written > 0)
        {
            counters.add(EngineCounter.REPORTS_HANDED_OFF, written);
        }
        else if (written < 0)
        {
            counters.add(EngineCounter.DROP_HAND_OFF_FULL, -written);
        }
    }

    private void onHandedOff(final int kind, final MutableDirectBuffer buffer, final int offset, final int length)
    {
        final long nowNanos = handOffNowNanos;
        if (HandOffQueues.RECORDS == kind)
        {
            int at = offset;
            while (at < offset + length)
            {
                final int recordKind = buffer.getByte(at + HandOffQueues.KIND_OFFSET);
                counters.increment(EngineCounter.REPORTS_TAKEN_OVER);
                if (takenOver(recordKind, buffer, at, nowNanos))
                {
                    counters.increment(EngineCounter.REPORTS_TRANSLATED);
                }
                at += HandOffQueues.recordLength(recordKind);
            }
            return;
        }
        frameBuffer = buffer;
        frameOffset = offset;
        frameLength = length;
        final FrameKind decoded = decoder.decode(buffer, offset, length);
        if (HandOffQueues.REPORT == kind && FrameKind.DTA == decoded)
        {
            counters.increment(EngineCounter.REPORTS_TAKEN_OVER);
            final int flags = decoder.dtaBase().flags();
            final boolean essential = decoder.dtaBase().hasSeqnum() &&
                0 != (flags & DtaBaseHeaderFlyweight.FLAG_ESSENTIAL);
            translate(decoder.dtaOpcode(), essential, nowNanos);
        }
        else if (HandOffQueues.RESPONSE == kind && FrameKind.ROCE == decoded)
        {
            onResponse(nowNanos);
        }
    }

    /**
     * Hands the report just decoded to the worker that owns its list, flow or sketch, when that is another: an Append
     * entry or a postcard as a record of its fields ({@link HandOffQueues#APPEND}, {@link HandOffQueues#POSTCARD}), a
     * sketch column as its whole frame (a NACK to its switch needs the frame's addressing).
     *
     * @return true when it is another's (handed off, or dropped because the queue to it is full).
     */
    private boolean handedOff(final int opcode, final boolean essential)
    {
        final WorkerOwnership owners = worker.ownership();
        final int self = worker.index();
        final int owner;
        final boolean full;
        switch (opcode)
        {
            case DtaOpcode.APPEND ->
            {
                final var ap = decoder.append();
                owner = owners.ownerOfList((int)ap.listId());
                full = owner != self && handOffBatches.add(owner, HandOffQueues.APPEND, (int)ap.listId(),
                    (int)ap.data(), 0, 0, essential);
            }
            case DtaOpcode.POSTCARD ->
            {
                final var pc = decoder.postcard();
                owner = owners.ownerOfFlow((int)pc.key());
                full = owner != self && handOffBatches.add(owner, HandOffQueues.POSTCARD, (int)pc.key(),
                    (int)pc.data(), pc.hop(), decoder.ipv4().dst(), essential);
            }
            case DtaOpcode.SKETCH_MERGE ->
            {
                owner = owners.ownerOfSketch(decoder.sketchColumn().sketchId());
                if (owner != self)
                {
                    counters.increment(worker.handOff(owner, HandOffQueues.REPORT, frameBuffer, frameOffset,
                        frameLength) ? EngineCounter.REPORTS_HANDED_OFF : EngineCounter.DROP_HAND_OFF_FULL);
                }
                return owner != self;
            }
            default ->
            {
                return false;
            }
        }
        if (full)
        {
            countBatch(handOffBatches.flush(worker, owner));
        }
        return owner != self;
    }

    /**
     * An Append entry or a postcard another worker took in and handed over as a record.
     *
     * @return whether it was translated (routed to its list or postcard cache).
     */
    private boolean takenOver(
        final int kind, final DirectBuffer record, final int offset, final long nowNanos)
    {
        final boolean essential = 0 != record.getByte(offset + HandOffQueues.ESSENTIAL_OFFSET);
        final int id = record.getInt(offset + HandOffQueues.ID_OFFSET);
        final int data = record.getInt(offset + HandOffQueues.DATA_OFFSET);
        if (HandOffQueues.APPEND == kind)
        {
            final AppendList list = listsById.get(id);
            if (null == list)
            {
                return dropped(EngineCounter.DROP_NO_ROUTE);
            }
            list.onEntry(data, essential, nowNanos);
            return true;
        }
        final CollectorRoutes routes = collectorsByIp.get(record.getInt(offset + HandOffQueues.COLLECTOR_OFFSET));
        if (null == routes || null == routes.postcards)
        {
            return dropped(EngineCounter.DROP_NO_ROUTE);
        }
        final int hop = record.getShort(offset + HandOffQueues.HOP_OFFSET);
        if (hop < 1 || hop > postcardHops)
        {
            return dropped(EngineCounter.DROP_BAD_HOP);
        }
        routes.postcards.onReport(id, hop, data, essential, nowNanos);
        return true;
    }

    /**
     * Takes one frame of a replay's reports capture: as {@link #onFrame}, except that a RoCEv2 frame is counted
     * ({@link EngineCounter#ROCE_FRAMES_IN_REPORTS_CAPTURE}) and skipped, because the collector's responses come from
     * the responses capture; one capture of a port that carries both is given as both.
     *
     * @param buffer   frame memory.
     * @param offset   frame start.
     * @param length   frame length.
     * @param nowNanos engine clock.
     */
    public void onReportsCaptureFrame(
        final DirectBuffer buffer, final int offset, final int length, final long nowNanos)
    {
        counters.increment(EngineCounter.FRAMES_IN);
        frameBuffer = buffer;
        frameOffset = offset;
        frameLength = length;
        final FrameKind kind = decoder.decode(buffer, offset, length);
        if (FrameKind.ROCE == kind)
        {
            counters.increment(EngineCounter.ROCE_FRAMES_IN_REPORTS_CAPTURE);
            return;
        }
        dispatch(kind, buffer, nowNanos);
    }

    /**
     * Takes one frame of a replay's responses capture: as {@link #onFrame}, except that a DTA report, well-formed or
     * not, is counted ({@link EngineCounter#REPORTS_IN_RESPONSES_CAPTURE}) and skipped, neither translated nor
     * answered with a NACK: reports come from the reports capture.
     *
     * @param buffer   frame memory.
     * @param offset   frame start.
     * @param length   frame length.
     * @param nowNanos engine clock.
     */
    public void onResponsesCaptureFrame(
        final DirectBuffer buffer, final int offset, final int length, final long nowNanos)
    {
        counters.increment(EngineCounter.FRAMES_IN);
        frameBuffer = buffer;
        frameOffset = offset;
        frameLength = length;
        final FrameKind kind = decoder.decode(buffer, offset, length);
        if (FrameKind.DTA == kind || FrameKind.MALFORMED == kind && malformedReport())
        {
            counters.increment(EngineCounter.REPORTS_IN_RESPONSES_CAPTURE);
            return;
        }
        dispatch(kind, buffer, nowNanos);
    }

    private void dispatch(final FrameKind kind, final DirectBuffer buffer, final long nowNanos)
    {
        switch (kind)
        {
            case DTA -> onReport(nowNanos);
            case ROCE -> onResponse(nowNanos);
            case MALFORMED -> onMalformed(buffer, nowNanos);
            default -> counters.increment(EngineCounter.OTHER_FRAMES);
        }
    }

    /**
     * @return whether the malformed frame just decoded is a report (counted in {@link EngineCounter#REPORTS_IN} and
     * dropped under a report reason): a broken DTA payload, or a UDP-level fault of a datagram to the report port.
     */
    private boolean malformedReport()
    {
        return switch (decoder.malformedReason())
        {
            case TRUNCATED_DTA, BAD_DTA_LENGTH, UNKNOWN_DTA_OPCODE -> true;
            case BAD_UDP_CHECKSUM, BAD_UDP_LENGTH, TRUNCATED_IPV4 -> toReportPort();
            default -> false;
        };
    }

    private void onMalformed(final DirectBuffer buffer, final long nowNanos)
    {
        // Which malformed frames are reports is decided in one place, shared with onResponsesCaptureFrame.
        final boolean report = malformedReport();
        if (report)
        {
            counters.increment(EngineCounter.REPORTS_IN);
        }
        switch (decoder.malformedReason())
        {
            case TRUNCATED_DTA ->
            {
                counters.increment(EngineCounter.DROP_TRUNCATED);
                trackDamaged(buffer, nowNanos);
            }
            case BAD_DTA_LENGTH ->
            {
                counters.increment(EngineCounter.DROP_BAD_LENGTH);
                trackDamaged(buffer, nowNanos);
            }
            case UNKNOWN_DTA_OPCODE ->
            {
                counters.increment(EngineCounter.DROP_UNKNOWN_OPCODE);
                trackDamaged(buffer, nowNanos);
            }
            // A RoCEv2 response with a bad checksum is no report, but dropped for the same reason.
            case BAD_UDP_CHECKSUM -> counters.increment(EngineCounter.DROP_BAD_CHECKSUM);
            // A report all the same (§1: counted under a named reason): cut short when its UDP length reaches past
            // the IP datagram, a bad length when it is shorter than the UDP header.
            case BAD_UDP_LENGTH -> counters.increment(!report ? EngineCounter.DROP_MALFORMED :
                decoder.udp().length() < UdpFlyweight.HEADER_LENGTH ?
                    EngineCounter.DROP_BAD_LENGTH : EngineCounter.DROP_TRUNCATED);
            // The frame ends before its IP datagram does: after the UDP header of a report, a truncated report.
            case TRUNCATED_IPV4 ->
                counters.increment(report ? EngineCounter.DROP_TRUNCATED : EngineCounter.DROP_MALFORMED);
            case FRAGMENTED -> counters.increment(EngineCounter.DROP_FRAGMENTED);
            default -> counters.increment(EngineCounter.DROP_MALFORMED);
        }
    }

    /**
     * A report dropped for its shape (truncated, bad length, unknown opcode) still took its place in its reporter's
     * sequence when its three-byte base header is whole and its IPv4 header sound: tracked, it keeps the reporter's
     * next report from looking like a gap. Untracked, that next report would draw a NACK, the reporter would resend
     * this same report, and every retransmittable report of that reporter would be dropped until the gap timed out
     * (reports.sequenceTimeoutMicros). A gap it reveals itself is NACKed as any gap, without a second drop count
     * (the report is already counted under its shape's reason). Under {@code baseHeader: auto} the form of a report
     * that fits no primitive is unknown, so it is not tracked.
     */
    private void trackDamaged(final DirectBuffer buffer, final long nowNanos)
    {
        final int base = decoder.dtaOffset();
        if (DtaBaseHeaderForm.THREE != decoder.baseHeaderForm() || base < 0 ||
            decoder.udpLength() - UdpFlyweight.HEADER_LENGTH < DtaBaseHeaderForm.THREE.length() ||
            (verifyChecksums && !decoder.ipChecksumValid()) ||
            0 == (buffer.getByte(base + DtaBaseHeaderFlyweight.FLAGS_OFFSET_THREE) &
                DtaBaseHeaderFlyweight.FLAG_RETRANSMITTABLE))
        {
            return;
        }
        trackSequence(buffer.getByte(base + DtaBaseHeaderFlyweight.SEQNUM_OFFSET) & 0xFF, nowNanos);
    }

    /**
     * @return whether the malformed frame's UDP header was found and names the report port.
     */
    private boolean toReportPort()
    {
        return decoder.udpOffset() >= 0 && decoder.udp().dstPort() == decoder.dtaPort();
    }

    private void onReport(final long nowNanos)
    {
        counters.increment(EngineCounter.REPORTS_IN);
        if (verifyChecksums && !decoder.ipChecksumValid())
        {
            counters.increment(EngineCounter.DROP_BAD_CHECKSUM);
            return;
        }
        final DtaBaseHeaderFlyweight base = decoder.dtaBase();
        // The flags byte read once (three accessors would each find and read it); only the three-byte form
        // carries the sequence number that essential and retransmittable reports need.
        final int flags = base.flags();
        final boolean sequenced = base.hasSeqnum();
        final boolean essential = sequenced && 0 != (flags & DtaBaseHeaderFlyweight.FLAG_ESSENTIAL);
        if (0 != (flags & DtaBaseHeaderFlyweight.FLAG_IMMEDIATE))
        {
            counters.increment(EngineCounter.IMMEDIATE_REPORTS);
        }
        if (essential)
        {
            counters.increment(EngineCounter.ESSENTIAL_REPORTS);
        }
        retransmittable = sequenced && 0 != (flags & DtaBaseHeaderFlyweight.FLAG_RETRANSMITTABLE);
        if (retransmittable && !checkSequence(base.seqnum(), nowNanos))
        {
            return;
        }
        final int opcode = decoder.dtaOpcode();
        if (null != worker && handedOff(opcode, essential))
        {
            return;
        }
        translate(opcode, essential, nowNanos);
    }

    private void translate(final int opcode, final boolean essential, final long nowNanos)
    {
        final boolean translated = switch (opcode)
        {
            case DtaOpcode.KEY_WRITE -> keyWrite(essential, nowNanos);
            case DtaOpcode.KEY_INCREMENT -> keyIncrement(essential, nowNanos);
            case DtaOpcode.APPEND -> append(essential, nowNanos);
            case DtaOpcode.POSTCARD -> postcard(essential, nowNanos);
            case DtaOpcode.SKETCH_MERGE -> sketchColumn(nowNanos);
            default -> dropped(EngineCounter.DROP_UNSUPPORTED_PRIMITIVE);
        };
        if (translated)
        {
            counters.increment(EngineCounter.REPORTS_TRANSLATED);
        }
    }

    private boolean checkSequence(final int seqnum, final long nowNanos)
    {
        final int outcome = trackSequence(seqnum, nowNanos);
        if (ReporterSequenceTracker.IN_ORDER == outcome || ReporterSequenceTracker.REBASED == outcome)
        {
            return true;
        }
        if (ReporterSequenceTracker.DUPLICATE == outcome)
        {
            return dropped(EngineCounter.DROP_SEQUENCE_DUPLICATE);
        }
        if (ReporterSequenceTracker.TABLE_FULL == outcome)
        {
            return dropped(EngineCounter.DROP_REPORTER_TABLE_FULL);
        }
        return dropped(EngineCounter.DROP_SEQUENCE_GAP);
    }

    /**
     * Tracks the report's seqnum for its reporter: counts a re-base and NACKs a gap (what every tracked report
     * does, whether it is then translated or dropped for its shape).
     *
     * @return the tracker's outcome.
     */
    private int trackSequence(final int seqnum, final long nowNanos)
    {
        final int outcome = sequenceTracker.track(decoder.ipv4().src(), seqnum, nowNanos);
        if (ReporterSequenceTracker.REBASED == outcome)
        {
            counters.increment(EngineCounter.REPORTER_SEQUENCE_RESETS);
        }
        else if (outcome >= 0)
        {
            nackSender.send(decoder, outcome, nowNanos);
        }
        return outcome;
    }

    private CollectorRoutes routes()
    {
        return collectorsByIp.get(decoder.ipv4().dst());
    }

    private boolean keyWrite(final boolean essential, final long nowNanos)
    {
        final CollectorRoutes routes = routes();
        if (null == routes || null == routes.keyWrite)
        {
            return dropped(EngineCounter.DROP_NO_ROUTE);
        }
        final KeyWriteFlyweight kw = decoder.keyWrite();
        final int n = kw.redundancy();
        if (n < 1 || n > redundancyMax)
        {
            return dropped(EngineCounter.DROP_BAD_REDUNDANCY);
        }
        final int carried = decoder.udpLength() - UdpFlyweight.HEADER_LENGTH - decoder.dtaBase().length() -
            KeyWriteFlyweight.FIXED_LENGTH;
        final int dataLength = routes.keyWrite.dataLength();
        if (carried != dataLength)
        {
            // Data shorter than the store's slot is a report cut short; longer, a report of another shape.
            return dropped(carried < dataLength ? EngineCounter.DROP_TRUNCATED : EngineCounter.DROP_BAD_LENGTH);
        }
        if (essential && noRoomFor(routes.keyWriteSender, n, nowNanos))
        {
            return false;
        }
        routes.keyWrite.onReport(n, (int)kw.key(), kw.buffer(), kw.dataOffset(), essential, nowNanos);
        return true;
    }

    /**
     * An essential report's QP cannot take its operations: a retransmittable one is handed back to its reporter with
     * a NACK (its seqnum taken back, so its resend is in order), counted as {@link EngineCounter#DROP_BACKLOG_FULL_NACKED};
     * any other goes on, to be refused and counted by its QP ({@link EngineCounter#DROP_BACKLOG_FULL}).
     *
     * @return true when the report was handed back.
     */
    private boolean noRoomFor(final QueuePairSender sender, final int operations, final long nowNanos)
    {
        if (!retransmittable || sender.hasEssentialRoom(operations))
        {
            return false;
        }
        final int seqnum = decoder.dtaBase().seqnum();
        sequenceTracker.refuse(decoder.ipv4().src(), seqnum);
        nackSender.send(decoder, (seqnum - 1) & 0xFF, nowNanos);
        counters.increment(EngineCounter.DROP_BACKLOG_FULL_NACKED);
        return true;
    }

    private boolean dropped(final EngineCounter reason)
    {
        counters.increment(reason);
        return false;
    }

    private boolean keyIncrement(final boolean essential, final long nowNanos)
    {
        final CollectorRoutes routes = routes();
        if (null == routes || null == routes.keyIncrement)
        {
            return dropped(EngineCounter.DROP_NO_ROUTE);
        }
        final var ki = decoder.keyIncrement();
        final int n = ki.redundancy();
        if (n < 1 || n > redundancyMax)
        {
            return dropped(EngineCounter.DROP_BAD_REDUNDANCY);
        }
        if (essential && noRoomFor(routes.keyIncrementSender, n, nowNanos))
        {
            return false;
        }
        routes.keyIncrement.onReport(n, (int)ki.key(), ki.counter(), essential, nowNanos);
        return true;
    }

    private boolean append(final boolean essential, final long nowNanos)
    {
        final var ap = decoder.append();
        // Ids are u32 on the wire and in the configuration, kept here by their 32-bit pattern: ids from 2^31 on are
        // negative ints, and must route like any other.
        final AppendList list = listsById.get((int)ap.listId());
        if (null == list)
        {
            return dropped(EngineCounter.DROP_NO_ROUTE);
        }
        // The batch this entry completes (if it does) is the one WRITE its QP must take.
        if (essential && noRoomFor(listSendersById.get((int)ap.listId()), 1, nowNanos))
        {
            return false;
        }
        list.onEntry((int)ap.data(), essential, nowNanos);
        return true;
    }

    private boolean postcard(final boolean essential, final long nowNanos)
    {
        final CollectorRoutes routes = routes();
        if (null == routes || null == routes.postcards)
        {
            return dropped(EngineCounter.DROP_NO_ROUTE);
        }
        final var pc = decoder.postcard();
        final int hop = pc.hop();
        if (hop < 1 || hop > postcardHops)
        {
            return dropped(EngineCounter.DROP_BAD_HOP);
        }
        // The record it completes and one a cache collision may push out.
        if (essential && noRoomFor(routes.postcardSender, 2, nowNanos))
        {
            return false;
        }
        routes.postcards.onReport((int)pc.key(), hop, (int)pc.data(), essential, nowNanos);
        return true;
    }

    private boolean sketchColumn(final long nowNanos)
    {
        final CollectorRoutes routes = routes();
        final var column = decoder.sketchColumn();
        final SketchMergeHandler handler = null == routes ? null : routes.sketches.get(column.sketchId());
        if (null == handler)
        {
            return dropped(EngineCounter.DROP_NO_ROUTE);
        }
        // Sketch WRITEs are always essential (the merged column is the only copy); the report's own flag is moot.
        final int outcome = handler.onColumn(column, nowNanos);
        if (SketchMergeHandler.MERGED == outcome)
        {
            return true;
        }
        if (SketchMergeHandler.NACK == outcome)
        {
            // The handler keeps the addressing to NACK the switch again from its timer if the gap stays open.
            final long mac = decoder.ethernet().srcMac();
            final int ip = decoder.ipv4().src();
            final int tagCount = decoder.vlanTagCount();
            final long tags = ReporterNackSender.vlanTags(decoder);
            nackSender.sendSketchNack(mac, ip, tagCount, tags, column.sketchId(), column.switchId(), column.epoch(),
                handler.nackColumn(), nowNanos);
            handler.armNackRetry(mac, ip, tagCount, tags, nowNanos);
            return false;
        }
        if (SketchMergeHandler.MERGED_FIRST == outcome)
        {
            // Once per switch and epoch: the addressing to NACK the switch if it stops short of its last column.
            handler.watchTail(decoder.ethernet().srcMac(), decoder.ipv4().src(), decoder.vlanTagCount(),
                ReporterNackSender.vlanTags(decoder), nowNanos);
            return true;
        }
        return false;
    }

    private void onResponse(final long nowNanos)
    {
        final int opcode = decoder.roceOpcode();
        if (RoceOpcode.RC_ACKNOWLEDGE != opcode && RoceOpcode.RC_ATOMIC_ACKNOWLEDGE != opcode)
        {
            counters.increment(EngineCounter.RESPONSE_DROP_UNEXPECTED_OPCODE);
            return;
        }
        final int sourceIp = decoder.ipv4().src();
        final QueuePairSender sender = sendersByLocalQpn.get(decoder.bth().destQp());
        if (null == sender && null != worker && handedOffResponse(decoder.bth().destQp()))
        {
            return;
        }
        // One lookup on the usual path: a known QP whose collector sent the response to us. Which reason a stray
        // response is counted under (another host's, then a source we do not know) is worked out only for strays.
        if (null == sender || sender.path().collectorIp() != sourceIp || decoder.ipv4().dst() != translator.ip())
        {
            counters.increment(strayResponseReason(sender, sourceIp));
            return;
        }
        if (!BthFlyweight.pKeysMatch(decoder.bth().pKey(), translator.pKey()))
        {
            counters.increment(EngineCounter.RESPONSE_DROP_BAD_PKEY);
            return;
        }
        if (!decoder.ipChecksumValid() || !decoder.udpChecksumValid())
        {
            // The ICRC masks both checksums, so it cannot vouch for them; a receiving kernel or NIC would drop the
            // frame before the transport saw it (rocev2-reference.md §1), and so does the soft collector.
            counters.increment(EngineCounter.RESPONSE_DROP_BAD_CHECKSUM);
            return;
        }
        if (!decoder.icrcValid(sender.responseIcrc()))
        {
            counters.increment(EngineCounter.RESPONSE_DROP_BAD_ICRC);
            return;
        }
        final AethFlyweight aeth = decoder.aeth();
        final int psn = decoder.bth().psn();
        if (aeth.syndrome() >= 0x80)
        {
            // The AETH syndrome's top bit is reserved: whatever its type bits say, no responder sent this.
            counters.increment(EngineCounter.RESPONSE_DROP_RESERVED_SYNDROME);
        }
        else if (aeth.isAck())
        {
            if (RoceOpcode.RC_ATOMIC_ACKNOWLEDGE == opcode)
            {
                sender.onAtomicAck(psn, nowNanos);
            }
            else
            {
                sender.onAck(psn, nowNanos);
            }
        }
        else if (RoceOpcode.RC_ATOMIC_ACKNOWLEDGE == opcode)
        {
            // A responder NAKs an atomic with a plain Acknowledge; an ATOMIC ACK with a NAK syndrome is no
            // responder's frame, and must not stop or rewind the QP.
            counters.increment(EngineCounter.RESPONSE_DROP_RESERVED_SYNDROME);
        }
        else
        {
            sender.onNak(aeth.syndrome(), psn, nowNanos);
        }
    }

    /**
     * Hands the response just decoded to the worker whose QP it names, when that is another.
     */
    private boolean handedOffResponse(final int destQp)
    {
        final int owner = worker.ownership().ownerOfQpn(destQp);
        if (WorkerOwnership.NO_OWNER == owner || owner == worker.index())
        {
            return false;
        }
        counters.increment(worker.handOff(owner, HandOffQueues.RESPONSE, frameBuffer, frameOffset, frameLength) ?
            EngineCounter.RESPONSES_HANDED_OFF : EngineCounter.RESPONSE_DROP_HAND_OFF_FULL);
        return true;
    }

    private EngineCounter strayResponseReason(final QueuePairSender sender, final int sourceIp)
    {
        if (decoder.ipv4().dst() != translator.ip())
        {
            return EngineCounter.RESPONSE_DROP_OTHER_DESTINATION;
        }
        return null == sender && null != collectorsByIp.get(sourceIp) ?
            EngineCounter.RESPONSE_DROP_UNKNOWN_QPN : EngineCounter.RESPONSE_DROP_UNKNOWN_SOURCE;
    }

    /**
     * Runs the timers: idle Append batches, idle postcards, sketch epoch timeouts and NACK retries, held frames, ACK
     * timeouts and grace ends. Cheap when
     * called often: it does nothing until the clock moved by {@link #TIMER_GRANULARITY_NANOS}.
     *
     * @param nowNanos engine clock.
     * @return work done.
     */
    public int poll(final long nowNanos)
    {
        final int handedOver = takeHandOffs(nowNanos);
        // No sentinel start value: "now - Long.MIN_VALUE" overflows to a negative number for any positive clock,
        // which kept the timers from ever running.
        if (timersArmed && nowNanos - nextTimerNanos < 0)
        {
            return handedOver;
        }
        timersArmed = true;
        nextTimerNanos = nowNanos + TIMER_GRANULARITY_NANOS;
        int work = handedOver;
        // Senders first: a frame held past the idle time leaves with AckReq before an idle flush queues a new
        // frame behind it, which would otherwise push it out without one.
        for (final QueuePairSender sender : senders)
        {
            work += sender.poll(nowNanos);
        }
        for (final AppendList list : lists)
        {
            work += list.poll(nowNanos);
        }
        for (final PostcardHandler handler : postcardHandlers)
        {
            work += handler.poll(nowNanos);
        }
        for (final SketchMergeHandler handler : sketchHandlers)
        {
            work += handler.poll(nowNanos);
        }
        return work;
    }

    /**
     * When {@link #poll(long)} will next have work: the earliest timer of every QP, list, postcard cache and sketch.
     *
     * @param limitNanos returned when no timer is due earlier.
     * @return the earliest timer before {@code limitNanos}, else {@code limitNanos}.
     */
    public long nextTimerNanos(final long limitNanos)
    {
        long due = limitNanos;
        for (final QueuePairSender sender : senders)
        {
            due = sender.nextTimerNanos(due);
        }
        for (final AppendList list : lists)
        {
            due = list.nextTimerNanos(due);
        }
        for (final PostcardHandler handler : postcardHandlers)
        {
            due = handler.nextTimerNanos(due);
        }
        for (final SketchMergeHandler handler : sketchHandlers)
        {
            due = handler.nextTimerNanos(due);
        }
        return due;
    }

    /**
     * A replay's responses capture has ended: no ACK, NAK or ATOMIC ACK can come any more, so the QPs stop their ACK
     * timeouts and probes (which would otherwise repeat every {@code acks.timeoutMicros} for as long as the reports
     * go on, as {@link #advanceTo(long)} runs every timer due in a gap).
     */
    public void responsesEnded()
    {
        for (final QueuePairSender sender : senders)
        {
            sender.stopAckTimeouts();
        }
    }

    /**
     * Moves the clock of a replayed capture to {@code nowNanos}: every timer due up to then runs at its own time, as
     * a live engine polled continuously would run it, then {@link #poll(long)} at {@code nowNanos}. Between two
     * frames of a capture the clock jumps; polling only at the frames' times would run a timer at the next frame
     * instead: an idle Append batch or postcard flushed when the next frame came, that frame's own operation then
     * pushing it out without the AckReq of a QP going idle (translation.md §3, §5), an ACK timeout or a grace end
     * measured from the late time. The demo's virtual clock (ClosedLoopDemo) calls it at each of its events, which
     * include this engine's next timer, so there every due timer runs at exactly {@code nowNanos}.
     *
     * @param nowNanos time of the next frame; not before the last time given.
     */
    public void advanceTo(final long nowNanos)
    {
        boolean first = true;
        long last = 0;
        while (true)
        {
            long due = nextTimerNanos(nowNanos + 1);
            if (due - nowNanos > 0)
            {
                poll(nowNanos);
                break;
            }
            // Never before the time already given (every deadline is set at or after it, so this only guards).
            if (replayClockSet && due - replayClockNanos < 0)
            {
                due = replayClockNanos;
            }
            if (!first && due - last <= 0)
            {
                // A timer that stays due after running (none should) must not spin; what is due runs at nowNanos.
                pollNow(nowNanos);
                break;
            }
            pollNow(due);
            last = due;
            first = false;
        }
        replayClockNanos = nowNanos;
        replayClockSet = true;
    }

    /**
     * End of input or shutdown: sends partial Append batches, cached postcards, open sketch epochs (closed as
     * incomplete) and held frames (with AckReq), and publishes the counters.
     *
     * @param nowNanos engine clock.
     */
    public void flush(final long nowNanos)
    {
        while (takeHandOffs(nowNanos) > 0)
        {
            // What other workers handed over before the flush is flushed with the rest.
        }
        for (final AppendList list : lists)
        {
            if (list.pending() > 0)
            {
                counters.increment(EngineCounter.APPEND_PARTIAL_FLUSHES);
            }
            list.flush(nowNanos);
        }
        for (final PostcardHandler handler : postcardHandlers)
        {
            handler.flush(nowNanos);
        }
        for (final SketchMergeHandler handler : sketchHandlers)
        {
            handler.flush(nowNanos);
        }
        for (final QueuePairSender sender : senders)
        {
            sender.flush(nowNanos);
        }
        counters.publish();
    }

    /**
     * Records, at a clean stop (after the last {@link #flush(long)}, before the file is closed), the PSN every static
     * QP sends next, so that the next run continues where the collector's QP expects it. A QP in the error state
     * records nothing: its collector QP is in error too, and starts over at the configured PSN once reset. Nothing
     * without a list state file.
     */
    public void recordNextPsns()
    {
        if (null == listState)
        {
            return;
        }
        for (final QueuePairSender sender : senders)
        {
            if (QueuePairSender.State.ERROR != sender.state())
            {
                listState.recordNextPsn(sender.path().localQpn(), sender.nextPsn());
            }
        }
    }

    /**
     * End of a replayed capture: {@link #flush(long)} at the time of its last frame, then, when a QP is still in a
     * grace period that ends by time, a second flush at the latest such end, so the essential operations those QPs
     * kept go out (translation.md §6: "translated as soon as the QP is healthy again"; the capture ending is no
     * reason to lose them). No other timer runs in between: an ACK timeout would only probe a collector whose
     * answers the capture does not hold. A grace period counted in packets alone cannot end without more input.
     *
     * @param nowNanos the time of the capture's last frame.
     * @return the engine clock at the end (the latest grace end, or {@code nowNanos}).
     */
    public long finish(final long nowNanos)
    {
        flush(nowNanos);
        long end = nowNanos;
        for (final QueuePairSender sender : senders)
        {
            final long graceEnd = sender.graceEndNanos();
            if (Long.MIN_VALUE != graceEnd && graceEnd - end > 0)
            {
                end = graceEnd;
            }
        }
        if (end != nowNanos)
        {
            flush(end);
        }
        // Nothing more will answer and no timer runs after this: sketch WRITEs still waiting for room are accounted.
        abandonPendingWrites(end);
        return end;
    }

    /**
     * Runs {@link #poll(long)} regardless of the granularity (tests and end-of-run loops).
     *
     * @param nowNanos engine clock.
     * @return work done.
     */
    public int pollNow(final long nowNanos)
    {
        nextTimerNanos = nowNanos;
        return poll(nowNanos);
    }

    /**
     * @return true when every QP is quiescent (nothing held, queued or awaiting acknowledgement) and no sketch has
     * WRITEs waiting for room in its QP's essential ring (a QP in the error state excepted: nothing moves there).
     */
    public boolean isQuiescent()
    {
        if (null != worker && (!worker.inboxEmpty() || !handOffBatches.isEmpty()))
        {
            return false;
        }
        for (final QueuePairSender sender : senders)
        {
            if (!sender.isQuiescent() && QueuePairSender.State.ERROR != sender.state())
            {
                return false;
            }
        }
        for (final SketchMergeHandler handler : sketchHandlers)
        {
            if (!handler.isQuiescent())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The very end of a run, after the last flush and whatever drain the run allows: sketch WRITEs still waiting for
     * room in a full essential ring are offered now, and what the ring cannot take is dropped and counted
     * ({@link SketchMergeHandler#abandonPendingWrites}); then every QP sends what it holds, and the counters are
     * published. Nothing is left waiting unaccounted for. Does nothing when nothing waits.
     *
     * @param nowNanos engine clock.
     */
    public void abandonPendingWrites(final long nowNanos)
    {
        boolean any = false;
        for (final SketchMergeHandler handler : sketchHandlers)
        {
            if (0 != handler.pendingAreas())
            {
                handler.abandonPendingWrites(nowNanos);
                any = true;
            }
        }
        if (any)
        {
            for (final QueuePairSender sender : senders)
            {
                sender.flush(nowNanos);
            }
            counters.publish();
        }
    }

    private static final class CollectorRoutes
    {
        KeyWriteHandler keyWrite;
        QueuePairSender keyWriteSender;
        KeyIncrementHandler keyIncrement;
        QueuePairSender keyIncrementSender;
        PostcardHandler postcards;
        QueuePairSender postcardSender;
        final SmallIntMap<SketchMergeHandler> sketches = new SmallIntMap<>();
    }
}
