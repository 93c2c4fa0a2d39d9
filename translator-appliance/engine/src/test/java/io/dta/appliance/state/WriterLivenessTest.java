package io.dta.appliance.state;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WriterLivenessTest
{
    @TempDir
    Path dir;

    private Path file()
    {
        return dir.resolve("translator.lists");
    }

    @Test
    void shouldRefuseTheFileOfAWriterThatDiedWithTheHostBeforeItsLastBoot()
    {
        final UnsafeBuffer header = new UnsafeBuffer(new byte[ResumeStateLayout.HEADER_LENGTH]);
        header.putLong(ResumeStateLayout.PID_OFFSET, 4242, ByteOrder.LITTLE_ENDIAN);
        header.putLong(ResumeStateLayout.PROCESS_START_OFFSET, 1_000, ByteOrder.LITTLE_ENDIAN);
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> WriterLiveness.refuseWriterOfAnEarlierBoot(file(), header, 2_000));
        assertTrue(ex.getMessage().contains("(pid 4242) that never stopped cleanly and ran before this host last " +
            "booted") && ex.getMessage().endsWith(ResumeStateFile.WAY_OUT), ex.getMessage());
        // Started after the boot (a process crash on a running host: its stores are in the page cache), boot time
        // unknown, start unknown, or closed cleanly: resumed.
        WriterLiveness.refuseWriterOfAnEarlierBoot(file(), header, 500);
        WriterLiveness.refuseWriterOfAnEarlierBoot(file(), header, 0);
        header.putLong(ResumeStateLayout.PROCESS_START_OFFSET, 0, ByteOrder.LITTLE_ENDIAN);
        WriterLiveness.refuseWriterOfAnEarlierBoot(file(), header, 2_000);
        header.putLong(ResumeStateLayout.PROCESS_START_OFFSET, 1_000, ByteOrder.LITTLE_ENDIAN);
        header.putLong(ResumeStateLayout.CLOSED_OFFSET, 1_500, ByteOrder.LITTLE_ENDIAN);
        WriterLiveness.refuseWriterOfAnEarlierBoot(file(), header, 2_000);
        assertTrue(WriterLiveness.bootMillis() > 0, "this host's boot time is readable");
    }

    @Test
    void shouldTellThisRunningProcessFromAnotherThatReusesItsPid()
    {
        final UnsafeBuffer header = new UnsafeBuffer(new byte[ResumeStateLayout.HEADER_LENGTH]);
        WriterLiveness.stampWriter(header);
        final long pid = ProcessHandle.current().pid();
        assertEquals(pid, header.getLong(ResumeStateLayout.PID_OFFSET, ByteOrder.LITTLE_ENDIAN));
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> WriterLiveness.refuseLiveWriter(file(), header));
        assertEquals("list state file " + file() + " belongs to a running translator (pid " + pid + "); stop it " +
            "or choose another --state-file", ex.getMessage());
        // The same pid started at another time is another process: its file is no running writer's.
        final long start = header.getLong(ResumeStateLayout.PROCESS_START_OFFSET, ByteOrder.LITTLE_ENDIAN);
        header.putLong(ResumeStateLayout.PROCESS_START_OFFSET, start - 1, ByteOrder.LITTLE_ENDIAN);
        WriterLiveness.refuseLiveWriter(file(), header);
        // Unknown start: the pid alone decides.
        header.putLong(ResumeStateLayout.PROCESS_START_OFFSET, 0, ByteOrder.LITTLE_ENDIAN);
        assertThrows(IllegalStateException.class, () -> WriterLiveness.refuseLiveWriter(file(), header));
        // Marked closed: the writer stopped, whatever runs under its pid.
        header.putLong(ResumeStateLayout.CLOSED_OFFSET, 1, ByteOrder.LITTLE_ENDIAN);
        WriterLiveness.refuseLiveWriter(file(), header);
    }

    @Test
    void shouldHoldTheLockUntilItsChannelCloses() throws IOException
    {
        final FileChannel first = WriterLiveness.lock(file());
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> WriterLiveness.lock(file()));
        assertEquals("list state file " + file() + " is in use by another running translator (" + file() +
            ".lock is locked); stop it or choose another --state-file", ex.getMessage());
        first.close();
        WriterLiveness.lock(file()).close();
    }
}
