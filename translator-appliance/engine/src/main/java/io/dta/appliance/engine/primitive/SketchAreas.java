package io.dta.appliance.engine.primitive;

import io.dta.config.SketchConfig;

import java.util.Arrays;

/**
 * The epoch areas of one sketch and each switch's progress in them, shared by the parts of
 * {@link SketchMergeHandler}: epoch E lives in area {@code E mod epochs}; per area its epoch, state, open time, the
 * completed prefix and the columns written; per (area, switch) slot ({@code area * switches + switch}) the next
 * expected column. Which areas are open, and when the first of them times out, is kept here too.
 */
final class SketchAreas
{
    final int rows;
    final int columns;
    final int switches;
    final int epochs;
    final long timeoutNanos;
    final long[] epoch;
    final byte[] state;
    final long[] openedNanos;
    final int[] completed;
    final int[] written;
    final boolean[] writeLost;
    final int[] nextColumn;
    private int openAreas;
    private long nextDeadlineNanos;

    SketchAreas(final SketchConfig config)
    {
        rows = config.rows();
        columns = config.columns();
        switches = config.switches();
        epochs = config.epochs();
        timeoutNanos = config.epochTimeoutMicros() * 1000;
        epoch = new long[epochs];
        state = new byte[epochs];
        openedNanos = new long[epochs];
        completed = new int[epochs];
        written = new int[epochs];
        writeLost = new boolean[epochs];
        nextColumn = new int[epochs * switches];
    }

    /**
     * @return the first slot of an area; its switches' slots follow.
     */
    int firstSlot(final int area)
    {
        return area * switches;
    }

    /**
     * @return epochs open now.
     */
    int openAreas()
    {
        return openAreas;
    }

    /**
     * @return when the earliest open epoch times out (meaningful while {@link #openAreas()} is not 0).
     */
    long nextDeadlineNanos()
    {
        return nextDeadlineNanos;
    }

    /**
     * Opens an area for an epoch: nothing completed or written, every switch at column 0.
     */
    void open(final int area, final long newEpoch, final long nowNanos)
    {
        epoch[area] = newEpoch;
        state[area] = SketchMergeHandler.STATE_OPEN;
        openedNanos[area] = nowNanos;
        completed[area] = 0;
        written[area] = 0;
        writeLost[area] = false;
        final int from = firstSlot(area);
        Arrays.fill(nextColumn, from, from + switches, 0);
        if (0 == openAreas++ || nowNanos + timeoutNanos - nextDeadlineNanos < 0)
        {
            nextDeadlineNanos = nowNanos + timeoutNanos;
        }
    }

    /**
     * Closes an area: tentatively complete or incomplete until its final header goes out (a WRITE of the epoch lost
     * by then makes it incomplete).
     */
    void close(final int area, final boolean complete)
    {
        state[area] = (byte)(complete && !writeLost[area] ? SketchMergeHandler.STATE_COMPLETE :
            SketchMergeHandler.STATE_INCOMPLETE);
        openAreas--;
    }

    /**
     * @return the open area with the smallest epoch among those opened at or before {@code openedBy} (engine
     * clock, compared as a difference), or -1.
     */
    int oldestOpen(final long openedBy)
    {
        int oldest = -1;
        for (int a = 0; a < epochs; a++)
        {
            if (SketchMergeHandler.STATE_OPEN == state[a] &&
                (Long.MAX_VALUE == openedBy || openedNanos[a] - openedBy <= 0) &&
                (oldest < 0 || epoch[a] < epoch[oldest]))
            {
                oldest = a;
            }
        }
        return oldest;
    }

    void recomputeDeadline()
    {
        boolean any = false;
        for (int a = 0; a < epochs; a++)
        {
            if (SketchMergeHandler.STATE_OPEN == state[a])
            {
                final long deadline = openedNanos[a] + timeoutNanos;
                if (!any || deadline - nextDeadlineNanos < 0)
                {
                    nextDeadlineNanos = deadline;
                    any = true;
                }
            }
        }
    }
}
