package io.dta.collector.responder;

import java.util.Locale;

/**
 * The soft responder's named counters: every frame ends up counted once under a drop reason or as processed,
 * and every response sent is counted by kind.
 */
public enum ResponderCounter
{
    /** Frames offered to the responder. */
    FRAMES_IN,
    /** Not a RoCEv2 frame (other EtherType, protocol or port). */
    NOT_ROCE,
    /** A RoCEv2 frame the decoder refused (truncated, bad lengths, bad pad ...). */
    MALFORMED,
    /** IPv4 header checksum wrong, or a non-zero UDP checksum wrong (the kernel drops these before rxe). */
    BAD_CHECKSUM,
    /** BTH TVer not 0. */
    BAD_TVER,
    /** ICRC mismatch (or not verifiable: IP options). */
    BAD_ICRC,
    /** Opcode of another transport (UC, UD, CNP, ...). */
    NON_RC_OPCODE,
    /** RC opcode a responder never receives (ACK, READ response, reserved). */
    UNEXPECTED_OPCODE,
    /** DestQP names no hosted QP. */
    UNKNOWN_QPN,
    /** IPv4 destination is not the collector of the QP. */
    BAD_IP_DST,
    /** IPv4 source is not the translator. */
    BAD_IP_SRC,
    /** P_Key does not match the partition. */
    BAD_PKEY,
    /** Dropped because the QP is in the error state. */
    QP_ERROR_DROPS,
    /** Requests with a PSN behind the expected PSN. */
    DUPLICATES,
    /** Duplicate atomics answered from the saved results. */
    DUPLICATE_ATOMICS_REPLAYED,
    /** Duplicate atomics without a saved result, dropped. */
    DUPLICATE_ATOMICS_DROPPED,
    /** Out-of-sequence requests that triggered a NAK 0x60. */
    OUT_OF_SEQUENCE_NAKED,
    /** Out-of-sequence requests dropped silently (a NAK is already outstanding). */
    OUT_OF_SEQUENCE_DROPPED,
    /** Requests refused with NAK 0x61 (opcode order, length, alignment, unsupported operation). */
    INVALID_REQUESTS,
    /** Requests refused with NAK 0x62 (R_Key or bounds). */
    REMOTE_ACCESS_ERRORS,
    /** Requests that need a receive WQE (SEND, WRITE with immediate), refused with an RNR NAK: none is posted. */
    RNR_NAKS,
    /** RDMA WRITE packets executed. */
    WRITE_PACKETS,
    /** Payload bytes written to memory. */
    WRITE_BYTES,
    /** Atomic operations executed. */
    ATOMICS,
    /** Messages completed (MSN increments). */
    MESSAGES,
    /** ACK frames sent (fresh and duplicate re-ACKs). */
    ACKS_SENT,
    /** ATOMIC ACK frames sent (fresh and replayed). */
    ATOMIC_ACKS_SENT,
    /** NAK frames sent (0x60, 0x61, 0x62, RNR). */
    NAKS_SENT,
    /** Requests to a negotiated QP that has no connection yet, dropped. */
    NOT_CONNECTED,
    /**
     * Frames to a QPN in time-wait: the number of a negotiated QP's previous connection, retired when a new REQ
     * connected the QP under a fresh QPN, so that a late request of the old connection is not executed on the new one.
     */
    TIME_WAIT_DROPS,
    /** UD SENDs to QP1 (connection management MADs) received. */
    CM_MADS_IN,
    /** MADs dropped as malformed: wrong length, Q_Key, class or method. */
    CM_BAD_MADS,
    /** CM messages this collector does not handle (MRA, LAP, ...), dropped. */
    CM_UNSUPPORTED,
    /** REQs accepted (a new connection each). */
    CM_REQS_ACCEPTED,
    /** Duplicate REQs answered with the REP again. */
    CM_DUPLICATE_REQS,
    /** REQs of an established connection (stale duplicates), dropped. */
    CM_STALE_REQS,
    /** REQs refused with a REJ (unknown service port, not RC, bad QPN, no QP left for a new connection). */
    CM_REQS_REJECTED,
    /**
     * REQs of a new connection to a region whose every QP serves one and that has its most QPs
     * ({@link SoftResponder#maxConnectionsPerRegion(int)}): REJ "no QP available"; also in {@link #CM_REQS_REJECTED}.
     */
    CM_CONNECTION_LIMIT_REJECTS,
    /** REP frames sent (first and repeated). */
    CM_REPS_SENT,
    /** REPs re-sent because no RTU came in time. */
    CM_REP_TIMEOUTS,
    /** Connection attempts abandoned after the last REP timed out. */
    CM_CONNECT_TIMEOUTS,
    /** RTUs that completed a connection. */
    CM_RTUS,
    /** RTUs and REJs matching no connection in progress (or repeated), dropped. */
    CM_UNMATCHED,
    /** REJs received that ended a connection in progress. */
    CM_REJS_IN,
    /** REJ frames sent. */
    CM_REJS_SENT,
    /** DREQs from the translator that ended a connection (answered with a DREP; the QP listens again). */
    CM_DREQS_IN,
    /** DREQs repeated by the translator for a connection already ended by them, answered with the DREP again. */
    CM_DUPLICATE_DREQS,
    /** DREP frames sent (first and repeated). */
    CM_DREPS_SENT,
    /** DREQ frames sent by this collector to end a connection (first and repeated). */
    CM_DREQS_SENT,
    /** DREQs re-sent because no DREP came in time. */
    CM_DREQ_TIMEOUTS,
    /** Disconnections without a DREP after the last DREQ timed out (the QP listens again all the same). */
    CM_DISCONNECT_TIMEOUTS,
    /** DREPs that completed a disconnection started by this collector. */
    CM_DREPS_IN,
    /** DREQs and DREPs matching no connection (communication IDs, QPN, transaction ID), dropped. */
    CM_UNMATCHED_DISCONNECTS,
    /** Metadata SEND frames sent (first and repeated). */
    METADATA_SENDS,
    /** Metadata SENDs re-sent because no ACK came in time. */
    METADATA_SEND_TIMEOUTS,
    /** Metadata SENDs acknowledged. */
    METADATA_ACKED,
    /** Metadata SENDs never acknowledged: retries exhausted, QP put in the error state. */
    METADATA_SEND_FAILED,
    /** ACKs and NAKs that acknowledge no outstanding metadata SEND (stale, duplicate or forged), dropped. */
    STALE_ACKS;

    private final String label = name().toLowerCase(Locale.ROOT).replace('_', '-');

    /**
     * @return the counter's display name, e.g. {@code bad-icrc}.
     */
    public String label()
    {
        return label;
    }
}
