package io.dta.collector.query;

import io.dta.codec.KeyHash;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The Key-Write lookup as {@code dta query keywrite} answered before the allocation-free query API, kept verbatim
 * as the oracle the new single and batch lookups must agree with: arrays per lookup, a byte[] per matching copy,
 * values numbered by first appearance, the first of the tied maxima wins.
 */
final class LegacyKeyWriteLookup
{
    private final DirectBuffer region;
    private final int slotSize;
    private final int slots;
    private final KeyHash hash = new KeyHash();

    LegacyKeyWriteLookup(final DirectBuffer region, final int slotSize)
    {
        this.region = region;
        this.slotSize = slotSize;
        this.slots = region.capacity() / slotSize;
    }

    KeyWriteResult lookup(final long key, final int redundancy, final boolean consensus)
    {
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
}
