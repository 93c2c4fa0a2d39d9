package io.dta.config;

/**
 * An Append list. Lists are routed by id alone, so ids are unique across all collectors.
 *
 * @param id     list id, 32-bit unsigned (the report's listID).
 * @param region the region and its QP; 4-byte entries.
 * @param layout memory layout, default {@link ListLayout#SEQUENCED}.
 */
public record ListConfig(long id, RegionConfig region, ListLayout layout)
{
    /**
     * Bytes per entry.
     */
    public static final int ENTRY_BYTES = 4;

    /**
     * Bytes a record of the sequenced layout adds after its batch of entries (docs/layouts.md).
     */
    public static final int SEQUENCED_RECORD_TRAILER_BYTES = 8;

    /**
     * Bytes of one record of the sequenced layout, the least a sequenced list can hold.
     *
     * @param batchSize entries per batch.
     * @return {@code batchSize × 4 + 8}.
     */
    public static int sequencedRecordBytes(final int batchSize)
    {
        return batchSize * ENTRY_BYTES + SEQUENCED_RECORD_TRAILER_BYTES;
    }

    /**
     * What keeps a list of this length and layout from taking batches of {@code batchSize} entries, if anything: the
     * rule the configuration is validated with, for whoever changes the batch size afterwards ({@code dta bench
     * --batch}).
     *
     * @param length    the list's length in bytes.
     * @param layout    its layout.
     * @param batchSize entries per batch; 0 or less when unknown (only the entry size is checked then).
     * @return the problem, to follow the key path of {@code length}; null if there is none.
     */
    public static String lengthProblem(final long length, final ListLayout layout, final int batchSize)
    {
        final long entries = length / ENTRY_BYTES;
        if (length % ENTRY_BYTES != 0)
        {
            return length + " is not a multiple of the entry size 4";
        }
        if (batchSize <= 0)
        {
            return null;
        }
        if (entries < batchSize)
        {
            return length + " / 4 = " + entries + " entries, fewer than append.batchSize " + batchSize;
        }
        if (layout == ListLayout.SEQUENCED && length < sequencedRecordBytes(batchSize))
        {
            return length + " bytes hold no record of the sequenced layout (append.batchSize " + batchSize +
                " entries of 4 bytes + an 8-byte trailer = " + sequencedRecordBytes(batchSize) + " bytes)";
        }
        if (layout == ListLayout.REFERENCE && entries % batchSize != 0)
        {
            return length + " / 4 = " + entries + " entries, not a multiple of append.batchSize " + batchSize +
                " (required by layout reference)";
        }
        return null;
    }

    /**
     * Number of 4-byte entries.
     *
     * @return {@code length / 4}.
     */
    public long entries()
    {
        return region.length() / ENTRY_BYTES;
    }
}
