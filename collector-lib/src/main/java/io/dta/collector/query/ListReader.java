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
 * A record holds the low 32 bits of its batch's sequence number; the reader widens them around its cursor, so
 * a cursor keeps working across the wrap of the 32-bit word (the writer skips the sequences whose word would be 0).
 * The cursor is the writer's sequence number, or for a reader whose first read came after a wrap, that number
 * less a multiple of 2^32: it only matters as the {@code since} of the next read.
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
        final int[] words = new int[records];
        final long[][] batches = new long[records][];
        int found = 0;
        for (int r = 0; r < records; r++)
        {
            final int offset = r * recordLength;
            for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++)
            {
                final int word = sequenceWordAt(offset);
                if (0 == word)
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
                if (sequenceWordAt(offset) == word)
                {
                    words[found] = word;
                    batches[found] = values;
                    found++;
                    break;
                }
            }
        }

        // A record's word is its sequence's low 32 bits. The retained records span fewer than 2^31 sequences,
        // so they are told apart by serial arithmetic around an anchor: the cursor, or for a first read the
        // newest word. A first read keeps every record, numbered 1, 2, 3, ... before the word first wraps and as
        // the second round of 2^32 after (older rounds cannot be told apart; only differences matter later).
        final boolean first = 0 == since;
        long anchor = since;
        if (first && found > 0)
        {
            int newest = words[0];
            for (int i = 1; i < found; i++)
            {
                if (words[i] - newest > 0)
                {
                    newest = words[i];
                }
            }
            anchor = newest & 0xFFFF_FFFFL;
            for (int i = 0; i < found; i++)
            {
                if (anchor + (words[i] - newest) <= 0)
                {
                    anchor += 1L << 32;
                    break;
                }
            }
        }
        final long[] sequences = new long[found];
        final long[][] fresh = new long[found][];
        int kept = 0;
        long maxSequence = since;
        for (int i = 0; i < found; i++)
        {
            final long sequence = anchor + (words[i] - (int)anchor);
            if (sequence > since)
            {
                sequences[kept] = sequence;
                fresh[kept] = batches[i];
                kept++;
                maxSequence = Math.max(maxSequence, sequence);
            }
        }

        final Integer[] order = new Integer[kept];
        for (int i = 0; i < kept; i++)
        {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(sequences[a], sequences[b]));
        int total = 0;
        for (int i = 0; i < kept; i++)
        {
            total += fresh[i].length;
        }
        final long[] entries = new long[total];
        int n = 0;
        for (final Integer i : order)
        {
            System.arraycopy(fresh[i], 0, entries, n, fresh[i].length);
            n += fresh[i].length;
        }

        // Batch b is overwritten by batch b + records: the first batch after the cursor is gone once the newest
        // is more than a ring ahead of it. Sequences with a zero word are never used, so they are not lost.
        final boolean lapped = maxSequence - since > records;
        final long skipped = Math.floorDiv(maxSequence, 1L << 32) - Math.floorDiv(since, 1L << 32);
        final long lost = maxSequence - since - kept - skipped;
        return new ListReadResult(entries, maxSequence, lapped, lost);
    }

    private int sequenceWordAt(final int recordOffset)
    {
        return region.getInt(recordOffset + layout.sequenceOffsetInRecord(), ByteOrder.LITTLE_ENDIAN);
    }
}
