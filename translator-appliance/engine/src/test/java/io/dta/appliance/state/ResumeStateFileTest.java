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

class ResumeStateFileTest
{
    private static final ListRegion SEQ = new ListRegion(1, "collectors[0].lists[1]",
        0x7f0000400000L, 24 * 20, ListLayout.Kind.SEQUENCED, 4);
    private static final ListRegion REF = new ListRegion(0, "collectors[0].lists[0]",
        0x7f0000300000L, 64, ListLayout.Kind.REFERENCE, 4);
    private static final ListRegion OTHER = new ListRegion(9, "collectors[1].lists[0]",
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
        try (ResumeStateFile f = ResumeStateFile.create(ResumeStateFile.read(file(), false), List.of(REF, SEQ, OTHER), 1))
        {
            ResumeStateFile.storePosition(f.buffer(), f.positionOffset(f.indexOf(1)), 1234);
            ResumeStateFile.storePosition(f.buffer(), f.positionOffset(f.indexOf(0)), 12);
            ResumeStateFile.storePosition(f.buffer(), f.positionOffset(f.indexOf(9)), 7);
        }
        return file();
    }

    @Test
    void shouldSayWhyAStateFileCannotBeCreated()
    {
        // Nothing can be created in /proc, and the exception's own message is only the path.
        final Path path = Path.of("/proc/dta-list-state-test.lists");
        final UncheckedIOException ex = assertThrows(UncheckedIOException.class,
            () -> ResumeStateFile.create(ResumeStateFile.read(path, false), List.of(SEQ), 1));
        assertTrue(ex.getMessage().startsWith("cannot create list state file " + path + ": "), ex.getMessage());
        assertTrue(ex.getMessage().endsWith(": no such file or directory"), ex.getMessage());
    }

    @Test
    void shouldStartFreshWithoutAFileAndRoundTripPositions()
    {
        final PreviousRun none = ResumeStateFile.read(file(), false);
        assertNull(none.lists());
        try (ResumeStateFile f = ResumeStateFile.create(none, List.of(REF, SEQ), 1))
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
            final PreviousRun previous = ResumeStateFile.read(file(), false);
            final long seq = 1 + (random.nextLong() >>> 1);
            final long head = random.nextInt(17);
            try (ResumeStateFile f = ResumeStateFile.create(previous, List.of(REF, SEQ), 1))
            {
                assertTrue(f.resumed(0) && f.resumed(1), "round " + round);
                ResumeStateFile.storePosition(f.buffer(), f.positionOffset(f.indexOf(1)),
                    0 == (int)seq ? seq + 1 : seq);
                ResumeStateFile.storePosition(f.buffer(), f.positionOffset(f.indexOf(0)), head);
            }
            final PreviousRun again = ResumeStateFile.read(file(), false);
            assertEquals(List.of(new RecordedList(strip(REF), head),
                new RecordedList(strip(SEQ), 0 == (int)seq ? seq + 1 : seq)), again.lists(),
                "seed 0x5EED round " + round);
        }
    }

    private static ListRegion strip(final ListRegion r)
    {
        return new ListRegion(r.listId(), null, r.address(), r.length(), r.kind(), r.batchSize());
    }

    @Test
    void shouldResumeUnchangedListsAndStartChangedOnesFreshPerField()
    {
        final List<UnaryOperator<ListRegion>> changes = List.of(
            r -> new ListRegion(r.listId(), r.name(), r.address() + 4096, r.length(), r.kind(),
                r.batchSize()),
            r -> new ListRegion(r.listId(), r.name(), r.address(), r.length() * 2, r.kind(), r.batchSize()),
            r -> new ListRegion(r.listId(), r.name(), r.address(), r.length(),
                ListLayout.Kind.REFERENCE == r.kind() ? ListLayout.Kind.SEQUENCED : ListLayout.Kind.REFERENCE,
                r.batchSize()),
            r -> new ListRegion(r.listId(), r.name(), r.address(), r.length(), r.kind(),
                r.batchSize() / 2));
        final List<String> words = List.of("address 0x", "length ", "layout ", "batch size ");
        for (int c = 0; c < changes.size(); c++)
        {
            recorded();
            final ListRegion changed = changes.get(c).apply(SEQ);
            final ListRegion renamed = new ListRegion(0, "renamed", REF.address(), REF.length(),
                REF.kind(), REF.batchSize());
            try (ResumeStateFile f = ResumeStateFile.create(ResumeStateFile.read(file(), false),
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
        final ListRegion added = new ListRegion(4, "collectors[0].lists[2]", 0x7f0000700000L, 4096,
            ListLayout.Kind.SEQUENCED, 4);
        try (ResumeStateFile f = ResumeStateFile.create(ResumeStateFile.read(file(), false), List.of(SEQ, added), 1))
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
        assertEquals(2, ResumeStateFile.read(file(), false).lists().size());
    }

    @Test
    void shouldRefuseAnotherVersion() throws IOException
    {
        final Path path = recorded();
        final byte[] bytes = Files.readAllBytes(path);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(ResumeStateLayout.VERSION_OFFSET, 3);
        Files.write(path, bytes);
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> ResumeStateFile.read(path, false));
        assertEquals("list state file " + path + " has layout version 3; this dta reads versions 1 and 2; " +
            ResumeStateFile.WAY_OUT, ex.getMessage());
        assertTrue(ex.getMessage().contains("--fresh-lists"));
    }

    @Test
    void shouldRefuseEveryTruncationAndAnythingAppended() throws IOException
    {
        final Path path = recorded();
        final byte[] whole = Files.readAllBytes(path);
        assertEquals(ResumeStateLayout.HEADER_LENGTH + 3 * ResumeStateLayout.ENTRY_LENGTH, whole.length);
        for (int length = 0; length < whole.length; length++)
        {
            Files.write(path, Arrays.copyOf(whole, length));
            final int n = length;
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> ResumeStateFile.read(path, false), "length " + n);
            assertTrue(ex.getMessage().startsWith("list state file " + path + " is truncated: " + length + " bytes"),
                ex.getMessage());
            assertTrue(ex.getMessage().endsWith(ResumeStateFile.WAY_OUT));
        }
        Files.write(path, Arrays.copyOf(whole, whole.length + 1));
        assertTrue(assertThrows(IllegalStateException.class, () -> ResumeStateFile.read(path, false)).getMessage()
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
            final int inEntry = (offset - ResumeStateLayout.HEADER_LENGTH) % ResumeStateLayout.ENTRY_LENGTH;
            final boolean covered = offset < ResumeStateLayout.CRC_OFFSET + 4 ||
                (offset >= ResumeStateLayout.HEADER_LENGTH && inEntry < ResumeStateLayout.ENTRY_STATIC_LENGTH);
            if (!covered)
            {
                continue;
            }
            final byte[] damaged = whole.clone();
            damaged[offset] ^= (byte)(1 + random.nextInt(255));
            Files.write(path, damaged);
            final int at = offset;
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> ResumeStateFile.read(path, false), "seed 0xC0DE, byte " + at);
            assertTrue(ex.getMessage().startsWith("list state file " + path + " "), ex.getMessage());
            assertTrue(ex.getMessage().endsWith(ResumeStateFile.WAY_OUT), ex.getMessage());
            checked++;
        }
        assertEquals(ResumeStateLayout.CRC_OFFSET + 4 + 3 * ResumeStateLayout.ENTRY_STATIC_LENGTH, checked);
    }

    @Test
    void shouldRefuseImpossiblePositionsAndForeignFiles() throws IOException
    {
        final Path path = recorded();
        final byte[] whole = Files.readAllBytes(path);
        final int seqEntry = ResumeStateLayout.HEADER_LENGTH + ResumeStateLayout.ENTRY_LENGTH;
        final int refEntry = ResumeStateLayout.HEADER_LENGTH;
        final long[][] cases = {
            {seqEntry, 0}, {seqEntry, -5}, {seqEntry, 1L << 32}, {refEntry, -1}, {refEntry, 17}};
        for (final long[] c : cases)
        {
            final byte[] damaged = whole.clone();
            ByteBuffer.wrap(damaged).order(ByteOrder.LITTLE_ENDIAN)
                .putLong((int)c[0] + ResumeStateLayout.POSITION_OFFSET, c[1]);
            Files.write(path, damaged);
            final String message = assertThrows(IllegalStateException.class,
                () -> ResumeStateFile.read(path, false)).getMessage();
            assertTrue(message.contains(" has position " + c[1] + ", impossible"), message);
        }
        final byte[] sixteen = whole.clone();
        ByteBuffer.wrap(sixteen).order(ByteOrder.LITTLE_ENDIAN)
            .putLong(refEntry + ResumeStateLayout.POSITION_OFFSET, 16);
        Files.write(path, sixteen);
        assertEquals(16, ResumeStateFile.read(path, false).lists().get(0).position(), "a full ring's head is valid");

        Files.writeString(path, "translator:\n  mac: 02:00:00:00:00:01\n" + "#".repeat(100));
        assertTrue(assertThrows(IllegalStateException.class, () -> ResumeStateFile.read(path, false)).getMessage()
            .contains("is not a list state file"));
    }

    @Test
    void shouldTakeFreshListsAsTheWayOutOfAnyRefusal() throws IOException
    {
        final Path path = recorded();
        Files.write(path, new byte[] {1, 2, 3});
        assertThrows(IllegalStateException.class, () -> ResumeStateFile.read(path, false));
        final PreviousRun fresh = ResumeStateFile.read(path, true);
        assertNull(fresh.lists());
        assertTrue(fresh.why().startsWith("--fresh-lists"), fresh.why());
        try (ResumeStateFile f = ResumeStateFile.create(fresh, List.of(SEQ), 1))
        {
            assertEquals(1, f.position(0));
            assertFalse(f.resumed(0));
        }
        assertEquals(1, ResumeStateFile.read(path, false).lists().get(0).position());
        try (var left = Files.list(dir))
        {
            assertFalse(left.anyMatch(f -> f.getFileName().toString().endsWith(".new")),
                "the temporary file was moved");
        }
    }

    @Test
    void shouldRefuseAFileItsRunningWriterHoldsOpenEvenWithFreshLists()
    {
        final ResumeStateFile f = ResumeStateFile.create(ResumeStateFile.read(file(), false), List.of(SEQ), 1);
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> ResumeStateFile.read(file(), false));
        assertEquals("list state file " + file() + " belongs to a running translator (pid " +
            ProcessHandle.current().pid() + "); stop it or choose another --state-file", ex.getMessage());
        assertThrows(IllegalStateException.class, () -> ResumeStateFile.read(file(), true));
        f.close();
        assertEquals(1, ResumeStateFile.read(file(), false).lists().size());
    }

    @Test
    void shouldRefuseASecondWriterOfTheSameFileWhileTheFirstHoldsItsLock()
    {
        final ResumeStateFile first = ResumeStateFile.create(ResumeStateFile.read(file(), false), List.of(SEQ), 1);
        // Straight to create, past read's live-writer check: the lock alone must refuse it.
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> ResumeStateFile.create(
            new PreviousRun(file(), null, "fresh"), List.of(SEQ), 2));
        assertTrue(ex.getMessage().contains("is in use by another running translator"), ex.getMessage());
        ResumeStateFile.storePosition(first.buffer(), first.positionOffset(0), 99);
        first.close();
        first.close();
        assertEquals(99, ResumeStateFile.read(file(), false).lists().get(0).position(),
            "the refused writer replaced nothing");
        ResumeStateFile.create(ResumeStateFile.read(file(), false), List.of(SEQ), 3).close();
    }

    @Test
    void shouldLeaveNoTemporaryFileWhenTheStateFileCannotBeWritten() throws IOException
    {
        final Path path = file();
        Files.createDirectories(path.resolve("in-the-way"));
        assertThrows(java.io.UncheckedIOException.class,
            () -> ResumeStateFile.create(new PreviousRun(path, null, "fresh"), List.of(SEQ), 1));
        try (var left = Files.list(dir))
        {
            assertEquals(List.of(path.getFileName().toString(), path.getFileName() + ".lock"),
                left.map(f -> f.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void shouldPlaceTheDefaultNextToTheCountersFile()
    {
        assertEquals(Path.of("/dev/shm/dta/translator.lists"),
            ResumeStateFile.defaultPath(Path.of("/dev/shm/dta/translator.counters")));
        assertEquals(Path.of("/tmp/x/run7.lists"), ResumeStateFile.defaultPath(Path.of("/tmp/x/run7.counters")));
        assertEquals(Path.of("/tmp/x/stats.lists"), ResumeStateFile.defaultPath(Path.of("/tmp/x/stats")));
    }

    @Test
    void shouldStoreAPositionWithoutAllocating()
    {
        try (ResumeStateFile f = ResumeStateFile.create(ResumeStateFile.read(file(), false), List.of(REF, SEQ), 1))
        {
            final AtomicBuffer buffer = f.buffer();
            final int offset = f.positionOffset(1);
            final int stores = 1_000_000;
            for (int i = 1; i <= stores; i++)
            {
                ResumeStateFile.storePosition(buffer, offset, i);
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
                    ResumeStateFile.storePosition(buffer, offset, round * stores + i);
                }
                least = Math.min(least, threads.getCurrentThreadAllocatedBytes() - before);
            }
            assertEquals(0, least, "bytes allocated by " + stores + " stores");
            assertEquals(4L * stores, f.position(1));
            assertEquals(0, f.position(0), "the neighbour is untouched");
        }
    }
}
