package io.dta.collector.layout;

import io.dta.config.ListConfig;

/**
 * Where Append entries live in a list region, defined once for the translator (which computes write
 * addresses) and the collector (which reads them back).
 * <p>
 * Two layouts exist:
 * <ul>
 *     <li>{@link Kind#REFERENCE}: the original DTA collector's bare ring of 4-byte little-endian entries. The
 *     translator writes each batch at the head and advances it by the entries written; a batch that would
 *     cross the end of the region starts again at slot 0 instead. Nothing tells a reader where the head is.</li>
 *     <li>{@link Kind#SEQUENCED} (our default): the region is cut into fixed-size <em>records</em>, one per
 *     batch: {@code batchSize} entry words, then a {@code count} word, then a {@code sequence} word (all u32
 *     little-endian). Batch sequence numbers start at 1 and increase by one per batch written
 *     ({@link #nextSequence(long)}); record {@code (sequence - 1) % records} holds batch {@code sequence}, whose
 *     word holds the sequence's low 32 bits. Sequences whose low 32 bits are 0 are skipped, so that 0 keeps
 *     meaning "never written" after the word wrapped (every 2^32 - 1 batches: about an hour for one list taking
 *     20 M entries a second in batches of 16). A reader finds new entries by their
 *     sequence, knows it was lapped when the oldest sequence still present is beyond the one it expects,
 *     and, because the sequence is the last word of the record and an RDMA WRITE lands in address order,
 *     never takes a half-written record for a complete one.</li>
 * </ul>
 * Neither layout lets one write cross the end of the region, and each entry slot is written at most once per
 * lap.
 */
public final class ListLayout
{
    /**
     * Size of one Append entry on the wire and in memory.
     */
    public static final int ENTRY_LENGTH = 4;

    /**
     * Bytes after the entries of a {@link Kind#SEQUENCED} record: the count word and the sequence word.
     */
    public static final int RECORD_TRAILER_LENGTH = ListConfig.SEQUENCED_RECORD_TRAILER_BYTES;

    /**
     * The list layouts.
     */
    public enum Kind
    {
        /**
         * The reference's bare ring of entries.
         */
        REFERENCE,

        /**
         * Our records with a count and a sequence number per batch.
         */
        SEQUENCED
    }

    private final Kind kind;
    private final int batchSize;
    private final long regionLength;
    private final int slots;

    /**
     * Describes one list region.
     *
     * @param kind         the layout.
     * @param batchSize    entries per batch (1, 2, 4, 8 or 16).
     * @param regionLength region length in bytes.
     */
    public ListLayout(final Kind kind, final int batchSize, final long regionLength)
    {
        if (batchSize < 1 || batchSize > 16 || Integer.bitCount(batchSize) != 1)
        {
            throw new IllegalArgumentException("batch size must be 1, 2, 4, 8 or 16: " + batchSize);
        }
        this.kind = kind;
        this.batchSize = batchSize;
        this.regionLength = regionLength;
        final long unit = Kind.SEQUENCED == kind ? recordLength(batchSize) : ENTRY_LENGTH;
        final long count = regionLength / unit;
        if (count < (Kind.SEQUENCED == kind ? 1 : batchSize) || count > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException(
                "a list of " + regionLength + " bytes cannot hold one batch of " + batchSize + " entries");
        }
        this.slots = (int)count;
    }

    /**
     * Length in bytes of one {@link Kind#SEQUENCED} record for a batch size.
     *
     * @param batchSize entries per batch.
     * @return record length in bytes.
     */
    public static int recordLength(final int batchSize)
    {
        return batchSize * ENTRY_LENGTH + RECORD_TRAILER_LENGTH;
    }

    /**
     * @return the layout kind.
     */
    public Kind kind()
    {
        return kind;
    }

    /**
     * @return entries per batch.
     */
    public int batchSize()
    {
        return batchSize;
    }

    /**
     * @return region length in bytes.
     */
    public long regionLength()
    {
        return regionLength;
    }

    /**
     * Number of addressable units: entry slots for {@link Kind#REFERENCE}, records for {@link Kind#SEQUENCED}.
     *
     * @return number of entry slots or records.
     */
    public int capacity()
    {
        return slots;
    }

    /**
     * Number of entries the region retains at most.
     *
     * @return retained entries.
     */
    public long retainedEntries()
    {
        return Kind.SEQUENCED == kind ? (long)slots * batchSize : slots;
    }

    /**
     * Offset of the record holding batch {@code sequence} ({@link Kind#SEQUENCED} only).
     *
     * @param sequence batch sequence number, starting at 1.
     * @return byte offset of the record within the region.
     */
    public long recordOffset(final long sequence)
    {
        return ((sequence - 1) % slots) * (long)recordLength(batchSize);
    }

    /**
     * The batch sequence number after {@code sequence}: the next one whose low 32 bits, the record's sequence word,
     * are not 0.
     *
     * @param sequence a batch sequence number (from 1).
     * @return the next one.
     */
    public static long nextSequence(final long sequence)
    {
        final long next = sequence + 1;
        return 0 == (int)next ? next + 1 : next;
    }

    /**
     * Offset of the count word within a record.
     *
     * @return offset within the record.
     */
    public int countOffsetInRecord()
    {
        return batchSize * ENTRY_LENGTH;
    }

    /**
     * Offset of the sequence word within a record.
     *
     * @return offset within the record.
     */
    public int sequenceOffsetInRecord()
    {
        return batchSize * ENTRY_LENGTH + 4;
    }

    /**
     * The reference ring's head after a batch: where the next batch starts.
     *
     * @param head  slot where this batch is written.
     * @param count entries in this batch.
     * @return the next head.
     */
    public int referenceNextHead(final int head, final int count)
    {
        return head + count;
    }

    /**
     * The reference ring's slot for a batch of {@code count} entries when the head is at {@code head}: the
     * head itself, or 0 when the batch would cross the end of the region.
     *
     * @param head  current head slot.
     * @param count entries in the batch.
     * @return the slot where the batch is written.
     */
    public int referenceWriteSlot(final int head, final int count)
    {
        return head + count > slots ? 0 : head;
    }
}
