package io.dta.collector.query;

import io.dta.codec.KeyHash;
import io.dta.collector.layout.ListLayout;
import io.dta.collector.layout.PostcardLayout;
import io.dta.collector.layout.SketchLayout;
import io.dta.collector.query.bench.KeyWriteWorker;
import io.dta.collector.query.bench.ListPollWorker;
import io.dta.collector.query.bench.SyntheticKeyWriteStore;
import io.dta.config.SketchType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lookup path allocates nothing: Key-Write one at a time and in batches (found, not found, conflicting),
 * counters one at a time and in batches, postcards, list reads and polls, sketch estimates over a read epoch,
 * measured with the thread's allocated bytes over many queries once the code is compiled. One allocation per query
 * would be at least 16 bytes each.
 */
class QueryAllocationTest
{
    private static final int ROUNDS = 60;

    private static final com.sun.management.ThreadMXBean BEAN =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    /**
     * Runs the queries in rounds and returns the least bytes per query any round of the second half allocated: a
     * per-query object allocates in every round, while a one-off compilation or runtime allocation lands in one.
     */
    private static double bytesPerQuery(final LongSupplier round)
    {
        double least = Double.MAX_VALUE;
        for (int r = 0; r < ROUNDS; r++)
        {
            final long before = BEAN.getCurrentThreadAllocatedBytes();
            final long done = round.getAsLong();
            final long after = BEAN.getCurrentThreadAllocatedBytes();
            if (r >= ROUNDS / 2)
            {
                least = Math.min(least, (double)(after - before) / done);
            }
        }
        return least;
    }

    private static void assertNoAllocation(final String what, final double bytesPerQuery)
    {
        // Below one byte per thousand queries: what the JIT and the runtime may allocate on their own, never a
        // per-query object.
        assertTrue(bytesPerQuery < 0.001, what + ": " + bytesPerQuery + " bytes allocated per query");
    }

    @Test
    void shouldLookUpKeyWriteKeysWithoutAllocating()
    {
        try (SyntheticKeyWriteStore store = new SyntheticKeyWriteStore(1 << 20, 16, 4, false))
        {
            for (final int batch : new int[] { 0, 64 })
            {
                for (final int n : new int[] { 1, 2, 4, 7 })
                {
                    final KeyWriteWorker worker = new KeyWriteWorker(store.buffer(), 16,
                        store.queryKeys(KeyWriteWorker.ROUND * 2, 70, n), n, batch);
                    assertNoAllocation("Key-Write, batch " + batch + ", N " + n, bytesPerQuery(worker::round));
                    assertTrue(worker.agreeing() > 0);
                }
            }
            final KeyWriteQuery query = new KeyWriteQuery(store.buffer(), 16);
            final KeyWriteAnswer answer = new KeyWriteAnswer();
            final long[] keys = store.queryKeys(4096, 50, 3);
            assertNoAllocation("Key-Write with consensus", bytesPerQuery(() ->
            {
                for (final long key : keys)
                {
                    query.lookup(key, 4, true, answer);
                }
                return keys.length;
            }));
        }
    }

    @Test
    void shouldReadCountersAndPostcardsWithoutAllocating()
    {
        final UnsafeBuffer counters = new UnsafeBuffer(new byte[1 << 16]);
        final CounterQuery counterQuery = new CounterQuery(counters);
        final long[] keys = new long[4096];
        final long[] values = new long[keys.length];
        for (int i = 0; i < keys.length; i++)
        {
            keys[i] = i * 7919L;
            counters.putLong((i * 8) & (counters.capacity() - 8), i, ByteOrder.LITTLE_ENDIAN);
        }
        final long[] sink = new long[1];
        assertNoAllocation("counters", bytesPerQuery(() ->
        {
            for (final long key : keys)
            {
                sink[0] += counterQuery.value(key, 3);
            }
            return keys.length;
        }));
        assertNoAllocation("counter batches", bytesPerQuery(() ->
        {
            counterQuery.values(keys, 0, keys.length, 2, values);
            return keys.length;
        }));

        final UnsafeBuffer postcards = new UnsafeBuffer(new byte[256 * PostcardLayout.SLOT_LENGTH]);
        final KeyHash hash = new KeyHash();
        for (int k = 0; k < 128; k++)
        {
            final int offset = hash.slotIndex(k, 0, 256) * PostcardLayout.SLOT_LENGTH;
            postcards.putInt(offset + PostcardLayout.KEY_OFFSET, k, ByteOrder.LITTLE_ENDIAN);
            postcards.putInt(offset + PostcardLayout.HOP_MASK_OFFSET, 0b101, ByteOrder.LITTLE_ENDIAN);
        }
        final PostcardQuery postcardQuery = new PostcardQuery(postcards, 3);
        final PostcardAnswer path = new PostcardAnswer();
        assertNoAllocation("postcards", bytesPerQuery(() ->
        {
            for (int k = 0; k < 4096; k++)
            {
                postcardQuery.path(k & 255, path);
                sink[0] += path.hopMask();
            }
            return 4096;
        }));
        assertTrue(sink[0] != 0);
    }

    @Test
    void shouldReadAndPollListsWithoutAllocating()
    {
        final ListPollWorker full = new ListPollWorker(64 * 1024, 4);
        assertNoAllocation("full list reads", bytesPerQuery(full::round));

        final ListLayout layout = new ListLayout(ListLayout.Kind.REFERENCE, 4, 4096);
        final UnsafeBuffer ring = new UnsafeBuffer(new byte[4096]);
        final ListReader reader = new ListReader(ring, layout);
        final ListEntries entries = reader.newEntries();
        reader.poll(entries);
        final int[] next = new int[1];
        assertNoAllocation("reference list polls", bytesPerQuery(() ->
        {
            for (int i = 0; i < 64; i++)
            {
                ring.putInt((next[0]++ % 1024) * 4, next[0], ByteOrder.LITTLE_ENDIAN);
                reader.poll(entries);
                assertEquals(1, entries.count());
            }
            return 64;
        }));
    }

    @Test
    void shouldEstimateKeysInAReadSketchEpochWithoutAllocating()
    {
        for (final SketchType type : new SketchType[] { SketchType.COUNT_MIN, SketchType.COUNT_SKETCH })
        {
            final SketchLayout layout = new SketchLayout(type, 4, 64, 2);
            final UnsafeBuffer region = new UnsafeBuffer(new byte[(int)layout.regionBytes()]);
            SketchQueryTest.writeEpoch(region, layout, 5, SketchLayout.STATE_COMPLETE, 1, new int[] { 0 }, 64,
                SketchQueryTest.randomCells(new SplittableRandom(5), type, 4 * 64));
            final SketchQuery query = new SketchQuery(region, layout);
            final SketchEpoch epoch = query.read(5);
            final double[] sink = new double[1];
            assertNoAllocation(type + " estimates", bytesPerQuery(() ->
            {
                for (int k = 0; k < 4096; k++)
                {
                    sink[0] += query.estimate(epoch, k);
                }
                return 4096;
            }));
            assertTrue(sink[0] != 0);
        }
    }
}
