package io.dta.config;

/**
 * Key-Write store of a collector.
 *
 * @param region   the region and its QP.
 * @param slotSize bytes per slot: 8, 16 or 32 (default 8); a slot holds a 4-byte checksum and slotSize - 4 data
 *                 bytes.
 */
public record KeyWriteConfig(RegionConfig region, int slotSize)
{
    /**
     * Default slot size.
     */
    public static final int DEFAULT_SLOT_SIZE = 8;

    /**
     * Number of slots, a power of two.
     *
     * @return {@code length / slotSize}.
     */
    public long slots()
    {
        return region.length() / slotSize;
    }
}
