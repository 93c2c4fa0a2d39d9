package io.dta.appliance.engine;

import io.dta.appliance.engine.primitive.AppendList;
import io.dta.appliance.engine.primitive.SketchMergeHandler;
import io.dta.appliance.state.ListRegion;
import io.dta.appliance.state.ResumeStateFile;
import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.RegionConfig;
import io.dta.config.TranslatorConfig;
import io.dta.appliance.engine.worker.WorkerLink;
import org.agrona.DirectBuffer;

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
 * <p>
 * This class is the engine's face; the work is done by one part per job: {@link EngineRoutes} (the QPs and handlers
 * built from the configuration, and the tables that find them), {@link ReportIngress} (a report's checks and its
 * reporter's sequence), {@link PrimitiveRouter} (a report to its primitive), {@link ResponseDispatch} (a response to
 * its QP), {@link WorkerHandOffs} and {@link HandOffTaker} (what crosses between workers) and {@link EngineTimers}
 * (what time starts, and the end of a run).
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
    private final boolean closedLoop;
    private final EngineRoutes routes;
    private final WorkerHandOffs handOffs;
    private final PrimitiveRouter router;
    private final ReportIngress ingress;
    private final ResponseDispatch responses;
    private final EngineTimers timers;

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
        final TranslatorConfig translator = config.translator();
        final ReporterNackSender nackSender = new ReporterNackSender(sink, counters, translator.mac(), translator.ip(),
            config.reports().udpPort(), config.reports().nackPort());
        final ReporterSequenceTracker sequenceTracker = new ReporterSequenceTracker(
            REPORTER_TABLE_SIZE, config.reports().sequenceTimeoutMicros() * 1_000L);
        configureDecoder(decoder, config);
        routes = new EngineRoutes(config, sink, closedLoop, counters, listState, nackSender);
        handOffs = new WorkerHandOffs(decoder, counters);
        router = new PrimitiveRouter(counters, routes, sequenceTracker, nackSender, config.redundancy().max(),
            config.postcards().hops());
        ingress = new ReportIngress(counters, sequenceTracker, nackSender, router, handOffs,
            config.reports().verifyChecksums());
        responses = new ResponseDispatch(decoder, counters, routes, handOffs, translator);
        handOffs.takeWith(new HandOffTaker(decoder, counters, handOffs, router, responses));
        timers = new EngineTimers(routes, counters, handOffs, listState);
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
        return Collections.unmodifiableList(List.of(routes.senders));
    }

    /**
     * @param localQpn the appliance's QPN of a region.
     * @return its sender, or null.
     */
    public QueuePairSender sender(final int localQpn)
    {
        return routes.sendersByLocalQpn.get(localQpn);
    }

    /**
     * @param listId an Append list id.
     * @return the list, or null.
     */
    public AppendList list(final int listId)
    {
        return routes.listsById.get(listId);
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
        return routes.reconnect(connected, maxOutstandingAtomics, nowNanos);
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
        handOffs.join(link);
    }

    /**
     * @return the worker link ({@link #joinWorkers}), or null for an engine that works alone.
     */
    public WorkerLink worker()
    {
        return handOffs.worker();
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
        return handOffs.take(nowNanos);
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
        final FrameKind kind = decoder.decode(buffer, offset, length);
        if (FrameKind.DTA == kind || FrameKind.MALFORMED == kind && ingress.malformedReport(decoder))
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
            case DTA -> ingress.onReport(decoder, nowNanos);
            case ROCE -> responses.onResponse(nowNanos);
            case MALFORMED -> ingress.onMalformed(decoder, buffer, nowNanos);
            default -> counters.increment(EngineCounter.OTHER_FRAMES);
        }
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
        return timers.poll(nowNanos);
    }

    /**
     * When {@link #poll(long)} will next have work: the earliest timer of every QP, list, postcard cache and sketch.
     *
     * @param limitNanos returned when no timer is due earlier.
     * @return the earliest timer before {@code limitNanos}, else {@code limitNanos}.
     */
    public long nextTimerNanos(final long limitNanos)
    {
        return timers.nextTimerNanos(limitNanos);
    }

    /**
     * A replay's responses capture has ended: no ACK, NAK or ATOMIC ACK can come any more, so the QPs stop their ACK
     * timeouts and probes (which would otherwise repeat every {@code acks.timeoutMicros} for as long as the reports
     * go on, as {@link #advanceTo(long)} runs every timer due in a gap).
     */
    public void responsesEnded()
    {
        timers.responsesEnded();
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
        timers.advanceTo(nowNanos);
    }

    /**
     * End of input or shutdown: sends partial Append batches, cached postcards, open sketch epochs (closed as
     * incomplete) and held frames (with AckReq), and publishes the counters.
     *
     * @param nowNanos engine clock.
     */
    public void flush(final long nowNanos)
    {
        timers.flush(nowNanos);
    }

    /**
     * Records, at a clean stop (after the last {@link #flush(long)}, before the file is closed), the PSN every static
     * QP sends next, so that the next run continues where the collector's QP expects it. A QP in the error state
     * records nothing: its collector QP is in error too, and starts over at the configured PSN once reset. Nothing
     * without a list state file.
     */
    public void recordNextPsns()
    {
        timers.recordNextPsns();
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
        return timers.finish(nowNanos);
    }

    /**
     * Runs {@link #poll(long)} regardless of the granularity (tests and end-of-run loops).
     *
     * @param nowNanos engine clock.
     * @return work done.
     */
    public int pollNow(final long nowNanos)
    {
        return timers.pollNow(nowNanos);
    }

    /**
     * @return true when every QP is quiescent (nothing held, queued or awaiting acknowledgement) and no sketch has
     * WRITEs waiting for room in its QP's essential ring (a QP in the error state excepted: nothing moves there).
     */
    public boolean isQuiescent()
    {
        return timers.isQuiescent();
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
        timers.abandonPendingWrites(nowNanos);
    }
}
