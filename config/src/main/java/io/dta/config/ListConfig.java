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
     * Number of 4-byte entries.
     *
     * @return {@code length / 4}.
     */
    public long entries()
    {
        return region.length() / ENTRY_BYTES;
    }
}
