package io.dta.appliance.engine;

import io.dta.appliance.engine.QueuePairSender.State;
import io.dta.codec.Psn;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A queue pair's state after trouble (translation.md §5): the grace period after a resynchronisation (by time, by
 * packets, at least an RNR NAK's timer), the ACK-timeout probe and what its answer means, the silence that stops a
 * QP, the resynchronisation episode that tells a delayed copy of a NAK from a new one, and the error state.
 * <p>
 * It decides; the {@link QueuePairSender} acts (sends the probe, rewinds the ring, counts). Engine thread only,
 * but for {@link #stateAcquire()}.
 */
final class RecoveryPolicy
{
    /**
     * What an ACK timeout calls for.
     */
    enum Timeout
    {
        /** The QP is stopped: nothing is awaited any more. */
        STOPPED,
        /** The probe was answered below its mark a whole timeout ago: resynchronise to the answer. */
        PROBE_RESYNC,
        /** Probes went unanswered for the silence timeout: the responder's QP is gone. */
        SILENT_STOP,
        /** Send a probe (the QP is probing now). */
        PROBE
    }

    /**
     * The RNR NAK's minimum wait per timer code (rocev2-reference.md §3.6), in units of 10 µs: code 0 is 655.36 ms,
     * codes 1..31 run from 0.01 ms to 491.52 ms.
     */
    private static final int[] RNR_TIMER_10US = {
        65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
        256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152 };

    private final long graceNanos;
    private final long gracePackets;
    private final long silenceTimeoutNanos;
    private final long maxRnrWaitNanos;

    private static final VarHandle STATE;

    static
    {
        try
        {
            STATE = MethodHandles.lookup().findVarHandle(RecoveryPolicy.class, "state", State.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    // Written by the engine thread only (release stores); read by it plainly and by others with stateAcquire().
    private State state = State.ACTIVE;
    private long graceEndNanos;
    // An RNR NAK's timer: the grace period that follows it lasts at least until then.
    private long pauseUntilNanos;
    private long gracePacketsLeft;
    // The PSN the next new packet carried when the latest probe left: an answer at or past probeMark - 1 shows
    // the responder executed everything sent before the probe.
    private int probeMark;
    // An ACK below probeMark - 1 came in since the latest probe: the responder's answer, unless an ACK at or past
    // probeMark - 1 follows within the timeout (a late ACK of an earlier frame, which the link delivers first).
    private boolean probeAnswered;
    private long silentSinceNanos;
    // A resynchronisation episode: from a resync to p until an ACK at or past p. A NAK at or before p within it is a
    // delayed copy of the one acted on (the responder NAKs once per episode).
    private boolean resyncEpisode;
    private int resyncPsn;
    private int errorPsn;
    private boolean stopLogged;
    private long resyncs;

    /**
     * @param settings the QP's timing (grace, silence timeout, longest RNR wait).
     */
    RecoveryPolicy(final SenderSettings settings)
    {
        this.graceNanos = settings.graceNanos();
        this.gracePackets = settings.gracePackets();
        this.silenceTimeoutNanos = settings.silenceTimeoutNanos();
        this.maxRnrWaitNanos = settings.maxRnrWaitNanos();
    }

    State state()
    {
        return state;
    }

    /**
     * @return the state as another thread reads it: every change is a release store (a plain store on x86, so the
     * engine thread pays nothing), this its acquire load.
     */
    State stateAcquire()
    {
        return (State)STATE.getAcquire(this);
    }

    boolean isStopped()
    {
        return State.ERROR == state;
    }

    boolean isProbing()
    {
        return State.PROBING == state;
    }

    /**
     * @return true when non-essential traffic goes out (active, or probing: a probe is one more frame).
     */
    boolean isSending()
    {
        return State.ACTIVE == state || State.PROBING == state;
    }

    /**
     * @param nowNanos engine clock.
     * @return true when essential operations must wait: the QP is stopped, or an RNR NAK's timer runs.
     */
    boolean holdsEssentials(final long nowNanos)
    {
        return State.ERROR == state || State.GRACE == state && nowNanos - pauseUntilNanos < 0;
    }

    /**
     * @return resynchronisations so far.
     */
    long resyncs()
    {
        return resyncs;
    }

    /**
     * One operation offered to the QP during a grace period (refused, or essential, whether queued or refused for a
     * full ring): the packet-count condition of resync.gracePackets.
     *
     * @return true when it was the last packet the grace period counts (it may end now).
     */
    boolean countGracePacket()
    {
        return State.GRACE == state && gracePacketsLeft > 0 && 0 == --gracePacketsLeft;
    }

    /**
     * Ends the grace period when its time or packet count is reached and no RNR NAK's timer runs.
     *
     * @param nowNanos engine clock.
     * @return true when it ended now.
     */
    boolean endGraceIfDue(final long nowNanos)
    {
        if (State.GRACE != state || nowNanos - pauseUntilNanos < 0)
        {
            return false;
        }
        final boolean timeDone = graceNanos > 0 && nowNanos - graceEndNanos >= 0;
        final boolean packetsDone = gracePackets > 0 && 0 == gracePacketsLeft;
        if (timeDone || packetsDone || (0 == graceNanos && 0 == gracePackets))
        {
            STATE.setRelease(this, State.ACTIVE);
            return true;
        }
        return false;
    }

    /**
     * @return when the current grace period ends by time (at the earliest an RNR NAK's timer), or
     * {@link Long#MIN_VALUE} when the QP is not in a grace period or its grace period ends only by packets.
     */
    long graceEndNanos()
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
     * A resynchronisation to {@code expectedPsn}: a new episode, and a grace period unless none is configured and
     * no RNR timer asks for a pause.
     *
     * @param expectedPsn   the responder's expected PSN.
     * @param minPauseNanos an RNR NAK's timer, else 0.
     * @param nowNanos      engine clock.
     */
    void resynced(final int expectedPsn, final long minPauseNanos, final long nowNanos)
    {
        resyncs++;
        probeAnswered = false;
        resyncEpisode = true;
        resyncPsn = expectedPsn;
        pauseUntilNanos = nowNanos + minPauseNanos;
        if (graceNanos > 0 || gracePackets > 0 || minPauseNanos > 0)
        {
            STATE.setRelease(this, State.GRACE);
            graceEndNanos = nowNanos + graceNanos;
            gracePacketsLeft = gracePackets;
        }
        else
        {
            STATE.setRelease(this, State.ACTIVE);
        }
    }

    /**
     * A new responder QP (a reconnection, a restarted responder): active, no episode, no probe, no grace.
     */
    void restart()
    {
        probeAnswered = false;
        gracePacketsLeft = 0;
        stopLogged = false;
        resyncEpisode = false;
        STATE.setRelease(this, State.ACTIVE);
    }

    /**
     * The QP stops: nothing more is sent on this connection.
     *
     * @param firstNotExecutedPsn the first PSN the responder did not execute.
     */
    void stop(final int firstNotExecutedPsn)
    {
        STATE.setRelease(this, State.ERROR);
        errorPsn = firstNotExecutedPsn;
    }

    /**
     * @param lastAckedPsn the highest PSN known executed.
     * @return the first PSN the responder did not execute: the fatal NAK's once stopped, else the one after
     * {@code lastAckedPsn}.
     */
    int firstNotExecuted(final int lastAckedPsn)
    {
        return State.ERROR == state ? errorPsn : Psn.next(lastAckedPsn);
    }

    /**
     * @return true the first time it is asked after the QP stopped on this connection (one log line per stop).
     */
    boolean firstStopReport()
    {
        if (stopLogged)
        {
            return false;
        }
        stopLogged = true;
        return true;
    }

    /**
     * The ACK timer ran out.
     *
     * @param nowNanos        engine clock.
     * @param ackTimeoutNanos the ACK timeout.
     * @param nextPsn         the PSN the next new packet will carry (the mark of a probe sent now).
     * @return what to do.
     */
    Timeout ackTimedOut(final long nowNanos, final long ackTimeoutNanos, final int nextPsn)
    {
        if (State.ERROR == state)
        {
            return Timeout.STOPPED;
        }
        if (State.PROBING == state && probeAnswered)
        {
            // The probe was answered and, a whole timeout later, nothing showed the responder past what it said:
            // it expects lastAckedPsn + 1 (a late ACK of an earlier frame would have been followed by the real
            // answer by now, the link being FIFO).
            return Timeout.PROBE_RESYNC;
        }
        if (State.PROBING != state)
        {
            // The first timeout of an episode: the responder was heard from one timeout ago at the latest (it could
            // have answered the AckReq'd frame that went out then).
            silentSinceNanos = nowNanos - ackTimeoutNanos;
        }
        else if (silenceTimeoutNanos > 0 && nowNanos - silentSinceNanos >= silenceTimeoutNanos)
        {
            return Timeout.SILENT_STOP;
        }
        STATE.setRelease(this, State.PROBING);
        probeAnswered = false;
        probeMark = nextPsn;
        return Timeout.PROBE;
    }

    /**
     * @return since when the responder has not been heard from while probing.
     */
    long silentSinceNanos()
    {
        return silentSinceNanos;
    }

    /**
     * An accepted ACK at {@code psn}: ends the resynchronisation episode once the responder executed the PSN it asked
     * for (a later NAK is about a new loss) and, while probing, tells whether the responder is in step.
     *
     * @param psn the ACK's PSN.
     * @return true when a probe was out and the ACK shows that everything sent before it was executed (the QP is
     * active again).
     */
    boolean acknowledged(final int psn)
    {
        if (resyncEpisode && Psn.compare(psn, resyncPsn) >= 0)
        {
            resyncEpisode = false;
        }
        if (State.PROBING != state)
        {
            return false;
        }
        if (Psn.compare(psn, Psn.add(probeMark, -1)) < 0)
        {
            // Decided at the next timeout (ackTimedOut), unless the responder shows it is past this first.
            probeAnswered = true;
            return false;
        }
        STATE.setRelease(this, State.ACTIVE);
        probeAnswered = false;
        return true;
    }

    /**
     * @param syndrome an AETH syndrome byte.
     * @return true when it is no NAK that RC defines (a reserved type or NAK code).
     */
    static boolean isReservedNak(final int syndrome)
    {
        return 1 != nakType(syndrome) && (syndrome < 0x60 || syndrome > 0x63);
    }

    /**
     * @param syndrome an AETH syndrome byte.
     * @return true for an RNR NAK.
     */
    static boolean isRnr(final int syndrome)
    {
        return 1 == nakType(syndrome);
    }

    private static int nakType(final int syndrome)
    {
        return (syndrome >> 5) & 3;
    }

    /**
     * @param syndrome an in-window NAK's syndrome.
     * @param psn      its PSN.
     * @return true when it is a delayed copy of the NAK this episode's resync acted on (or one for a PSN before
     * it): the responder NAKs once per episode, so acting again would re-send what it already executed.
     */
    boolean isDuplicateNak(final int syndrome, final int psn)
    {
        return resyncEpisode && (0x60 == syndrome || isRnr(syndrome)) && Psn.compare(psn, resyncPsn) <= 0;
    }

    /**
     * @param syndrome an RNR NAK's syndrome.
     * @return the pause its timer asks for, capped by resync.maxRnrWaitMicros.
     */
    long rnrPauseNanos(final int syndrome)
    {
        return Math.min(RNR_TIMER_10US[syndrome & 0x1F] * 10_000L, maxRnrWaitNanos);
    }
}
