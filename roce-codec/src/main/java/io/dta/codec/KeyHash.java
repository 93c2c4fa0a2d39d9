package io.dta.codec;

/**
 * The DTA key hashes (translation.md §3, dta-reference.md §2.2): checksum {@code C = CRC32(LE(key))} and slot hash
 * {@code CRC32(LE(key) ‖ n)}, the IEEE/zlib CRC-32 over the key's 4 bytes in little-endian order, then the copy
 * index n as one byte.
 * <p>
 * Inputs of 4 and 5 bytes are too short for the JDK's CRC intrinsic to pay off (its call costs more than the
 * work). The key's register comes from one slicing-by-4 step ({@link Crc32Register#updateInt}: four independent
 * table loads, where the byte-wise table chained four dependent ones; the chain sat on the path from the report to
 * the frame's address and ICRC, and its removal made the engine's Key-Write 8 % faster), and every slot hash of the
 * same key continues it by one byte-wise step. The register of the last key is kept, so N slot hashes of one report
 * cost one slicing step and N byte steps in all. Not thread-safe: one instance per thread.
 */
public final class KeyHash
{
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
        return ~Crc32Register.updateByte(crc, n) & 0xFFFF_FFFFL;
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
        final int crc = Crc32Register.updateInt(Crc32Register.INITIAL, (int)key);
        lastKey = key;
        lastRegister = crc;
        return crc;
    }
}
