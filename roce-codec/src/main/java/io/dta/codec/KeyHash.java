package io.dta.codec;

/**
 * The DTA key hashes (translation.md §3, dta-reference.md §2.2): checksum {@code C = CRC32(LE(key))} and slot hash
 * {@code CRC32(LE(key) ‖ n)}, the IEEE/zlib CRC-32 over the key's 4 bytes in little-endian order, then the copy
 * index n as one byte.
 * <p>
 * Inputs of 4 and 5 bytes are too short for the JDK's CRC intrinsic to pay off (its call costs more than the
 * work), so this runs the classic byte-wise table: four steps give the key's CRC register, which every slot hash
 * of the same key continues by one step. The register of the last key is kept, so N slot hashes of one report
 * cost N + 4 table steps in all. Not thread-safe: one instance per thread.
 */
public final class KeyHash
{
    private static final int[] TABLE = new int[256];

    static
    {
        for (int i = 0; i < 256; i++)
        {
            int c = i;
            for (int k = 0; k < 8; k++)
            {
                c = 0 != (c & 1) ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
            }
            TABLE[i] = c;
        }
    }

    private long lastKey = -1;
    private int lastRegister;

    /**
     * @param key the key as a u32 (the wire value).
     * @return {@code CRC32(LE(key))} as a u32.
     */
    public long checksum(final long key)
    {
        return ~register(key) & 0xFFFF_FFFFL;
    }

    /**
     * @param key the key as a u32 (the wire value).
     * @param n   the copy index, 0..255.
     * @return {@code CRC32(LE(key) ‖ n)} as a u32.
     */
    public long slotHash(final long key, final int n)
    {
        final int crc = register(key);
        return ~(TABLE[(crc ^ n) & 0xFF] ^ (crc >>> 8)) & 0xFFFF_FFFFL;
    }

    /**
     * @param key   the key as a u32.
     * @param n     the copy index.
     * @param slots number of slots, a power of two.
     * @return the slot of copy n.
     */
    public int slotIndex(final long key, final int n, final int slots)
    {
        return (int)(slotHash(key, n) & (slots - 1));
    }

    private int register(final long key)
    {
        if (key == lastKey)
        {
            return lastRegister;
        }
        int crc = -1;
        crc = TABLE[(crc ^ (int)key) & 0xFF] ^ (crc >>> 8);
        crc = TABLE[(crc ^ (int)(key >>> 8)) & 0xFF] ^ (crc >>> 8);
        crc = TABLE[(crc ^ (int)(key >>> 16)) & 0xFF] ^ (crc >>> 8);
        crc = TABLE[(crc ^ (int)(key >>> 24)) & 0xFF] ^ (crc >>> 8);
        lastKey = key;
        lastRegister = crc;
        return crc;
    }
}
