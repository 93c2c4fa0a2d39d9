package io.dta.collector.query;

import io.dta.codec.KeyHash;
import io.dta.collector.layout.PostcardLayout;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CounterAndPostcardQueryTest
{
    private final KeyHash hash = new KeyHash();

    private void add(final UnsafeBuffer memory, final long key, final int n, final long amount)
    {
        final int offset = hash.slotIndex(key, n, memory.capacity() / 8) * 8;
        memory.putLong(offset, memory.getLong(offset, ByteOrder.LITTLE_ENDIAN) + amount, ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void shouldReturnTheMinimumOfTheCounters()
    {
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[512 * 8]);
        for (int n = 0; n < 3; n++)
        {
            add(memory, 1234, n, 10);
        }
        add(memory, 1234, 1, 5);
        final CounterQuery query = new CounterQuery(memory);

        assertEquals(10, query.value(1234, 3));
        assertEquals(10, query.value(1234, 1));
        assertEquals(0, query.value(1234, 4), "the fourth counter was never incremented");
        // Counter 1 holds 15, so the running minimum stays at 10 until the untouched fourth counter.
        assertArrayEquals(new long[] { 10, 10, 10, 0, 0 }, query.valuesByRedundancy(1234, 5));
    }

    @Test
    void shouldReadTheSameMinimaOneAtATimeInBatchesAndByRedundancy()
    {
        final SplittableRandom rnd = new SplittableRandom(0xC0C0);
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[256 * 8]);
        for (int i = 0; i < 256; i++)
        {
            memory.putLong(i * 8, rnd.nextInt(4) == 0 ? rnd.nextLong() : rnd.nextInt(1000), ByteOrder.LITTLE_ENDIAN);
        }
        final CounterQuery query = new CounterQuery(memory);
        final long[] keys = new long[300];
        for (int i = 0; i < keys.length; i++)
        {
            keys[i] = rnd.nextLong(1L << 32);
        }
        final long[] values = new long[keys.length];
        for (int n = 1; n <= 6; n++)
        {
            query.values(keys, 0, keys.length, n, values);
            for (int i = 0; i < keys.length; i++)
            {
                final long[] byN = query.valuesByRedundancy(keys[i], n);
                assertEquals(byN[n - 1], values[i], "key " + keys[i] + " N " + n);
                assertEquals(byN[n - 1], query.value(keys[i], n));
                long min = -1L;
                for (int c = 0; c < n; c++)
                {
                    final long v = memory.getLong(hash.slotIndex(keys[i], c, 256) * 8, ByteOrder.LITTLE_ENDIAN);
                    min = Long.compareUnsigned(v, min) < 0 ? v : min;
                }
                assertEquals(min, values[i], "independent minimum, key " + keys[i] + " N " + n);
            }
        }
    }

    @Test
    void shouldTreatCountersAsUnsigned64Bit()
    {
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[64 * 8]);
        add(memory, 1, 0, 0x8000_0000_0000_0005L);
        add(memory, 1, 1, 0x8000_0000_0000_0007L);

        assertEquals("9223372036854775813", Long.toUnsignedString(new CounterQuery(memory).value(1, 2)));
    }

    @Test
    void shouldNeverUnderestimateACount()
    {
        final long seed = Long.getLong("dta.test.seed", 0x00BBEAB9L);
        final SplittableRandom rnd = new SplittableRandom(seed);
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[128 * 8]);
        final long[] totals = new long[200];
        for (int i = 0; i < 5000; i++)
        {
            final int key = rnd.nextInt(totals.length);
            final long amount = rnd.nextInt(1000);
            totals[key] += amount;
            for (int n = 0; n < 3; n++)
            {
                add(memory, key, n, amount);
            }
        }
        final CounterQuery query = new CounterQuery(memory);
        for (int key = 0; key < totals.length; key++)
        {
            assertTrue(query.value(key, 3) >= totals[key], "seed " + seed + " key " + key);
        }
    }

    private void postcard(final UnsafeBuffer memory, final int key, final int mask, final int... hops)
    {
        final int offset = hash.slotIndex(key & 0xFFFF_FFFFL, 0, memory.capacity() / 32) * 32;
        memory.putInt(offset + PostcardLayout.KEY_OFFSET, key, ByteOrder.LITTLE_ENDIAN);
        memory.putInt(offset + PostcardLayout.HOP_MASK_OFFSET, mask, ByteOrder.LITTLE_ENDIAN);
        for (int h = 1; h <= hops.length; h++)
        {
            memory.putInt(offset + PostcardLayout.hopOffset(h), hops[h - 1], ByteOrder.LITTLE_ENDIAN);
        }
    }

    @Test
    void shouldReturnAPathWithMissingHopsMarked()
    {
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[64 * 32]);
        postcard(memory, 0xCAFE0001, 0b10111, 11, 22, 33, 0, 0xFFFFFFF5);
        final PostcardResult r = new PostcardQuery(memory, 5).path(0xCAFE0001L);

        assertTrue(r.found());
        assertFalse(r.collision());
        assertTrue(r.hasHop(1) && r.hasHop(2) && r.hasHop(3) && r.hasHop(5));
        assertFalse(r.hasHop(4));
        assertEquals(33, r.hops()[2]);
        assertEquals(0xFFFFFFF5L, r.hops()[4]);
    }

    @Test
    void shouldDetectACollidingFlowAndAnEmptySlot()
    {
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[64 * 32]);
        final PostcardQuery query = new PostcardQuery(memory, 5);
        assertFalse(query.path(17).found());
        assertFalse(query.path(17).collision());

        int other = 18;
        while (hash.slotIndex(other, 0, 64) != hash.slotIndex(17, 0, 64))
        {
            other++;
        }
        postcard(memory, other, 0b11111, 1, 2, 3, 4, 5);
        final PostcardResult r = query.path(17);

        assertFalse(r.found());
        assertTrue(r.collision());
        assertEquals(other, r.storedKey());
        assertTrue(query.path(other).found());
    }
}
