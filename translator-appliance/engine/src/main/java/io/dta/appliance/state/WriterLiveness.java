package io.dta.appliance.state;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

import static io.dta.appliance.state.ResumeStateLayout.CLOSED_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.PID_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.PROCESS_START_OFFSET;

/**
 * Who writes a resume state file, and whether that writer still runs: the writer's pid and process start time in the
 * header, the closed time a clean stop stores, and an advisory lock on {@code <file>.lock} held for the whole run.
 * <p>
 * Agrona's {@code MarkFile} is not used: it tells a live owner by a timestamp the owner must keep renewing within a
 * timeout, and creates its file in place. This file's owner stores nothing while it runs (its positions excepted),
 * is told live by its pid, its process start time and the lock the kernel drops when the process ends, and is
 * replaced atomically (written next to it, then moved); adopting {@code MarkFile} would change the file's layout
 * and what a reader concludes from it.
 */
final class WriterLiveness
{
    private WriterLiveness()
    {
    }

    /**
     * Stores this process's pid and start time as the file's writer.
     *
     * @param b the file's header.
     */
    static void stampWriter(final MutableDirectBuffer b)
    {
        final ProcessHandle self = ProcessHandle.current();
        b.putLong(PID_OFFSET, self.pid(), ByteOrder.LITTLE_ENDIAN);
        b.putLong(PROCESS_START_OFFSET, self.info().startInstant().map(Instant::toEpochMilli).orElse(0L),
            ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Refuses a file whose writer has not marked it closed and still runs (the same pid with the same process start
     * time).
     *
     * @param path the file.
     * @param b    its header.
     * @throws IllegalStateException naming the running writer.
     */
    static void refuseLiveWriter(final Path path, final DirectBuffer b)
    {
        final long pid = b.getLong(PID_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final long processStart = b.getLong(PROCESS_START_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (0 != b.getLong(CLOSED_OFFSET, ByteOrder.LITTLE_ENDIAN))
        {
            return;
        }
        // The process start time tells a live writer from an unrelated process that reuses its pid (after a reboot,
        // a file on a persistent file system).
        final boolean alive = ProcessHandle.of(pid)
            .filter(ProcessHandle::isAlive)
            .map(p -> 0 == processStart || p.info().startInstant().map(Instant::toEpochMilli).orElse(0L) ==
                processStart)
            .orElse(false);
        if (alive)
        {
            throw new IllegalStateException("list state file " + path + " belongs to a running translator (pid " +
                pid + "); stop it or choose another --state-file");
        }
    }

    /**
     * A writer that never marked the file closed and started before the host last booted stopped with the host
     * (a crash or a power loss): the kernel may not have written its last stores back, so its positions can lie
     * behind batches the collector already holds, and resuming them would reuse their numbers. (A process that
     * crashed on a running host leaves its stores in the page cache: those positions are whole.)
     *
     * @param path       the file.
     * @param b          its header.
     * @param bootMillis when the host booted, or 0 when unknown (then nothing is refused).
     */
    static void refuseWriterOfAnEarlierBoot(final Path path, final DirectBuffer b, final long bootMillis)
    {
        final long processStart = b.getLong(PROCESS_START_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (0 == b.getLong(CLOSED_OFFSET, ByteOrder.LITTLE_ENDIAN) && bootMillis > 0 && processStart > 0 &&
            processStart < bootMillis)
        {
            throw ResumeStateReader.refusal(path, "was left by a writer (pid " +
                b.getLong(PID_OFFSET, ByteOrder.LITTLE_ENDIAN) + ") that never stopped cleanly and ran before this " +
                "host last booted, so its last positions may not have reached the disk");
        }
    }

    /**
     * @return when the host booted ({@code btime} of /proc/stat), in milliseconds since the epoch, or 0.
     */
    static long bootMillis()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/stat")))
            {
                if (line.startsWith("btime "))
                {
                    return Long.parseLong(line.substring(6).trim()) * 1000L;
                }
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            // Unknown: the check is skipped.
        }
        return 0;
    }

    /**
     * Takes the run's exclusive lock on {@code <file>.lock} (an advisory lock the kernel drops when the process
     * ends, however it ends): two translators given the same state file would otherwise both map it, and the second
     * one's replacement would silently take every later store of the first.
     *
     * @param path the file.
     * @return the locked channel; closing it releases the lock.
     * @throws IOException           when the lock file cannot be opened.
     * @throws IllegalStateException when another translator holds the lock.
     */
    static FileChannel lock(final Path path) throws IOException
    {
        final Path lockPath = path.resolveSibling(path.getFileName() + ".lock");
        final FileChannel channel = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try
        {
            if (null != channel.tryLock())
            {
                return channel;
            }
        }
        catch (final OverlappingFileLockException ex)
        {
            // Held by this very process (another state file over the same path, not closed).
        }
        channel.close();
        throw new IllegalStateException("list state file " + path + " is in use by another running translator (" +
            lockPath + " is locked); stop it or choose another --state-file");
    }
}
