package io.dta.collector.query;

import io.dta.codec.KeyHash;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Reads the Key-Write store (docs/layouts.md): key {@code k} with redundancy {@code N} was written to the slots
 * {@code CRC32(LE(k) ‖ n) & (slots − 1)}, n = 0..N−1, each holding {@code CRC32(LE(k))} (LE u32) and the data.
 * <p>
 * A lookup keeps the slots whose checksum word is the key's checksum (slots reached by several n are counted
 * once) and votes: the data held by most of them wins, a tie goes to the value seen at the lowest n. With
 * consensus every matching copy must hold the same data. Checksum collisions between keys are possible (32 bits):
 * the vote over several copies is what makes a wrong answer unlikely.
 */
public final class KeyWriteQuery
{
    private final DirectBuffer region;
    private final int slotSize;
    private final int slots;
    private final KeyHash hash = new KeyHash();

    /**
     * @param region   the store's memory.
     * @param slotSize bytes per slot (8, 16 or 32).
     */
    public KeyWriteQuery(final DirectBuffer region, final int slotSize)
    {
        if (slotSize != 8 && slotSize != 16 && slotSize != 32)
        {
            throw new IllegalArgumentException("slot size must be 8, 16 or 32: " + slotSize);
        }
        final int count = region.capacity() / slotSize;
        if (Integer.bitCount(count) != 1)
        {
            throw new IllegalArgumentException("slot count must be a power of two: " + count);
        }
        this.region = region;
        this.slotSize = slotSize;
        this.slots = count;
    }

    /**
     * @param key        the key (low 32 bits).
     * @param redundancy copies to look at, N ≥ 1.
     * @param consensus  require every matching copy to agree.
     * @return the answer.
     */
    public KeyWriteResult lookup(final long key, final int redundancy, final boolean consensus)
    {
        if (redundancy < 1 || redundancy > 256)
        {
            throw new IllegalArgumentException("redundancy must be 1..256: " + redundancy);
        }
        final long k = key & 0xFFFF_FFFFL;
        final int checksum = (int)hash.checksum(k);
        final int dataLength = slotSize - 4;
        final int[] seen = new int[redundancy];
        final byte[][] values = new byte[redundancy][];
        final int[] votes = new int[redundancy];
        int distinct = 0;
        int matches = 0;
        for (int n = 0; n < redundancy; n++)
        {
            final int slot = hash.slotIndex(k, n, slots);
            boolean duplicateSlot = false;
            for (int i = 0; i < n; i++)
            {
                duplicateSlot |= seen[i] == slot;
            }
            seen[n] = slot;
            final int offset = slot * slotSize;
            if (duplicateSlot || region.getInt(offset, ByteOrder.LITTLE_ENDIAN) != checksum)
            {
                continue;
            }
            matches++;
            final byte[] data = new byte[dataLength];
            region.getBytes(offset + 4, data);
            int v = 0;
            while (v < distinct && !Arrays.equals(values[v], data))
            {
                v++;
            }
            if (v == distinct)
            {
                values[distinct++] = data;
            }
            votes[v]++;
        }
        if (0 == matches)
        {
            return new KeyWriteResult(k, KeyWriteResult.Status.NOT_FOUND, null, 0, 0);
        }
        if (consensus && distinct > 1)
        {
            return new KeyWriteResult(k, KeyWriteResult.Status.CONFLICT, null, matches, 0);
        }
        // Values are numbered in order of first appearance, so the first of the tied maxima has the lowest n.
        int best = 0;
        for (int v = 1; v < distinct; v++)
        {
            if (votes[v] > votes[best])
            {
                best = v;
            }
        }
        return new KeyWriteResult(k, KeyWriteResult.Status.FOUND, values[best], matches, votes[best]);
    }

    /**
     * @return number of slots.
     */
    public int slots()
    {
        return slots;
    }
}
