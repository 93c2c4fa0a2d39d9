package io.dta.appliance.engine;

/**
 * Every count the engine keeps: what came in, what went out, and each named reason a report or a response
 * was dropped. Nothing is dropped without incrementing exactly one of the {@code DROP_*} or
 * {@code RESPONSE_DROP_*} counters.
 * <p>
 * Reports are dropped whole before routing (malformed, no route, bad redundancy ...). After routing a report
 * becomes operations (a Key-Write with N = 4 is four WRITEs, an Append batch of 16 entries one WRITE, a postcard
 * record one WRITE for up to H hop reports), and the QP-level reasons ({@link #DROP_GRACE_PERIOD},
 * {@link #DROP_QP_ERROR}, {@link #DROP_BACKLOG_FULL}, {@link #DROP_ATOMIC_QUEUE_FULL}) still count
 * <em>reports</em> (translation.md §1): every operation a handler gives its {@link QueuePairSender} carries the
 * number of reports it is the carrier of, and a dropped operation adds that number. The carrier of a report is:
 * <ul>
 *     <li>Key-Write, Key-Increment: its first copy the QP admits (whatever happens to it later); when the QP
 *     admits none, its last copy, whose refusal counts it. A report of which at least one copy was admitted is
 *     therefore not dropped, even if other copies were refused.</li>
 *     <li>Append: the batch WRITE carries its entries.</li>
 *     <li>Postcard: the record WRITE carries every hop report taken into its cache entry (a repeated hop
 *     overwrites the earlier value and both count).</li>
 *     <li>Sketch-Merge: a column-run WRITE carries the column reports merged into its columns (the merged cells
 *     exist nowhere else); epoch headers carry none.</li>
 *     <li>Probes, NACK frames and essential re-sends carry none.</li>
 * </ul>
 * The operations behind those drops are counted by the {@code OPERATIONS_DROPPED_*} counters (not drop counters
 * in the sense of {@link #isDrop()}, so that {@link EngineCounters#totalDrops()} counts each report once).
 * <p>
 * With {@link #REPORTS_DELIVERED} and {@link #REPORTS_DROPPED_TX_FULL}, once the engine is flushed and every QP
 * quiescent, {@code REPORTS_TRANSLATED = REPORTS_DELIVERED + DROP_GRACE_PERIOD + DROP_QP_ERROR + DROP_BACKLOG_FULL
 * + DROP_ATOMIC_QUEUE_FULL + REPORTS_DROPPED_TX_FULL}. Before that, the difference is the reports still pending:
 * in an Append batch or the postcard cache, in a held frame, waiting for atomic credit, or in an essential ring
 * not yet acknowledged.
 */
public enum EngineCounter
{
    /** Frames handed to the engine. */
    FRAMES_IN("frames in"),
    /** Well-formed DTA reports seen. */
    REPORTS_IN("DTA reports in"),
    /**
     * Reports routed to a primitive handler: each one is later delivered ({@link #REPORTS_DELIVERED}) or dropped
     * at QP level (under its carrier's reason).
     */
    REPORTS_TRANSLATED("reports routed to a primitive"),
    /** RoCEv2 frames sent towards collectors. */
    ROCE_FRAMES_OUT("RoCEv2 frames out"),
    /** Zero-length probe WRITEs sent after an ACK timeout. */
    PROBES_OUT("ACK-timeout probes out"),
    /** NACKs sent to reporters for sequence gaps. */
    REPORTER_NACKS_OUT("reporter NACKs out"),
    /**
     * Reports of an Append list, a postcard flow or a sketch that another worker owns, handed to it (and counted
     * there as translated or dropped; here only in {@link #REPORTS_IN}).
     */
    REPORTS_HANDED_OFF("reports handed to their owner worker"),
    /** Responses to another worker's QP, handed to it. */
    RESPONSES_HANDED_OFF("responses handed to their QP's worker"),
    /** Reports handed to this worker by the others (their {@link #REPORTS_IN} counted them). */
    REPORTS_TAKEN_OVER("reports taken over from other workers"),
    /** Non-DTA, non-RoCE frames skipped (ARP, other UDP, IPv6 ...). */
    OTHER_FRAMES("other frames skipped"),
    /**
     * Replays only: RoCEv2 frames in the reports capture, skipped; the collector's responses are taken from the
     * responses capture alone ({@link TranslatorEngine#onReportsCaptureFrame}).
     */
    ROCE_FRAMES_IN_REPORTS_CAPTURE("RoCEv2 frames in the reports capture, skipped"),
    /**
     * Replays only: DTA reports (well-formed or not) in the responses capture, skipped; reports are translated from
     * the reports capture alone ({@link TranslatorEngine#onResponsesCaptureFrame}).
     */
    REPORTS_IN_RESPONSES_CAPTURE("DTA reports in the responses capture, skipped"),
    /** Reports with the immediate flag (carried, counted). */
    IMMEDIATE_REPORTS("reports with the immediate flag"),
    /** Reports with the essential flag. */
    ESSENTIAL_REPORTS("reports with the essential flag"),
    /** Append entries placed in a batch. */
    APPEND_ENTRIES("append entries batched"),
    /** Partial Append batches flushed by the idle timer or at shutdown. */
    APPEND_PARTIAL_FLUSHES("partial append batches flushed"),
    /** Postcard records written. */
    POSTCARD_RECORDS("postcard records written"),
    /** Postcard records written before complete because another flow took the cache entry. */
    POSTCARD_EVICTIONS("postcard records evicted by another flow"),
    /** Postcard records written before complete because the flow went idle. */
    POSTCARD_IDLE_FLUSHES("postcard records flushed idle"),
    /**
     * Postcard records that repeat hops of the flow's previous record, still in its cache entry, which the new
     * postcards did not report again: the WRITE does not replace a fuller record with a thinner one.
     */
    POSTCARD_CARRIED_RECORDS("postcard records rewritten with earlier hops"),
    /** Valid ACKs accepted. */
    ACKS_IN("ACKs accepted"),
    /** Valid ATOMIC ACKs accepted. */
    ATOMIC_ACKS_IN("ATOMIC ACKs accepted"),
    /** Valid NAK PSN sequence errors accepted (each one a resynchronisation). */
    NAK_SEQUENCE_ERRORS_IN("NAK PSN sequence errors (resyncs)"),
    /** Valid fatal NAKs (0x61, 0x62, 0x63) accepted: the QP stops. */
    NAK_FATAL_IN("fatal NAKs (QP stopped)"),
    /**
     * QPs of negotiated regions taken for dead: their probes went unanswered for connection.silenceTimeoutMillis
     * (the responder's QP died without a NAK); the QP stops as after a fatal NAK and is reconnected.
     */
    SILENT_QP_STOPS("QPs stopped: probes unanswered for the silence timeout"),
    /** RNR NAKs in the window (not expected for WRITE and atomics): a resync to their PSN after the timer. */
    NAK_RNR_IN("RNR NAKs"),
    /** Resynchronisations learned from a probe's answer or a responder ahead of us. */
    PROBE_RESYNCS("resyncs learned from probes"),
    /**
     * QPs that took up a restarted responder's PSN: it named a PSN outside the window (a NAK or ACK dropped as
     * {@link #RESPONSE_DROP_OUT_OF_WINDOW}) and then answered {@code QueuePairSender.RESTART_EVIDENCE_ANSWERS} tests in
     * a row as only a responder at that PSN can, so its QP lost what it knew of ours (a collector restarted under a
     * static region resumed from the list state file, or one ahead of a translator restarted after a crash); the QP
     * continues at that PSN and sends its unacknowledged essential operations again.
     */
    RESPONDER_RESTARTS("QPs continued at a restarted responder's PSN"),
    /** Reporters re-based because their sequence gap stayed unfilled for reports.sequenceTimeoutMicros. */
    REPORTER_SEQUENCE_RESETS("reporters re-based after an unfilled gap"),
    /** Essential operations re-sent after a resync showed they were not executed. */
    ESSENTIAL_RESENT("essential operations re-sent"),
    /** Sketch columns merged (each switch's column, in order, once). */
    SKETCH_COLUMNS_MERGED("sketch columns merged"),
    /**
     * Sketch saturations: Count-Min merges whose unsigned sum exceeded 2^32-1, Count sketch cells written clamped
     * to the int32 bounds.
     */
    SKETCH_CELLS_SATURATED("sketch cells saturated"),
    /**
     * NACKs sent to switches for a sketch column gap, the timer's re-sends ({@link #SKETCH_NACK_RETRIES}) and tail
     * NACKs ({@link #SKETCH_TAIL_NACKS}) too.
     */
    SKETCH_NACKS_OUT("sketch NACKs out"),
    /**
     * Sketch NACKs re-sent by the timer: a switch's column gap was still open {@code nackRetryMicros} (doubling with
     * each retry) after its last NACK, with no column from it since (the NACK or its resent columns were lost).
     * Also counted in {@link #SKETCH_NACKS_OUT}.
     */
    SKETCH_NACK_RETRIES("sketch NACKs re-sent by the retry timer"),
    /**
     * Sketch NACKs the timer sent to a switch that stopped short of its last column with no gap to show it (its
     * last columns were lost): no progress between two looks of the timer, {@code nackRetryMicros} apart, so silent
     * for at least that long. The tail is then a gap like any other: its re-sends count as
     * {@link #SKETCH_NACK_RETRIES}, giving it up as {@link #SKETCH_NACK_GAPS_ABANDONED}. Also counted in
     * {@link #SKETCH_NACKS_OUT}.
     */
    SKETCH_TAIL_NACKS("sketch NACKs for a silent switch's missing last columns"),
    /**
     * Sketch column gaps given up (missing tails included, see {@link #SKETCH_TAIL_NACKS}): {@code nackRetries}
     * timer re-sends went unanswered, so the switch is not asked again; its epoch closes incomplete without the
     * missing columns unless the switch resumes by itself.
     */
    SKETCH_NACK_GAPS_ABANDONED("sketch column gaps given up after the NACK retries"),
    /** RDMA WRITEs of merged sketch columns (runs of up to batchColumns columns). */
    SKETCH_COLUMN_WRITES("sketch column-run WRITEs"),
    /** Sketch epochs opened (each one an epoch-header WRITE with state open). */
    SKETCH_EPOCHS_OPENED("sketch epochs opened"),
    /** Sketch epochs closed complete: every switch sent every column. */
    SKETCH_EPOCHS_COMPLETED("sketch epochs completed"),
    /** Sketch epochs closed incomplete because epochTimeoutMicros passed. */
    SKETCH_EPOCHS_TIMED_OUT("sketch epochs closed incomplete: timeout"),
    /** Sketch epochs closed incomplete because a newer epoch needed their area. */
    SKETCH_EPOCHS_SUPERSEDED("sketch epochs closed incomplete: area taken by a newer epoch"),
    /** Sketch epochs closed incomplete at end of input or shutdown. */
    SKETCH_EPOCHS_FLUSHED("sketch epochs closed incomplete: flushed"),
    /**
     * Sketch epochs every switch completed but closed incomplete because one of their WRITEs (open header or a
     * column run) was dropped by a full essential backlog: collector memory lacks part of the merge.
     */
    SKETCH_EPOCHS_WRITE_LOST("sketch epochs closed incomplete: a WRITE was dropped"),

    /** Dropped: frame structurally malformed. */
    DROP_MALFORMED("dropped: malformed frame"),
    /** Dropped: report truncated. */
    DROP_TRUNCATED("dropped: truncated report"),
    /** Dropped: report length does not match its primitive. */
    DROP_BAD_LENGTH("dropped: bad report length"),
    /** Dropped: unknown DTA opcode. */
    DROP_UNKNOWN_OPCODE("dropped: unknown DTA opcode"),
    /** Dropped: fragmented IPv4 datagram. */
    DROP_FRAGMENTED("dropped: fragmented datagram"),
    /** Dropped: bad UDP checksum (only with reports.verifyChecksums). */
    DROP_BAD_CHECKSUM("dropped: bad UDP/IP checksum"),
    /** Dropped: no collector / list / region for the report. */
    DROP_NO_ROUTE("dropped: no route"),
    /** Dropped: the hand-off queue to the worker that owns the report's list, flow or sketch was full. */
    DROP_HAND_OFF_FULL("dropped: hand-off queue to the owner worker full"),
    /** Dropped: redundancy N outside 1..redundancy.max. */
    DROP_BAD_REDUNDANCY("dropped: bad redundancy"),
    /** Dropped: postcard hop outside 1..postcards.hops. */
    DROP_BAD_HOP("dropped: bad postcard hop"),
    /** Dropped: a DTA opcode the decoder accepts but no handler serves. */
    DROP_UNSUPPORTED_PRIMITIVE("dropped: primitive not supported"),
    /** Dropped: sketch column whose rows byte differs from the sketch's configured rows. */
    DROP_SKETCH_BAD_ROWS("dropped: sketch column with wrong rows"),
    /** Dropped: sketch column from a switch id at or above the sketch's switches. */
    DROP_SKETCH_BAD_SWITCH("dropped: sketch column from an unknown switch id"),
    /** Dropped: sketch column index at or above the sketch's columns. */
    DROP_SKETCH_BAD_COLUMN("dropped: sketch column index out of range"),
    /** Dropped: sketch column for an epoch older than the one its area holds now. */
    DROP_SKETCH_STALE_EPOCH("dropped: sketch column for a stale epoch"),
    /** Dropped: sketch column for an epoch already closed (complete, timed out or flushed). */
    DROP_SKETCH_EPOCH_CLOSED("dropped: sketch column for a closed epoch"),
    /** Dropped: sketch column behind the switch's next expected column (a duplicate, already merged). */
    DROP_SKETCH_DUPLICATE("dropped: duplicate sketch column"),
    /** Dropped: sketch column ahead of the switch's next expected column (a gap; NACKed, rate-limited). */
    DROP_SKETCH_GAP("dropped: sketch column after a gap (NACKed)"),
    /**
     * Dropped: sketch column for a newer epoch whose area still writes the epoch it held (closed, its columns and
     * final header waiting for room in the essential backlog). Not NACKed: the switch's next column after the area
     * is free opens the epoch and is NACKed as a gap from column 0.
     */
    DROP_SKETCH_AREA_BUSY("dropped: sketch column for an epoch area still being written"),
    /**
     * Reports dropped: their carrier was refused during a QP's grace period or while it probes, or was the held
     * frame abandoned at a resynchronisation. Operations: {@link #OPERATIONS_DROPPED_GRACE_PERIOD}.
     */
    DROP_GRACE_PERIOD("reports dropped: grace period or probing"),
    /**
     * Reports dropped: their carrier was refused by a QP in the error state, or was the held frame abandoned when
     * the QP stopped or reconnected. Operations: {@link #OPERATIONS_DROPPED_QP_ERROR}.
     */
    DROP_QP_ERROR("reports dropped: QP in error"),
    /**
     * Essential, retransmittable reports refused before translation because their QP's essential ring had no room for
     * their operations: NACKed to the reporter, which keeps them and sends them again (translation.md §7), so nothing
     * is lost; the reporter's sequence is taken back to before the report.
     */
    DROP_BACKLOG_FULL_NACKED("essential reports NACKed to their reporter: essential backlog full"),
    /**
     * Reports dropped: their essential carrier found the essential ring full. Operations:
     * {@link #OPERATIONS_DROPPED_BACKLOG_FULL}.
     */
    DROP_BACKLOG_FULL("reports dropped: essential backlog full"),
    /**
     * Reports dropped: their carrier found the queue of atomics waiting for credit full. Operations:
     * {@link #OPERATIONS_DROPPED_ATOMIC_QUEUE_FULL}.
     */
    DROP_ATOMIC_QUEUE_FULL("reports dropped: atomic queue full"),
    /** Dropped: reporter sequence gap (answered with a NACK). */
    DROP_SEQUENCE_GAP("dropped: reporter sequence gap (NACKed)"),
    /** Dropped: a repeat of the reporter's last in-order report (translated once already). */
    DROP_SEQUENCE_DUPLICATE("dropped: duplicate of the last in-order report"),
    /** Dropped: reporter table full, report not tracked. */
    DROP_REPORTER_TABLE_FULL("dropped: reporter table full"),
    /**
     * Dropped: the output could not take the frame, at its claim, at its commit ({@link SendOutcome#LOST}) or (live
     * DPDK) at the port's tx burst, when the frame is given back with {@link Delivery#notTaken}.
     */
    DROP_TX_FULL("frames dropped: transmit full"),

    /** Response dropped: not from a configured collector IP. */
    RESPONSE_DROP_UNKNOWN_SOURCE("response dropped: unknown source IP"),
    /**
     * Response dropped: addressed to another host's IP. Local QPNs are unique per host only, so a mirrored or shared
     * collector link carries responses to other requesters with QPNs like ours.
     */
    RESPONSE_DROP_OTHER_DESTINATION("response dropped: destination IP not the translator's"),
    /** Response dropped: destination QPN is not one of ours. */
    RESPONSE_DROP_UNKNOWN_QPN("response dropped: unknown QPN"),
    /** Response dropped: the hand-off queue to the worker that owns its QP was full. */
    RESPONSE_DROP_HAND_OFF_FULL("response dropped: hand-off queue to the QP's worker full"),
    /**
     * Response dropped: its P_Key is not of the translator's partition ({@code translator.pKey}); a receiver drops
     * such a packet silently (rocev2-reference.md §3.1), so it must not rewind or acknowledge anything.
     */
    RESPONSE_DROP_BAD_PKEY("response dropped: P_Key mismatch"),
    /**
     * Response dropped: its IPv4 header checksum, or its UDP checksum when not zero, is wrong. The ICRC masks both,
     * so only this check catches them; a kernel or NIC drops such a frame before RoCE sees it.
     */
    RESPONSE_DROP_BAD_CHECKSUM("response dropped: bad IPv4/UDP checksum"),
    /** Response dropped: ICRC invalid. */
    RESPONSE_DROP_BAD_ICRC("response dropped: bad ICRC"),
    /** Response dropped: PSN outside the QP's outstanding window. */
    RESPONSE_DROP_OUT_OF_WINDOW("response dropped: PSN outside window"),
    /** Response dropped: a RoCEv2 opcode the requester does not expect. */
    RESPONSE_DROP_UNEXPECTED_OPCODE("response dropped: unexpected opcode"),
    /** Response dropped: the QP is in the error state. */
    RESPONSE_DROP_QP_ERROR("response dropped: QP in error"),
    /**
     * Response dropped: an AETH syndrome that is neither an ACK, an RNR NAK nor one of the NAK codes 0x60..0x63, or
     * any syndrome but an ACK on an ATOMIC ACKNOWLEDGE.
     */
    RESPONSE_DROP_RESERVED_SYNDROME("response dropped: reserved AETH syndrome"),
    /**
     * Response dropped: a NAK 0x60 or RNR NAK for a PSN at or before the one the QP already resynchronised to in the
     * same episode (a delayed or duplicated copy of the NAK acted on).
     */
    RESPONSE_DROP_DUPLICATE_NAK("response dropped: duplicate NAK"),

    /**
     * Operations (WRITEs, FETCH_ADDs, held frames) dropped in a grace period or while probing; the reports they
     * carried are in {@link #DROP_GRACE_PERIOD}. A held frame abandoned at a resynchronisation counts here even
     * when it was an essential operation, which its ring sends again.
     */
    OPERATIONS_DROPPED_GRACE_PERIOD("operations dropped: grace period or probing"),
    /** Operations dropped because the QP is in the error state; reports in {@link #DROP_QP_ERROR}. */
    OPERATIONS_DROPPED_QP_ERROR("operations dropped: QP in error"),
    /** Essential operations dropped because the essential ring was full; reports in {@link #DROP_BACKLOG_FULL}. */
    OPERATIONS_DROPPED_BACKLOG_FULL("operations dropped: essential backlog full"),
    /** FETCH_ADDs dropped because the atomic queue was full; reports in {@link #DROP_ATOMIC_QUEUE_FULL}. */
    OPERATIONS_DROPPED_ATOMIC_QUEUE_FULL("operations dropped: atomic queue full"),
    /**
     * Reports delivered: their carrier left for the collector (handed to the output; live, taken by the port's tx
     * burst), or, when essential, was acknowledged (in an open-loop replay: sent). A report is delivered once, however
     * often its essential carrier was re-sent; a non-essential carrier the responder loses after it left (a resync)
     * counts delivered.
     */
    REPORTS_DELIVERED("reports delivered"),
    /**
     * Reports lost with a non-essential carrier the output could not take (the frame is in {@link #DROP_TX_FULL};
     * an essential carrier stays in its ring and is sent again).
     */
    REPORTS_DROPPED_TX_FULL("reports dropped: transmit full");

    private final String description;
    private final boolean drop;

    EngineCounter(final String description)
    {
        this.description = description;
        this.drop = name().startsWith("DROP_") || name().startsWith("RESPONSE_DROP_");
    }

    /**
     * @return true for the counters of dropped reports, operations, frames and responses.
     */
    public boolean isDrop()
    {
        return drop;
    }

    /**
     * @return human-readable description.
     */
    public String description()
    {
        return description;
    }
}
