package io.dta.appliance.connect;

import java.util.Locale;

/**
 * The connection manager's named counters: every frame it takes is counted as handled or under one drop reason,
 * and every frame it sends by kind.
 */
public enum ConnectionCounter
{
    /** Frames offered to the connection manager. */
    FRAMES_IN,
    /** Frames left to the engine (not CM, not a SEND to a negotiated QP). */
    NOT_CONNECTION_FRAMES,
    /** CM MADs or SENDs with a bad ICRC, dropped. */
    BAD_ICRC,
    /** CM MADs or SENDs from an address that is no configured collector, dropped. */
    UNKNOWN_SOURCE,
    /** MADs of the wrong size, Q_Key, class or method, dropped. */
    BAD_MADS,
    /** CM messages the manager does not act on (MRA, REQ, RTU, ...), dropped. */
    UNSUPPORTED_MADS,
    /** REPs and REJs whose transaction ID and communication ID match no connection attempt, dropped. */
    UNMATCHED_MADS,
    /** REPs accepted. */
    REPS,
    /** Duplicate REPs, answered with the RTU again. */
    DUPLICATE_REPS,
    /** REPs with an invalid QPN, granting no atomics to a region that needs them, or contradicting an earlier REP. */
    INVALID_REPS,
    /** REJs that failed a connection attempt. */
    REJS,
    /** REQ frames sent (first and repeated). */
    REQS_SENT,
    /** REQs re-sent because no REP came in time. */
    REQ_TIMEOUTS,
    /** RTU frames sent (first and repeated). */
    RTUS_SENT,
    /** Metadata SENDs accepted (validated and acknowledged). */
    SENDS,
    /** Duplicate metadata SENDs, acknowledged again. */
    DUPLICATE_SENDS,
    /** SENDs before the REP, with another opcode than SEND Only, or with another PSN than the REP's, dropped. */
    SENDS_DROPPED,
    /** Metadata SENDs whose content failed validation (length, alignment, size). */
    SENDS_INVALID,
    /** ACK frames sent. */
    ACKS_SENT,
    /** Frames the sink could not take (the peer's or our own timers recover). */
    SINK_FULL,
    /** Set-up attempts that connected (first attempts and reconnections). */
    CONNECTED,
    /** Set-up attempts that failed (first attempts and reconnections). */
    FAILED,
    /** Reconnections started: a negotiated region's QP went to the error state and a new REQ went out. */
    RECONNECT_ATTEMPTS,
    /** Reconnections that connected and re-armed the QP with the new parameters. */
    RECONNECTS,
    /** Reconnections whose set-up failed (another attempt follows after the back-off, if any is left). */
    RECONNECT_FAILURES,
    /** Regions given up: {@code connection.reconnectAttempts} in a row without progress; they stay in error. */
    RECONNECTS_EXHAUSTED,
    /** DREQ frames sent by {@link ConnectionManager#disconnect} (first and repeated). */
    DREQS_SENT,
    /** DREQs re-sent because no DREP came in time. */
    DREQ_TIMEOUTS,
    /** DREPs that completed a disconnection (the region is {@code DISCONNECTED}). */
    DREPS,
    /** Disconnections without a DREP after the last DREQ timed out (the region is {@code DISCONNECTED} anyway). */
    DISCONNECT_TIMEOUTS,
    /** DREQs from a collector that ended a connected region (answered with a DREP; the QP goes to the error state). */
    DREQS_IN,
    /** DREQs repeated by a collector for a region it already disconnected, answered with the DREP again. */
    DUPLICATE_DREQS,
    /** DREP frames sent. */
    DREPS_SENT,
    /** DREQs and DREPs whose communication IDs (and QPN, transaction ID) match no connection, dropped. */
    UNMATCHED_DISCONNECTS,
    /**
     * REJ frames sent: a REP refused (invalid QPN, no responder resources for atomics), so the collector stops
     * waiting.
     */
    REJS_SENT,
    /**
     * REPs accepted that grant fewer outstanding atomics (responder resources, at least 1) than the REQ asked for
     * ({@code keyIncrement.maxOutstandingAtomics}): the region's QP runs with the grant.
     */
    ATOMICS_REDUCED;

    private final String label = name().toLowerCase(Locale.ROOT).replace('_', '-');

    /**
     * @return the counter's display name, e.g. {@code duplicate-reps}.
     */
    public String label()
    {
        return label;
    }
}
