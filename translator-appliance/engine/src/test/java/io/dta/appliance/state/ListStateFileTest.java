package io.dta.appliance.state;

import io.dta.collector.layout.ListLayout;
import org.agrona.concurrent.AtomicBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ListStateFileTest
{
    private static final ListStateFile.Region SEQ = new ListStateFile.Region(1, "collectors[0].lists[1]",
        0x7f0000400000L, 24 * 20, ListLayout.Kind.SEQUENCED, 4);
    private static final ListStateFile.Region REF = new ListStateFile.Region(0, "collectors[0].lists[0]",
        0x7f0000300000L, 64, ListLayout.Kind.REFERENCE, 4);
    private static final ListStateFile.Region OTHER = new ListStateFile.Region(9, "collectors[1].lists[0]",
        0x7f0000600000L, 4096, ListLayout.Kind.SEQUENCED, 4);

    @TempDir
    Path dir;

    private Path file()
    {
        return dir.resolve("translator.lists");
    }

    /** A closed file recording SEQ at 1234, REF at 12 and OTHER at 7. */
    private Path recorded()
    {
        try (ListStateFile f = ListStateFile.create(ListStateFile.read(file(), false), List.of(REF, SEQ, OTHER), 1))
        {
            ListStateFile.storePosition(f.buffer(), f.positionOffset(f.indexOf(1)), 1234);
            ListStateFile.storePosition(f.buffer(), f.positionOffset(f.indexOf(0)), 12);
            ListStateFile.storePosition(f.buffer(), f.positionOffset(f.indexOf(9)), 7);
        }
        return file();
    }

    @Test
    void shouldSayWhyAStateFileCannotBeCreated()
    {
        // Nothing can be created in /proc, and the exception's own message is only the path.
        final Path path = Path.of("/proc/dta-list-state-test.lists");
        final UncheckedIOException ex = assertThrows(UncheckedIOException.class,
            () -> ListStateFile.create(ListStateFile.read(path, false), List.of(SEQ), 1));
        assertTrue(ex.getMessage().startsWith("cannot create list state file " + path + ": "), ex.getMessage());
        assertTrue(ex.getMessage().endsWith(": no such file or directory"), ex.getMessage());
    }

    @Test
    void shouldStartFreshWithoutAFileAndRoundTripPositions()
    {
        final ListStateFile.Previous none = ListStateFile.read(file(), false);
        assertNull(none.lists());
        try (ListStateFile f = ListStateFile.create(none, List.of(REF, SEQ), 1))
        {
            assertEquals(List.of(none.why()), f.notes());
            assertEquals(0, f.position(f.indexOf(0)), "a reference ring starts at slot 0");
            assertEquals(1, f.position(f.indexOf(1)), "a sequenced list starts at batch 1");
            assertFalse(f.resumed(0));
            assertEquals(-1, f.indexOf(5));
        }
        final SplittableRandom random = new SplittableRandom(0x5EED);
        for (int round = 0; round < 200; round++)
        {
            final ListStateFile.Previous previous = ListStateFile.read(file(), false);
            final long seq = 1 + (random.nextLong() >>> 1);
            final long head = random.nextInt(17);
            try (ListStateFile f = ListStateFile.create(previous, List.of(REF, SEQ), 1))
            {
                assertTrue(f.resumed(0) && f.resumed(1), "round " + round);
                ListStateFile.storePosition(f.buffer(), f.positionOffset(f.indexOf(1)),
                    0 == (int)seq ? seq + 1 : seq);
                ListStateFile.storePosition(f.buffer(), f.positionOffset(f.indexOf(0)), head);
            }
            final ListStateFile.Previous again = ListStateFile.read(file(), false);
            assertEquals(List.of(new ListStateFile.Recorded(strip(REF), head),
                new ListStateFile.Recorded(strip(SEQ), 0 == (int)seq ? seq + 1 : seq)), again.lists(),
                "seed 0x5EED round " + round);
        }
    }

    private static ListStateFile.Region strip(final ListStateFile.Region r)
    {
        return new ListStateFile.Region(r.listId(), null, r.address(), r.length(), r.kind(), r.batchSize());
    }

    @Test
    void shouldResumeUnchangedListsAndStartChangedOnesFreshPerField()
    {
        final List<UnaryOperator<ListStateFile.Region>> changes = List.of(
            r -> new ListStateFile.Region(r.listId(), r.name(), r.address() + 4096, r.length(), r.kind(),
                r.batchSize()),
            r -> new ListStateFile.Region(r.listId(), r.name(), r.address(), r.length() * 2, r.kind(), r.batchSize()),
            r -> new ListStateFile.Region(r.listId(), r.name(), r.address(), r.length(),
                ListLayout.Kind.REFERENCE == r.kind() ? ListLayout.Kind.SEQUENCED : ListLayout.Kind.REFERENCE,
                r.batchSize()),
            r -> new ListStateFile.Region(r.listId(), r.name(), r.address(), r.length(), r.kind(),
                r.batchSize() / 2));
        final List<String> words = List.of("address 0x", "length ", "layout ", "batch size ");
        for (int c = 0; c < changes.size(); c++)
        {
            recorded();
            final ListStateFile.Region changed = changes.get(c).apply(SEQ);
            final ListStateFile.Region renamed = new ListStateFile.Region(0, "renamed", REF.address(), REF.length(),
                REF.kind(), REF.batchSize());
            try (ListStateFile f = ListStateFile.create(ListStateFile.read(file(), false),
                List.of(renamed, changed, OTHER), 1))
            {
                assertTrue(f.resumed(0), "the name is not part of the region");
                assertEquals(12, f.position(0));
                assertFalse(f.resumed(1), "change " + words.get(c));
                assertEquals(changed.initialPosition(), f.position(1));
                assertTrue(f.resumed(2));
                assertEquals(7, f.position(2));
                assertEquals(2, f.notes().size(), f.notes().toString());
                assertTrue(f.notes().get(0).contains("2 of 3 list(s) resume"), f.notes().get(0));
                final String line = f.notes().get(1);
                assertTrue(line.startsWith("list 1 (collectors[0].lists[1]) starts from batch 1: its region changed: " +
                    words.get(c)), line);
                assertEquals(1, line.split("\\(was ").length - 1, "one field named: " + line);
            }
        }
    }

    @Test
    void shouldSayWhichListsAreNewAndWhichAreGone()
    {
        recorded();
        final ListStateFile.Region added = new ListStateFile.Region(4, "collectors[0].lists[2]", 0x7f0000700000L, 4096,
            ListLayout.Kind.SEQUENCED, 4);
        try (ListStateFile f = ListStateFile.create(ListStateFile.read(file(), false), List.of(SEQ, added), 1))
        {
            assertEquals(1234, f.position(0));
            assertEquals(1, f.position(1));
            assertEquals(List.of(
                "list state " + file() + ": 1 of 2 list(s) resume where the previous run stopped",
                "list 4 (collectors[0].lists[2]) starts from batch 1: it is not in the list state file",
                "list 0 is no longer configured: its recorded position is forgotten",
                "list 9 is no longer configured: its recorded position is forgotten"), f.notes());
        }
        // The forgotten lists are gone from the new file.
        assertEquals(2, ListStateFile.read(file(), false).lists().size());
    }

    @Test
    void shouldRefuseAnotherVersion() throws IOException
    {
        final Path path = recorded();
        final byte[] bytes = Files.readAllBytes(path);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(ListStateFile.VERSION_OFFSET, 3);
        Files.write(path, bytes);
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> ListStateFile.read(path, false));
        assertEquals("list state file " + path + " has layout version 3; this dta reads versions 1 and 2; " +
            ListStateFile.WAY_OUT, ex.getMessage());
        assertTrue(ex.getMessage().contains("--fresh-lists"));
    }

    @Test
    void shouldRefuseEveryTruncationAndAnythingAppended() throws IOException
    {
        final Path path = recorded();
        final byte[] whole = Files.readAllBytes(path);
        assertEquals(ListStateFile.HEADER_LENGTH + 3 * ListStateFile.ENTRY_LENGTH, whole.length);
        for (int length = 0; length < whole.length; length++)
        {
            Files.write(path, Arrays.copyOf(whole, length));
            final int n = length;
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> ListStateFile.read(path, false), "length " + n);
            assertTrue(ex.getMessage().startsWith("list state file " + path + " is truncated: " + length + " bytes"),
                ex.getMessage());
            assertTrue(ex.getMessage().endsWith(ListStateFile.WAY_OUT));
        }
        Files.write(path, Arrays.copyOf(whole, whole.length + 1));
        assertTrue(assertThrows(IllegalStateException.class, () -> ListStateFile.read(path, false)).getMessage()
            .contains("is corrupt: " + (whole.length + 1) + " bytes for 3 list(s)"));
    }

    @Test
    void shouldRefuseAFileWhoseCheckedBytesWereDamaged() throws IOException
    {
        final Path path = recorded();
        final byte[] whole = Files.readAllBytes(path);
        final SplittableRandom random = new SplittableRandom(0xC0DEL);
        int checked = 0;
        for (int offset = 0; offset < whole.length; offset++)
        {
            final int inEntry = (offset - ListStateFile.HEADER_LENGTH) % ListStateFile.ENTRY_LENGTH;
            final boolean covered = offset < ListStateFile.CRC_OFFSET + 4 ||
                (offset >= ListStateFile.HEADER_LENGTH && inEntry < ListStateFile.ENTRY_STATIC_LENGTH);
            if (!covered)
            {
                continue;
            }
            final byte[] damaged = whole.clone();
            damaged[offset] ^= (byte)(1 + random.nextInt(255));
            Files.write(path, damaged);
            final int at = offset;
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> ListStateFile.read(path, false), "seed 0xC0DE, byte " + at);
            assertTrue(ex.getMessage().startsWith("list state file " + path + " "), ex.getMessage());
            assertTrue(ex.getMessage().endsWith(ListStateFile.WAY_OUT), ex.getMessage());
            checked++;
        }
        assertEquals(ListStateFile.CRC_OFFSET + 4 + 3 * ListStateFile.ENTRY_STATIC_LENGTH, checked);
    }

    @Test
    void shouldRefuseImpossiblePositionsAndForeignFiles() throws IOException
    {
        final Path path = recorded();
        final byte[] whole = Files.readAllBytes(path);
        final int seqEntry = ListStateFile.HEADER_LENGTH + ListStateFile.ENTRY_LENGTH;
        final int refEntry = ListStateFile.HEADER_LENGTH;
        final long[][] cases = {
            {seqEntry, 0}, {seqEntry, -5}, {seqEntry, 1L << 32}, {refEntry, -1}, {refEntry, 17}};
        for (final long[] c : cases)
        {
            final byte[] damaged = whole.clone();
            ByteBuffer.wrap(damaged).order(ByteOrder.LITTLE_ENDIAN)
                .putLong((int)c[0] + ListStateFile.POSITION_OFFSET, c[1]);
            Files.write(path, damaged);
            final String message = assertThrows(IllegalStateException.class,
                () -> ListStateFile.read(path, false)).getMessage();
            assertTrue(message.contains(" has position " + c[1] + ", impossible"), message);
        }
        final byte[] sixteen = whole.clone();
        ByteBuffer.wrap(sixteen).order(ByteOrder.LITTLE_ENDIAN)
            .putLong(refEntry + ListStateFile.POSITION_OFFSET, 16);
        Files.write(path, sixteen);
        assertEquals(16, ListStateFile.read(path, false).lists().get(0).position(), "a full ring's head is valid");

        Files.writeString(path, "translator:\n  mac: 02:00:00:00:00:01\n" + "#".repeat(100));
        assertTrue(assertThrows(IllegalStateException.class, () -> ListStateFile.read(path, false)).getMessage()
            .contains("is not a list state file"));
    }

    @Test
    void shouldTakeFreshListsAsTheWayOutOfAnyRefusal() throws IOException
    {
        final Path path = recorded();
        Files.write(path, new byte[] {1, 2, 3});
        assertThrows(IllegalStateException.class, () -> ListStateFile.read(path, false));
        final ListStateFile.Previous fresh = ListStateFile.read(path, true);
        assertNull(fresh.lists());
        assertTrue(fresh.why().startsWith("--fresh-lists"), fresh.why());
        try (ListStateFile f = ListStateFile.create(fresh, List.of(SEQ), 1))
        {
            assertEquals(1, f.position(0));
            assertFalse(f.resumed(0));
        }
        assertEquals(1, ListStateFile.read(path, false).lists().get(0).position());
        try (var left = Files.list(dir))
        {
            assertFalse(left.anyMatch(f -> f.getFileName().toString().endsWith(".new")),
                "the temporary file was moved");
        }
    }

    @Test
    void shouldRefuseAFileItsRunningWriterHoldsOpenEvenWithFreshLists()
    {
        final ListStateFile f = ListStateFile.create(ListStateFile.read(file(), false), List.of(SEQ), 1);
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> ListStateFile.read(file(), false));
        assertEquals("list state file " + file() + " belongs to a running translator (pid " +
            ProcessHandle.current().pid() + "); stop it or choose another --state-file", ex.getMessage());
        assertThrows(IllegalStateException.class, () -> ListStateFile.read(file(), true));
        f.close();
        assertEquals(1, ListStateFile.read(file(), false).lists().size());
    }

    @Test
    void shouldRefuseASecondWriterOfTheSameFileWhileTheFirstHoldsItsLock()
    {
        final ListStateFile first = ListStateFile.create(ListStateFile.read(file(), false), List.of(SEQ), 1);
        // Straight to create, past read's live-writer check: the lock alone must refuse it.
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> ListStateFile.create(
            new ListStateFile.Previous(file(), null, "fresh"), List.of(SEQ), 2));
        assertTrue(ex.getMessage().contains("is in use by another running translator"), ex.getMessage());
        ListStateFile.storePosition(first.buffer(), first.positionOffset(0), 99);
        first.close();
        first.close();
        assertEquals(99, ListStateFile.read(file(), false).lists().get(0).position(),
            "the refused writer replaced nothing");
        ListStateFile.create(ListStateFile.read(file(), false), List.of(SEQ), 3).close();
    }

    @Test
    void shouldLeaveNoTemporaryFileWhenTheStateFileCannotBeWritten() throws IOException
    {
        final Path path = file();
        Files.createDirectories(path.resolve("in-the-way"));
        assertThrows(java.io.UncheckedIOException.class,
            () -> ListStateFile.create(new ListStateFile.Previous(path, null, "fresh"), List.of(SEQ), 1));
        try (var left = Files.list(dir))
        {
            assertEquals(List.of(path.getFileName().toString(), path.getFileName() + ".lock"),
                left.map(f -> f.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void shouldRefuseTheFileOfAWriterThatDiedWithTheHostBeforeItsLastBoot()
    {
        final org.agrona.concurrent.UnsafeBuffer header =
            new org.agrona.concurrent.UnsafeBuffer(new byte[ListStateFile.HEADER_LENGTH]);
        header.putLong(ListStateFile.PID_OFFSET, 4242, ByteOrder.LITTLE_ENDIAN);
        header.putLong(ListStateFile.PROCESS_START_OFFSET, 1_000, ByteOrder.LITTLE_ENDIAN);
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> ListStateFile.refuseWriterOfAnEarlierBoot(file(), header, 2_000));
        assertTrue(ex.getMessage().contains("(pid 4242) that never stopped cleanly and ran before this host last " +
            "booted") && ex.getMessage().endsWith(ListStateFile.WAY_OUT), ex.getMessage());
        // Started after the boot (a process crash on a running host: its stores are in the page cache), boot time
        // unknown, start unknown, or closed cleanly: resumed.
        ListStateFile.refuseWriterOfAnEarlierBoot(file(), header, 500);
        ListStateFile.refuseWriterOfAnEarlierBoot(file(), header, 0);
        header.putLong(ListStateFile.PROCESS_START_OFFSET, 0, ByteOrder.LITTLE_ENDIAN);
        ListStateFile.refuseWriterOfAnEarlierBoot(file(), header, 2_000);
        header.putLong(ListStateFile.PROCESS_START_OFFSET, 1_000, ByteOrder.LITTLE_ENDIAN);
        header.putLong(ListStateFile.CLOSED_OFFSET, 1_500, ByteOrder.LITTLE_ENDIAN);
        ListStateFile.refuseWriterOfAnEarlierBoot(file(), header, 2_000);
        assertTrue(ListStateFile.bootMillis() > 0, "this host's boot time is readable");
    }

    @Test
    void shouldPlaceTheDefaultNextToTheCountersFile()
    {
        assertEquals(Path.of("/dev/shm/dta/translator.lists"),
            ListStateFile.defaultPath(Path.of("/dev/shm/dta/translator.counters")));
        assertEquals(Path.of("/tmp/x/run7.lists"), ListStateFile.defaultPath(Path.of("/tmp/x/run7.counters")));
        assertEquals(Path.of("/tmp/x/stats.lists"), ListStateFile.defaultPath(Path.of("/tmp/x/stats")));
    }

    @Test
    void shouldStoreAPositionWithoutAllocating()
    {
        try (ListStateFile f = ListStateFile.create(ListStateFile.read(file(), false), List.of(REF, SEQ), 1))
        {
            final AtomicBuffer buffer = f.buffer();
            final int offset = f.positionOffset(1);
            final int stores = 1_000_000;
            for (int i = 1; i <= stores; i++)
            {
                ListStateFile.storePosition(buffer, offset, i);
            }
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            // The least of three stores: a compilation or the measurement itself may allocate a few hundred bytes
            // once (seen on a fresh machine); a store that allocated would show a million times over in each.
            long least = Long.MAX_VALUE;
            for (int round = 1; round <= 3; round++)
            {
                final long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 1; i <= stores; i++)
                {
                    ListStateFile.storePosition(buffer, offset, round * stores + i);
                }
                least = Math.min(least, threads.getCurrentThreadAllocatedBytes() - before);
            }
            assertEquals(0, least, "bytes allocated by " + stores + " stores");
            assertEquals(4L * stores, f.position(1));
            assertEquals(0, f.position(0), "the neighbour is untouched");
        }
    }
}
