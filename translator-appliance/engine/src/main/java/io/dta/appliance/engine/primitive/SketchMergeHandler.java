package io.dta.appliance.engine.primitive;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.codec.SketchColumnFlyweight;
import io.dta.config.SketchConfig;

/**
 * Sketch-Merge for one configured sketch (translation.md §3, docs/sketch.md): merges the columns that the
 * switches send, in order, per epoch, and writes the network-wide sketch to the collector's epoch ring.
 * <p>
 * Epoch E lives in area {@code E mod epochs}, so at most {@code epochs} epochs are open at once. Per open epoch
 * the handler keeps the merged cells (an int per cell, column-major as in collector memory), per switch the next
 * expected column, and per column how many switches contributed. Switches send their columns in order, so the
 * columns every switch contributed to form a prefix; it is written in runs of {@code batchColumns} columns, each
 * run one RDMA WRITE (a WRITE Only, or First/Middle/Last when the run exceeds the path MTU: the QP splits it, so
 * the handler deals in WRITEs and its counters count WRITEs, not packets). The epoch header is written with state
 * open when the epoch opens and with state complete (every switch sent every column) or incomplete (timeout, a newer
 * epoch needing the area, flush) when it closes; an incomplete epoch first gets every column not yet written, with
 * what it has.
 * <p>
 * Every WRITE goes through the QP's essential path: a merged column exists nowhere else once the switches moved
 * on, and re-sending a WRITE after a resync is idempotent. A WRITE the essential ring has no room for waits, in its
 * area's order (open header, runs, final header), and goes when ACKs make room; an area still writing a closed epoch
 * takes no newer epoch until its final header went ({@code DROP_SKETCH_AREA_BUSY}). Only at the very end of a run
 * ({@link #abandonPendingWrites}) is what still waits dropped, counted. Everything is preallocated from the
 * configuration; a column costs no allocation.
 * <p>
 * Report accounting: a column-run WRITE carries the column reports merged into its columns (each merged report
 * falls in exactly one run of its epoch), so a run the QP drops (forced into a full essential ring at the end) counts
 * them as dropped reports; headers carry none.
 * <p>
 * NACK retries: a NACK or the columns it asks for may be lost, and a switch that had already sent its last column
 * would then never be asked again. So after a {@link #NACK} outcome the engine hands the report's addressing to
 * {@link #armNackRetry}, kept per (epoch area, switch) in preallocated arrays, and {@link #poll} NACKs the switch
 * again from its next expected column when the gap is still open {@code nackRetryMicros} later, doubling the
 * interval with each retry, up to {@code nackRetries} times; then the gap is given up. A column that makes progress
 * restarts the interval and the count (the switch is answering), the gap being filled (the switch's next expected
 * column passed every column seen from it) or the epoch closing ends the retries. A retry the output cannot take
 * counts for nothing and is tried again after the same interval.
 * <p>
 * Tail loss: a switch that loses only its last columns shows no gap, but the handler knows the sketch's width. So
 * the same timer also watches every switch that has started an epoch and not yet sent its last column: the
 * {@link #MERGED_FIRST} outcome (the switch's first column merged) hands the report's addressing to
 * {@link #watchTail}, and after a gap fills the watch goes on. The timer looks at watched switches on a grid of
 * {@code nackRetryMicros} on the engine clock (one scan serves every switch) and NACKs, from its next expected
 * column, a switch that made no progress between two looks; from then on that tail is a gap ending at the last
 * column, retried like any other. The watch costs a column nothing: progress is read by the timer.
 */
public final class SketchMergeHandler
{
    /** {@link #onColumn} outcome: the column was merged. */
    public static final int MERGED = 0;
    /** {@link #onColumn} outcome: the column was dropped and counted. */
    public static final int DROPPED = 1;
    /** {@link #onColumn} outcome: a gap; dropped, counted, and a NACK for {@link #nackColumn()} is due. */
    public static final int NACK = 2;
    /**
     * {@link #onColumn} outcome: the column was merged and opened its switch's progress in the epoch; hand the
     * report's addressing to {@link #watchTail} so the switch can be NACKed if it stops short of its last column.
     */
    public static final int MERGED_FIRST = 3;

    /**
     * After a NACK, further gap columns of the same switch and epoch are not NACKed again until the switch makes
     * progress or this long has passed (the NACK or the resent column may have been lost).
     */
    public static final long NACK_REARM_NANOS = 100_000;

    /** Epoch header state: never written. */
    public static final int STATE_EMPTY = 0;
    /** Epoch header state: open, cells not yet trustworthy. */
    public static final int STATE_OPEN = 1;
    /** Epoch header state: complete. */
    public static final int STATE_COMPLETE = 2;
    /** Epoch header state: closed incomplete. */
    public static final int STATE_INCOMPLETE = 3;

    private final int sketchId;
    private final int rows;
    private final int columns;
    private final int switches;
    private final int epochs;
    private final QueuePairSender sender;
    private final EngineCounters counters;
    private final SketchAreas areas;
    private final SketchCells cells;
    private final SketchAreaWriter writer;
    private final SketchNackRetries retries;
    private int nackColumn;

    /**
     * A handler whose NACK retries go nowhere ({@link SketchNackSink#NONE}).
     *
     * @param config   the sketch.
     * @param sender   the sketch's QP, built with room for {@link #maxPayload(SketchConfig)}.
     * @param counters engine counters.
     */
    public SketchMergeHandler(final SketchConfig config, final QueuePairSender sender, final EngineCounters counters)
    {
        this(config, sender, counters, SketchNackSink.NONE);
    }

    /**
     * @param config   the sketch.
     * @param sender   the sketch's QP, built with room for {@link #maxPayload(SketchConfig)}.
     * @param counters engine counters.
     * @param nackSink where the timer's NACK retries go.
     */
    public SketchMergeHandler(
        final SketchConfig config, final QueuePairSender sender, final EngineCounters counters,
        final SketchNackSink nackSink)
    {
        this.sketchId = (int)config.id();
        this.rows = config.rows();
        this.columns = config.columns();
        this.switches = config.switches();
        this.epochs = config.epochs();
        this.sender = sender;
        this.counters = counters;
        areas = new SketchAreas(config);
        cells = new SketchCells(config, counters);
        writer = new SketchAreaWriter(config, areas, cells, sender, counters);
        retries = new SketchNackRetries(config, areas, counters, nackSink);
    }

    /**
     * The largest WRITE payload of a sketch: a run of {@code batchColumns} columns, or the epoch header.
     *
     * @param config the sketch.
     * @return bytes.
     */
    public static int maxPayload(final SketchConfig config)
    {
        return (int)Math.max(SketchConfig.EPOCH_HEADER_BYTES, config.runBytes());
    }

    /**
     * @return the sketch id reports carry.
     */
    public int sketchId()
    {
        return sketchId;
    }

    /**
     * @return epochs open now.
     */
    public int openEpochs()
    {
        return areas.openAreas();
    }

    /**
     * @return epoch areas with WRITEs waiting for room in the essential backlog (an open header, completed runs, or
     * the rest of a closed epoch).
     */
    public int pendingAreas()
    {
        return writer.pendingAreas();
    }

    /**
     * @return true when no WRITE waits for room, or when none can ever get it (the QP is in the error state; a
     * reconnection re-sends what its ring holds, and room comes after that).
     */
    public boolean isQuiescent()
    {
        return 0 == writer.pendingAreas() || QueuePairSender.State.ERROR == sender.state();
    }

    /**
     * @return after a {@link #NACK} outcome, the column the switch must resend from.
     */
    public int nackColumn()
    {
        return nackColumn;
    }

    /**
     * @return (switch, epoch) pairs the timer is armed for: gaps whose NACK it will re-send unless the gap fills
     * first, and switches it watches for a missing tail.
     */
    public int armedNackRetries()
    {
        return retries.armed();
    }

    /**
     * When {@link #poll(long)} will next have work: the earliest epoch timeout or NACK retry.
     *
     * @param limitNanos returned when no timer is due earlier.
     * @return the earliest of those before {@code limitNanos}, else {@code limitNanos}.
     */
    public long nextTimerNanos(final long limitNanos)
    {
        long due = limitNanos;
        if (0 != areas.openAreas() && areas.nextDeadlineNanos() - due < 0)
        {
            due = areas.nextDeadlineNanos();
        }
        if (0 != retries.armed() && retries.nextRetryNanos() - due < 0)
        {
            due = retries.nextRetryNanos();
        }
        // Due at once while room is there for a waiting WRITE; nothing to do while the ring stays full.
        if (0 != writer.pendingAreas() && sender.hasEssentialRoom() && writer.stalledSinceNanos() - due < 0)
        {
            due = writer.stalledSinceNanos();
        }
        return due;
    }

    /**
     * After a {@link #NACK} outcome, once the NACK was sent: keeps the report's addressing for the switch and arms
     * its retry, due {@code nackRetryMicros} from now (a later NACK of the same gap re-arms it with a fresh count).
     * Does nothing without a preceding {@link #NACK} outcome or with {@code nackRetries} 0.
     *
     * @param mac          the switch's MAC (the report's Ethernet source).
     * @param ip           the switch's IPv4 address (the report's source).
     * @param vlanTagCount the report's VLAN tags, 0..2.
     * @param vlanTags     the tags, packed as {@link SketchNackSink} describes.
     * @param nowNanos     engine clock.
     */
    public void armNackRetry(
        final long mac, final int ip, final int vlanTagCount, final long vlanTags, final long nowNanos)
    {
        retries.armNackRetry(mac, ip, vlanTagCount, vlanTags, nowNanos);
    }

    /**
     * After a {@link #MERGED_FIRST} outcome: keeps the report's addressing for the switch and watches it for a
     * missing tail: at the first look of the timer at least {@code nackRetryMicros} from now (looks fall on
     * multiples of {@code nackRetryMicros} of the engine clock) and at each look after it, a switch that has not
     * sent its last column and made no progress since the previous look is NACKed from its next expected column.
     * Does nothing without a preceding {@link #MERGED_FIRST} outcome.
     *
     * @param mac          the switch's MAC (the report's Ethernet source).
     * @param ip           the switch's IPv4 address (the report's source).
     * @param vlanTagCount the report's VLAN tags, 0..2.
     * @param vlanTags     the tags, packed as {@link SketchNackSink} describes.
     * @param nowNanos     engine clock.
     */
    public void watchTail(
        final long mac, final int ip, final int vlanTagCount, final long vlanTags, final long nowNanos)
    {
        retries.watchTail(mac, ip, vlanTagCount, vlanTags, nowNanos);
    }

    /**
     * Takes one column report.
     *
     * @param column   the decoded sub-header (all its counters present).
     * @param nowNanos engine clock.
     * @return {@link #MERGED}, {@link #MERGED_FIRST}, {@link #DROPPED} or {@link #NACK}.
     */
    public int onColumn(final SketchColumnFlyweight column, final long nowNanos)
    {
        retries.clearReplySlot();
        final int c = column.column();
        final EngineCounter malformed = malformed(column);
        if (null != malformed)
        {
            counters.increment(malformed);
            return DROPPED;
        }
        final long epoch = column.epoch();
        final int area = (int)(epoch % epochs);
        final EngineCounter unwanted = takeEpoch(area, epoch, nowNanos);
        if (null != unwanted)
        {
            counters.increment(unwanted);
            return DROPPED;
        }
        final int slot = areas.firstSlot(area) + column.switchId();
        final int expected = areas.nextColumn[slot];
        if (c < expected)
        {
            counters.increment(EngineCounter.DROP_SKETCH_DUPLICATE);
            return DROPPED;
        }
        if (c > expected)
        {
            counters.increment(EngineCounter.DROP_SKETCH_GAP);
            if (retries.gap(slot, c, nowNanos))
            {
                nackColumn = expected;
                return NACK;
            }
            return DROPPED;
        }
        cells.merge(area, c * rows, column);
        counters.increment(EngineCounter.SKETCH_COLUMNS_MERGED);
        areas.nextColumn[slot] = c + 1;
        final int outcome = retries.progress(slot, c, nowNanos) ? MERGED_FIRST : MERGED;
        if (cells.contribute(area, c) == switches && c == areas.completed[area])
        {
            prefixGrew(area, c, nowNanos);
        }
        return outcome;
    }

    /**
     * @return the reason to drop a column whose rows, switch or column the sketch does not have, or null.
     */
    private EngineCounter malformed(final SketchColumnFlyweight column)
    {
        if (column.rows() != rows)
        {
            return EngineCounter.DROP_SKETCH_BAD_ROWS;
        }
        if (column.switchId() >= switches)
        {
            return EngineCounter.DROP_SKETCH_BAD_SWITCH;
        }
        return column.column() >= columns ? EngineCounter.DROP_SKETCH_BAD_COLUMN : null;
    }

    /**
     * Finds the column's epoch its area: the open epoch itself, or a newer one that opens there (superseding an open
     * older epoch).
     *
     * @return the reason to drop the column (a stale or closed epoch, an area still writing a closed one), or null.
     */
    private EngineCounter takeEpoch(final int area, final long epoch, final long nowNanos)
    {
        final int state = areas.state[area];
        if (STATE_EMPTY != state && areas.epoch[area] > epoch)
        {
            return EngineCounter.DROP_SKETCH_STALE_EPOCH;
        }
        if (STATE_EMPTY == state || areas.epoch[area] < epoch)
        {
            if (STATE_OPEN == state)
            {
                close(area, SketchAreaWriter.CLOSED_SUPERSEDED, nowNanos);
            }
            if (writer.closing(area))
            {
                return EngineCounter.DROP_SKETCH_AREA_BUSY;
            }
            open(area, epoch, nowNanos);
        }
        else if (STATE_OPEN != state)
        {
            return EngineCounter.DROP_SKETCH_EPOCH_CLOSED;
        }
        return null;
    }

    /**
     * Every switch has now contributed to column {@code c}, the first column of the area not complete: the complete
     * prefix grows, and the epoch closes complete or a run is written when that makes one.
     */
    private void prefixGrew(final int area, final int c, final long nowNanos)
    {
        int completed = c + 1;
        while (completed < columns && cells.contributors(area, completed) == switches)
        {
            completed++;
        }
        areas.completed[area] = completed;
        if (completed == columns)
        {
            close(area, SketchAreaWriter.CLOSED_COMPLETE, nowNanos);
        }
        else if (writer.runDue(area))
        {
            writer.prefixGrew(area, nowNanos);
        }
    }

    private void open(final int area, final long epoch, final long nowNanos)
    {
        areas.open(area, epoch, nowNanos);
        cells.clear(area);
        retries.opened(area);
        counters.increment(EngineCounter.SKETCH_EPOCHS_OPENED);
        writer.opened(area, nowNanos);
    }

    private void close(final int area, final int why, final long nowNanos)
    {
        areas.close(area, SketchAreaWriter.CLOSED_COMPLETE == why);
        retries.closed(area);
        writer.closed(area, why, nowNanos);
    }

    /**
     * End of a run (a replay's end, a live drain over, the demo's end): whatever still waits for room is written now,
     * oldest epoch first; what the full ring cannot take is dropped and counted ({@code OPERATIONS_DROPPED_BACKLOG_FULL},
     * the column reports merged into a dropped run as {@code DROP_BACKLOG_FULL}), and its epoch closes incomplete.
     * Nothing stays unaccounted for.
     *
     * @param nowNanos engine clock.
     */
    public void abandonPendingWrites(final long nowNanos)
    {
        writer.abandonPendingWrites(nowNanos);
    }

    /**
     * Runs the timers: closes, as incomplete, every epoch open for longer than {@code epochTimeoutMicros}, oldest
     * epoch first; then re-sends the NACKs whose retry is due, or gives their gaps up when {@code nackRetries}
     * retries went unanswered, and looks at the switches watched for a missing tail; then writes what waits for room
     * in the essential ring, while it has room. Cheap when nothing is due.
     *
     * @param nowNanos engine clock.
     * @return epochs closed plus retries and tail watches that came due plus areas whose waiting WRITEs all went.
     */
    public int poll(final long nowNanos)
    {
        int work = 0;
        if (0 != areas.openAreas() && nowNanos - areas.nextDeadlineNanos() >= 0)
        {
            int area;
            while ((area = areas.oldestOpen(nowNanos - areas.timeoutNanos)) >= 0)
            {
                close(area, SketchAreaWriter.CLOSED_TIMEOUT, nowNanos);
                work++;
            }
            areas.recomputeDeadline();
        }
        // After the timeouts: an epoch closing now gets no retry.
        if (0 != retries.armed() && nowNanos - retries.nextRetryNanos() >= 0)
        {
            work += retries.poll(nowNanos);
        }
        if (0 != writer.pendingAreas() && sender.hasEssentialRoom())
        {
            work += writer.writePending(nowNanos);
        }
        return work;
    }

    /**
     * End of input or shutdown: closes every open epoch as incomplete (a complete epoch is already closed), oldest
     * first, writing every column not yet written and the final header as far as the essential ring has room; the
     * rest waits for ACKs to make room ({@link #poll}), or for {@link #abandonPendingWrites} at the very end.
     *
     * @param nowNanos engine clock.
     */
    public void flush(final long nowNanos)
    {
        int area;
        while ((area = areas.oldestOpen(Long.MAX_VALUE)) >= 0)
        {
            close(area, SketchAreaWriter.CLOSED_FLUSH, nowNanos);
        }
    }
}
