package io.dta.collector.query;

import io.dta.collector.layout.ListLayout;
import org.agrona.DirectBuffer;

import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Reads an Append list region in either layout (docs/layouts.md).
 * <ul>
 *     <li>{@link ListLayout.Kind#SEQUENCED}: {@link #read(long)} returns the entries of every retained batch with a
 *     sequence after {@code since}, oldest first, the new cursor, and whether the reader was lapped. A record is
 *     read seqlock-style (sequence, entries, sequence again), so a record being overwritten while it is read is
 *     skipped rather than returned torn.</li>
 *     <li>{@link ListLayout.Kind#REFERENCE}: the bare ring has no head, no count and no sequence, so a reader can
 *     only return every non-zero entry in ring order (slot 0 first, not oldest first once the ring wrapped); a
 *     zero entry is indistinguishable from an empty slot, and {@code since} is ignored. {@link #poll()} reports
 *     slots that changed to a non-zero value since the previous poll, which misses a slot rewritten with the value
 *     it already held. This is the reference's limitation, kept for byte compatibility.</li>
 * </ul>
 * Sequence numbers are taken as unsigned 32-bit and assumed not to wrap (4·10^9 batches).
 */
public final class ListReader
{
    private static final int READ_ATTEMPTS = 4;

    private final DirectBuffer region;
    private final ListLayout layout;
    private long cursor;
    private int[] snapshot;

    /**
     * @param region the list's memory.
     * @param layout the list's layout (kind, batch size, length).
     */
    public ListReader(final DirectBuffer region, final ListLayout layout)
    {
        if (region.capacity() < layout.regionLength())
        {
            throw new IllegalArgumentException("region smaller than the layout");
        }
        this.region = region;
        this.layout = layout;
    }

    /**
     * Stateless read.
     *
     * @param since the cursor of the previous read, 0 for everything retained.
     * @return the entries after {@code since}.
     */
    public ListReadResult read(final long since)
    {
        return ListLayout.Kind.SEQUENCED == layout.kind() ? readSequenced(since) : readReference();
    }

    /**
     * Follow mode: entries new since the previous poll (the first poll returns everything retained).
     *
     * @return the new entries.
     */
    public ListReadResult poll()
    {
        if (ListLayout.Kind.SEQUENCED == layout.kind())
        {
            final ListReadResult result = readSequenced(cursor);
            cursor = result.cursor();
            return result;
        }
        final int slots = layout.capacity();
        if (null == snapshot)
        {
            snapshot = new int[slots];
        }
        final long[] fresh = new long[slots];
        int n = 0;
        for (int i = 0; i < slots; i++)
        {
            final int v = region.getInt(i * ListLayout.ENTRY_LENGTH, ByteOrder.LITTLE_ENDIAN);
            if (v != snapshot[i])
            {
                snapshot[i] = v;
                if (0 != v)
                {
                    fresh[n++] = v & 0xFFFF_FFFFL;
                }
            }
        }
        return new ListReadResult(Arrays.copyOf(fresh, n), 0, false, 0);
    }

    /**
     * @param cursor where {@link #poll()} continues from ({@code SEQUENCED} only).
     */
    public void cursor(final long cursor)
    {
        this.cursor = cursor;
    }

    private ListReadResult readReference()
    {
        final int slots = layout.capacity();
        final long[] entries = new long[slots];
        int n = 0;
        for (int i = 0; i < slots; i++)
        {
            final int v = region.getInt(i * ListLayout.ENTRY_LENGTH, ByteOrder.LITTLE_ENDIAN);
            if (0 != v)
            {
                entries[n++] = v & 0xFFFF_FFFFL;
            }
        }
        return new ListReadResult(Arrays.copyOf(entries, n), 0, false, 0);
    }

    private ListReadResult readSequenced(final long since)
    {
        final int records = layout.capacity();
        final int batch = layout.batchSize();
        final int recordLength = ListLayout.recordLength(batch);
        final long[] sequences = new long[records];
        final long[][] batches = new long[records][];
        int found = 0;
        long maxSequence = since;
        for (int r = 0; r < records; r++)
        {
            final int offset = r * recordLength;
            for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++)
            {
                final long sequence = sequenceAt(offset);
                if (sequence > maxSequence)
                {
                    maxSequence = sequence;
                }
                if (sequence <= since)
                {
                    break;
                }
                VarHandle.acquireFence();
                final int count = Math.min(batch,
                    Math.max(0, region.getInt(offset + layout.countOffsetInRecord(), ByteOrder.LITTLE_ENDIAN)));
                final long[] values = new long[count];
                for (int i = 0; i < count; i++)
                {
                    values[i] = region.getInt(offset + i * ListLayout.ENTRY_LENGTH, ByteOrder.LITTLE_ENDIAN) &
                        0xFFFF_FFFFL;
                }
                VarHandle.acquireFence();
                if (sequenceAt(offset) == sequence)
                {
                    sequences[found] = sequence;
                    batches[found] = values;
                    found++;
                    break;
                }
            }
        }

        final Integer[] order = new Integer[found];
        for (int i = 0; i < found; i++)
        {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(sequences[a], sequences[b]));
        int total = 0;
        for (int i = 0; i < found; i++)
        {
            total += batches[i].length;
        }
        final long[] entries = new long[total];
        int n = 0;
        for (final Integer i : order)
        {
            System.arraycopy(batches[i], 0, entries, n, batches[i].length);
            n += batches[i].length;
        }

        final long next = since + 1;
        final boolean lapped = maxSequence > since && sequenceAt((int)layout.recordOffset(next)) > next;
        final long lost = maxSequence - since - found;
        return new ListReadResult(entries, maxSequence, lapped, lost);
    }

    private long sequenceAt(final int recordOffset)
    {
        return region.getInt(recordOffset + layout.sequenceOffsetInRecord(), ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
    }
}
