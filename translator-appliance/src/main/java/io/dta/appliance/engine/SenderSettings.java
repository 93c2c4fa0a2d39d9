package io.dta.appliance.engine;

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
    long silenceTimeoutNanos)
{
}
