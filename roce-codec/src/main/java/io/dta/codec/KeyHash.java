package io.dta.codec;

import java.util.zip.CRC32;

/**
 * DTA key hashing (dta-reference §2.2): checksum C = CRC32(LE(key)) and slot hash CRC32(LE(key) || n), where
 * LE(key) is the key's 4 wire bytes reversed and n a single byte. Zero allocation; not thread-safe.
 */
public final class KeyHash
{
    private final CRC32 crc = new CRC32();
    private final byte[] scratch = new byte[5];

    /**
     * @param key the key as carried on the wire (low 32 bits used).
     * @return CRC32 over the 4 key bytes in little-endian order.
     */
    public long checksum(final long key)
    {
        putLe(key);
        crc.reset();
        crc.update(scratch, 0, 4);
        return crc.getValue();
    }

    /**
     * @param key the key (low 32 bits used).
     * @param n   copy index (low 8 bits used).
     * @return CRC32 over the 4 little-endian key bytes followed by the byte n.
     */
    public long slotHash(final long key, final int n)
    {
        putLe(key);
        scratch[4] = (byte)n;
        crc.reset();
        crc.update(scratch, 0, 5);
        return crc.getValue();
    }

    /**
     * @param key   the key (low 32 bits used).
     * @param n     copy index.
     * @param slots number of slots, a power of two.
     * @return the slot index: slot hash masked with {@code slots - 1}.
     */
    public int slotIndex(final long key, final int n, final int slots)
    {
        return (int)(slotHash(key, n) & (slots - 1));
    }

    private void putLe(final long key)
    {
        scratch[0] = (byte)key;
        scratch[1] = (byte)(key >>> 8);
        scratch[2] = (byte)(key >>> 16);
        scratch[3] = (byte)(key >>> 24);
    }
}
