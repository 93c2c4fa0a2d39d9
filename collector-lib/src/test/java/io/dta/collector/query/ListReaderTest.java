package io.dta.collector.query;

import io.dta.collector.layout.ListLayout;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ListReaderTest
{
    private static final int BATCH = 4;

    /** Writes batch {@code sequence} as the translator's AppendList does. */
    private static void record(final UnsafeBuffer memory, final ListLayout layout, final long sequence,
        final int... entries)
    {
        final int offset = (int)layout.recordOffset(sequence);
        for (int i = 0; i < layout.batchSize(); i++)
        {
            memory.putInt(offset + 4 * i, i < entries.length ? entries[i] : 0, ByteOrder.LITTLE_ENDIAN);
        }
        memory.putInt(offset + layout.countOffsetInRecord(), entries.length, ByteOrder.LITTLE_ENDIAN);
        memory.putInt(offset + layout.sequenceOffsetInRecord(), (int)sequence, ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void shouldReadSequencedBatchesOldestFirstWithACursor()
    {
        final ListLayout layout = new ListLayout(ListLayout.Kind.SEQUENCED, BATCH, 3 * 24);
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[3 * 24]);
        final ListReader reader = new ListReader(memory, layout);
        assertEquals(0, reader.read(0).entries().length);

        record(memory, layout, 1, 1, 2, 3, 4);
        record(memory, layout, 2, 5, 6);
        ListReadResult r = reader.read(0);
        assertArrayEquals(new long[] { 1, 2, 3, 4, 5, 6 }, r.entries());
        assertEquals(2, r.cursor());
        assertFalse(r.lapped());
        assertEquals(0, r.lostBatches());

        record(memory, layout, 3, 7, 8, 9, 10);
        record(memory, layout, 4, 11, 12, 13, 0xFFFFFFFF);
        record(memory, layout, 5, 15);
        r = reader.read(2);
        assertArrayEquals(new long[] { 7, 8, 9, 10, 11, 12, 13, 0xFFFFFFFFL, 15 }, r.entries());
        assertEquals(5, r.cursor());
        assertFalse(r.lapped());

        r = reader.read(0);
        assertTrue(r.lapped());
        assertEquals(2, r.lostBatches());
        assertArrayEquals(new long[] { 7, 8, 9, 10, 11, 12, 13, 0xFFFFFFFFL, 15 }, r.entries());

        r = reader.read(5);
        assertEquals(0, r.entries().length);
        assertEquals(5, r.cursor());
        assertFalse(r.lapped());
    }

    @Test
    void shouldReportAHoleLeftByALostBatchWithoutCallingItLapped()
    {
        final ListLayout layout = new ListLayout(ListLayout.Kind.SEQUENCED, BATCH, 8 * 24);
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[8 * 24]);
        record(memory, layout, 1, 1);
        record(memory, layout, 3, 3);
        final ListReadResult r = new ListReader(memory, layout).read(0);

        assertArrayEquals(new long[] { 1, 3 }, r.entries());
        assertEquals(1, r.lostBatches());
        assertFalse(r.lapped());
    }

    @Test
    void shouldFollowNewEntriesPollAfterPoll()
    {
        final long seed = System.nanoTime();
        final SplittableRandom rnd = new SplittableRandom(seed);
        final int records = 5;
        final ListLayout layout = new ListLayout(ListLayout.Kind.SEQUENCED, BATCH, records * 24);
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[records * 24]);
        final ListReader reader = new ListReader(memory, layout);
        final List<Long> written = new ArrayList<>();
        final List<Long> read = new ArrayList<>();
        long sequence = 0;
        int value = 1;
        for (int step = 0; step < 2000; step++)
        {
            final int batches = rnd.nextInt(records + 1);
            for (int b = 0; b < batches; b++)
            {
                final int[] entries = new int[1 + rnd.nextInt(BATCH)];
                for (int i = 0; i < entries.length; i++)
                {
                    entries[i] = value++;
                }
                record(memory, layout, ++sequence, entries);
                for (final int e : entries)
                {
                    written.add((long)e);
                }
            }
            final ListReadResult r = reader.poll();
            assertFalse(r.lapped(), "seed " + seed + ": never more than a ring's worth between polls");
            assertEquals(0, r.lostBatches(), "seed " + seed);
            for (final long e : r.entries())
            {
                read.add(e);
            }
        }
        assertEquals(written, read, "seed " + seed);
    }

    @Test
    void shouldReadTheReferenceRingInRingOrderSkippingEmptySlots()
    {
        final ListLayout layout = new ListLayout(ListLayout.Kind.REFERENCE, BATCH, 64);
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[64]);
        memory.putInt(0, 5, ByteOrder.LITTLE_ENDIAN);
        memory.putInt(4, 6, ByteOrder.LITTLE_ENDIAN);
        memory.putInt(60, 0x80000000, ByteOrder.LITTLE_ENDIAN);
        final ListReader reader = new ListReader(memory, layout);

        final ListReadResult r = reader.read(123);
        assertArrayEquals(new long[] { 5, 6, 0x80000000L }, r.entries());
        assertEquals(0, r.cursor());
        assertArrayEquals(new long[] { 5, 6, 0x80000000L }, reader.poll().entries());
        memory.putInt(8, 7, ByteOrder.LITTLE_ENDIAN);
        assertArrayEquals(new long[] { 7 }, reader.poll().entries());
        assertEquals(0, reader.poll().entries().length);
    }
}
