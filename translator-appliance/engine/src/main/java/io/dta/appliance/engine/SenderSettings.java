package io.dta.appliance.engine;

import io.dta.config.AcksConfig;
import io.dta.config.ResyncConfig;

/**
 * Per-QP timing and limits, taken from the validated configuration once at start.
 *
 * @param ackRequestInterval    AckReq on every n-th packet (acks.requestInterval).
 * @param ackTimeoutNanos       how long an AckReq'd PSN may stay unacknowledged before a probe; 0 = never
 *                              (open loop: no responses will come, so the atomic credit limit is off too).
 * @param graceNanos            grace period after a resync, by time (0 = off).
 * @param gracePackets          grace period after a resync, by dropped packets (0 = off).
 * @param holdNanos             idle time after which the QP's newest frame goes out with AckReq.
 * @param maxOutstandingAtomics unanswered FETCH_ADDs allowed in flight.
 * @param atomicQueueSize       FETCH_ADDs that may wait for credit.
 * @param essentialBacklog      essential operations kept until acknowledged.
 * @param silenceTimeoutNanos   probing without any answer for this long takes the responder's QP for dead: the QP
 *                              goes to the error state, as after a fatal NAK (0 = probe for ever; negotiated
 *                              regions only, which can be connected again).
 * @param maxRnrWaitNanos       the longest pause an RNR NAK may impose (resync.maxRnrWaitMicros).
 * @param window                packets sent and not acknowledged beyond which essential operations wait
 *                              (acks.window).
 */
public record SenderSettings(
    int ackRequestInterval,
    long ackTimeoutNanos,
    long graceNanos,
    long gracePackets,
    long holdNanos,
    int maxOutstandingAtomics,
    int atomicQueueSize,
    int essentialBacklog,
    long silenceTimeoutNanos,
    long maxRnrWaitNanos,
    int window)
{
    /**
     * Settings with the default RNR wait limit and window.
     *
     * @param ackRequestInterval    see the record.
     * @param ackTimeoutNanos       see the record.
     * @param graceNanos            see the record.
     * @param gracePackets          see the record.
     * @param holdNanos             see the record.
     * @param maxOutstandingAtomics see the record.
     * @param atomicQueueSize       see the record.
     * @param essentialBacklog      see the record.
     * @param silenceTimeoutNanos   see the record.
     */
    public SenderSettings(
        final int ackRequestInterval,
        final long ackTimeoutNanos,
        final long graceNanos,
        final long gracePackets,
        final long holdNanos,
        final int maxOutstandingAtomics,
        final int atomicQueueSize,
        final int essentialBacklog,
        final long silenceTimeoutNanos)
    {
        this(ackRequestInterval, ackTimeoutNanos, graceNanos, gracePackets, holdNanos, maxOutstandingAtomics,
            atomicQueueSize, essentialBacklog, silenceTimeoutNanos, ResyncConfig.DEFAULT_MAX_RNR_WAIT_MICROS * 1000,
            AcksConfig.DEFAULT_WINDOW);
    }
}
