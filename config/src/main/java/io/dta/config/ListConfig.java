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
     * Number of 4-byte entries.
     *
     * @return {@code length / 4}.
     */
    public long entries()
    {
        return region.length() / ENTRY_BYTES;
    }
}
