package io.dta.appliance.engine;

import io.dta.codec.Psn;

/**
 * What a queue pair's responder's answers, and its silence, do to the QP (translation.md §5, §8): an ACK believed
 * in the window acknowledges operations and frees credits and ring entries; a NAK resynchronises (sequence error),
 * pauses (RNR) or stops the QP (fatal); an ACK timeout probes, then resynchronises to the probe's answer or stops a
 * silent QP; a response outside the window is a suspicion that only {@link RestartEvidence} can turn into a restart.
 * Engine thread only.
 */
final class ResponseHandler
{
    private final EngineCounters counters;
    private final Delivery delivery;
    private final PsnWindow window;
    private final AckRequestPolicy ackRequests;
    private final RecoveryPolicy recovery;
    private final AtomicCredits credits;
    private final EssentialRing essentials;
    private final FrameHold held;
    private final QpTransmitter transmitter;
    private final RestartEvidence evidence = new RestartEvidence();
    private final QpLog log = new QpLog();

    ResponseHandler(
        final EngineCounters counters, final Delivery delivery, final PsnWindow window,
        final AckRequestPolicy ackRequests, final RecoveryPolicy recovery, final AtomicCredits credits,
        final EssentialRing essentials, final FrameHold held, final QpTransmitter transmitter)
    {
        this.counters = counters;
        this.delivery = delivery;
        this.window = window;
        this.ackRequests = ackRequests;
        this.recovery = recovery;
        this.credits = credits;
        this.essentials = essentials;
        this.held = held;
        this.transmitter = transmitter;
    }

    /**
     * A positive or ATOMIC ACK, already checked for source, QPN and ICRC.
     *
     * @param psn      its PSN.
     * @param counter  the counter of such ACKs.
     * @param nowNanos engine clock.
     */
    void onAck(final int psn, final EngineCounter counter, final long nowNanos)
    {
        if (!acceptAck(psn, counter, nowNanos))
        {
            return;
        }
        if (window.isAhead(psn))
        {
            // While probing, the responder's ACK names a PSN this QP sent before a rewind, at or past the next one:
            // it executed that PSN once, so what the QP sent again since the rewind were duplicates to it. Which of
            // the essential operations sent before the rewind it executed is not known (their PSNs were re-used), so
            // every one not acknowledged goes out again after the responder's PSN: at least once, never counted
            // delivered by an acknowledgement of another frame's PSN.
            counters.increment(EngineCounter.PROBE_RESYNCS);
            restartWindow(Psn.next(window.lastAckedPsn()), Psn.next(psn), nowNanos);
            return;
        }
        acknowledge(psn, nowNanos);
    }

    private boolean acceptAck(final int psn, final EngineCounter counter, final long nowNanos)
    {
        if (recovery.isStopped())
        {
            counters.increment(EngineCounter.RESPONSE_DROP_QP_ERROR);
            return false;
        }
        // While probing, an answer may reveal that the responder is ahead of a rewind we made on stale
        // knowledge: accept any PSN this QP ever sent then. (Never one for a PSN this QP assigned to a frame still
        // held: that one has not left.) An ACK past what was sent, before the responder first answered as well (a
        // translator restarted after a crash behind a running collector), is only a suspicion (RestartEvidence).
        if (!window.acceptsAck(psn, recovery.isProbing()))
        {
            counters.increment(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW);
            if (!evidence.agrees(psn))
            {
                stray(Psn.next(psn));
            }
            else if (evidence.confirmed())
            {
                continueAtRestartedResponder(nowNanos);
            }
            else
            {
                sendRestartTest(nowNanos);
            }
            return false;
        }
        counters.increment(counter);
        evidence.clear();
        return true;
    }

    private void acknowledge(final int psn, final long nowNanos)
    {
        final boolean progress = window.advance(psn);
        final boolean probing = recovery.isProbing();
        final boolean inStep = recovery.acknowledged(psn);
        credits.acknowledge(psn);
        delivery.delivered(essentials.acknowledge(psn));
        if (inStep)
        {
            // Everything sent before the probe was executed: the responder is in step with us.
            window.inStep(psn, nowNanos);
        }
        else if (!probing)
        {
            window.acknowledged(psn, progress, nowNanos);
        }
        if (credits.outstanding() > 0 || essentials.hasUnacknowledged())
        {
            // Atomics and essential writes need confirmation even when no AckReq'd PSN is pending, but only those
            // that left.
            window.awaitSentPast(psn, nowNanos);
        }
        transmitter.drainEssentials(nowNanos);
        transmitter.drainWaitingAtomics(nowNanos);
    }

    /**
     * A NAK.
     *
     * @param syndrome AETH syndrome byte.
     * @param psn      the NAK's PSN (for 0x60 the responder's expected PSN).
     * @param nowNanos engine clock.
     */
    void onNak(final int syndrome, final int psn, final long nowNanos)
    {
        if (recovery.isStopped())
        {
            counters.increment(EngineCounter.RESPONSE_DROP_QP_ERROR);
            return;
        }
        if (RecoveryPolicy.isReservedNak(syndrome))
        {
            // A reserved type or NAK code is no answer RC defines: it must not stop the QP as a fatal NAK would.
            counters.increment(EngineCounter.RESPONSE_DROP_RESERVED_SYNDROME);
            return;
        }
        // A sequence error names the PSN the responder expects, which is highest sent + 1 once it has everything
        // and a frame sent before a probe's resync arrives late. An RNR or fatal NAK names a request the responder
        // received, so never one not sent yet: taken there, a forged NAK would pause or stop the QP.
        if (!window.acceptsNak(psn, 0x60 == syndrome))
        {
            counters.increment(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW);
            if (0x60 == syndrome)
            {
                stray(psn);
            }
            return;
        }
        if (recovery.isDuplicateNak(syndrome, psn))
        {
            counters.increment(EngineCounter.RESPONSE_DROP_DUPLICATE_NAK);
            return;
        }
        evidence.clear();
        onValidNak(syndrome, psn, nowNanos);
    }

    private void onValidNak(final int syndrome, final int psn, final long nowNanos)
    {
        if (RecoveryPolicy.isRnr(syndrome))
        {
            // Receiver Not Ready for PSN p: the responder executed everything before p, dropped p and expects it
            // again after the timer; the packets after p that are in flight will find it out of sequence. That is
            // a resynchronisation to p whose grace period lasts at least the timer (rocev2-reference.md §3.9), capped
            // by resync.maxRnrWaitMicros.
            counters.increment(EngineCounter.NAK_RNR_IN);
            resync(psn, recovery.rnrPauseNanos(syndrome), nowNanos);
            return;
        }
        if (0x60 == syndrome)
        {
            counters.increment(EngineCounter.NAK_SEQUENCE_ERRORS_IN);
            resync(psn, 0, nowNanos);
            return;
        }
        counters.increment(EngineCounter.NAK_FATAL_IN);
        enterError(psn);
        if (recovery.firstStopReport())
        {
            log.fatalNak(transmitter.path(), syndrome, psn);
        }
    }

    /**
     * The ACK timer ran out: probe, resynchronise to the probe's answer, or stop a silent QP.
     *
     * @param nowNanos engine clock.
     */
    void onAckTimeout(final long nowNanos)
    {
        switch (recovery.ackTimedOut(nowNanos, window.ackTimeoutNanos(), window.nextPsn()))
        {
            case STOPPED -> window.stopWaiting();
            case PROBE_RESYNC ->
            {
                counters.increment(EngineCounter.PROBE_RESYNCS);
                resync(Psn.next(window.lastAckedPsn()), 0, nowNanos);
            }
            case SILENT_STOP -> stopSilent(nowNanos);
            case PROBE -> probe(nowNanos);
        }
    }

    private void probe(final long nowNanos)
    {
        transmitter.releaseHeld(true, nowNanos);
        // A zero-length WRITE on an already-executed PSN is a duplicate: the responder answers with an ACK for
        // its expected PSN - 1, whatever happened to the earlier ACKs and NAKs.
        final int lastAcked = window.lastAckedPsn();
        transmitter.sendProbe(lastAcked, nowNanos);
        window.rearm(nowNanos);
        if (evidence.suspected())
        {
            // A suspicion is tested with each probe: an ahead one's test is the probe itself.
            if (evidence.testPsn(lastAcked) == lastAcked)
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
     * when the responder would be behind the window, else the probe's duplicate PSN. Unanswered, it is sent again
     * with the next probe.
     */
    private void sendRestartTest(final long nowNanos)
    {
        transmitter.sendProbe(evidence.testPsn(window.lastAckedPsn()), nowNanos);
        evidence.testSent();
        window.awaitTest(nowNanos);
    }

    /**
     * A response named a PSN outside the window: a suspicion, tested with the next probe (a responder that lost our
     * QP's state answers nothing else of ours as it should, so the ACK timer runs out), never acted on by itself.
     */
    private void stray(final int expectedPsn)
    {
        evidence.suspect(expectedPsn, window.lastAckedPsn(), window.highestSentPsn());
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
        final int lastAcked = window.lastAckedPsn();
        counters.increment(EngineCounter.RESPONDER_RESTARTS);
        restartWindow(Psn.next(lastAcked), expected, nowNanos);
        log.restartedResponder(transmitter.path(), expected, lastAcked, nowNanos);
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
        enterError(Psn.next(window.lastAckedPsn()));
        if (recovery.firstStopReport())
        {
            log.silent(transmitter.path(), nowNanos - recovery.silentSinceNanos(), window.lastAckedPsn());
        }
    }

    /**
     * The collector ended the connection: the QP stops as after a silent stop.
     *
     * @return false if the QP was already stopped.
     */
    boolean stopDisconnected()
    {
        if (recovery.isStopped())
        {
            return false;
        }
        enterError(Psn.next(window.lastAckedPsn()));
        log.disconnected(transmitter.path(), window.lastAckedPsn());
        return true;
    }

    private void enterError(final int firstNotExecutedPsn)
    {
        recovery.stop(firstNotExecutedPsn);
        window.stopWaiting();
        // Never sent, and never will be on this connection: its reports are lost (an essential one's ring entry
        // carries its reports and is sent again after a reconnection).
        dropHeld(EngineCounter.OPERATIONS_DROPPED_QP_ERROR, EngineCounter.DROP_QP_ERROR);
    }

    private void dropHeld(final EngineCounter operations, final EngineCounter reports)
    {
        if (held.isHeld())
        {
            delivery.dropped(operations, reports, held.abandon());
        }
    }

    /**
     * A resynchronisation to {@code expectedPsn}: everything before it executed, the rest dropped by the responder.
     * A held frame was never sent (essential copies are still in the ring); atomic credits come back; ring entries
     * not executed are sent again, from the packet the responder expects when it holds a multi-packet WRITE open.
     */
    private void resync(final int expectedPsn, final long minPauseNanos, final long nowNanos)
    {
        dropHeld(EngineCounter.OPERATIONS_DROPPED_GRACE_PERIOD, EngineCounter.DROP_GRACE_PERIOD);
        final int executed = Psn.add(expectedPsn, -1);
        credits.resync(executed);
        delivery.delivered(essentials.acknowledge(executed));
        final int resumeSegment = essentials.straddledSegment(expectedPsn, transmitter.pathMtu());
        transmitter.resumeAt(resumeSegment);
        final int resend = resumeSegment > 0 ? essentials.rewindAfterOldest() : essentials.rewindTo(expectedPsn);
        counters.add(EngineCounter.ESSENTIAL_RESENT, resend);
        window.resync(expectedPsn);
        ackRequests.afterLoss();
        evidence.clear();
        recovery.resynced(expectedPsn, minPauseNanos, nowNanos);
        transmitter.drainEssentials(nowNanos);
    }

    /**
     * A new responder QP (a reconnection, a restarted responder) executed nothing from {@code firstNotExecuted} on:
     * those essential operations go back to the unsent part of the ring, the held frame is dropped, and the window
     * restarts at {@code startPsn}.
     *
     * @return essential operations that will be sent again.
     */
    int restartWindow(final int firstNotExecuted, final int startPsn, final long nowNanos)
    {
        delivery.delivered(essentials.acknowledge(Psn.add(firstNotExecuted, -1)));
        final int resend = essentials.rewindTo(firstNotExecuted);
        counters.add(EngineCounter.ESSENTIAL_RESENT, resend);
        // A new responder QP has no message open: a multi-packet WRITE is sent again whole.
        transmitter.resumeAt(0);
        dropHeld(EngineCounter.OPERATIONS_DROPPED_QP_ERROR, EngineCounter.DROP_QP_ERROR);
        credits.clear();
        window.restart(startPsn);
        ackRequests.restart();
        evidence.clear();
        recovery.restart();
        transmitter.drainEssentials(nowNanos);
        return resend;
    }
}
