package io.dta.appliance.engine;

import io.dta.codec.Psn;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A queue pair's PSNs and its ACK timer (translation.md §5).
 * <p>
 * {@code lastAckedPsn} is the highest PSN known executed, {@code nextPsn} the next PSN to use and
 * {@code highestSentPsn} the highest PSN sent (a held frame is not sent yet). A response is only believed when its
 * PSN lies in {@code [lastAckedPsn, highestSentPsn]} (a NAK's expected PSN one further), so a forged or stale
 * response can never move the PSN to a value this QP did not send. {@code highestEverSentPsn} survives a rewind:
 * while probing, an answer may show the responder ahead of a rewind made on stale knowledge.
 * <p>
 * The ACK timer runs while an AckReq'd PSN ({@code awaitedPsn}) is unacknowledged. Engine thread only, but for
 * {@link #lastAckedPsnAcquire()}.
 */
final class PsnWindow
{
    private int nextPsn;
    private static final VarHandle LAST_ACKED_PSN;

    static
    {
        try
        {
            LAST_ACKED_PSN = MethodHandles.lookup().findVarHandle(PsnWindow.class, "lastAckedPsn", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    // Written by the engine thread only (release stores); read by it plainly and by others with lastAckedPsnAcquire().
    private int lastAckedPsn;
    private int highestSentPsn;
    private int highestEverSentPsn;
    // Not final: a replay whose responses capture has ended stops the ACK timeouts (stopAckTimeouts).
    private long ackTimeoutNanos;
    private boolean awaitingAck;
    private int awaitedPsn;
    private long ackDeadlineNanos;

    /**
     * @param startPsn        the first PSN.
     * @param ackTimeoutNanos how long an AckReq'd PSN may stay unacknowledged; 0 = never times out.
     */
    PsnWindow(final int startPsn, final long ackTimeoutNanos)
    {
        this.ackTimeoutNanos = ackTimeoutNanos;
        restart(startPsn);
    }

    int nextPsn()
    {
        return nextPsn;
    }

    int lastAckedPsn()
    {
        return lastAckedPsn;
    }

    /**
     * @return the last acknowledged PSN as another thread reads it: every change is a release store (a plain store on
     * x86), this its acquire load.
     */
    int lastAckedPsnAcquire()
    {
        return (int)LAST_ACKED_PSN.getAcquire(this);
    }

    int highestSentPsn()
    {
        return highestSentPsn;
    }

    long ackTimeoutNanos()
    {
        return ackTimeoutNanos;
    }

    boolean awaitingAck()
    {
        return awaitingAck;
    }

    /**
     * A new PSN sequence from {@code startPsn} (a new responder QP): nothing sent, nothing awaited.
     *
     * @param startPsn the first PSN.
     */
    void restart(final int startPsn)
    {
        nextPsn = startPsn;
        LAST_ACKED_PSN.setRelease(this, Psn.add(startPsn, -1));
        highestSentPsn = lastAckedPsn;
        highestEverSentPsn = lastAckedPsn;
        awaitingAck = false;
    }

    /**
     * A resynchronisation: the responder executed everything before {@code expectedPsn} and expects it next.
     *
     * @param expectedPsn the responder's expected PSN.
     */
    void resync(final int expectedPsn)
    {
        LAST_ACKED_PSN.setRelease(this, Psn.add(expectedPsn, -1));
        nextPsn = expectedPsn;
        highestSentPsn = lastAckedPsn;
        awaitingAck = false;
    }

    /**
     * @return the PSN for a new packet; the next one follows it.
     */
    int assign()
    {
        final int psn = nextPsn;
        nextPsn = Psn.next(psn);
        return psn;
    }

    /**
     * @param limit packets allowed in flight.
     * @return true when {@code limit} or more packets are assigned and not acknowledged.
     */
    boolean isFull(final int limit)
    {
        return Psn.distance(lastAckedPsn, Psn.add(nextPsn, -1)) >= limit;
    }

    /**
     * A packet left: the response window grows only now (the responder cannot answer a PSN that never left).
     *
     * @param psn      its PSN.
     * @param ackReq   whether it carries AckReq (then its acknowledgement is awaited).
     * @param nowNanos engine clock.
     */
    void sent(final int psn, final boolean ackReq, final long nowNanos)
    {
        highestSentPsn = psn;
        if (Psn.compare(psn, highestEverSentPsn) > 0)
        {
            highestEverSentPsn = psn;
        }
        if (ackReq)
        {
            if (!awaitingAck)
            {
                awaitingAck = true;
                ackDeadlineNanos = nowNanos + ackTimeoutNanos;
            }
            awaitedPsn = psn;
        }
    }

    /**
     * @param psn     an ACK's PSN.
     * @param probing whether a probe is out (then any PSN this QP ever sent counts).
     * @return true when the PSN lies in the window an ACK may name.
     */
    boolean acceptsAck(final int psn, final boolean probing)
    {
        final int upper = probing ? highestEverSentPsn : highestSentPsn;
        return Psn.compare(psn, lastAckedPsn) >= 0 && Psn.compare(psn, upper) <= 0;
    }

    /**
     * @param psn           a NAK's PSN.
     * @param sequenceError whether it is a sequence error (it names the expected PSN, one past the last sent).
     * @return true when the PSN lies in the window a NAK may name.
     */
    boolean acceptsNak(final int psn, final boolean sequenceError)
    {
        final int lastNamable = sequenceError ? Psn.next(highestSentPsn) : highestSentPsn;
        return Psn.compare(psn, Psn.next(lastAckedPsn)) >= 0 && Psn.compare(psn, lastNamable) <= 0;
    }

    /**
     * @param psn an accepted ACK's PSN.
     * @return true when it names a PSN this QP has not assigned since a rewind (the responder is ahead of it).
     */
    boolean isAhead(final int psn)
    {
        return Psn.compare(psn, nextPsn) >= 0;
    }

    /**
     * @param psn an accepted ACK's PSN.
     * @return true when it acknowledges something new.
     */
    boolean advance(final int psn)
    {
        if (Psn.compare(psn, lastAckedPsn) > 0)
        {
            LAST_ACKED_PSN.setRelease(this, psn);
            return true;
        }
        return false;
    }

    /**
     * An ACK outside a probe: the awaited PSN answered ends the wait; progress short of it restarts the timer.
     *
     * @param psn      the ACK's PSN.
     * @param progress whether it acknowledged something new.
     * @param nowNanos engine clock.
     */
    void acknowledged(final int psn, final boolean progress, final long nowNanos)
    {
        if (!awaitingAck)
        {
            return;
        }
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

    /**
     * The answer to a probe showed the responder in step: the wait goes on only for an AckReq'd PSN past it.
     *
     * @param psn      the answer's PSN.
     * @param nowNanos engine clock.
     */
    void inStep(final int psn, final long nowNanos)
    {
        awaitingAck = Psn.compare(psn, awaitedPsn) < 0;
        ackDeadlineNanos = nowNanos + ackTimeoutNanos;
    }

    /**
     * Operations that need confirmation are outstanding: unless a wait is on, awaits the highest PSN sent when it
     * is past {@code psn}. A held frame starts its timer when it leaves with AckReq, which may be long after this
     * ACK when a replayed capture's clock jumps over an idle gap.
     *
     * @param psn      the latest ACK's PSN.
     * @param nowNanos engine clock.
     */
    void awaitSentPast(final int psn, final long nowNanos)
    {
        if (!awaitingAck && Psn.compare(highestSentPsn, psn) > 0)
        {
            awaitingAck = true;
            awaitedPsn = highestSentPsn;
            ackDeadlineNanos = nowNanos + ackTimeoutNanos;
        }
    }

    /**
     * A test frame left outside any wait: unless timeouts are off, awaits the highest PSN sent, so that an
     * unanswered test is sent again with the next probe.
     *
     * @param nowNanos engine clock.
     */
    void awaitTest(final long nowNanos)
    {
        if (!awaitingAck && ackTimeoutNanos > 0)
        {
            awaitingAck = true;
            awaitedPsn = highestSentPsn;
            ackDeadlineNanos = nowNanos + ackTimeoutNanos;
        }
    }

    /**
     * A probe left: the timer runs again for a whole timeout.
     *
     * @param nowNanos engine clock.
     */
    void rearm(final long nowNanos)
    {
        awaitingAck = true;
        ackDeadlineNanos = nowNanos + ackTimeoutNanos;
    }

    /**
     * Nothing is awaited any more (the QP stopped).
     */
    void stopWaiting()
    {
        awaitingAck = false;
    }

    /**
     * No more ACK timeouts (a replay whose responses capture ended).
     */
    void stopAckTimeouts()
    {
        ackTimeoutNanos = 0;
    }

    /**
     * @param nowNanos engine clock.
     * @return true when the awaited acknowledgement is overdue.
     */
    boolean ackOverdue(final long nowNanos)
    {
        return awaitingAck && ackTimeoutNanos > 0 && nowNanos - ackDeadlineNanos >= 0;
    }

    /**
     * @param dueNanos the earliest timer so far.
     * @return the ACK deadline when a timeout is armed before {@code dueNanos}, else {@code dueNanos}.
     */
    long earliestTimer(final long dueNanos)
    {
        return awaitingAck && ackTimeoutNanos > 0 && ackDeadlineNanos - dueNanos < 0 ? ackDeadlineNanos : dueNanos;
    }
}
