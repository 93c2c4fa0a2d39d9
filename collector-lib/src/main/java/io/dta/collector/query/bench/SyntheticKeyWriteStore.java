package io.dta.collector.query.bench;

import io.dta.codec.KeyHash;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * A Key-Write store in memory, filled as the translator fills one (docs/layouts.md): keys 1..K, each written to
 * its N slots {@code CRC32(LE(k) ‖ n) & (slots − 1)} as {@code CRC32(LE(k))} (LE) and the data (big-endian), later
 * keys overwriting earlier ones where slots coincide. With K = slots / N about 63 % of the slots end up occupied
 * and most keys keep most of their copies, as in a store that has run a while. The data of key k is
 * {@link #dataWord(long)}, repeated over longer slots. Keys above K were never written: they are the misses.
 */
public final class SyntheticKeyWriteStore implements AutoCloseable
{
    private final AnonymousMemory memory;
    private final UnsafeBuffer buffer;
    private final int slotSize;
    private final int writeRedundancy;
    private final long keys;

    /**
     * @param bytes           store size, a power-of-two multiple of the slot size, at most 1 GiB.
     * @param slotSize        8, 16 or 32.
     * @param writeRedundancy the N every key was written with.
     * @param hugePages       ask for transparent huge pages (as the reference collector's stores use huge pages).
     */
    public SyntheticKeyWriteStore(final long bytes, final int slotSize, final int writeRedundancy,
        final boolean hugePages)
    {
        if (bytes > 1L << 30 || bytes < slotSize || Long.bitCount(bytes / slotSize) != 1 || bytes % slotSize != 0)
        {
            throw new IllegalArgumentException("store size must be a power-of-two number of slots, up to 1 GiB: " +
                bytes);
        }
        this.memory = new AnonymousMemory(bytes, hugePages);
        this.buffer = new UnsafeBuffer(memory.address(), (int)bytes);
        this.slotSize = slotSize;
        this.writeRedundancy = writeRedundancy;
        final int slots = (int)(bytes / slotSize);
        this.keys = Math.max(1, slots / writeRedundancy);
        fill(slots);
    }

    private void fill(final int slots)
    {
        final KeyHash hash = new KeyHash();
        for (long k = 1; k <= keys; k++)
        {
            final int checksum = (int)hash.checksum(k);
            final int data = dataWord(k);
            for (int n = 0; n < writeRedundancy; n++)
            {
                final int offset = hash.slotIndex(k, n, slots) * slotSize;
                buffer.putInt(offset, checksum, ByteOrder.LITTLE_ENDIAN);
                for (int w = 4; w < slotSize; w += 4)
                {
                    buffer.putInt(offset + w, data, ByteOrder.BIG_ENDIAN);
                }
            }
        }
    }

    /**
     * @param key a key.
     * @return the data word written for it (a fixed scramble of the key).
     */
    public static int dataWord(final long key)
    {
        return (int)(key * 0x9E3779B97F4A7C15L >>> 32);
    }

    /**
     * Keys to query: a seeded mix of written keys (hits) and never-written ones (misses).
     *
     * @param count       keys.
     * @param hitPercent  0..100: the share of written keys.
     * @param seed        the random seed.
     * @return the keys.
     */
    public long[] queryKeys(final int count, final int hitPercent, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] out = new long[count];
        for (int i = 0; i < count; i++)
        {
            out[i] = random.nextInt(100) < hitPercent ? random.nextLong(1, keys + 1) :
                random.nextLong(keys + 1, 1L << 32);
        }
        return out;
    }

    /**
     * @return the store's memory (valid until closed).
     */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return the native address of slot 0 (for a native reader of the same memory).
     */
    public long address()
    {
        return memory.address();
    }

    /**
     * @return true when the kernel accepted the huge-page advice.
     */
    public boolean hugePages()
    {
        return memory.hugePages();
    }

    /**
     * @return bytes per slot.
     */
    public int slotSize()
    {
        return slotSize;
    }

    /**
     * @return keys written (1..K).
     */
    public long keys()
    {
        return keys;
    }

    /**
     * @return the N each key was written with.
     */
    public int writeRedundancy()
    {
        return writeRedundancy;
    }

    @Override
    public void close()
    {
        memory.close();
    }
}
