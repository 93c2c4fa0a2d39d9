package io.dta.collector.query;

import io.dta.codec.KeyHash;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteOrder;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The allocation-free lookups (one at a time and in batches) answer exactly as the former lookup
 * ({@link LegacyKeyWriteLookup}) over stores filled with a fixed seed: keys written with N = 1..4, later keys
 * overwriting earlier copies, and some keys rewritten with new data in part of their copies, so that votes split,
 * tie and conflict; looked up with N = 1..6, with and without consensus, hits and misses.
 */
class KeyWriteQueryEquivalenceTest
{
    private static final int SLOTS = 1 << 12;
    private static final int KEYS = 3000;

    @ParameterizedTest
    @ValueSource(ints = { 8, 16, 32 })
    void shouldAnswerAsTheFormerLookupOverAFilledStore(final int slotSize)
    {
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[SLOTS * slotSize]);
        final SplittableRandom random = new SplittableRandom(0xD7A + slotSize);
        fill(memory, slotSize, random);
        final LegacyKeyWriteLookup legacy = new LegacyKeyWriteLookup(memory, slotSize);
        final KeyWriteQuery query = new KeyWriteQuery(memory, slotSize);
        final KeyWriteAnswer answer = new KeyWriteAnswer();
        final long[] keys = new long[2 * KEYS];
        for (int i = 0; i < keys.length; i++)
        {
            // Written keys (1..KEYS) and never-written ones, shuffled.
            keys[i] = random.nextInt(4) == 0 ? random.nextLong(1L << 32) : 1 + random.nextInt(KEYS);
        }
        int found = 0;
        int conflicts = 0;
        int split = 0;
        for (int n = 1; n <= 6; n++)
        {
            for (final boolean consensus : new boolean[] { false, true })
            {
                final KeyWriteAnswers answers = new KeyWriteAnswers(97);
                for (int from = 0; from < keys.length; from += 97)
                {
                    final int count = Math.min(97, keys.length - from);
                    query.lookup(keys, from, count, n, consensus, answers);
                    for (int i = 0; i < count; i++)
                    {
                        final KeyWriteResult expected = legacy.lookup(keys[from + i], n, consensus);
                        assertSame(expected, answers.get(i), "batch", n, consensus);
                        query.lookup(keys[from + i], n, consensus, answer);
                        assertSame(expected, answer, "single", n, consensus);
                        assertSame(expected, query.lookup(keys[from + i], n, consensus).toString(), n);
                        found += expected.found() ? 1 : 0;
                        conflicts += expected.status() == KeyWriteResult.Status.CONFLICT ? 1 : 0;
                        split += expected.found() && expected.agreeing() < expected.matches() ? 1 : 0;
                    }
                }
            }
        }
        // The store exercises every outcome.
        assertTrue(found > 1000 && conflicts > 50 && split > 50, found + " found, " + conflicts + " conflicts, " +
            split + " split votes");
    }

    private static void fill(final UnsafeBuffer memory, final int slotSize, final SplittableRandom random)
    {
        final KeyHash hash = new KeyHash();
        for (int k = 1; k <= KEYS; k++)
        {
            final int n = 1 + random.nextInt(4);
            final byte[] data = new byte[slotSize - 4];
            random.nextBytes(data);
            for (int c = 0; c < n; c++)
            {
                put(memory, slotSize, hash, k, c, data);
            }
        }
        // Some keys rewritten in part of their copies: plurality, ties and conflicts.
        for (int i = 0; i < KEYS / 4; i++)
        {
            final int k = 1 + random.nextInt(KEYS);
            final byte[] data = new byte[slotSize - 4];
            random.nextBytes(data);
            for (int c = random.nextInt(4); c < 4; c += 1 + random.nextInt(2))
            {
                put(memory, slotSize, hash, k, c, data);
            }
        }
    }

    private static void put(final UnsafeBuffer memory, final int slotSize, final KeyHash hash, final long key,
        final int n, final byte[] data)
    {
        final int offset = hash.slotIndex(key, n, memory.capacity() / slotSize) * slotSize;
        memory.putInt(offset, (int)hash.checksum(key), ByteOrder.LITTLE_ENDIAN);
        memory.putBytes(offset + 4, data);
    }

    private static void assertSame(final KeyWriteResult expected, final KeyWriteAnswer actual, final String path,
        final int n, final boolean consensus)
    {
        final String where = path + " key " + expected.key() + " N " + n + " consensus " + consensus;
        assertEquals(expected.key(), actual.key(), where);
        assertEquals(expected.status(), actual.status(), where);
        assertEquals(expected.matches(), actual.matches(), where);
        assertEquals(expected.agreeing(), actual.agreeing(), where);
        assertEquals(expected.value(), actual.value(), where);
        if (expected.found())
        {
            final byte[] copy = new byte[actual.dataLength()];
            actual.copyData(copy);
            assertArrayEquals(expected.data(), copy, where);
        }
        assertEquals(expected.toString().replaceAll("\\[B@\\w+", ""),
            actual.toResult().toString().replaceAll("\\[B@\\w+", ""), where);
    }

    private static void assertSame(final KeyWriteResult expected, final String actual, final int n)
    {
        assertEquals(expected.toString().replaceAll("\\[B@\\w+", ""), actual.replaceAll("\\[B@\\w+", ""),
            "record lookup N " + n);
    }
}
