package io.dta.appliance.engine.primitive;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.config.SketchConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The WRITEs of one sketch's epoch areas to the collector's epoch ring, in each area's order: the open header, the
 * completed prefix in runs of {@code batchColumns} columns (every column once the epoch closes), the final header.
 * Every WRITE goes through the QP's essential path; one the essential ring has no room for waits, and goes when ACKs
 * make room ({@link #writePending}); a closing area keeps why it closed until its final header is out. Only at the
 * very end of a run ({@link #abandonPendingWrites}) is what still waits forced into the ring, which drops and counts
 * what it cannot take.
 */
final class SketchAreaWriter
{
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

    /** Why an area closed: every switch sent every column. */
    static final int CLOSED_COMPLETE = 0;
    /** Why an area closed: its epoch timed out. */
    static final int CLOSED_TIMEOUT = 1;
    /** Why an area closed: a newer epoch needed it. */
    static final int CLOSED_SUPERSEDED = 2;
    /** Why an area closed: end of input or shutdown. */
    static final int CLOSED_FLUSH = 3;
    /** The area is not closing. */
    static final int NOT_CLOSING = -1;

    private final SketchAreas areas;
    private final SketchCells cells;
    private final QueuePairSender sender;
    private final EngineCounters counters;
    private final int typeCode;
    private final int batchColumns;
    private final long baseAddress;
    private final long epochBytes;
    private final boolean[] headerPending;
    private final int[] closeWhy;
    private final boolean[] pending;
    private int pendingAreas;
    private long stalledSinceNanos;
    private final UnsafeBuffer run;
    private final UnsafeBuffer header = new UnsafeBuffer(ByteBuffer.allocateDirect(SketchConfig.EPOCH_HEADER_BYTES));

    SketchAreaWriter(
        final SketchConfig config,
        final SketchAreas areas,
        final SketchCells cells,
        final QueuePairSender sender,
        final EngineCounters counters)
    {
        this.areas = areas;
        this.cells = cells;
        this.sender = sender;
        this.counters = counters;
        this.typeCode = switch (config.type())
        {
            case COUNT_MIN -> 1;
            case COUNT_SKETCH -> 2;
            case HYPERLOGLOG -> 3;
        };
        this.batchColumns = config.batchColumns();
        this.baseAddress = config.region().address();
        this.epochBytes = config.epochBytes();
        headerPending = new boolean[areas.epochs];
        closeWhy = new int[areas.epochs];
        Arrays.fill(closeWhy, NOT_CLOSING);
        pending = new boolean[areas.epochs];
        run = new UnsafeBuffer(ByteBuffer.allocateDirect((int)config.runBytes()));
    }

    /**
     * @return epoch areas with WRITEs waiting for room in the essential backlog.
     */
    int pendingAreas()
    {
        return pendingAreas;
    }

    /**
     * @return when a WRITE last found the ring full.
     */
    long stalledSinceNanos()
    {
        return stalledSinceNanos;
    }

    /**
     * @return whether the area still writes a closed epoch (and so takes no newer one).
     */
    boolean closing(final int area)
    {
        return NOT_CLOSING != closeWhy[area];
    }

    /**
     * An area opened: its open header goes first.
     */
    void opened(final int area, final long nowNanos)
    {
        headerPending[area] = true;
        writeWhatWaits(area, nowNanos);
    }

    /**
     * An area closed for {@code why}: the rest of its columns and its final header go.
     */
    void closed(final int area, final int why, final long nowNanos)
    {
        closeWhy[area] = why;
        writeWhatWaits(area, nowNanos);
    }

    /**
     * The area's completed prefix grew by a whole run or more.
     */
    void prefixGrew(final int area, final long nowNanos)
    {
        writeWhatWaits(area, nowNanos);
    }

    /**
     * @return whether the area's completed prefix holds a whole run not yet written.
     */
    boolean runDue(final int area)
    {
        return areas.completed[area] - areas.written[area] >= batchColumns;
    }

    /**
     * Writes what the area has waiting while the essential ring has room, and keeps the area on the pending list
     * when the ring fills first.
     */
    private void writeWhatWaits(final int area, final long nowNanos)
    {
        final boolean done = write(area, false, nowNanos);
        if (done == pending[area])
        {
            pending[area] = !done;
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
        if (headerPending[area])
        {
            if (noRoom(force))
            {
                return false;
            }
            headerPending[area] = false;
            writeHeader(area, SketchMergeHandler.STATE_OPEN, nowNanos);
        }
        final int why = closeWhy[area];
        final boolean closing = NOT_CLOSING != why;
        final int target = closing ? areas.columns : areas.completed[area];
        final int smallest = closing ? 1 : batchColumns;
        while (target - areas.written[area] >= smallest)
        {
            if (noRoom(force))
            {
                return false;
            }
            final int n = Math.min(batchColumns, areas.columns - areas.written[area]);
            writeRun(area, areas.written[area], n, nowNanos);
            areas.written[area] += n;
        }
        if (closing)
        {
            if (noRoom(force))
            {
                return false;
            }
            writeFinalHeader(area, why, nowNanos);
        }
        return true;
    }

    private void writeFinalHeader(final int area, final int why, final long nowNanos)
    {
        // A header must not claim more than collector memory holds: a dropped WRITE of this epoch (its open header or
        // a column run) left cells there that are not the merge, so even an epoch every switch completed closes
        // incomplete then.
        final boolean lost = areas.writeLost[area];
        areas.state[area] = (byte)(CLOSED_COMPLETE == why && !lost ? SketchMergeHandler.STATE_COMPLETE :
            SketchMergeHandler.STATE_INCOMPLETE);
        closeWhy[area] = NOT_CLOSING;
        counters.increment(switch (why)
        {
            case CLOSED_COMPLETE -> lost ? EngineCounter.SKETCH_EPOCHS_WRITE_LOST :
                EngineCounter.SKETCH_EPOCHS_COMPLETED;
            case CLOSED_TIMEOUT -> EngineCounter.SKETCH_EPOCHS_TIMED_OUT;
            case CLOSED_SUPERSEDED -> EngineCounter.SKETCH_EPOCHS_SUPERSEDED;
            default -> EngineCounter.SKETCH_EPOCHS_FLUSHED;
        });
        writeHeader(area, areas.state[area], nowNanos);
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
    int writePending(final long nowNanos)
    {
        int work = 0;
        int area;
        while ((area = oldestPending()) >= 0)
        {
            writeWhatWaits(area, nowNanos);
            if (pending[area])
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
        for (int a = 0; a < areas.epochs; a++)
        {
            if (pending[a] && (oldest < 0 || areas.epoch[a] < areas.epoch[oldest]))
            {
                oldest = a;
            }
        }
        return oldest;
    }

    /**
     * End of a run: whatever still waits for room is written now, oldest epoch first; what the full ring cannot take
     * is dropped and counted, and its epoch closes incomplete.
     */
    void abandonPendingWrites(final long nowNanos)
    {
        int area;
        while ((area = oldestPending()) >= 0)
        {
            write(area, true, nowNanos);
            pending[area] = false;
            pendingAreas--;
        }
    }

    private void writeRun(final int area, final int firstColumn, final int count, final long nowNanos)
    {
        final int bytes = cells.encodeRun(area, firstColumn, count, run);
        counters.increment(EngineCounter.SKETCH_COLUMN_WRITES);
        final int carried = cells.carried(area, firstColumn, count);
        final long address = baseAddress + area * epochBytes + SketchConfig.EPOCH_HEADER_BYTES +
            (long)(firstColumn * areas.rows) * SketchConfig.CELL_BYTES;
        if (!sender.admit(true, carried, nowNanos) ||
            !sender.write(address, run, 0, bytes, true, carried, nowNanos))
        {
            areas.writeLost[area] = true;
        }
    }

    private void writeHeader(final int area, final int state, final long nowNanos)
    {
        header.setMemory(0, SketchConfig.EPOCH_HEADER_BYTES, (byte)0);
        int contributors = 0;
        final int from = areas.firstSlot(area);
        for (int s = 0; s < areas.switches; s++)
        {
            if (areas.nextColumn[from + s] == areas.columns)
            {
                contributors++;
                final int at = HEADER_BITMAP_OFFSET + (s >> 3);
                header.putByte(at, (byte)(header.getByte(at) | (1 << (s & 7))));
            }
        }
        header.putInt(HEADER_EPOCH_OFFSET, (int)areas.epoch[area], ByteOrder.LITTLE_ENDIAN);
        header.putByte(HEADER_STATE_OFFSET, (byte)state);
        header.putByte(HEADER_TYPE_OFFSET, (byte)typeCode);
        header.putShort(HEADER_ROWS_OFFSET, (short)areas.rows, ByteOrder.LITTLE_ENDIAN);
        header.putInt(HEADER_COLUMNS_OFFSET, areas.columns, ByteOrder.LITTLE_ENDIAN);
        header.putShort(HEADER_SWITCHES_OFFSET, (short)areas.switches, ByteOrder.LITTLE_ENDIAN);
        header.putShort(HEADER_CONTRIBUTORS_OFFSET, (short)contributors, ByteOrder.LITTLE_ENDIAN);
        header.putInt(HEADER_COMPLETE_COLUMNS_OFFSET, areas.completed[area], ByteOrder.LITTLE_ENDIAN);
        if (!sender.admit(true, 0, nowNanos) ||
            !sender.write(baseAddress + area * epochBytes, header, 0, SketchConfig.EPOCH_HEADER_BYTES, true, 0,
                nowNanos))
        {
            // Only when forced at the end of a run. Only the open header matters here: a lost final header leaves the
            // area saying open, which no reader trusts.
            areas.writeLost[area] = true;
        }
    }
}
