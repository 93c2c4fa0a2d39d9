package io.dta.appliance.engine;

import io.dta.codec.RepeatedHeaderIcrc;
import org.agrona.DirectBuffer;

/**
 * One RC queue pair towards a collector region, owned by the engine thread (translation.md §4–§6). It takes the
 * handlers' operations and the responder's answers and leaves the work to the QP's policies, each a class of its
 * own: the PSN window and ACK timer ({@link PsnWindow}), which packets ask for an ACK and how many may be in flight
 * ({@link AckRequestPolicy}), the newest frame held until the next one or until the QP goes idle ({@link FrameHold}),
 * resynchronisation, probing, grace period and the error state ({@link RecoveryPolicy}), the credit limit on
 * outstanding atomics and their queue ({@link AtomicCredits}) and the essential backlog ({@link EssentialRing}). The
 * send path ({@link QpTransmitter}) builds and releases frames within them; the {@link ResponseHandler} applies
 * ACKs, NAKs and timeouts to them.
 * <p>
 * Report accounting ({@link EngineCounter}, decided by {@link Delivery}): every operation a handler gives this sender
 * carries the number of reports it is the carrier of. A refused or dropped operation adds one to an
 * {@code OPERATIONS_DROPPED_*} counter and its reports to the matching {@code DROP_*} counter; a non-essential
 * operation's reports are delivered when its frame leaves, an essential one's when its ring entry is acknowledged.
 * The held frame, a waiting atomic and a ring entry keep that number in an int, so the accounting allocates nothing.
 */
public final class QueuePairSender
{
    /**
     * Tests in a row a suspected restarted responder must answer as one before the QP takes up its PSN
     * ({@link RestartEvidence}).
     */
    public static final int RESTART_EVIDENCE_ANSWERS = RestartEvidence.REQUIRED_ANSWERS;

    /**
     * The QP's states.
     */
    public enum State
    {
        /** Sending normally. */
        ACTIVE,
        /** After a resync: non-essential traffic dropped, essential traffic queued. */
        GRACE,
        /** ACK overdue: a probe is out; traffic goes on until its answer tells the responder's PSN. */
        PROBING,
        /** The responder reported a fatal error: nothing is sent any more. */
        ERROR
    }

    private static final int MAX_FRAME = 2048;
    private static final int MAX_HEADERS = FrameLimits.MAX_HEADERS;

    private final long configuredBaseAddress;
    private QpPath path;
    private final RepeatedHeaderIcrc responseIcrc = new RepeatedHeaderIcrc();
    private final Delivery delivery;
    private final QpOutput output;
    private final FrameHold held;
    private final PsnWindow window;
    private final RecoveryPolicy recovery;
    private final AtomicCredits credits;
    private final EssentialRing essentials;
    private final QpTransmitter transmitter;
    private final ResponseHandler responses;
    private long reconnects;

    /**
     * Creates the sender of one QP.
     *
     * @param builder  this QP's frame builder (its path is the QP's path).
     * @param sink     where frames go.
     * @param counters engine counters.
     * @param settings timing and limits.
     */
    public QueuePairSender(
        final RoceFrameBuilder builder, final FrameSink sink, final EngineCounters counters,
        final SenderSettings settings)
    {
        this(builder, sink, counters, settings, EssentialRing.MAX_PAYLOAD);
    }

    /**
     * Creates the sender of one QP whose WRITEs may carry more than the usual 128 bytes (a sketch's column runs, which
     * may exceed the path MTU): every essential-ring entry is sized for {@code maxPayload}, the frame buffer for one
     * packet of it.
     *
     * @param builder    this QP's frame builder (its path is the QP's path).
     * @param sink       where frames go.
     * @param counters   engine counters.
     * @param settings   timing and limits.
     * @param maxPayload largest WRITE payload this QP sends.
     */
    public QueuePairSender(
        final RoceFrameBuilder builder, final FrameSink sink, final EngineCounters counters,
        final SenderSettings settings, final int maxPayload)
    {
        this.path = builder.path();
        this.configuredBaseAddress = path.baseAddress();
        this.delivery = new Delivery(counters);
        this.output = new QpOutput(sink, counters, delivery);
        // One packet at a time is built: a WRITE longer than the path MTU goes out as First/Middle/Last.
        this.held = new FrameHold(sink, Math.max(MAX_FRAME, MAX_HEADERS + Math.min(maxPayload, path.pathMtu())),
            settings.holdNanos());
        this.window = new PsnWindow(path.startPsn(), settings.ackTimeoutNanos());
        final AckRequestPolicy ackRequests = new AckRequestPolicy(settings.ackRequestInterval(), settings.window());
        this.recovery = new RecoveryPolicy(settings);
        // Open loop (no ACK timeout: nothing will ever answer) means no credit can come back either, so the
        // limit on outstanding atomics would only stall the QP.
        final boolean openLoop = 0 == settings.ackTimeoutNanos();
        this.credits = new AtomicCredits(openLoop, settings.maxOutstandingAtomics(), settings.atomicQueueSize());
        this.essentials =
            new EssentialRing(settings.essentialBacklog(), Math.max(EssentialRing.MAX_PAYLOAD, maxPayload));
        this.transmitter = new QpTransmitter(
            builder, held, output, window, ackRequests, recovery, credits, essentials, openLoop);
        this.responses = new ResponseHandler(
            counters, delivery, window, ackRequests, recovery, credits, essentials, held, transmitter);
    }

    /** @return the QP's addressing. */
    public QpPath path()
    {
        return path;
    }

    /** @return the verifier of this QP's responses' ICRCs, which keeps their repeating header. */
    public RepeatedHeaderIcrc responseIcrc()
    {
        return responseIcrc;
    }

    /** @return current state. */
    public State state()
    {
        return recovery.state();
    }

    /** @return the PSN the next new packet will carry. */
    public int nextPsn()
    {
        return window.nextPsn();
    }

    /** @return the highest PSN known executed by the responder. */
    public int lastAckedPsn()
    {
        return window.lastAckedPsn();
    }

    /**
     * @return {@link #state()} read from a thread other than the engine's (a reconnector on another worker's thread).
     */
    public State stateFromAnotherThread()
    {
        return recovery.stateAcquire();
    }

    /**
     * @return {@link #lastAckedPsn()} read from a thread other than the engine's.
     */
    public int lastAckedPsnFromAnotherThread()
    {
        return window.lastAckedPsnAcquire();
    }

    /** @return frames sent on this QP. */
    public long framesOut()
    {
        return output.framesOut();
    }

    /** @return bytes sent on this QP. */
    public long bytesOut()
    {
        return output.bytesOut();
    }

    /** @return resynchronisations of this QP. */
    public long resyncs()
    {
        return recovery.resyncs();
    }

    /** @return times {@link #reconnect} re-armed this QP. */
    public long reconnects()
    {
        return reconnects;
    }

    /**
     * Re-arms the QP on a new connection (translation.md §8; the old one went to the error state): a negotiated
     * region connected again, possibly to another QPN, R_Key, base address and always with a new starting PSN.
     * <p>
     * What carries over: the responder's QP executed every request before the PSN of the fatal NAK (a NAK
     * acknowledges everything before it) and <em>nothing</em> from that PSN on, since it went to the error state
     * there. So the essential operations sent from that PSN on (without a fatal NAK: after the last acknowledged
     * PSN) go back to the unsent part of the essential ring and are sent again first, on the new PSNs, before any
     * essential operation queued while the QP was in error; FETCH_ADDs among them run exactly once. Non-essential
     * operations sent from that PSN on are lost (best effort, as after a resynchronisation); FETCH_ADDs waiting for
     * a credit are kept and sent. The held frame (never sent), the outstanding atomics (their credit comes back with
     * the old QP), the ACK timer, probe and grace state are dropped, and the PSN window restarts at the new starting
     * PSN: {@code lastAckedPsn = startPsn - 1}.
     * <p>
     * Addresses: the handlers keep computing addresses from the configured base; a new base address moves every
     * request (re-sent ones included) by the difference, so the region keeps its layout in the new memory.
     *
     * @param newBuilder the frame builder of the new connection; its path must keep this QP's collector, local QPN,
     *                   UDP source port and length.
     * @param nowNanos   engine clock.
     * @return essential operations that will be sent again.
     */
    public int reconnect(final RoceFrameBuilder newBuilder, final long nowNanos)
    {
        final QpPath next = newBuilder.path();
        if (next.localQpn() != path.localQpn() || next.collectorIp() != path.collectorIp() ||
            next.length() != path.length() || next.pathMtu() != path.pathMtu())
        {
            // The held frame's buffer was sized for one packet of this path MTU.
            throw new IllegalArgumentException(
                "a reconnection keeps the collector, local QPN, length and path MTU of " + path.name());
        }
        final int firstNotExecuted = recovery.firstNotExecuted(window.lastAckedPsn());
        path = next;
        transmitter.connect(newBuilder, next.baseAddress() - configuredBaseAddress);
        reconnects++;
        return responses.restartWindow(firstNotExecuted, next.startPsn(), nowNanos);
    }

    /** @return the limit on unanswered FETCH_ADDs ({@link Integer#MAX_VALUE} open loop, where no credit comes back). */
    public int maxOutstandingAtomics()
    {
        return credits.limit();
    }

    /** @return FETCH_ADDs sent and not answered yet (the credit they hold comes back with their response). */
    public int outstandingAtomics()
    {
        return credits.outstanding();
    }

    /**
     * Changes the limit on unanswered FETCH_ADDs: a negotiated region runs with the outstanding atomics its
     * collector's REP granted (translation.md §8), which a reconnection may change. Safe at any time: when more
     * atomics are outstanding than the new limit, nothing more is sent until their responses bring the count below
     * it; a higher limit sends waiting ones at once. Not for the hot path: growing the limit past what the QP was
     * built for allocates. Ignored open loop (no limit there).
     *
     * @param limit    unanswered FETCH_ADDs allowed, at least 1.
     * @param nowNanos engine clock.
     */
    public void maxOutstandingAtomics(final int limit, final long nowNanos)
    {
        if (limit < 1)
        {
            throw new IllegalArgumentException(path.name() + ": outstanding atomics must be at least 1, was " + limit);
        }
        if (credits.limit(limit))
        {
            transmitter.drainEssentials(nowNanos);
        }
    }

    /** @return essential operations queued or awaiting acknowledgement. */
    public int essentialBacklog()
    {
        return essentials.size();
    }

    /**
     * @return true when the essential ring can take one more operation now ({@link #admit} of an essential one would
     * not refuse it for a full backlog). A producer with work that can wait (a closing sketch epoch) asks this
     * before each WRITE instead of having it dropped.
     */
    public boolean hasEssentialRoom()
    {
        return !essentials.isFull();
    }

    /**
     * @param operations essential operations a report would become.
     * @return true when the essential ring can take all of them now.
     */
    public boolean hasEssentialRoom(final int operations)
    {
        return essentials.hasRoom(operations);
    }

    /** @return true when nothing is held, waiting or unacknowledged: the QP is quiescent. */
    public boolean isQuiescent()
    {
        return !held.isHeld() && !window.awaitingAck() && 0 == credits.outstanding() && 0 == credits.waiting() &&
            !essentials.hasUnsent() && !essentials.hasUnacknowledged() && !recovery.isProbing();
    }

    /**
     * Decides whether an operation may go ahead, counting the drop under its reason when it may not: one operation
     * and {@code reports} reports. Handlers call this before they commit any state for the operation (an Append
     * head, a batch sequence number), so a dropped report leaves no hole behind. {@link #write} and
     * {@link #fetchAdd} may still drop an admitted operation (and say so).
     *
     * @param essential whether the report was flagged essential.
     * @param reports   reports the operation would carry, counted as dropped when it is refused.
     * @param nowNanos  engine clock.
     * @return true when {@link #write} or {@link #fetchAdd} may follow.
     */
    public boolean admit(final boolean essential, final int reports, final long nowNanos)
    {
        updateState(nowNanos);
        if (essential)
        {
            // An essential operation is a packet of the grace period as much as a refused non-essential one, queued
            // or refused for a full ring alike: counting only refusals would keep a QP that carries essential
            // traffic alone in its grace period for ever (with resync.graceMicros 0), its ring filling until it
            // drops the reports it exists to keep.
            countGracePacket(nowNanos);
            return !essentials.isFull() || backlogFull(reports);
        }
        if (State.GRACE == recovery.state())
        {
            delivery.dropped(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD, EngineCounter.DROP_GRACE_PERIOD, reports);
            countGracePacket(nowNanos);
            return false;
        }
        if (recovery.isStopped())
        {
            return delivery.dropped(EngineCounter.OPERATIONS_DROPPED_QP_ERROR, EngineCounter.DROP_QP_ERROR, reports);
        }
        // Active or probing: a probe is one more frame, translation goes on while it is out.
        return credits.canTake() || atomicQueueFull(reports);
    }

    /**
     * Sends, or queues, one admitted RDMA WRITE.
     *
     * @param address   remote virtual address.
     * @param payload   payload bytes.
     * @param offset    payload offset.
     * @param length    payload length.
     * @param essential whether the report was flagged essential.
     * @param reports   reports this WRITE carries (delivered when it leaves or, essential, is acknowledged).
     * @param nowNanos  engine clock.
     * @return false when it was dropped (essential ring full, or a payload larger than its entries), counted.
     */
    public boolean write(
        final long address, final DirectBuffer payload, final int offset, final int length, final boolean essential,
        final int reports, final long nowNanos)
    {
        // A WRITE longer than the path MTU is kept like an essential one whatever its flag: a resynchronisation in
        // the middle of it leaves the responder waiting for the rest of that message, which must then be re-sent.
        if (essential || length > transmitter.pathMtu())
        {
            if (!essentials.offerWrite(address, payload, offset, length, reports))
            {
                return backlogFull(reports);
            }
            transmitter.drainEssentials(nowNanos);
            return true;
        }
        transmitter.sendWrite(address, payload, offset, length, reports, nowNanos);
        return true;
    }

    /**
     * Sends, or queues for credit, one admitted FETCH_ADD.
     *
     * @param address   remote virtual address (8-byte aligned).
     * @param addend    value to add.
     * @param essential whether the report was flagged essential.
     * @param reports   reports this FETCH_ADD carries.
     * @param nowNanos  engine clock.
     * @return false when it was dropped (essential ring or atomic queue full), counted.
     */
    public boolean fetchAdd(
        final long address, final long addend, final boolean essential, final int reports, final long nowNanos)
    {
        if (essential)
        {
            if (!essentials.offerFetchAdd(address, addend, reports))
            {
                return backlogFull(reports);
            }
            transmitter.drainEssentials(nowNanos);
            return true;
        }
        if (credits.hasCredit() && 0 == credits.waiting() && !essentials.hasUnsent())
        {
            transmitter.sendFetchAdd(address, addend, reports, nowNanos);
            return true;
        }
        return credits.enqueue(address, addend, reports) || atomicQueueFull(reports);
    }

    private boolean backlogFull(final int reports)
    {
        return delivery.dropped(
            EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL, EngineCounter.DROP_BACKLOG_FULL, reports);
    }

    private boolean atomicQueueFull(final int reports)
    {
        return delivery.dropped(
            EngineCounter.OPERATIONS_DROPPED_ATOMIC_QUEUE_FULL, EngineCounter.DROP_ATOMIC_QUEUE_FULL, reports);
    }

    private void countGracePacket(final long nowNanos)
    {
        if (recovery.countGracePacket())
        {
            updateState(nowNanos);
        }
    }

    /**
     * @return when the current grace period ends by time (at the earliest an RNR NAK's timer), or
     * {@link Long#MIN_VALUE} when the QP is not in a grace period or its grace period ends only by packets.
     */
    public long graceEndNanos()
    {
        return recovery.graceEndNanos();
    }

    /**
     * When {@link #poll(long)} will next have work: the held frame's idle release, the ACK timeout, the end of a
     * grace period by time.
     *
     * @param limitNanos returned when no timer is due earlier.
     * @return the earliest of those before {@code limitNanos}, else {@code limitNanos}.
     */
    public long nextTimerNanos(final long limitNanos)
    {
        final long due = window.earliestTimer(held.earliestTimer(limitNanos));
        final long graceEnd = recovery.graceEndNanos();
        return Long.MIN_VALUE != graceEnd && graceEnd - due < 0 ? graceEnd : due;
    }

    /**
     * No more ACK timeouts, hence no more probes: a replay's responses capture has ended, so no answer can come and
     * probing would only repeat every {@code acks.timeoutMicros} for as long as the reports go on. The QP stays closed
     * loop otherwise (atomic credits, essential operations kept until acknowledged).
     */
    public void stopAckTimeouts()
    {
        window.stopAckTimeouts();
    }

    /**
     * Timers: release an idle held frame, end a grace period, time out an ACK and probe, drain queues.
     *
     * @param nowNanos engine clock.
     * @return work done (0 when nothing happened).
     */
    public int poll(final long nowNanos)
    {
        int work = updateState(nowNanos);
        if (held.isDue(nowNanos))
        {
            transmitter.releaseHeld(true, nowNanos);
            work++;
        }
        if (window.ackOverdue(nowNanos))
        {
            responses.onAckTimeout(nowNanos);
            work++;
        }
        return work;
    }

    /**
     * Sends whatever is held, with AckReq, because input ended or the engine is shutting down.
     *
     * @param nowNanos engine clock.
     */
    public void flush(final long nowNanos)
    {
        // A grace period that is over lets the essential operations it kept go first (they become the held frame).
        updateState(nowNanos);
        transmitter.releaseHeld(true, nowNanos);
    }

    private int updateState(final long nowNanos)
    {
        if (recovery.endGraceIfDue(nowNanos))
        {
            transmitter.drainEssentials(nowNanos);
            return 1;
        }
        return 0;
    }

    /**
     * A positive ACK with PSN {@code psn}, already checked for source, QPN and ICRC.
     *
     * @param psn      the ACK's PSN.
     * @param nowNanos engine clock.
     */
    public void onAck(final int psn, final long nowNanos)
    {
        responses.onAck(psn, EngineCounter.ACKS_IN, nowNanos);
    }

    /**
     * An ATOMIC ACK with PSN {@code psn}.
     *
     * @param psn      the ATOMIC ACK's PSN.
     * @param nowNanos engine clock.
     */
    public void onAtomicAck(final int psn, final long nowNanos)
    {
        responses.onAck(psn, EngineCounter.ATOMIC_ACKS_IN, nowNanos);
    }

    /**
     * A NAK with the given syndrome and PSN.
     *
     * @param syndrome AETH syndrome byte.
     * @param psn      the NAK's PSN (for 0x60 the responder's expected PSN).
     * @param nowNanos engine clock.
     */
    public void onNak(final int syndrome, final int psn, final long nowNanos)
    {
        responses.onNak(syndrome, psn, nowNanos);
    }

    /**
     * The collector ended the connection (an IB CM DREQ, answered by the connection manager): its QP executes
     * nothing more, so this QP goes to the error state as after a silent stop, and a negotiated region is connected
     * again by the {@code Reconnector}. Nobody says what the responder executed before the DREQ, so everything after
     * the last acknowledged PSN counts as not executed (its essential operations are sent again: at least once).
     *
     * @param nowNanos the current time.
     * @return false if the QP was already in the error state.
     */
    public boolean stopDisconnected(final long nowNanos)
    {
        return responses.stopDisconnected();
    }
}
