package io.dta.collector.query;

import io.dta.codec.KeyHash;
import io.dta.collector.layout.SketchEpochHeader;
import io.dta.collector.layout.SketchLayout;
import io.dta.config.SketchType;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Reads epochs of one sketch region ({@link SketchLayout}) consistently and answers point queries.
 * <p>
 * Consistency rule: the translator writes an epoch's header (state open), then its columns, then the header again
 * (complete or incomplete), all on one QP, so they land in that order. A read copies the header, then the cells,
 * then compares the header with a second copy; if they differ, the area changed under the reader (the epoch was
 * closed, or a later epoch took the area) and the read is retried, up to {@link #READ_ATTEMPTS} times, then
 * reported {@link SketchEpochState#TORN}. An area whose header does not hold the asked-for epoch (never written,
 * not yet, or overwritten by epoch {@code E + k × epochs}) is {@link SketchEpochState#ABSENT}, never zeros.
 * <p>
 * Not thread-safe (one scratch header and key hash per instance).
 */
public final class SketchQuery
{
    /** Header-cells-header attempts before a read is reported torn. */
    public static final int READ_ATTEMPTS = 8;

    private static final int[] NO_CELLS = new int[0];

    private final DirectBuffer region;
    private final SketchLayout layout;
    private final KeyHash hash = new KeyHash();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[SketchEpochHeader.LENGTH]);
    private final SketchEpochHeader first = new SketchEpochHeader().wrap(scratch, 0);
    private final SketchEpochHeader live = new SketchEpochHeader();
    private final long[] signed;

    /**
     * @param region the sketch region's memory (offset 0 = the region's base address).
     * @param layout its layout.
     */
    public SketchQuery(final DirectBuffer region, final SketchLayout layout)
    {
        if (region.capacity() < layout.regionBytes())
        {
            throw new IllegalArgumentException("sketch region of " + region.capacity() + " bytes is smaller than " +
                layout.regionBytes() + " (" + layout + ")");
        }
        this.region = region;
        this.layout = layout;
        this.signed = new long[layout.rows()];
    }

    /**
     * @return the layout.
     */
    public SketchLayout layout()
    {
        return layout;
    }

    /**
     * Reads one epoch.
     *
     * @param epoch the epoch (u32).
     * @return what its area holds.
     */
    public SketchEpoch read(final long epoch)
    {
        final long e = epoch & 0xFFFF_FFFFL;
        final int areaOffset = (int)layout.areaOffset(e);
        live.wrap(region, areaOffset);
        final int rows = layout.rows();
        final int columns = layout.columns();
        int[] cells = NO_CELLS;
        for (int attempt = 1; attempt <= READ_ATTEMPTS; attempt++)
        {
            scratch.putBytes(0, region, areaOffset, SketchEpochHeader.LENGTH);
            VarHandle.acquireFence();
            final int state = first.state();
            if (first.epoch() != e || SketchLayout.STATE_EMPTY == state)
            {
                return result(e, SketchEpochState.ABSENT, NO_CELLS, attempt, null);
            }
            if (first.type() != SketchLayout.typeCode(layout.type()) || first.rows() != rows ||
                first.columns() != columns || state > SketchLayout.STATE_INCOMPLETE)
            {
                return result(e, SketchEpochState.INVALID, NO_CELLS, attempt, "header says state " + state +
                    ", type " + first.type() + ", " + first.rows() + " rows x " + first.columns() + " columns; the " +
                    "configuration says type " + SketchLayout.typeCode(layout.type()) + ", " + rows + " x " + columns);
            }
            if (cells.length == 0)
            {
                cells = new int[rows * columns];
            }
            final int cellsOffset = areaOffset + SketchLayout.HEADER_LENGTH;
            for (int i = 0; i < cells.length; i++)
            {
                cells[i] = region.getInt(cellsOffset + i * SketchLayout.CELL_LENGTH, ByteOrder.LITTLE_ENDIAN);
            }
            VarHandle.acquireFence();
            if (first.sameAs(live))
            {
                final SketchEpochState s = switch (state)
                {
                    case SketchLayout.STATE_OPEN -> SketchEpochState.OPEN;
                    case SketchLayout.STATE_COMPLETE -> SketchEpochState.COMPLETE;
                    default -> SketchEpochState.INCOMPLETE;
                };
                return result(e, s, cells, attempt, null);
            }
            Thread.onSpinWait();
        }
        return result(e, SketchEpochState.TORN, cells, READ_ATTEMPTS,
            "the area's header changed during each of " + READ_ATTEMPTS + " reads");
    }

    private SketchEpoch result(
        final long epoch, final SketchEpochState state, final int[] cells, final int attempts, final String problem)
    {
        final boolean known = state != SketchEpochState.ABSENT && state != SketchEpochState.INVALID;
        final int switches = known ? first.switches() : 0;
        int count = 0;
        final int[] ids = new int[known ? Math.min(switches, SketchEpochHeader.BITMAP_LENGTH * 8) : 0];
        for (int s = 0; s < ids.length; s++)
        {
            if (first.contributed(s))
            {
                ids[count++] = s;
            }
        }
        return new SketchEpoch(layout.type(), epoch, state, layout.rows(), layout.columns(), switches,
            known ? first.contributors() : 0, known ? first.completeColumns() : 0,
            java.util.Arrays.copyOf(ids, count), cells, first.epoch(), first.state(), attempts, problem);
    }

    /**
     * Count-Min or Count sketch point estimate of a key in an epoch read by {@link #read(long)}, allocation-free
     * (an epoch is read once, with its cells, and then answers any number of keys).
     *
     * @param epoch an epoch with cells.
     * @param key   the key (u32).
     * @return Count-Min: the minimum over rows (unsigned); Count sketch: the median of the sign-corrected counters.
     * @throws IllegalArgumentException for HyperLogLog or an epoch without cells.
     */
    public double estimate(final SketchEpoch epoch, final long key)
    {
        requireCells(epoch);
        return switch (layout.type())
        {
            case COUNT_MIN -> SketchEstimators.countMin(epoch.cells(), layout.rows(), layout.columns(), key, hash);
            case COUNT_SKETCH -> SketchEstimators.countSketch(epoch.cells(), layout.rows(), layout.columns(), key,
                hash, signed);
            case HYPERLOGLOG -> throw new IllegalArgumentException("a HyperLogLog sketch has a cardinality, not " +
                "per-key estimates");
        };
    }

    /**
     * HyperLogLog cardinality of an epoch read by {@link #read(long)}.
     *
     * @param epoch an epoch with cells.
     * @return the estimate.
     * @throws IllegalArgumentException for other sketch kinds or an epoch without cells.
     */
    public HyperLogLogEstimate cardinality(final SketchEpoch epoch)
    {
        requireCells(epoch);
        if (layout.type() != SketchType.HYPERLOGLOG)
        {
            throw new IllegalArgumentException("a " + layout.type().text() + " sketch has per-key estimates, " +
                "not a cardinality");
        }
        return SketchEstimators.hyperLogLog(epoch.cells());
    }

    private static void requireCells(final SketchEpoch epoch)
    {
        if (!epoch.hasCells())
        {
            throw new IllegalArgumentException("epoch " + epoch.epoch() + " is " + epoch.state() + ": no cells");
        }
    }
}
