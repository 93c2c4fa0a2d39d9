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
        final long seed = Long.getLong("dta.test.seed", 0x17ACD0F8L);
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
    void shouldFollowNewEntriesAcrossTheWrapOfTheSequenceWord()
    {
        final long seed = Long.getLong("dta.test.seed", 0x77505018L);
        final SplittableRandom rnd = new SplittableRandom(seed);
        final int records = 7;
        final ListLayout layout = new ListLayout(ListLayout.Kind.SEQUENCED, BATCH, records * 24);
        for (final long start : new long[] { (1L << 32) - 40, (2L << 32) - 3, (1L << 31) - 20 })
        {
            final UnsafeBuffer memory = new UnsafeBuffer(new byte[records * 24]);
            final ListReader reader = new ListReader(memory, layout);
            final List<Long> written = new ArrayList<>();
            final List<Long> read = new ArrayList<>();
            long sequence = start;
            int value = 1;
            reader.cursor(ListLayout.nextSequence(start) - 1);
            boolean wrapped = false;
            for (int step = 0; step < 60; step++)
            {
                // One record fewer than the ring: the skipped sequence's record is not written, so a ring's worth
                // of batches across the wrap does reach the first one's record.
                final int batches = rnd.nextInt(records);
                for (int b = 0; b < batches; b++)
                {
                    sequence = ListLayout.nextSequence(sequence);
                    assertTrue(0 != (int)sequence, "seed " + seed);
                    wrapped |= (int)sequence == 1;
                    final int[] entries = new int[1 + rnd.nextInt(BATCH)];
                    for (int i = 0; i < entries.length; i++)
                    {
                        entries[i] = value++;
                    }
                    record(memory, layout, sequence, entries);
                    for (final int e : entries)
                    {
                        written.add((long)e);
                    }
                }
                final ListReadResult r = reader.poll();
                final String why = "seed " + seed + ", start " + start + ", step " + step;
                assertFalse(r.lapped(), why);
                assertEquals(0, r.lostBatches(), why);
                for (final long e : r.entries())
                {
                    read.add(e);
                }
            }
            assertTrue(wrapped || start == (1L << 31) - 20, "the test crossed the wrap");
            assertEquals(written, read, "seed " + seed + ", start " + start);
        }
    }

    @Test
    void shouldReadEverythingRetainedAfterTheWrapAndCountLapsWithoutTheSkippedSequence()
    {
        final ListLayout layout = new ListLayout(ListLayout.Kind.SEQUENCED, BATCH, 5 * 24);
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[5 * 24]);
        final long last = (1L << 32) - 1;
        assertEquals((1L << 32) + 1, ListLayout.nextSequence(last), "the sequence whose word is 0 is skipped");
        record(memory, layout, last - 1, 1);
        record(memory, layout, last, 2);
        record(memory, layout, last + 2, 3);
        record(memory, layout, last + 3, 4);

        final ListReader reader = new ListReader(memory, layout);
        final ListReadResult all = reader.read(0);
        assertArrayEquals(new long[] { 1, 2, 3, 4 }, all.entries(), "oldest first across the wrap");
        assertEquals(last + 3, all.cursor());
        assertTrue(all.lapped());
        assertEquals(last - 2, all.lostBatches(), "every batch before the oldest retained");
        final ListReadResult after = reader.read(last - 2);
        assertArrayEquals(new long[] { 1, 2, 3, 4 }, after.entries());
        assertEquals(last + 3, after.cursor());
        assertEquals(0, after.lostBatches(), "the skipped sequence is not a lost batch");
        assertFalse(after.lapped());

        final ListReadResult behind = reader.read(last - 6);
        assertArrayEquals(new long[] { 1, 2, 3, 4 }, behind.entries());
        assertEquals(4, behind.lostBatches(), "four batches between the cursor and the oldest retained");
        assertTrue(behind.lapped());

        assertArrayEquals(new long[] { 3, 4 }, reader.read(last).entries());
        assertEquals(0, reader.read(last + 3).entries().length);
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
