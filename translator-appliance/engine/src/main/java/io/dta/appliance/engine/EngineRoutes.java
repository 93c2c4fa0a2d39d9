package io.dta.appliance.engine;

import io.dta.appliance.engine.primitive.AppendList;
import io.dta.appliance.engine.primitive.KeyIncrementHandler;
import io.dta.appliance.engine.primitive.KeyWriteHandler;
import io.dta.appliance.engine.primitive.PostcardHandler;
import io.dta.appliance.engine.primitive.SketchMergeHandler;
import io.dta.appliance.state.ListRegion;
import io.dta.appliance.state.ResumeStateFile;
import io.dta.appliance.state.StaticQp;
import io.dta.collector.layout.ListLayout;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ListConfig;
import io.dta.config.RegionConfig;
import io.dta.config.SketchConfig;
import io.dta.config.TranslatorConfig;

import java.util.ArrayList;
import java.util.List;

/**
 * What the engine routes to, built once from the configuration: a QP sender per region, the primitive handlers in
 * front of them, and the tables that find them for a report (collector by IPv4 destination, list by id) or a
 * response (sender by local QPN). Read for every report and response; filled at start only.
 */
final class EngineRoutes
{
    /**
     * One collector's primitives and the QPs behind them.
     */
    static final class CollectorRoutes
    {
        KeyWriteHandler keyWrite;
        QueuePairSender keyWriteSender;
        KeyIncrementHandler keyIncrement;
        QueuePairSender keyIncrementSender;
        PostcardHandler postcards;
        QueuePairSender postcardSender;
        final SmallIntMap<SketchMergeHandler> sketches = new SmallIntMap<>();
    }

    final SmallIntMap<CollectorRoutes> collectorsByIp = new SmallIntMap<>();
    final SmallIntMap<AppendList> listsById = new SmallIntMap<>();
    final SmallIntMap<QueuePairSender> listSendersById = new SmallIntMap<>();
    final SmallIntMap<QueuePairSender> sendersByLocalQpn = new SmallIntMap<>();
    final QueuePairSender[] senders;
    final AppendList[] lists;
    final PostcardHandler[] postcardHandlers;
    final SketchMergeHandler[] sketchHandlers;

    private final ApplianceConfig config;
    private final TranslatorConfig translator;
    private final FrameSink sink;
    private final EngineCounters counters;
    private final boolean closedLoop;
    private final ResumeStateFile listState;
    private final List<QueuePairSender> allSenders = new ArrayList<>();
    private final List<AppendList> allLists = new ArrayList<>();
    private final List<PostcardHandler> allPostcards = new ArrayList<>();
    private final List<SketchMergeHandler> allSketches = new ArrayList<>();

    /**
     * @param config     a configuration whose regions are connected.
     * @param sink       where frames go.
     * @param closedLoop whether the collectors' responses reach the engine.
     * @param counters   where to count.
     * @param listState  the list state file, or null.
     * @param nackSender where sketch NACK retries go.
     * @throws IllegalArgumentException when the list state file does not match the configuration.
     */
    EngineRoutes(
        final ApplianceConfig config,
        final FrameSink sink,
        final boolean closedLoop,
        final EngineCounters counters,
        final ResumeStateFile listState,
        final ReporterNackSender nackSender)
    {
        this.config = config;
        this.translator = config.translator();
        this.sink = sink;
        this.counters = counters;
        this.closedLoop = closedLoop;
        this.listState = listState;
        for (final CollectorConfig collector : config.collectors())
        {
            final CollectorRoutes routes = new CollectorRoutes();
            addKeyStores(collector, routes);
            if (null != collector.postcards())
            {
                final RegionConfig r = collector.postcards().region();
                final QueuePairSender s = sender(collector, r, "postcards", 16, 1, 0);
                routes.postcards = new PostcardHandler(s, counters, r.address(), r.length(),
                    config.postcards().hops(), config.postcards().idleFlushMicros() * 1000,
                    config.postcards().cacheEntries());
                routes.postcardSender = s;
                allPostcards.add(routes.postcards);
                allSenders.add(s);
            }
            for (final ListConfig list : collector.lists())
            {
                addList(collector, list);
            }
            for (final SketchConfig sketch : collector.sketches())
            {
                final QueuePairSender s = sender(collector, sketch.region(), "sketch" + sketch.id(), 16, 1,
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

    private void addKeyStores(final CollectorConfig collector, final CollectorRoutes routes)
    {
        if (null != collector.keyWrite())
        {
            final RegionConfig r = collector.keyWrite().region();
            final QueuePairSender s = sender(collector, r, "keyWrite", 16, 1, 0);
            routes.keyWrite = new KeyWriteHandler(s, r.address(), r.length(), collector.keyWrite().slotSize());
            routes.keyWriteSender = s;
            allSenders.add(s);
        }
        if (null != collector.keyIncrement())
        {
            final var ki = collector.keyIncrement();
            final RegionConfig r = ki.region();
            final QueuePairSender s = sender(collector, r, "keyIncrement", ki.maxOutstandingAtomics(),
                ki.atomicQueueSize(), 0);
            routes.keyIncrement = new KeyIncrementHandler(s, r.address(), r.length());
            routes.keyIncrementSender = s;
            allSenders.add(s);
        }
    }

    private void addList(final CollectorConfig collector, final ListConfig list)
    {
        final RegionConfig r = list.region();
        final QueuePairSender s = sender(collector, r, "list" + list.id(), 16, 1, 0);
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
        final CollectorConfig collector,
        final RegionConfig region,
        final String regionName,
        final int maxOutstandingAtomics,
        final int atomicQueueSize,
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
            TranslatorEngine.HOLD_NANOS,
            maxOutstandingAtomics,
            atomicQueueSize,
            config.essential().backlog(),
            closedLoop && region.negotiated() ? config.connection().silenceTimeoutNanos() : 0,
            config.resync().maxRnrWaitMicros() * 1000,
            config.acks().window());
        final RoceFrameBuilder builder = frameBuilder(path);
        return 0 == maxPayload ? new QueuePairSender(builder, sink, counters, settings) :
            new QueuePairSender(builder, sink, counters, settings, maxPayload);
    }

    private RoceFrameBuilder frameBuilder(final QpPath path)
    {
        return new RoceFrameBuilder(translator.mac(), translator.ip(),
            (translator.dscp() << 2) | translator.ecn(), translator.ttl(), translator.pKey(), path);
    }

    /**
     * Re-arms the QP of a region that was connected again: see {@link TranslatorEngine#reconnect(RegionConfig, int,
     * long)}. Allocates (a new frame builder).
     */
    int reconnect(final RegionConfig connected, final int maxOutstandingAtomics, final long nowNanos)
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
        return sender.reconnect(frameBuilder(path), nowNanos);
    }
}
