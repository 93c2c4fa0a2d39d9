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
    /** NAK frames sent (0x60, 0x61, 0x62). */
    NAKS_SENT;

    private final String label = name().toLowerCase(Locale.ROOT).replace('_', '-');

    /**
     * @return the counter's display name, e.g. {@code bad-icrc}.
     */
    public String label()
    {
        return label;
    }
}
