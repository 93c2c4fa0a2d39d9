package io.dta.appliance.engine;

import io.dta.codec.Psn;
import io.dta.codec.RepeatedHeaderIcrc;
import io.dta.codec.RoceOpcode;
import io.dta.codec.ShortCopy;
import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * One RC queue pair towards a collector region, owned by the engine thread: PSN, AckReq policy, ACK timeout and
 * probe, NAK resynchronisation with a grace period, fatal-NAK stop, the credit limit on outstanding atomics and
 * the essential backlog (translation.md §4–§6).
 * <p>
 * The newest frame of the QP is <em>held</em> (built, not yet sent) until the next frame of the same QP
 * arrives or the QP has been idle for {@code holdNanos}; when it goes out because the QP went idle it carries
 * AckReq. That is how "the last packet before the QP goes idle" gets AckReq deterministically, from the
 * engine clock alone, whatever the I/O batching.
 * <p>
 * PSN bookkeeping: {@code lastAckedPsn} is the highest PSN known executed, {@code nextPsn} the next PSN to
 * use and {@code highestSentPsn} the highest PSN sent (a held frame is not sent yet). A response is only
 * believed when its PSN lies in {@code [lastAckedPsn, highestSentPsn]} (a NAK's expected PSN one further), so a
 * forged or stale response can never move the PSN to a value this QP did not send.
 * <p>
 * Report accounting ({@link EngineCounter}): every operation a handler gives this sender carries the number of
 * reports it is the carrier of. A refused or dropped operation adds one to an {@code OPERATIONS_DROPPED_*} counter
 * and its reports to the matching {@code DROP_*} counter; a non-essential operation's reports are delivered when
 * its frame leaves, an essential one's when its ring entry is acknowledged. The held frame, a waiting atomic and
 * a ring entry keep that number in an int, so the accounting allocates nothing.
 */
public final class QueuePairSender
{
    /**
     * Tests in a row a suspected restarted responder must answer as one before the QP takes up its PSN
     * ({@link RestartEvidence}).
     */
    public static final int RESTART_EVIDENCE_ANSWERS = RestartEvidence.REQUIRED_ANSWERS;

    /**
     * Packets sent after a resynchronisation during which AckReq comes more often (the link just lost something).
     */
    static final int LOSSY_SPAN_WINDOWS = 4;

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

    /**
     * The RNR NAK's minimum wait per timer code (rocev2-reference.md §3.6), in units of 10 µs: code 0 is 655.36 ms,
     * codes 1..31 run from 0.01 ms to 491.52 ms.
     */
    private static final int[] RNR_TIMER_10US = {
        65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
        256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152 };

    private static final int MAX_HEADERS = FrameLimits.MAX_HEADERS;

    private final long configuredBaseAddress;
    private QpPath path;
    // The path's MTU, read per WRITE (a record accessor behind the path reference would be two dependent loads).
    private int pathMtu;
    private RoceFrameBuilder builder;
    private long addressOffset;
    private final FrameSink sink;
    private final EngineCounters counters;
    private final RepeatedHeaderIcrc responseIcrc = new RepeatedHeaderIcrc();
    private final int requestInterval;
    // Not final: a replay whose responses capture has ended stops the ACK timeouts (stopAckTimeouts).
    private long ackTimeoutNanos;
    private final long silenceTimeoutNanos;
    private long silentSinceNanos;
    private final long graceNanos;
    private final long gracePackets;
    private final long holdNanos;
    // Not final: a negotiated region runs with what the collector's REP grants, which a reconnection may change.
    private int maxOutstandingAtomics;
    private final boolean openLoop;

    private final UnsafeBuffer probe;
    private final HeldFrame held;
    private boolean hasHeld;
    // The sink took the held frame's claim (FrameSink.claimHeld): it leaves through commitHeld or abandonHeld,
    // not through a copy.
    private boolean heldBySink;
    private int heldLength;
    // Reports the held frame carries: 0 for an essential operation, whose ring entry carries them.
    private int heldReports;
    private int heldPsn;
    private boolean heldAckReq;
    private long heldSinceNanos;

    private State state = State.ACTIVE;
    private int nextPsn;
    private int lastAckedPsn;
    private int highestSentPsn;
    private int highestEverSentPsn;
    /**
     * Packets since the last periodic AckReq. An AckReq set because the QP went idle does not restart the count:
     * the periodic one stays on every {@code acks.requestInterval}-th packet of the QP (translation.md §5); only a
     * new connection or a resynchronisation (a new PSN sequence) starts it again.
     */
    private int sincePeriodicAckReq;
    private boolean awaitingAck;
    private int awaitedPsn;
    private long ackDeadlineNanos;
    // The PSN the next new packet carried when the latest probe left: an answer at or past probeMark - 1 shows
    // the responder executed everything sent before the probe.
    private int probeMark;
    // An ACK below probeMark - 1 came in since the latest probe: the responder's answer, unless an ACK at or past
    // probeMark - 1 follows within the timeout (a late ACK of an earlier frame, which the link delivers first).
    private boolean probeAnswered;
    private long graceEndNanos;
    // An RNR NAK's timer: the grace period that follows it lasts at least until then.
    private long pauseUntilNanos;
    private long gracePacketsLeft;
    private boolean errorLogged;
    // A response named a PSN outside the window: whether the responder restarted, decided by tests only it can answer.
    private final RestartEvidence evidence = new RestartEvidence();
    private final LogLimiter restartLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS);
    private final long maxRnrWaitNanos;
    private final int window;
    // AckReq every lossyInterval-th packet for lossyPacketsLeft more packets after a resynchronisation.
    private final int lossyInterval;
    private final int lossyWindow;
    private int lossyPacketsLeft;
    // A resynchronisation episode: from a resync to p until an ACK at or past p. A NAK at or before p within it is a
    // delayed copy of the one acted on (the responder NAKs once per episode).
    private boolean resyncEpisode;
    private int resyncPsn;
    private int errorPsn;
    private long reconnects;

    // Ring indices wrap by mask: the rings are a power of two long (a modulo costs an idiv per atomic).
    private int[] atomicPsns;
    private int atomicMask;
    private int atomicHead;
    private int outstandingAtomics;
    private final long[] waitingVa;
    private final long[] waitingAdd;
    private final int[] waitingReports;
    private final int waitingMask;
    private final int waitingCapacity;
    private int waitingHead;
    private int waitingCount;

    private final EssentialRing essentials;
    // A resync to a PSN inside the oldest unacknowledged multi-packet WRITE: the responder holds that message open
    // and accepts nothing but its next Middle or Last, so its packets from this one on go out before anything else.
    private int resumeSegment;

    private long framesOut;
    private long bytesOut;
    private long resyncs;

    /**
     * Creates the sender of one QP.
     *
     * @param builder     this QP's frame builder (its path is the QP's path).
     * @param sink        where frames go.
     * @param counters    engine counters.
     * @param settings    timing and limits.
     */
    public QueuePairSender(
        final RoceFrameBuilder builder,
        final FrameSink sink,
        final EngineCounters counters,
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
        final RoceFrameBuilder builder,
        final FrameSink sink,
        final EngineCounters counters,
        final SenderSettings settings,
        final int maxPayload)
    {
        this.path = builder.path();
        // One packet at a time is built: a WRITE longer than the path MTU goes out as First/Middle/Last.
        this.held = new HeldFrame(Math.max(MAX_FRAME, MAX_HEADERS + Math.min(maxPayload, path.pathMtu())));
        this.probe = new UnsafeBuffer(ByteBuffer.allocateDirect(HeldFrame.STAGING_OFFSET + MAX_HEADERS));
        this.pathMtu = path.pathMtu();
        this.builder = builder;
        this.configuredBaseAddress = path.baseAddress();
        this.sink = sink;
        this.counters = counters;
        this.requestInterval = settings.ackRequestInterval();
        this.ackTimeoutNanos = settings.ackTimeoutNanos();
        this.silenceTimeoutNanos = settings.silenceTimeoutNanos();
        this.graceNanos = settings.graceNanos();
        this.gracePackets = settings.gracePackets();
        this.holdNanos = settings.holdNanos();
        this.maxRnrWaitNanos = settings.maxRnrWaitNanos();
        this.window = Math.max(1, settings.window());
        this.lossyInterval = Math.max(1, Math.min(requestInterval, window / 16));
        this.lossyWindow = Math.max(1, Math.min(window, Math.max(2 * lossyInterval, window / 8)));
        // Open loop (no ACK timeout: nothing will ever answer) means no credit can come back either, so the
        // limit on outstanding atomics would only stall the QP.
        this.openLoop = 0 == settings.ackTimeoutNanos();
        this.maxOutstandingAtomics = openLoop ? Integer.MAX_VALUE : settings.maxOutstandingAtomics();
        this.atomicPsns =
            new int[BitUtil.findNextPositivePowerOfTwo(openLoop ? 1 : Math.max(1, maxOutstandingAtomics))];
        this.atomicMask = atomicPsns.length - 1;
        this.waitingCapacity = Math.max(1, settings.atomicQueueSize());
        this.waitingVa = new long[BitUtil.findNextPositivePowerOfTwo(waitingCapacity)];
        this.waitingAdd = new long[waitingVa.length];
        this.waitingReports = new int[waitingVa.length];
        this.waitingMask = waitingVa.length - 1;
        this.essentials = new EssentialRing(settings.essentialBacklog(), Math.max(EssentialRing.MAX_PAYLOAD, maxPayload));
        this.nextPsn = path.startPsn();
        this.lastAckedPsn = Psn.add(path.startPsn(), -1);
        this.highestSentPsn = lastAckedPsn;
        this.highestEverSentPsn = lastAckedPsn;
    }

    /**
     * @return the QP's addressing.
     */
    public QpPath path()
    {
        return path;
    }

    /**
     * @return the verifier of this QP's responses' ICRCs, which keeps their repeating header.
     */
    public RepeatedHeaderIcrc responseIcrc()
    {
        return responseIcrc;
    }

    /**
     * @return current state.
     */
    public State state()
    {
        return state;
    }

    /**
     * @return the PSN the next new packet will carry.
     */
    public int nextPsn()
    {
        return nextPsn;
    }

    /**
     * @return the highest PSN known executed by the responder.
     */
    public int lastAckedPsn()
    {
        return lastAckedPsn;
    }

    /**
     * @return frames sent on this QP.
     */
    public long framesOut()
    {
        return framesOut;
    }

    /**
     * @return bytes sent on this QP.
     */
    public long bytesOut()
    {
        return bytesOut;
    }

    /**
     * @return resynchronisations of this QP.
     */
    public long resyncs()
    {
        return resyncs;
    }

    /**
     * @return times {@link #reconnect} re-armed this QP.
     */
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
        final int firstNotExecuted = State.ERROR == state ? errorPsn : Psn.next(lastAckedPsn);
        builder = newBuilder;
        path = next;
        pathMtu = next.pathMtu();
        addressOffset = next.baseAddress() - configuredBaseAddress;
        reconnects++;
        return restartWindow(firstNotExecuted, next.startPsn(), nowNanos);
    }

    /**
     * A new responder QP (a reconnection, a restarted responder) executed nothing from {@code firstNotExecuted} on:
     * those essential operations go back to the unsent part of the ring, the held frame is dropped, and the window
     * restarts at {@code startPsn}.
     *
     * @return essential operations that will be sent again.
     */
    private int restartWindow(final int firstNotExecuted, final int startPsn, final long nowNanos)
    {
        delivered(essentials.acknowledge(Psn.add(firstNotExecuted, -1)));
        final int resend = essentials.rewindTo(firstNotExecuted);
        counters.add(EngineCounter.ESSENTIAL_RESENT, resend);
        // A new responder QP has no message open: a multi-packet WRITE is sent again whole.
        resumeSegment = 0;
        if (hasHeld)
        {
            abandonHeld();
            drop(EngineCounter.OPERATIONS_DROPPED_QP_ERROR, EngineCounter.DROP_QP_ERROR, heldReports);
        }
        atomicHead = 0;
        outstandingAtomics = 0;
        nextPsn = startPsn;
        lastAckedPsn = Psn.add(nextPsn, -1);
        highestSentPsn = lastAckedPsn;
        highestEverSentPsn = lastAckedPsn;
        sincePeriodicAckReq = 0;
        awaitingAck = false;
        probeAnswered = false;
        gracePacketsLeft = 0;
        errorLogged = false;
        evidence.clear();
        resyncEpisode = false;
        state = State.ACTIVE;
        drainEssentials(nowNanos);
        return resend;
    }

    /**
     * @return the limit on unanswered FETCH_ADDs ({@link Integer#MAX_VALUE} open loop, where no credit comes back).
     */
    public int maxOutstandingAtomics()
    {
        return maxOutstandingAtomics;
    }

    /**
     * @return FETCH_ADDs sent and not answered yet (the credit they hold comes back with their response).
     */
    public int outstandingAtomics()
    {
        return outstandingAtomics;
    }

    /**
     * Changes the limit on unanswered FETCH_ADDs: a negotiated region runs with the outstanding atomics its
     * collector's REP granted (translation.md §8), which a reconnection may change. Safe at any time: when more
     * atomics are outstanding than the new limit, nothing more is sent until their responses bring the count below
     * it (they drain; new FETCH_ADDs wait in the bounded queue or the essential ring as usual); a higher limit sends
     * waiting ones at once. Not for the hot path: growing the limit past what the QP was built for allocates.
     * Ignored open loop (no limit there).
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
        if (openLoop)
        {
            return;
        }
        if (limit > atomicPsns.length)
        {
            // The ring never shrinks, so it always holds what is outstanding, also above a lowered limit.
            final int[] grown = new int[BitUtil.findNextPositivePowerOfTwo(limit)];
            for (int i = 0; i < outstandingAtomics; i++)
            {
                grown[i] = atomicPsns[(atomicHead + i) & atomicMask];
            }
            atomicPsns = grown;
            atomicMask = grown.length - 1;
            atomicHead = 0;
        }
        maxOutstandingAtomics = limit;
        drainEssentials(nowNanos);
    }

    /**
     * @return essential operations queued or awaiting acknowledgement.
     */
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

    /**
     * @return true when nothing is held, waiting or unacknowledged: the QP is quiescent.
     */
    public boolean isQuiescent()
    {
        return !hasHeld && !awaitingAck && 0 == outstandingAtomics && 0 == waitingCount &&
            !essentials.hasUnsent() && !essentials.hasUnacknowledged() && State.PROBING != state;
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
            if (essentials.isFull())
            {
                drop(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL, EngineCounter.DROP_BACKLOG_FULL, reports);
                return false;
            }
            return true;
        }
        if (!admitNonEssential(reports, nowNanos))
        {
            return false;
        }
        if (0 == maxOutstandingAtomics || waitingCount < waitingCapacity || outstandingAtomics < maxOutstandingAtomics)
        {
            return true;
        }
        drop(EngineCounter.OPERATIONS_DROPPED_ATOMIC_QUEUE_FULL, EngineCounter.DROP_ATOMIC_QUEUE_FULL, reports);
        return false;
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
        final long address,
        final DirectBuffer payload,
        final int offset,
        final int length,
        final boolean essential,
        final int reports,
        final long nowNanos)
    {
        // A WRITE longer than the path MTU is kept like an essential one whatever its flag: a resynchronisation in
        // the middle of it leaves the responder waiting for the rest of that message, which must then be re-sent.
        if (essential || length > pathMtu)
        {
            if (!essentials.offerWrite(address, payload, offset, length, reports))
            {
                drop(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL, EngineCounter.DROP_BACKLOG_FULL, reports);
                return false;
            }
            drainEssentials(nowNanos);
            return true;
        }
        sendWrite(address, payload, offset, length, reports, nowNanos);
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
                drop(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL, EngineCounter.DROP_BACKLOG_FULL, reports);
                return false;
            }
            drainEssentials(nowNanos);
            return true;
        }
        if (outstandingAtomics < maxOutstandingAtomics && 0 == waitingCount && !essentials.hasUnsent())
        {
            sendFetchAdd(address, addend, reports, nowNanos);
        }
        else if (waitingCount < waitingCapacity)
        {
            final int i = (waitingHead + waitingCount) & waitingMask;
            waitingVa[i] = address;
            waitingAdd[i] = addend;
            waitingReports[i] = reports;
            waitingCount++;
        }
        else
        {
            drop(EngineCounter.OPERATIONS_DROPPED_ATOMIC_QUEUE_FULL, EngineCounter.DROP_ATOMIC_QUEUE_FULL, reports);
            return false;
        }
        return true;
    }

    private void drop(final EngineCounter operations, final EngineCounter reportsCounter, final int reports)
    {
        counters.increment(operations);
        if (0 != reports)
        {
            counters.add(reportsCounter, reports);
        }
    }

    private boolean admitNonEssential(final int reports, final long nowNanos)
    {
        switch (state)
        {
            case ACTIVE:
            case PROBING:
                // A probe is one more frame: translation goes on while it is out (its answer may resynchronise).
                return true;
            case GRACE:
                drop(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD, EngineCounter.DROP_GRACE_PERIOD, reports);
                countGracePacket(nowNanos);
                return false;
            default:
                drop(EngineCounter.OPERATIONS_DROPPED_QP_ERROR, EngineCounter.DROP_QP_ERROR, reports);
                return false;
        }
    }

    /**
     * One operation offered to the QP during a grace period (refused, or essential, whether queued or refused for a
     * full ring): the packet-count condition of resync.gracePackets.
     */
    private void countGracePacket(final long nowNanos)
    {
        if (State.GRACE == state && gracePacketsLeft > 0 && 0 == --gracePacketsLeft)
        {
            endGraceIfDue(nowNanos);
        }
    }

    /**
     * @return when the current grace period ends by time (at the earliest an RNR NAK's timer), or
     * {@link Long#MIN_VALUE} when the QP is not in a grace period or its grace period ends only by packets.
     */
    public long graceEndNanos()
    {
        if (State.GRACE != state)
        {
            return Long.MIN_VALUE;
        }
        if (gracePackets > 0 && 0 == gracePacketsLeft)
        {
            // The packet count was reached (during an RNR NAK's pause): it ends when the pause does, whatever time
            // the grace period had left.
            return pauseUntilNanos;
        }
        if (graceNanos > 0)
        {
            return graceEndNanos - pauseUntilNanos > 0 ? graceEndNanos : pauseUntilNanos;
        }
        // Counted in packets: only an RNR NAK's timer (or a count already reached) ends it by time.
        return 0 == gracePackets || 0 == gracePacketsLeft ? pauseUntilNanos : Long.MIN_VALUE;
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
        long due = limitNanos;
        if (hasHeld && heldSinceNanos + holdNanos - due < 0)
        {
            due = heldSinceNanos + holdNanos;
        }
        if (awaitingAck && ackTimeoutNanos > 0 && ackDeadlineNanos - due < 0)
        {
            due = ackDeadlineNanos;
        }
        final long graceEnd = graceEndNanos();
        if (Long.MIN_VALUE != graceEnd && graceEnd - due < 0)
        {
            due = graceEnd;
        }
        return due;
    }

    /**
     * No more ACK timeouts, hence no more probes: a replay's responses capture has ended, so no answer can come and
     * probing would only repeat every {@code acks.timeoutMicros} for as long as the reports go on. The QP stays closed
     * loop otherwise (atomic credits, essential operations kept until acknowledged).
     */
    public void stopAckTimeouts()
    {
        ackTimeoutNanos = 0;
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
        if (hasHeld && nowNanos - heldSinceNanos >= holdNanos)
        {
            releaseHeld(true, nowNanos);
            work++;
        }
        if (awaitingAck && ackTimeoutNanos > 0 && nowNanos - ackDeadlineNanos >= 0)
        {
            onAckTimeout(nowNanos);
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
        if (hasHeld)
        {
            releaseHeld(true, nowNanos);
        }
    }

    private int updateState(final long nowNanos)
    {
        if (State.GRACE == state && endGraceIfDue(nowNanos))
        {
            return 1;
        }
        return 0;
    }

    private boolean endGraceIfDue(final long nowNanos)
    {
        if (nowNanos - pauseUntilNanos < 0)
        {
            return false;
        }
        final boolean timeDone = graceNanos > 0 && nowNanos - graceEndNanos >= 0;
        final boolean packetsDone = gracePackets > 0 && 0 == gracePacketsLeft;
        if (timeDone || packetsDone || (0 == graceNanos && 0 == gracePackets))
        {
            state = State.ACTIVE;
            drainEssentials(nowNanos);
            return true;
        }
        return false;
    }

    private boolean sending()
    {
        return State.ACTIVE == state || State.PROBING == state;
    }

    private void drainEssentials(final long nowNanos)
    {
        // Essential operations go out in a grace period too (the responder told its PSN; only non-essential reports
        // are dropped there), but not while an RNR NAK's timer runs or the QP is stopped.
        if (State.ERROR == state || State.GRACE == state && nowNanos - pauseUntilNanos < 0)
        {
            return;
        }
        if (resumeSegment > 0)
        {
            final int i = essentials.oldestSentIndex();
            final int from = resumeSegment;
            resumeSegment = 0;
            sendSegments(essentials.va(i), essentials.payloads(), essentials.payloadOffset(i),
                essentials.payloadLength(i), from, 0, nowNanos);
        }
        while (essentials.hasUnsent())
        {
            // After a loss the window narrows to lossyWindow for a while: a loss then costs fewer re-sends.
            if (!openLoop && Psn.distance(lastAckedPsn, Psn.add(nextPsn, -1)) >=
                (lossyPacketsLeft > 0 ? lossyWindow : window))
            {
                // The window is full: the newest frame goes out now with AckReq, whose ACK opens it again.
                releaseHeld(true, nowNanos);
                return;
            }
            final int i = essentials.nextUnsentIndex();
            if (EssentialRing.FETCH_ADD == essentials.type(i))
            {
                if (outstandingAtomics >= maxOutstandingAtomics)
                {
                    return;
                }
                if (!sendFetchAdd(essentials.va(i), essentials.add(i), 0, nowNanos))
                {
                    return;
                }
            }
            else if (!sendWrite(
                essentials.va(i), essentials.payloads(), essentials.payloadOffset(i), essentials.payloadLength(i), 0,
                nowNanos))
            {
                return;
            }
            essentials.markSent(Psn.add(nextPsn, -1));
            if (openLoop)
            {
                // Nothing will ever answer: every frame counts as delivered, so the entry must not occupy the
                // ring forever (it would fill after essential.backlog operations and drop the rest).
                counters.add(EngineCounter.REPORTS_DELIVERED, essentials.acknowledge(Psn.add(nextPsn, -1)));
            }
        }
        if (!openLoop && hasHeld && essentials.isHalfFull())
        {
            // Entries free only when acknowledged: with the ring half full the newest frame leaves now with AckReq
            // rather than after the idle time, so the ring drains before it fills.
            releaseHeld(true, nowNanos);
        }
        drainWaitingAtomics(nowNanos);
    }

    private void drainWaitingAtomics(final long nowNanos)
    {
        while (sending() && waitingCount > 0 && outstandingAtomics < maxOutstandingAtomics &&
            !essentials.hasUnsent())
        {
            final int i = waitingHead;
            waitingHead = (waitingHead + 1) & waitingMask;
            waitingCount--;
            sendFetchAdd(waitingVa[i], waitingAdd[i], waitingReports[i], nowNanos);
        }
    }

    private boolean sendWrite(
        final long address,
        final DirectBuffer payload,
        final int offset,
        final int length,
        final int reports,
        final long nowNanos)
    {
        if (length > pathMtu)
        {
            return sendSegments(address, payload, offset, length, 0, reports, nowNanos);
        }
        releaseHeld(false, nowNanos);
        final int psn = nextPsn;
        claimHeld(MAX_HEADERS + length);
        heldLength = builder.writeOnly(held.buffer(), held.offset(), psn, false, address + addressOffset, payload,
            offset, length);
        return hold(psn, reports, nowNanos);
    }

    /**
     * A WRITE longer than the path MTU, from packet {@code fromSegment} on: First (RETH), Middles, Last on consecutive
     * PSNs. Each is built as the held frame and let go by the next, so AckReq (every n-th packet, and the last one
     * before idle) applies per packet as to any other frame; the Last carries the reports.
     */
    private boolean sendSegments(
        final long address,
        final DirectBuffer payload,
        final int offset,
        final int length,
        final int fromSegment,
        final int reports,
        final long nowNanos)
    {
        final int mtu = pathMtu;
        final int segments = segments(length);
        for (int i = fromSegment; i < segments; i++)
        {
            releaseHeld(false, nowNanos);
            final int psn = nextPsn;
            final int at = i * mtu;
            final int last = segments - 1;
            final int opcode = 0 == i ? RoceOpcode.RC_RDMA_WRITE_FIRST :
                last == i ? RoceOpcode.RC_RDMA_WRITE_LAST : RoceOpcode.RC_RDMA_WRITE_MIDDLE;
            final int segmentLength = Math.min(mtu, length - at);
            claimHeld(MAX_HEADERS + segmentLength);
            heldLength = builder.writeSegment(held.buffer(), held.offset(), opcode, psn, false, address + addressOffset,
                length, payload, offset + at, segmentLength);
            hold(psn, last == i ? reports : 0, nowNanos);
        }
        return true;
    }

    private int segments(final int length)
    {
        final int mtu = pathMtu;
        return length <= mtu ? 1 : (length + mtu - 1) / mtu;
    }

    private boolean sendFetchAdd(final long address, final long addend, final int reports, final long nowNanos)
    {
        releaseHeld(false, nowNanos);
        final int psn = nextPsn;
        claimHeld(MAX_HEADERS);
        heldLength = builder.fetchAdd(held.buffer(), held.offset(), psn, false, address + addressOffset, addend);
        if (!openLoop)
        {
            atomicPsns[(atomicHead + outstandingAtomics) & atomicMask] = psn;
            outstandingAtomics++;
        }
        return hold(psn, reports, nowNanos);
    }

    private void claimHeld(final int maxLength)
    {
        heldBySink = sink.claimHeld(held, maxLength);
        if (!heldBySink)
        {
            held.useStaging();
        }
    }

    private void abandonHeld()
    {
        hasHeld = false;
        if (heldBySink)
        {
            sink.abandonHeld(held);
        }
    }

    private boolean hold(final int psn, final int reports, final long nowNanos)
    {
        hasHeld = true;
        heldReports = reports;
        heldPsn = psn;
        heldSinceNanos = nowNanos;
        int interval = requestInterval;
        if (lossyPacketsLeft > 0)
        {
            // After a loss: ACKs more often, so the ring frees and the window opens sooner and a lost ACK costs less.
            lossyPacketsLeft--;
            interval = lossyInterval;
        }
        heldAckReq = ++sincePeriodicAckReq >= interval;
        if (heldAckReq)
        {
            sincePeriodicAckReq = 0;
        }
        nextPsn = Psn.next(psn);
        return true;
    }

    private void releaseHeld(final boolean idle, final long nowNanos)
    {
        if (!hasHeld)
        {
            return;
        }
        hasHeld = false;
        // The response window grows only now: the responder cannot answer a PSN that never left this translator.
        highestSentPsn = heldPsn;
        if (Psn.compare(heldPsn, highestEverSentPsn) > 0)
        {
            highestEverSentPsn = heldPsn;
        }
        final boolean ackReq = heldAckReq || idle;
        if (ackReq)
        {
            builder.requestAck(held.buffer(), held.offset(), heldLength);
            if (!awaitingAck)
            {
                awaitingAck = true;
                ackDeadlineNanos = nowNanos + ackTimeoutNanos;
            }
            awaitedPsn = heldPsn;
        }
        if (heldBySink)
        {
            sink.commitHeld(held, heldLength, nowNanos, heldReports);
            sent(heldLength);
            delivered(heldReports);
            return;
        }
        if (transmit(held.buffer(), held.offset(), heldLength, heldReports, nowNanos))
        {
            delivered(heldReports);
        }
        else if (0 != heldReports)
        {
            counters.add(EngineCounter.REPORTS_DROPPED_TX_FULL, heldReports);
        }
    }

    private void delivered(final int reports)
    {
        if (0 != reports)
        {
            counters.add(EngineCounter.REPORTS_DELIVERED, reports);
        }
    }

    private boolean transmit(
        final DirectBuffer frame, final int frameOffset, final int length, final int reports, final long nowNanos)
    {
        final int offset = sink.claim(length);
        if (offset < 0)
        {
            counters.increment(EngineCounter.DROP_TX_FULL);
            return false;
        }
        final MutableDirectBuffer out = sink.buffer();
        ShortCopy.copy(out, offset, frame, frameOffset, length);
        sink.commit(offset, length, nowNanos, reports);
        sent(length);
        return true;
    }

    private void sent(final int length)
    {
        framesOut++;
        bytesOut += length;
        counters.increment(EngineCounter.ROCE_FRAMES_OUT);
    }

    private void onAckTimeout(final long nowNanos)
    {
        if (State.ERROR == state)
        {
            awaitingAck = false;
            return;
        }
        if (State.PROBING == state && probeAnswered)
        {
            // The probe was answered and, a whole timeout later, nothing showed the responder past what it said:
            // it expects lastAckedPsn + 1 (a late ACK of an earlier frame would have been followed by the real
            // answer by now, the link being FIFO).
            counters.increment(EngineCounter.PROBE_RESYNCS);
            resync(Psn.next(lastAckedPsn), nowNanos);
            return;
        }
        if (State.PROBING != state)
        {
            // The first timeout of an episode: the responder was heard from one timeout ago at the latest (it could
            // have answered the AckReq'd frame that went out then).
            silentSinceNanos = nowNanos - ackTimeoutNanos;
        }
        else if (silenceTimeoutNanos > 0 && nowNanos - silentSinceNanos >= silenceTimeoutNanos)
        {
            stopSilent(nowNanos);
            return;
        }
        state = State.PROBING;
        probeAnswered = false;
        releaseHeld(true, nowNanos);
        probeMark = nextPsn;
        // A zero-length WRITE on an already-executed PSN is a duplicate: the responder answers with an ACK for
        // its expected PSN - 1, whatever happened to the earlier ACKs and NAKs.
        final int length = builder.writeOnly(probe, HeldFrame.STAGING_OFFSET, lastAckedPsn, true, path.baseAddress(),
            probe, 0, 0);
        transmit(probe, HeldFrame.STAGING_OFFSET, length, 0, nowNanos);
        counters.increment(EngineCounter.PROBES_OUT);
        awaitingAck = true;
        ackDeadlineNanos = nowNanos + ackTimeoutNanos;
        if (evidence.suspected())
        {
            // A suspicion is tested with each probe: an ahead one's test is the probe itself.
            if (evidence.testPsn(lastAckedPsn) == lastAckedPsn)
            {
                evidence.testSent();
            }
            else
            {
                sendRestartTest(nowNanos);
            }
        }
    }

    /**
     * Sends the open suspicion's test (a zero-length WRITE with AckReq, {@link RestartEvidence}): on the PSN it names
     * when the responder would be behind the window, else the probe's duplicate PSN.
     */
    private void sendRestartTest(final long nowNanos)
    {
        final int psn = evidence.testPsn(lastAckedPsn);
        final int length = builder.writeOnly(probe, HeldFrame.STAGING_OFFSET, psn, true, path.baseAddress(), probe, 0,
            0);
        transmit(probe, HeldFrame.STAGING_OFFSET, length, 0, nowNanos);
        counters.increment(EngineCounter.PROBES_OUT);
        evidence.testSent();
        if (!awaitingAck && ackTimeoutNanos > 0)
        {
            // Unanswered, the test is sent again with the next probe.
            awaitingAck = true;
            awaitedPsn = highestSentPsn;
            ackDeadlineNanos = nowNanos + ackTimeoutNanos;
        }
    }

    /**
     * A positive ACK with PSN {@code psn}, already checked for source, QPN and ICRC.
     *
     * @param psn      the ACK's PSN.
     * @param nowNanos engine clock.
     */
    public void onAck(final int psn, final long nowNanos)
    {
        if (!acceptAck(psn, EngineCounter.ACKS_IN, nowNanos))
        {
            return;
        }
        if (Psn.compare(psn, nextPsn) >= 0)
        {
            aheadOfUs(psn, nowNanos);
            return;
        }
        acknowledge(psn, nowNanos);
    }

    /**
     * While probing, the responder's ACK names a PSN this QP sent before a rewind, at or past the next one: it
     * executed that PSN once, so what the QP sent again since the rewind were duplicates to it, not executed. Which of
     * the essential operations sent before the rewind it executed is not known (their PSNs were re-used), so every one
     * not acknowledged goes out again after the responder's PSN: at least once, never counted delivered by an
     * acknowledgement of another frame's PSN.
     */
    private void aheadOfUs(final int psn, final long nowNanos)
    {
        counters.increment(EngineCounter.PROBE_RESYNCS);
        restartWindow(Psn.next(lastAckedPsn), Psn.next(psn), nowNanos);
    }

    /**
     * An ATOMIC ACK with PSN {@code psn}.
     *
     * @param psn      the ATOMIC ACK's PSN.
     * @param nowNanos engine clock.
     */
    public void onAtomicAck(final int psn, final long nowNanos)
    {
        if (!acceptAck(psn, EngineCounter.ATOMIC_ACKS_IN, nowNanos))
        {
            return;
        }
        if (Psn.compare(psn, nextPsn) >= 0)
        {
            aheadOfUs(psn, nowNanos);
            return;
        }
        acknowledge(psn, nowNanos);
    }

    private boolean acceptAck(final int psn, final EngineCounter counter, final long nowNanos)
    {
        if (State.ERROR == state)
        {
            counters.increment(EngineCounter.RESPONSE_DROP_QP_ERROR);
            return false;
        }
        // While probing, an answer may reveal that the responder is ahead of a rewind we made on stale
        // knowledge: accept any PSN this QP ever sent then. (Never one for a PSN this QP assigned to a frame still
        // held: that one has not left.) An ACK past what was sent, before the responder first answered as well (a
        // translator restarted after a crash behind a running collector), is only a suspicion (RestartEvidence).
        final int upper = State.PROBING == state ? highestEverSentPsn : highestSentPsn;
        if (Psn.compare(psn, lastAckedPsn) < 0 || Psn.compare(psn, upper) > 0)
        {
            counters.increment(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW);
            if (evidence.agrees(psn))
            {
                if (evidence.confirmed())
                {
                    continueAtRestartedResponder(nowNanos);
                }
                else
                {
                    sendRestartTest(nowNanos);
                }
                return false;
            }
            stray(Psn.next(psn));
            return false;
        }
        counters.increment(counter);
        answered();
        return true;
    }

    private void acknowledge(final int psn, final long nowNanos)
    {
        final boolean progress = Psn.compare(psn, lastAckedPsn) > 0;
        if (progress)
        {
            lastAckedPsn = psn;
        }
        if (resyncEpisode && Psn.compare(psn, resyncPsn) >= 0)
        {
            // The responder executed the PSN it asked for: a later NAK is about a new loss.
            resyncEpisode = false;
        }
        while (outstandingAtomics > 0 && Psn.compare(atomicPsns[atomicHead], psn) <= 0)
        {
            atomicHead = (atomicHead + 1) & atomicMask;
            outstandingAtomics--;
        }
        delivered(essentials.acknowledge(psn));
        if (State.PROBING == state)
        {
            if (Psn.compare(psn, Psn.add(probeMark, -1)) < 0)
            {
                // Decided at the next timeout (onAckTimeout), unless the responder shows it is past this first.
                probeAnswered = true;
            }
            else
            {
                // Everything sent before the probe was executed: the responder is in step with us.
                state = State.ACTIVE;
                probeAnswered = false;
                awaitingAck = Psn.compare(psn, awaitedPsn) < 0;
                ackDeadlineNanos = nowNanos + ackTimeoutNanos;
            }
        }
        else if (awaitingAck)
        {
            if (Psn.compare(psn, awaitedPsn) >= 0)
            {
                awaitingAck = false;
            }
            else if (progress)
            {
                // A later AckReq'd frame left before this ACK came back: under steady traffic the awaited PSN keeps
                // moving ahead of the ACKs. The responder is answering, so the timer restarts on progress (as a
                // TCP retransmission timer does); otherwise a healthy QP would be probed every timeout.
                ackDeadlineNanos = nowNanos + ackTimeoutNanos;
            }
        }
        if (!awaitingAck && Psn.compare(highestSentPsn, psn) > 0 &&
            (outstandingAtomics > 0 || essentials.hasUnacknowledged()))
        {
            // Atomics and essential writes need confirmation even when no AckReq'd PSN is pending, but only those
            // that left: a held one starts its timer when it leaves with AckReq, which may be long after this ACK
            // when a replayed capture's clock jumps over an idle gap.
            awaitingAck = true;
            awaitedPsn = highestSentPsn;
            ackDeadlineNanos = nowNanos + ackTimeoutNanos;
        }
        drainEssentials(nowNanos);
        drainWaitingAtomics(nowNanos);
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
        if (State.ERROR == state)
        {
            counters.increment(EngineCounter.RESPONSE_DROP_QP_ERROR);
            return;
        }
        final int type = (syndrome >> 5) & 3;
        if (1 != type && (syndrome < 0x60 || syndrome > 0x63))
        {
            // A reserved type or NAK code is no answer RC defines: it must not stop the QP as a fatal NAK would.
            counters.increment(EngineCounter.RESPONSE_DROP_RESERVED_SYNDROME);
            return;
        }
        // A sequence error names the PSN the responder expects, which is highest sent + 1 once it has everything
        // and a frame sent before a probe's resync arrives late. An RNR or fatal NAK names a request the responder
        // received, so never one not sent yet: taken there, a forged NAK would pause or stop the QP.
        final int lastNamable = 0x60 == syndrome ? Psn.next(highestSentPsn) : highestSentPsn;
        if (Psn.compare(psn, Psn.next(lastAckedPsn)) < 0 || Psn.compare(psn, lastNamable) > 0)
        {
            counters.increment(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW);
            if (0x60 == syndrome)
            {
                stray(psn);
            }
            return;
        }
        if (resyncEpisode && (0x60 == syndrome || 1 == type) && Psn.compare(psn, resyncPsn) <= 0)
        {
            // A delayed copy of the NAK this episode's resync acted on (or one for a PSN before it): the responder
            // NAKs once per episode, so acting again would re-send what it already executed.
            counters.increment(EngineCounter.RESPONSE_DROP_DUPLICATE_NAK);
            return;
        }
        answered();
        if (1 == type)
        {
            // Receiver Not Ready for PSN p: the responder executed everything before p, dropped p and expects it
            // again after the timer; the packets after p that are in flight will find it out of sequence. That is
            // a resynchronisation to p whose grace period lasts at least the timer (rocev2-reference.md §3.9), capped
            // by resync.maxRnrWaitMicros.
            counters.increment(EngineCounter.NAK_RNR_IN);
            resync(psn, Math.min(RNR_TIMER_10US[syndrome & 0x1F] * 10_000L, maxRnrWaitNanos), nowNanos);
            return;
        }
        if (0x60 == syndrome)
        {
            counters.increment(EngineCounter.NAK_SEQUENCE_ERRORS_IN);
            resync(psn, nowNanos);
            return;
        }
        counters.increment(EngineCounter.NAK_FATAL_IN);
        enterError(psn);
        if (!errorLogged)
        {
            errorLogged = true;
            System.err.printf("dta: QP %s (local QPN 0x%06x) stopped: responder sent NAK 0x%02x at PSN 0x%06x%n",
                path.name(), path.localQpn(), syndrome, psn);
        }
    }

    /**
     * A response named a PSN outside the window: a suspicion, tested with the next probe (a responder that lost our
     * QP's state answers nothing else of ours as it should, so the ACK timer runs out), never acted on by itself.
     */
    private void stray(final int expectedPsn)
    {
        evidence.suspect(expectedPsn, lastAckedPsn, highestSentPsn);
    }

    private void answered()
    {
        evidence.clear();
    }

    /**
     * The responder named a PSN outside the window and answered {@link RestartEvidence#REQUIRED_ANSWERS} tests in a
     * row as only a responder at that PSN can: its QP restarted with its own idea of our PSN (a collector restarted
     * under a static region while this QP resumed from the list state file, docs/layouts.md), or it is ahead of a
     * translator restarted after a crash. Spec §5 drops such a response so that a stale one never moves a PSN; the
     * tests' answers show it is the responder's state, not a stale frame. So the QP continues at that PSN as after a
     * reconnection: the responder executed nothing of ours after the last acknowledged PSN, so those essential
     * operations are sent again.
     */
    private void continueAtRestartedResponder(final long nowNanos)
    {
        final int expected = evidence.continueAt();
        final int lastAcked = lastAckedPsn;
        counters.increment(EngineCounter.RESPONDER_RESTARTS);
        restartWindow(Psn.next(lastAcked), expected, nowNanos);
        if (restartLog.allow(nowNanos))
        {
            // Rare (a restarted collector); a peer that keeps doing it gets one line a second.
            final long held = restartLog.takeSuppressed();
            System.err.printf("dta: QP %s (local QPN 0x%06x): the collector expects PSN 0x%06x, outside this QP's " +
                "window (last acknowledged 0x%06x), and answered %d tests as only a restarted QP can: continuing at " +
                "0x%06x, essential operations not acknowledged sent again%s%n", path.name(), path.localQpn(),
                expected, lastAcked, RestartEvidence.REQUIRED_ANSWERS, expected,
                0 == held ? "" : " (" + held + " more such lines held back)");
        }
    }

    /**
     * No answer to any probe for the silence timeout: the responder's QP is gone without a word (a restarted
     * collector, a reset NIC). Unlike after a fatal NAK nobody says what it executed, so everything after the last
     * acknowledged PSN counts as not executed: essential operations in that window are sent again after a
     * reconnection (at least once: an operation executed whose ACK was lost runs twice).
     */
    private void stopSilent(final long nowNanos)
    {
        counters.increment(EngineCounter.SILENT_QP_STOPS);
        enterError(Psn.next(lastAckedPsn));
        if (!errorLogged)
        {
            errorLogged = true;
            System.err.printf("dta: QP %s (local QPN 0x%06x) stopped: no answer to its probes for %d ms; last " +
                "acknowledged PSN 0x%06x%n", path.name(), path.localQpn(), (nowNanos - silentSinceNanos) / 1_000_000,
                lastAckedPsn);
        }
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
        if (State.ERROR == state)
        {
            return false;
        }
        enterError(Psn.next(lastAckedPsn));
        System.err.printf("dta: QP %s (local QPN 0x%06x) stopped: the collector disconnected (DREQ); last " +
            "acknowledged PSN 0x%06x%n", path.name(), path.localQpn(), lastAckedPsn);
        return true;
    }

    private void enterError(final int firstNotExecutedPsn)
    {
        state = State.ERROR;
        errorPsn = firstNotExecutedPsn;
        awaitingAck = false;
        if (hasHeld)
        {
            // Never sent, and never will be on this connection: its reports are lost (an essential one's ring
            // entry carries its reports and is sent again after a reconnection).
            abandonHeld();
            drop(EngineCounter.OPERATIONS_DROPPED_QP_ERROR, EngineCounter.DROP_QP_ERROR, heldReports);
        }
    }

    private void resync(final int expectedPsn, final long nowNanos)
    {
        resync(expectedPsn, 0, nowNanos);
    }

    /**
     * After a resynchronisation to {@code expectedPsn} (everything before it acknowledged): when the oldest
     * unacknowledged ring entry is a multi-packet WRITE whose first packet is before the expected PSN, the responder
     * executed part of it and keeps the message open (a new First or Only would be an Invalid Request, fatal); the
     * index of the packet it expects within the message, else 0.
     */
    private int straddledSegment(final int expectedPsn)
    {
        if (!essentials.hasUnacknowledged())
        {
            return 0;
        }
        final int i = essentials.oldestSentIndex();
        if (EssentialRing.WRITE != essentials.type(i))
        {
            return 0;
        }
        final int segments = segments(essentials.payloadLength(i));
        final int firstPsn = Psn.add(essentials.psn(i), 1 - segments);
        final int segment = Psn.distance(firstPsn, expectedPsn);
        return segments > 1 && segment > 0 && segment < segments ? segment : 0;
    }

    private void resync(final int expectedPsn, final long minPauseNanos, final long nowNanos)
    {
        resyncs++;
        if (hasHeld)
        {
            // Built but never sent: the responder cannot have it. Essential copies are still in the ring.
            abandonHeld();
            drop(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD, EngineCounter.DROP_GRACE_PERIOD, heldReports);
        }
        final int executed = Psn.add(expectedPsn, -1);
        while (outstandingAtomics > 0)
        {
            // Atomics at or before the expected PSN executed; the rest were dropped by the responder.
            if (Psn.compare(atomicPsns[atomicHead], executed) > 0)
            {
                outstandingAtomics = 0;
                break;
            }
            atomicHead = (atomicHead + 1) & atomicMask;
            outstandingAtomics--;
        }
        delivered(essentials.acknowledge(executed));
        resumeSegment = straddledSegment(expectedPsn);
        final int resend = resumeSegment > 0 ? essentials.rewindAfterOldest() : essentials.rewindTo(expectedPsn);
        counters.add(EngineCounter.ESSENTIAL_RESENT, resend);
        lastAckedPsn = executed;
        nextPsn = expectedPsn;
        highestSentPsn = executed;
        awaitingAck = false;
        probeAnswered = false;
        sincePeriodicAckReq = 0;
        resyncEpisode = true;
        resyncPsn = expectedPsn;
        lossyPacketsLeft = LOSSY_SPAN_WINDOWS * window;
        evidence.clear();
        pauseUntilNanos = nowNanos + minPauseNanos;
        if (graceNanos > 0 || gracePackets > 0 || minPauseNanos > 0)
        {
            state = State.GRACE;
            graceEndNanos = nowNanos + graceNanos;
            gracePacketsLeft = gracePackets;
        }
        else
        {
            state = State.ACTIVE;
        }
        drainEssentials(nowNanos);
    }
}
