package io.dta.collector.query;

import io.dta.collector.layout.ListLayout;
import org.agrona.DirectBuffer;

import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

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
    private final int[] words;
    private final int[] counts;
    private final int[] recordOf;
    private final long[] sequences;
    private final long[] order;
    private final long[] raw;
    private final ListEntries own;
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
        final boolean sequenced = ListLayout.Kind.SEQUENCED == layout.kind();
        final int records = sequenced ? layout.capacity() : 0;
        this.words = new int[records];
        this.counts = new int[records];
        this.recordOf = new int[records];
        this.sequences = new long[records];
        this.order = new long[records];
        this.raw = new long[records * layout.batchSize()];
        this.own = newEntries();
    }

    /**
     * @return a caller-owned answer with room for every entry this list retains.
     */
    public ListEntries newEntries()
    {
        return new ListEntries((int)layout.retainedEntries());
    }

    /**
     * Stateless read (allocates the answer; {@link #read(long, ListEntries)} does not).
     *
     * @param since the cursor of the previous read, 0 for everything retained.
     * @return the entries after {@code since}.
     */
    public ListReadResult read(final long since)
    {
        read(since, own);
        return own.toResult();
    }

    /**
     * Stateless read into a caller-owned answer, allocation-free.
     *
     * @param since the cursor of the previous read, 0 for everything retained.
     * @param out   receives the entries after {@code since} (from {@link #newEntries()}).
     */
    public void read(final long since, final ListEntries out)
    {
        if (ListLayout.Kind.SEQUENCED == layout.kind())
        {
            readSequenced(since, out);
        }
        else
        {
            readReference(out);
        }
    }

    /**
     * Follow mode: entries new since the previous poll (the first poll returns everything retained).
     *
     * @return the new entries (allocates; {@link #poll(ListEntries)} does not).
     */
    public ListReadResult poll()
    {
        poll(own);
        return own.toResult();
    }

    /**
     * Follow mode into a caller-owned answer, allocation-free after the first poll of a reference list (which
     * allocates its snapshot of the ring).
     *
     * @param out receives the entries new since the previous poll (from {@link #newEntries()}).
     */
    public void poll(final ListEntries out)
    {
        if (ListLayout.Kind.SEQUENCED == layout.kind())
        {
            readSequenced(cursor, out);
            cursor = out.cursor();
            return;
        }
        final int slots = layout.capacity();
        if (null == snapshot)
        {
            snapshot = new int[slots];
        }
        final long[] fresh = checkedBuffer(out);
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
        out.set(n, 0, false, 0);
    }

    /**
     * @param cursor where {@link #poll()} continues from ({@code SEQUENCED} only).
     */
    public void cursor(final long cursor)
    {
        this.cursor = cursor;
    }

    private long[] checkedBuffer(final ListEntries out)
    {
        if (out.buffer().length < layout.retainedEntries())
        {
            throw new IllegalArgumentException("room for " + out.buffer().length + " entries, the list retains " +
                layout.retainedEntries());
        }
        return out.buffer();
    }

    private void readReference(final ListEntries out)
    {
        final int slots = layout.capacity();
        final long[] entries = checkedBuffer(out);
        int n = 0;
        for (int i = 0; i < slots; i++)
        {
            final int v = region.getInt(i * ListLayout.ENTRY_LENGTH, ByteOrder.LITTLE_ENDIAN);
            if (0 != v)
            {
                entries[n++] = v & 0xFFFF_FFFFL;
            }
        }
        out.set(n, 0, false, 0);
    }

    private void readSequenced(final long since, final ListEntries out)
    {
        final long[] entries = checkedBuffer(out);
        final int records = layout.capacity();
        final int batch = layout.batchSize();
        final int found = readRecords(records, batch);
        final long anchor = anchor(since, found);
        int kept = 0;
        long maxSequence = since;
        long minSequence = Long.MAX_VALUE;
        for (int i = 0; i < found; i++)
        {
            final long sequence = anchor + (words[i] - (int)anchor);
            sequences[i] = sequence;
            if (sequence > since)
            {
                kept++;
                maxSequence = Math.max(maxSequence, sequence);
                minSequence = Math.min(minSequence, sequence);
            }
        }
        int k = 0;
        for (int i = 0; i < found; i++)
        {
            if (sequences[i] > since)
            {
                // The kept sequences lie within 2^32 of each other: distance from the oldest, then the record.
                order[k++] = ((sequences[i] - minSequence) << 32) | i;
            }
        }
        LongHeapSort.sort(order, kept);
        int total = 0;
        for (int j = 0; j < kept; j++)
        {
            final int i = (int)order[j];
            System.arraycopy(raw, recordOf[i] * batch, entries, total, counts[i]);
            total += counts[i];
        }

        // Batch b is overwritten by batch b + records: the first batch after the cursor is gone once the newest
        // is more than a ring ahead of it. Sequences with a zero word are never used, so they are not lost.
        final boolean lapped = maxSequence - since > records;
        final long skipped = Math.floorDiv(maxSequence, 1L << 32) - Math.floorDiv(since, 1L << 32);
        final long lost = maxSequence - since - kept - skipped;
        out.set(total, maxSequence, lapped, lost);
    }

    /**
     * Copies every record with a sequence word, seqlock-style (word, entries, word again; a record that changed
     * while read is retried, then left out) into the scratch arrays.
     *
     * @return records found.
     */
    private int readRecords(final int records, final int batch)
    {
        final int recordLength = ListLayout.recordLength(batch);
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
                for (int i = 0; i < count; i++)
                {
                    raw[r * batch + i] = region.getInt(offset + i * ListLayout.ENTRY_LENGTH,
                        ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
                }
                VarHandle.acquireFence();
                if (sequenceWordAt(offset) == word)
                {
                    words[found] = word;
                    counts[found] = count;
                    recordOf[found] = r;
                    found++;
                    break;
                }
            }
        }
        return found;
    }

    // A record's word is its sequence's low 32 bits. The retained records span fewer than 2^31 sequences,
    // so they are told apart by serial arithmetic around an anchor: the cursor, or for a first read the
    // newest word. A first read keeps every record, numbered 1, 2, 3, ... before the word first wraps and as
    // the second round of 2^32 after (older rounds cannot be told apart; only differences matter later).
    private long anchor(final long since, final int found)
    {
        long anchor = since;
        if (0 == since && found > 0)
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
        return anchor;
    }

    private int sequenceWordAt(final int recordOffset)
    {
        return region.getInt(recordOffset + layout.sequenceOffsetInRecord(), ByteOrder.LITTLE_ENDIAN);
    }
}
