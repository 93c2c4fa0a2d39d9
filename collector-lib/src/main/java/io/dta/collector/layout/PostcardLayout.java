package io.dta.collector.layout;

/**
 * Our postcard record, one per flow slot of the postcard region (32-byte slots), all words little-endian:
 * <pre>
 *   0  u32 flow key (the report's key value)
 *   4  u32 hop-present bit mask (bit h-1 set when hop h reported)
 *   8  u32 hop 1 data ... one word per hop, up to {@link #MAX_HOPS}
 * </pre>
 * The flow key in the record is what lets a query tell its own flow from a colliding flow that took the
 * slot, and the mask is what lets it mark missing hops. The slot of flow {@code key} is
 * {@code CRC32(LE(key) ‖ 0) & (slots - 1)}, the Key-Write slot hash for copy 0.
 */
public final class PostcardLayout
{
    /**
     * Bytes per postcard slot.
     */
    public static final int SLOT_LENGTH = 32;

    /**
     * Offset of the flow key word.
     */
    public static final int KEY_OFFSET = 0;

    /**
     * Offset of the hop-present mask word.
     */
    public static final int HOP_MASK_OFFSET = 4;

    /**
     * Offset of hop 1's data word.
     */
    public static final int HOPS_OFFSET = 8;

    /**
     * Most hops a 32-byte slot can hold.
     */
    public static final int MAX_HOPS = (SLOT_LENGTH - HOPS_OFFSET) / 4;

    private PostcardLayout()
    {
    }

    /**
     * Bytes written for a record of {@code hops} hops (the rest of the slot is left alone).
     *
     * @param hops hops per path.
     * @return record length.
     */
    public static int recordLength(final int hops)
    {
        return HOPS_OFFSET + 4 * hops;
    }

    /**
     * Offset of hop {@code hop}'s data word (hops count from 1).
     *
     * @param hop the hop number, 1-based.
     * @return offset within the slot.
     */
    public static int hopOffset(final int hop)
    {
        return HOPS_OFFSET + 4 * (hop - 1);
    }
}
