package io.dta.appliance.engine.primitive;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.codec.SketchColumnFlyweight;
import io.dta.config.SketchConfig;
import io.dta.config.SketchType;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

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

    /** Epoch header offsets (little-endian, docs/sketch.md). */
    static final int HEADER_EPOCH_OFFSET = 0;
    static final int HEADER_STATE_OFFSET = 4;
    static final int HEADER_TYPE_OFFSET = 5;
    static final int HEADER_ROWS_OFFSET = 6;
    static final int HEADER_COLUMNS_OFFSET = 8;
    static final int HEADER_SWITCHES_OFFSET = 12;
    static final int HEADER_CONTRIBUTORS_OFFSET = 14;
    static final int HEADER_COMPLETE_COLUMNS_OFFSET = 16;
    static final int HEADER_BITMAP_OFFSET = 32;

    private static final int CLOSED_COMPLETE = 0;
    private static final int CLOSED_TIMEOUT = 1;
    private static final int CLOSED_SUPERSEDED = 2;
    private static final int CLOSED_FLUSH = 3;
    private static final int NOT_CLOSING = -1;

    // What the timer does for an (area, switch): nothing; re-send the NACK of an open gap when due (progress, seen
    // per column, restarts the interval); or watch for a missing tail (progress read by the timer at each look).
    private static final byte RETRY_OFF = 0;
    private static final byte RETRY_GAP = 1;
    private static final byte RETRY_TAIL = 2;

    private final int sketchId;
    private final SketchType type;
    private final int typeCode;
    private final int rows;
    private final int columns;
    private final int switches;
    private final int batchColumns;
    private final int epochs;
    private final long timeoutNanos;
    private final long baseAddress;
    private final long epochBytes;
    private final QueuePairSender sender;
    private final EngineCounters counters;

    private final long[] areaEpoch;
    private final byte[] areaState;
    private final long[] areaOpenedNanos;
    private final int[] areaCompleted;
    private final int[] areaWritten;
    private final boolean[] areaWriteLost;
    // Writes wait for room in the essential ring instead of being dropped (a merged column exists nowhere else): an
    // area's open header, the runs of its completed prefix and, once it closes, its other runs and final header go
    // out in that order as room comes, from onColumn and then from poll. A closing area keeps why it closed until its
    // final header is out, and takes no newer epoch before then.
    private final boolean[] areaHeaderPending;
    private final int[] areaCloseWhy;
    private final boolean[] areaPending;
    private int pendingAreas;
    private long stalledSinceNanos;
    private final int[][] cells;
    private final long[][] sums;
    private final int[][] contributions;
    private final int[] nextColumn;
    private final boolean[] nackArmed;
    private final long[] nackNanos;
    private int openAreas;
    private long nextDeadlineNanos;
    private int nackColumn;

    // NACK retries, per (area, switch) like nextColumn: the end of the gap (one past the highest column seen from
    // the switch, or columns once its tail was NACKed; the gap is open while nextColumn is below it), what the timer
    // does for it, retries sent, when it is due next, the next expected column at the last look of a tail watch, and
    // the addressing of the report that was NACKed or that opened the switch's progress.
    private final long retryNanos;
    private final int maxRetries;
    private final SketchNackSink nackSink;
    private final int[] seenEnd;
    private final byte[] retryState;
    private final int[] retriesSent;
    private final int[] tailMark;
    private final long[] retryDueNanos;
    private final long[] replyMac;
    private final int[] replyIp;
    private final int[] replyTagCount;
    private final long[] replyTags;
    private int armedRetries;
    private long nextRetryNanos;
    private int replySlot = -1;

    private final UnsafeBuffer run;
    private final UnsafeBuffer header = new UnsafeBuffer(ByteBuffer.allocateDirect(SketchConfig.EPOCH_HEADER_BYTES));

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
        this.type = config.type();
        this.typeCode = switch (config.type())
        {
            case COUNT_MIN -> 1;
            case COUNT_SKETCH -> 2;
            case HYPERLOGLOG -> 3;
        };
        this.rows = config.rows();
        this.columns = config.columns();
        this.switches = config.switches();
        this.batchColumns = config.batchColumns();
        this.epochs = config.epochs();
        this.timeoutNanos = config.epochTimeoutMicros() * 1000;
        this.baseAddress = config.region().address();
        this.epochBytes = config.epochBytes();
        this.sender = sender;
        this.counters = counters;
        areaEpoch = new long[epochs];
        areaState = new byte[epochs];
        areaOpenedNanos = new long[epochs];
        areaCompleted = new int[epochs];
        areaWritten = new int[epochs];
        areaWriteLost = new boolean[epochs];
        areaHeaderPending = new boolean[epochs];
        areaCloseWhy = new int[epochs];
        Arrays.fill(areaCloseWhy, NOT_CLOSING);
        areaPending = new boolean[epochs];
        cells = new int[epochs][];
        sums = new long[epochs][];
        contributions = new int[epochs][];
        try
        {
            for (int a = 0; a < epochs; a++)
            {
                // Count sketch sums mix signs, so saturating step by step would depend on arrival order: they are
                // kept exact in 64 bits (256 switches x 2^31 cannot overflow) and clamped when written.
                if (SketchType.COUNT_SKETCH == type)
                {
                    sums[a] = new long[rows * columns];
                }
                else
                {
                    cells[a] = new int[rows * columns];
                }
                contributions[a] = new int[columns];
            }
        }
        catch (final OutOfMemoryError ex)
        {
            // Configuration keeps all sketches within SketchConfig.MAX_TRANSLATOR_STATE_BYTES; a JVM with a smaller
            // heap than that still cannot start: say what needs the memory and the remedy, not the JVM's bare error.
            throw new IllegalStateException("cannot allocate " + config.translatorStateBytes() + " bytes of heap for " +
                config.region().path() + "'s merge state (" + epochs + " epochs x " + columns + " columns x (" + rows +
                " rows x " + SketchConfig.translatorCellBytes(type) + " + " + SketchConfig.CELL_BYTES + ") bytes): give the JVM a larger heap " +
                "with DTA_JAVA_OPTS=-Xmx... or lower the sketch's epochs, rows or columns", ex);
        }
        nextColumn = new int[epochs * switches];
        nackArmed = new boolean[epochs * switches];
        nackNanos = new long[epochs * switches];
        retryNanos = config.nackRetryMicros() * 1000;
        maxRetries = config.nackRetries();
        this.nackSink = nackSink;
        seenEnd = new int[epochs * switches];
        retryState = new byte[epochs * switches];
        retriesSent = new int[epochs * switches];
        tailMark = new int[epochs * switches];
        retryDueNanos = new long[epochs * switches];
        replyMac = new long[epochs * switches];
        replyIp = new int[epochs * switches];
        replyTagCount = new int[epochs * switches];
        replyTags = new long[epochs * switches];
        run = new UnsafeBuffer(ByteBuffer.allocateDirect((int)config.runBytes()));
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
        return openAreas;
    }

    /**
     * @return epoch areas with WRITEs waiting for room in the essential backlog (an open header, completed runs, or
     * the rest of a closed epoch).
     */
    public int pendingAreas()
    {
        return pendingAreas;
    }

    /**
     * @return true when no WRITE waits for room, or when none can ever get it (the QP is in the error state; a
     * reconnection re-sends what its ring holds, and room comes after that).
     */
    public boolean isQuiescent()
    {
        return 0 == pendingAreas || QueuePairSender.State.ERROR == sender.state();
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
        return armedRetries;
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
        if (0 != openAreas && nextDeadlineNanos - due < 0)
        {
            due = nextDeadlineNanos;
        }
        if (0 != armedRetries && nextRetryNanos - due < 0)
        {
            due = nextRetryNanos;
        }
        // Due at once while room is there for a waiting WRITE; nothing to do while the ring stays full.
        if (0 != pendingAreas && sender.hasEssentialRoom() && stalledSinceNanos - due < 0)
        {
            due = stalledSinceNanos;
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
        final int slot = replySlot;
        replySlot = -1;
        if (slot < 0 || 0 == maxRetries)
        {
            return;
        }
        keepReply(slot, mac, ip, vlanTagCount, vlanTags);
        arm(slot, RETRY_GAP, nowNanos + retryNanos);
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
        final int slot = replySlot;
        replySlot = -1;
        if (slot < 0)
        {
            return;
        }
        keepReply(slot, mac, ip, vlanTagCount, vlanTags);
        tailMark[slot] = nextColumn[slot];
        arm(slot, RETRY_TAIL, nextLook(nowNanos));
    }

    private void keepReply(final int slot, final long mac, final int ip, final int vlanTagCount, final long vlanTags)
    {
        replyMac[slot] = mac;
        replyIp[slot] = ip;
        replyTagCount[slot] = vlanTagCount;
        replyTags[slot] = vlanTags;
    }

    private void arm(final int slot, final byte state, final long due)
    {
        retriesSent[slot] = 0;
        retryDueNanos[slot] = due;
        if (RETRY_OFF == retryState[slot])
        {
            armedRetries++;
        }
        retryState[slot] = state;
        // With one slot armed its due time is the earliest; otherwise the cached one stays a lower bound.
        if (1 == armedRetries || due - nextRetryNanos < 0)
        {
            nextRetryNanos = due;
        }
    }

    /**
     * The first look of a tail watch at least one interval after {@code nowNanos}: the next multiple of the interval
     * on the engine clock, so that the watches of every switch fall due together and one scan serves them all.
     */
    private long nextLook(final long nowNanos)
    {
        final long at = nowNanos + retryNanos;
        final long past = Math.floorMod(at, retryNanos);
        return 0 == past ? at : at - past + retryNanos;
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
        replySlot = -1;
        if (column.rows() != rows)
        {
            counters.increment(EngineCounter.DROP_SKETCH_BAD_ROWS);
            return DROPPED;
        }
        final int switchId = column.switchId();
        if (switchId >= switches)
        {
            counters.increment(EngineCounter.DROP_SKETCH_BAD_SWITCH);
            return DROPPED;
        }
        final int c = column.column();
        if (c >= columns)
        {
            counters.increment(EngineCounter.DROP_SKETCH_BAD_COLUMN);
            return DROPPED;
        }
        final long epoch = column.epoch();
        final int area = (int)(epoch % epochs);
        final int state = areaState[area];
        if (STATE_EMPTY != state && areaEpoch[area] > epoch)
        {
            counters.increment(EngineCounter.DROP_SKETCH_STALE_EPOCH);
            return DROPPED;
        }
        if (STATE_EMPTY == state || areaEpoch[area] < epoch)
        {
            if (STATE_OPEN == state)
            {
                close(area, CLOSED_SUPERSEDED, nowNanos);
            }
            if (NOT_CLOSING != areaCloseWhy[area])
            {
                counters.increment(EngineCounter.DROP_SKETCH_AREA_BUSY);
                return DROPPED;
            }
            open(area, epoch, nowNanos);
        }
        else if (STATE_OPEN != state)
        {
            counters.increment(EngineCounter.DROP_SKETCH_EPOCH_CLOSED);
            return DROPPED;
        }

        final int progress = area * switches + switchId;
        final int expected = nextColumn[progress];
        if (c < expected)
        {
            counters.increment(EngineCounter.DROP_SKETCH_DUPLICATE);
            return DROPPED;
        }
        if (c > expected)
        {
            counters.increment(EngineCounter.DROP_SKETCH_GAP);
            if (c >= seenEnd[progress])
            {
                seenEnd[progress] = c + 1;
            }
            if (nackArmed[progress] || nowNanos - nackNanos[progress] >= NACK_REARM_NANOS)
            {
                nackArmed[progress] = false;
                nackNanos[progress] = nowNanos;
                nackColumn = expected;
                replySlot = progress;
                return NACK;
            }
            return DROPPED;
        }

        merge(area, c * rows, column);
        counters.increment(EngineCounter.SKETCH_COLUMNS_MERGED);
        nextColumn[progress] = c + 1;
        nackArmed[progress] = true;
        int outcome = MERGED;
        final byte retry = retryState[progress];
        if (RETRY_GAP == retry)
        {
            if (c + 1 >= seenEnd[progress])
            {
                // The gap is filled; the switch may still stop short of its last column, so the watch goes on.
                if (c + 1 < columns)
                {
                    tailMark[progress] = c + 1;
                    arm(progress, RETRY_TAIL, nextLook(nowNanos));
                }
                else
                {
                    disarmRetry(progress);
                }
            }
            else
            {
                // The switch is answering: NACK again only if it stops short of the gap's end for a whole interval.
                // After backed-off retries that can be sooner than the retry was due, so the earliest may move.
                retriesSent[progress] = 0;
                final long due = nowNanos + retryNanos;
                retryDueNanos[progress] = due;
                if (due - nextRetryNanos < 0)
                {
                    nextRetryNanos = due;
                }
            }
        }
        else if (0 == c && RETRY_OFF == retry && 0 != maxRetries && 1 < columns)
        {
            // The switch's progress opens: the engine hands its addressing to watchTail.
            replySlot = progress;
            outcome = MERGED_FIRST;
        }
        final int[] contributed = contributions[area];
        if (++contributed[c] == switches && c == areaCompleted[area])
        {
            int completed = c + 1;
            while (completed < columns && contributed[completed] == switches)
            {
                completed++;
            }
            areaCompleted[area] = completed;
            if (completed == columns)
            {
                close(area, CLOSED_COMPLETE, nowNanos);
            }
            else if (completed - areaWritten[area] >= batchColumns)
            {
                writeWhatWaits(area, nowNanos);
            }
        }
        return outcome;
    }

    private void merge(final int area, final int at, final SketchColumnFlyweight column)
    {
        final int[] merged = cells[area];
        switch (type)
        {
            case COUNT_MIN ->
            {
                for (int r = 0; r < rows; r++)
                {
                    // Unsigned sum saturating at 2^32 - 1: a wrapped sum would make a Count-Min undercount.
                    final long sum = (merged[at + r] & 0xFFFF_FFFFL) + (column.counter(r) & 0xFFFF_FFFFL);
                    if (sum > 0xFFFF_FFFFL)
                    {
                        merged[at + r] = -1;
                        counters.increment(EngineCounter.SKETCH_CELLS_SATURATED);
                    }
                    else
                    {
                        merged[at + r] = (int)sum;
                    }
                }
            }
            case COUNT_SKETCH ->
            {
                final long[] exact = sums[area];
                for (int r = 0; r < rows; r++)
                {
                    exact[at + r] += column.counter(r);
                }
            }
            default ->
            {
                for (int r = 0; r < rows; r++)
                {
                    final int register = column.counter(r);
                    if (Integer.compareUnsigned(register, merged[at + r]) > 0)
                    {
                        merged[at + r] = register;
                    }
                }
            }
        }
    }

    private void open(final int area, final long epoch, final long nowNanos)
    {
        areaEpoch[area] = epoch;
        areaState[area] = STATE_OPEN;
        areaOpenedNanos[area] = nowNanos;
        areaCompleted[area] = 0;
        areaWritten[area] = 0;
        areaWriteLost[area] = false;
        // Zeroed here, not at close, so columns nobody contributed to are written as zeros over an older epoch.
        if (SketchType.COUNT_SKETCH == type)
        {
            Arrays.fill(sums[area], 0);
        }
        else
        {
            Arrays.fill(cells[area], 0);
        }
        Arrays.fill(contributions[area], 0);
        final int from = area * switches;
        Arrays.fill(nextColumn, from, from + switches, 0);
        Arrays.fill(nackArmed, from, from + switches, true);
        Arrays.fill(seenEnd, from, from + switches, 0);
        if (0 == openAreas++ || nowNanos + timeoutNanos - nextDeadlineNanos < 0)
        {
            nextDeadlineNanos = nowNanos + timeoutNanos;
        }
        counters.increment(EngineCounter.SKETCH_EPOCHS_OPENED);
        areaHeaderPending[area] = true;
        writeWhatWaits(area, nowNanos);
    }

    private void close(final int area, final int why, final long nowNanos)
    {
        // Tentative until the final header goes out: a WRITE of the epoch lost by then makes it incomplete.
        areaState[area] = (byte)(CLOSED_COMPLETE == why && !areaWriteLost[area] ? STATE_COMPLETE : STATE_INCOMPLETE);
        areaCloseWhy[area] = why;
        openAreas--;
        if (0 != armedRetries)
        {
            for (int slot = area * switches, end = slot + switches; slot < end; slot++)
            {
                if (RETRY_OFF != retryState[slot])
                {
                    disarmRetry(slot);
                }
            }
        }
        writeWhatWaits(area, nowNanos);
    }

    /**
     * Writes what the area has waiting while the essential ring has room, and keeps the area on the pending list
     * when the ring fills first.
     */
    private void writeWhatWaits(final int area, final long nowNanos)
    {
        final boolean done = write(area, false, nowNanos);
        if (done == areaPending[area])
        {
            areaPending[area] = !done;
            pendingAreas += done ? -1 : 1;
        }
        if (!done)
        {
            stalledSinceNanos = nowNanos;
        }
    }

    /**
     * The area's waiting WRITEs in their order: the open header, the completed prefix's whole runs (all the columns
     * once it closes), the final header.
     *
     * @param force write even into a full ring, which drops and counts what it cannot take (end of a run).
     * @return true when nothing waits any more.
     */
    private boolean write(final int area, final boolean force, final long nowNanos)
    {
        if (areaHeaderPending[area])
        {
            if (noRoom(force))
            {
                return false;
            }
            areaHeaderPending[area] = false;
            writeHeader(area, STATE_OPEN, nowNanos);
        }
        final int why = areaCloseWhy[area];
        final boolean closing = NOT_CLOSING != why;
        final int target = closing ? columns : areaCompleted[area];
        final int smallest = closing ? 1 : batchColumns;
        while (target - areaWritten[area] >= smallest)
        {
            if (noRoom(force))
            {
                return false;
            }
            final int n = Math.min(batchColumns, columns - areaWritten[area]);
            writeRun(area, areaWritten[area], n, nowNanos);
            areaWritten[area] += n;
        }
        if (closing)
        {
            if (noRoom(force))
            {
                return false;
            }
            // A header must not claim more than collector memory holds: a dropped WRITE of this epoch (its open
            // header or a column run) left cells there that are not the merge, so even an epoch every switch
            // completed closes incomplete then.
            final boolean lost = areaWriteLost[area];
            areaState[area] = (byte)(CLOSED_COMPLETE == why && !lost ? STATE_COMPLETE : STATE_INCOMPLETE);
            areaCloseWhy[area] = NOT_CLOSING;
            counters.increment(switch (why)
            {
                case CLOSED_COMPLETE -> lost ? EngineCounter.SKETCH_EPOCHS_WRITE_LOST :
                    EngineCounter.SKETCH_EPOCHS_COMPLETED;
                case CLOSED_TIMEOUT -> EngineCounter.SKETCH_EPOCHS_TIMED_OUT;
                case CLOSED_SUPERSEDED -> EngineCounter.SKETCH_EPOCHS_SUPERSEDED;
                default -> EngineCounter.SKETCH_EPOCHS_FLUSHED;
            });
            writeHeader(area, areaState[area], nowNanos);
        }
        return true;
    }

    private boolean noRoom(final boolean force)
    {
        return !force && !sender.hasEssentialRoom();
    }

    /**
     * Writes the waiting WRITEs of every pending area, oldest epoch first, while the ring has room.
     *
     * @return areas whose waiting WRITEs were all written.
     */
    private int writePending(final long nowNanos)
    {
        int work = 0;
        int area;
        while ((area = oldestPending()) >= 0)
        {
            writeWhatWaits(area, nowNanos);
            if (areaPending[area])
            {
                break;
            }
            work++;
        }
        return work;
    }

    private int oldestPending()
    {
        int oldest = -1;
        for (int a = 0; a < epochs; a++)
        {
            if (areaPending[a] && (oldest < 0 || areaEpoch[a] < areaEpoch[oldest]))
            {
                oldest = a;
            }
        }
        return oldest;
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
        int area;
        while ((area = oldestPending()) >= 0)
        {
            write(area, true, nowNanos);
            areaPending[area] = false;
            pendingAreas--;
        }
    }

    private void writeRun(final int area, final int firstColumn, final int count, final long nowNanos)
    {
        final int from = firstColumn * rows;
        final int cellCount = count * rows;
        if (SketchType.COUNT_SKETCH == type)
        {
            final long[] exact = sums[area];
            for (int i = 0; i < cellCount; i++)
            {
                final long sum = exact[from + i];
                final int value = (int)Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, sum));
                if (value != sum)
                {
                    counters.increment(EngineCounter.SKETCH_CELLS_SATURATED);
                }
                run.putInt(i * SketchConfig.CELL_BYTES, value, ByteOrder.LITTLE_ENDIAN);
            }
        }
        else
        {
            final int[] merged = cells[area];
            for (int i = 0; i < cellCount; i++)
            {
                run.putInt(i * SketchConfig.CELL_BYTES, merged[from + i], ByteOrder.LITTLE_ENDIAN);
            }
        }
        counters.increment(EngineCounter.SKETCH_COLUMN_WRITES);
        final int[] contributed = contributions[area];
        int carried = 0;
        for (int c = firstColumn, end = firstColumn + count; c < end; c++)
        {
            carried += contributed[c];
        }
        final long address = baseAddress + area * epochBytes + SketchConfig.EPOCH_HEADER_BYTES +
            (long)from * SketchConfig.CELL_BYTES;
        if (!sender.admit(true, carried, nowNanos) ||
            !sender.write(address, run, 0, cellCount * SketchConfig.CELL_BYTES, true, carried, nowNanos))
        {
            areaWriteLost[area] = true;
        }
    }

    private void writeHeader(final int area, final int state, final long nowNanos)
    {
        header.setMemory(0, SketchConfig.EPOCH_HEADER_BYTES, (byte)0);
        int contributors = 0;
        final int from = area * switches;
        for (int s = 0; s < switches; s++)
        {
            if (nextColumn[from + s] == columns)
            {
                contributors++;
                final int at = HEADER_BITMAP_OFFSET + (s >> 3);
                header.putByte(at, (byte)(header.getByte(at) | (1 << (s & 7))));
            }
        }
        header.putInt(HEADER_EPOCH_OFFSET, (int)areaEpoch[area], ByteOrder.LITTLE_ENDIAN);
        header.putByte(HEADER_STATE_OFFSET, (byte)state);
        header.putByte(HEADER_TYPE_OFFSET, (byte)typeCode);
        header.putShort(HEADER_ROWS_OFFSET, (short)rows, ByteOrder.LITTLE_ENDIAN);
        header.putInt(HEADER_COLUMNS_OFFSET, columns, ByteOrder.LITTLE_ENDIAN);
        header.putShort(HEADER_SWITCHES_OFFSET, (short)switches, ByteOrder.LITTLE_ENDIAN);
        header.putShort(HEADER_CONTRIBUTORS_OFFSET, (short)contributors, ByteOrder.LITTLE_ENDIAN);
        header.putInt(HEADER_COMPLETE_COLUMNS_OFFSET, areaCompleted[area], ByteOrder.LITTLE_ENDIAN);
        if (!sender.admit(true, 0, nowNanos) ||
            !sender.write(baseAddress + area * epochBytes, header, 0, SketchConfig.EPOCH_HEADER_BYTES, true, 0,
                nowNanos))
        {
            // Only when forced at the end of a run. Only the open header matters here: a lost final header leaves the
            // area saying open, which no reader trusts.
            areaWriteLost[area] = true;
        }
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
        if (0 != openAreas && nowNanos - nextDeadlineNanos >= 0)
        {
            int area;
            while ((area = oldestOpen(nowNanos - timeoutNanos)) >= 0)
            {
                close(area, CLOSED_TIMEOUT, nowNanos);
                work++;
            }
            recomputeDeadline();
        }
        // After the timeouts: an epoch closing now gets no retry.
        if (0 != armedRetries && nowNanos - nextRetryNanos >= 0)
        {
            work += retryNacks(nowNanos);
        }
        if (0 != pendingAreas && sender.hasEssentialRoom())
        {
            work += writePending(nowNanos);
        }
        return work;
    }

    private int retryNacks(final long nowNanos)
    {
        int work = 0;
        long earliest = 0;
        boolean any = false;
        // Closing an area disarms its slots, so only open areas can hold armed ones.
        for (int area = 0; area < epochs; area++)
        {
            if (STATE_OPEN != areaState[area])
            {
                continue;
            }
            for (int slot = area * switches, end = slot + switches; slot < end; slot++)
            {
                final byte state = retryState[slot];
                if (RETRY_OFF == state)
                {
                    continue;
                }
                long due = retryDueNanos[slot];
                if (nowNanos - due >= 0)
                {
                    due = RETRY_GAP == state ? retryGap(slot, area, nowNanos) : lookAtTail(slot, area, nowNanos);
                    work++;
                    if (RETRY_OFF == retryState[slot])
                    {
                        continue;
                    }
                }
                if (!any || due - earliest < 0)
                {
                    earliest = due;
                    any = true;
                }
            }
        }
        nextRetryNanos = earliest;
        return work;
    }

    /**
     * A gap's retry is due: re-sends the NACK for the switch's current next expected column, or gives the gap up
     * after {@code nackRetries} retries.
     *
     * @return when the slot is due next (meaningless once disarmed).
     */
    private long retryGap(final int slot, final int area, final long nowNanos)
    {
        if (retriesSent[slot] >= maxRetries)
        {
            disarmRetry(slot);
            counters.increment(EngineCounter.SKETCH_NACK_GAPS_ABANDONED);
            return nowNanos;
        }
        final long due;
        if (sendNack(slot, area, nowNanos))
        {
            counters.increment(EngineCounter.SKETCH_NACK_RETRIES);
            due = nowNanos + (retryNanos << ++retriesSent[slot]);
        }
        else
        {
            // Not sent (output full, counted by the sink): no retry used up, tried again after the same interval.
            due = nowNanos + (retryNanos << retriesSent[slot]);
        }
        retryDueNanos[slot] = due;
        return due;
    }

    /**
     * A look at a switch watched for a missing tail: done once it sent its last column; still watched when it made
     * progress since the previous look; otherwise, silent for at least one interval, NACKed from its next expected
     * column, after which the tail is a gap ending at the last column, retried as any gap.
     *
     * @return when the slot is due next (meaningless once disarmed).
     */
    private long lookAtTail(final int slot, final int area, final long nowNanos)
    {
        final int expected = nextColumn[slot];
        if (expected == columns)
        {
            disarmRetry(slot);
            return nowNanos;
        }
        if (expected != tailMark[slot] || !sendNack(slot, area, nowNanos))
        {
            // Progress (or a NACK the output could not take, which counts for nothing): look again next interval.
            tailMark[slot] = expected;
            final long due = nextLook(nowNanos);
            retryDueNanos[slot] = due;
            return due;
        }
        counters.increment(EngineCounter.SKETCH_TAIL_NACKS);
        seenEnd[slot] = columns;
        retryState[slot] = RETRY_GAP;
        retriesSent[slot] = 0;
        final long due = nowNanos + retryNanos;
        retryDueNanos[slot] = due;
        return due;
    }

    /**
     * Sends the timer's NACK for the switch's next expected column with the kept addressing. A NACK that went out is
     * a NACK of the rate limit's episode: gap columns right behind it are not NACKed once more.
     */
    private boolean sendNack(final int slot, final int area, final long nowNanos)
    {
        if (!nackSink.sendSketchNack(replyMac[slot], replyIp[slot], replyTagCount[slot], replyTags[slot], sketchId,
            slot - area * switches, areaEpoch[area], nextColumn[slot], nowNanos))
        {
            return false;
        }
        nackArmed[slot] = false;
        nackNanos[slot] = nowNanos;
        return true;
    }

    private void disarmRetry(final int slot)
    {
        retryState[slot] = RETRY_OFF;
        armedRetries--;
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
        while ((area = oldestOpen(Long.MAX_VALUE)) >= 0)
        {
            close(area, CLOSED_FLUSH, nowNanos);
        }
    }

    /**
     * @return the open area with the smallest epoch among those opened at or before {@code openedBy} (engine
     * clock, compared as a difference), or -1.
     */
    private int oldestOpen(final long openedBy)
    {
        int oldest = -1;
        for (int a = 0; a < epochs; a++)
        {
            if (STATE_OPEN == areaState[a] && (Long.MAX_VALUE == openedBy || areaOpenedNanos[a] - openedBy <= 0) &&
                (oldest < 0 || areaEpoch[a] < areaEpoch[oldest]))
            {
                oldest = a;
            }
        }
        return oldest;
    }

    private void recomputeDeadline()
    {
        boolean any = false;
        for (int a = 0; a < epochs; a++)
        {
            if (STATE_OPEN == areaState[a])
            {
                final long deadline = areaOpenedNanos[a] + timeoutNanos;
                if (!any || deadline - nextDeadlineNanos < 0)
                {
                    nextDeadlineNanos = deadline;
                    any = true;
                }
            }
        }
    }
}
