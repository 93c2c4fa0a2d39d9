package io.dta.collector.query;

import io.dta.codec.KeyHash;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyWriteQueryTest
{
    private static final int SLOTS = 1024;
    private final KeyHash hash = new KeyHash();

    /** Writes copy n of a key as the translator does: checksum LE, then the data bytes verbatim. */
    private void put(final UnsafeBuffer memory, final int slotSize, final long key, final int n, final byte[] data)
    {
        final int slots = memory.capacity() / slotSize;
        final int offset = hash.slotIndex(key, n, slots) * slotSize;
        memory.putInt(offset, (int)hash.checksum(key), ByteOrder.LITTLE_ENDIAN);
        memory.putBytes(offset + 4, data);
    }

    private static byte[] be(final int value)
    {
        return new byte[] { (byte)(value >>> 24), (byte)(value >>> 16), (byte)(value >>> 8), (byte)value };
    }

    @Test
    void shouldFindAKeyWrittenWithAllCopies()
    {
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[SLOTS * 8]);
        for (int n = 0; n < 4; n++)
        {
            put(memory, 8, 42, n, be(0xDEADBEEF));
        }
        final KeyWriteResult r = new KeyWriteQuery(memory, 8).lookup(42, 4, true);

        assertTrue(r.found());
        assertEquals(BigInteger.valueOf(0xDEADBEEFL), r.value());
        assertEquals(4, r.agreeing());
    }

    @Test
    void shouldReturnNotFoundWhenNoChecksumMatches()
    {
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[SLOTS * 8]);
        put(memory, 8, 7, 0, be(1));
        final KeyWriteResult r = new KeyWriteQuery(memory, 8).lookup(8, 4, false);

        assertEquals(KeyWriteResult.Status.NOT_FOUND, r.status());
        assertNull(r.value());
        assertFalse(new KeyWriteQuery(memory, 8).lookup(8, 4, true).found());
    }

    @Test
    void shouldVoteByPluralityWithTiesToTheLowestCopy()
    {
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[SLOTS * 8]);
        final KeyWriteQuery query = new KeyWriteQuery(memory, 8);
        put(memory, 8, 5, 0, be(100));
        put(memory, 8, 5, 1, be(200));
        assertEquals(BigInteger.valueOf(100), query.lookup(5, 2, false).value(), "tie: copy 0 wins");
        put(memory, 8, 5, 2, be(200));
        assertEquals(BigInteger.valueOf(200), query.lookup(5, 3, false).value(), "2 votes beat 1");
        assertEquals(2, query.lookup(5, 3, false).agreeing());
        assertEquals(3, query.lookup(5, 3, false).matches());
        memory.putInt(hash.slotIndex(5, 0, SLOTS) * 8, 0);
        put(memory, 8, 5, 3, be(300));
        assertEquals(BigInteger.valueOf(200), query.lookup(5, 4, false).value());
        memory.putInt(hash.slotIndex(5, 1, SLOTS) * 8, 0);
        assertEquals(BigInteger.valueOf(200), query.lookup(5, 4, false).value(), "tie between n=2 and n=3");
    }

    @Test
    void shouldReportAConflictUnderConsensus()
    {
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[SLOTS * 8]);
        put(memory, 8, 9, 0, be(1));
        put(memory, 8, 9, 1, be(1));
        put(memory, 8, 9, 2, be(2));
        final KeyWriteQuery query = new KeyWriteQuery(memory, 8);

        assertEquals(KeyWriteResult.Status.CONFLICT, query.lookup(9, 3, true).status());
        assertEquals(KeyWriteResult.Status.FOUND, query.lookup(9, 2, true).status());
        assertEquals(BigInteger.ONE, query.lookup(9, 3, false).value());
    }

    @Test
    void shouldReadWideSlotsAsUnsignedBigEndianNumbers()
    {
        for (final int slotSize : new int[] { 16, 32 })
        {
            final UnsafeBuffer memory = new UnsafeBuffer(new byte[SLOTS * slotSize]);
            final byte[] data = new byte[slotSize - 4];
            for (int i = 0; i < data.length; i++)
            {
                data[i] = (byte)(0xF0 + i);
            }
            put(memory, slotSize, 77, 0, data);
            final KeyWriteResult r = new KeyWriteQuery(memory, slotSize).lookup(77, 1, false);

            assertArrayEquals(data, r.data());
            assertEquals(new BigInteger(1, data), r.value());
            assertTrue(r.value().signum() > 0);
        }
    }

    @Test
    void shouldFindEveryKeyWhoseCopiesSurvived()
    {
        final long seed = Long.getLong("dta.test.seed", 0x48DCF048L);
        final SplittableRandom rnd = new SplittableRandom(seed);
        for (int run = 0; run < 50; run++)
        {
            final UnsafeBuffer memory = new UnsafeBuffer(new byte[256 * 8]);
            final KeyWriteQuery query = new KeyWriteQuery(memory, 8);
            final long[] keys = new long[60];
            final int[] values = new int[keys.length];
            final int[] copies = new int[keys.length];
            for (int i = 0; i < keys.length; i++)
            {
                keys[i] = rnd.nextLong() & 0xFFFF_FFFFL;
                values[i] = rnd.nextInt();
                copies[i] = 1 + rnd.nextInt(4);
                for (int n = 0; n < copies[i]; n++)
                {
                    put(memory, 8, keys[i], n, be(values[i]));
                }
            }
            for (int i = 0; i < keys.length; i++)
            {
                boolean intact = true;
                for (int n = 0; n < copies[i]; n++)
                {
                    final int offset = hash.slotIndex(keys[i], n, 256) * 8;
                    intact &= memory.getInt(offset, ByteOrder.LITTLE_ENDIAN) == (int)hash.checksum(keys[i]) &&
                        memory.getInt(offset + 4, ByteOrder.BIG_ENDIAN) == values[i];
                }
                if (intact)
                {
                    final KeyWriteResult r = query.lookup(keys[i], copies[i], true);
                    assertTrue(r.found(), "seed " + seed + " key " + keys[i]);
                    assertEquals(BigInteger.valueOf(values[i] & 0xFFFF_FFFFL), r.value(), "seed " + seed);
                }
            }
        }
    }
}
