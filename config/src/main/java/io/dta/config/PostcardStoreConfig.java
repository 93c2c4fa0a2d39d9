package io.dta.config;

/**
 * Postcard store of a collector: one 32-byte record slot per flow hash.
 *
 * @param region the region and its QP.
 */
public record PostcardStoreConfig(RegionConfig region)
{
    /**
     * Bytes per record slot.
     */
    public static final int SLOT_BYTES = 32;

    /**
     * Number of slots, a power of two.
     *
     * @return {@code length / 32}.
     */
    public long slots()
    {
        return region.length() / SLOT_BYTES;
    }
}
