package io.dta.appliance.stat;

import io.dta.config.FileErrors;
import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A memory-mapped counters file: a 128-byte header followed by an Agrona counters metadata buffer and values
 * buffer, as Aeron's CnC file does. The data-plane process owns it and writes counters without locks; {@code dta
 * stat} maps it read-only from another process and never disturbs the writer.
 * <p>
 * Header (little-endian): magic u64 at 0, version i32 at 8, metadata length i32 at 12, values length i32 at 16,
 * writer's PID namespace tag u32 at 20 ({@link PidNamespace}; 0 unknown, as in files of earlier versions), writer pid
 * i64 at 24, start time (epoch ms) i64 at 32, heartbeat (epoch ms, release-stored) i64 at 40, closed
 * time (epoch ms, 0 while running) i64 at 48, role (length-prefixed ASCII, at most 60 bytes) at 56.
 */
public final class CountersFile implements AutoCloseable
{
    /** "DTACNTR1" read as a little-endian long. */
    public static final long MAGIC = 0x3152544E43415444L;
    /** Layout version. */
    public static final int VERSION = 1;
    /** Header bytes before the metadata buffer. */
    public static final int HEADER_LENGTH = 128;
    /** Offset of the magic. */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the version. */
    public static final int VERSION_OFFSET = 8;
    /** Offset of the metadata buffer length. */
    public static final int METADATA_LENGTH_OFFSET = 12;
    /** Offset of the values buffer length. */
    public static final int VALUES_LENGTH_OFFSET = 16;
    /** Offset of the writer's PID namespace tag (bytes that were padding before: 0 in older files). */
    public static final int PID_NAMESPACE_OFFSET = 20;
    /** Offset of the writer's pid. */
    public static final int PID_OFFSET = 24;
    /** Offset of the start time. */
    public static final int START_OFFSET = 32;
    /** Offset of the heartbeat time. */
    public static final int HEARTBEAT_OFFSET = 40;
    /** Offset of the closed time. */
    public static final int CLOSED_OFFSET = 48;
    /** Offset of the role string (i32 length, then ASCII). */
    public static final int ROLE_OFFSET = 56;
    /** Longest role string. */
    public static final int MAX_ROLE_LENGTH = HEADER_LENGTH - ROLE_OFFSET - 4;

    private final Path path;
    private final MappedByteBuffer mapped;
    private final AtomicBuffer header;
    private final CountersManager manager;

    private CountersFile(final Path path, final MappedByteBuffer mapped, final int metaLength, final int valuesLength)
    {
        this.path = path;
        this.mapped = mapped;
        this.header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        this.manager = new CountersManager(
            new UnsafeBuffer(mapped, HEADER_LENGTH, metaLength),
            new UnsafeBuffer(mapped, HEADER_LENGTH + metaLength, valuesLength),
            StandardCharsets.UTF_8);
    }

    /**
     * The default location of a role's counters file: {@code /dev/shm/dta/ROLE.counters} where {@code /dev/shm}
     * exists (memory, not disk), else under {@code java.io.tmpdir}.
     *
     * @param role "translator" or "collector".
     * @return the path.
     */
    public static Path defaultPath(final String role)
    {
        final Path shm = Path.of("/dev/shm");
        final Path base = Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        return base.resolve("dta").resolve(role + ".counters");
    }

    /**
     * Creates (or replaces) a counters file for a writer. Refuses to replace a file whose writer is still alive,
     * so two appliances never count into one file.
     *
     * @param path        where.
     * @param role        what writes it ("translator", "collector"), shown by {@code dta stat}.
     * @param maxCounters room for this many counters.
     * @param nowMillis   the start time.
     * @return the file, mapped read-write.
     * @throws IllegalStateException if a live process owns the file.
     * @throws UncheckedIOException  if the file cannot be created or mapped.
     */
    public static CountersFile create(
        final Path path, final String role, final int maxCounters, final long nowMillis)
    {
        if (role.length() > MAX_ROLE_LENGTH || !StandardCharsets.US_ASCII.newEncoder().canEncode(role))
        {
            throw new IllegalArgumentException("role must be ASCII of at most " + MAX_ROLE_LENGTH + " chars: " + role);
        }
        refuseLiveOwner(path);
        final int metaLength = maxCounters * CountersReader.METADATA_LENGTH;
        final int valuesLength = maxCounters * CountersReader.COUNTER_LENGTH;
        final long fileLength = (long)HEADER_LENGTH + metaLength + valuesLength;
        try
        {
            final Path parent = path.toAbsolutePath().getParent();
            if (null != parent)
            {
                Files.createDirectories(parent);
            }
            Files.deleteIfExists(path);
            final MappedByteBuffer mapped;
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, fileLength);
            }
            final CountersFile file = new CountersFile(path, mapped, metaLength, valuesLength);
            final AtomicBuffer h = file.header;
            h.putInt(VERSION_OFFSET, VERSION, ByteOrder.LITTLE_ENDIAN);
            h.putInt(METADATA_LENGTH_OFFSET, metaLength, ByteOrder.LITTLE_ENDIAN);
            h.putInt(VALUES_LENGTH_OFFSET, valuesLength, ByteOrder.LITTLE_ENDIAN);
            h.putInt(PID_NAMESPACE_OFFSET, PidNamespace.current(), ByteOrder.LITTLE_ENDIAN);
            h.putLong(PID_OFFSET, ProcessHandle.current().pid(), ByteOrder.LITTLE_ENDIAN);
            h.putLong(START_OFFSET, nowMillis, ByteOrder.LITTLE_ENDIAN);
            h.putLong(HEARTBEAT_OFFSET, nowMillis, ByteOrder.LITTLE_ENDIAN);
            h.putStringAscii(ROLE_OFFSET, role, ByteOrder.LITTLE_ENDIAN);
            // The magic goes last: a reader that sees it sees a complete header.
            h.putLongRelease(MAGIC_OFFSET, littleEndian(MAGIC));
            return file;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create counters file " + path + ": " + createFailure(path, ex), ex);
        }
    }

    static String createFailure(final Path path, final IOException ex)
    {
        // The file itself, deleted just before, was created again in between: another process starting on it.
        if (ex instanceof final FileAlreadyExistsException exists && path.toString().equals(exists.getFile()))
        {
            return "another process created it while this one started (two processes given the same counters file?)";
        }
        return FileErrors.reason(path, ex);
    }

    private static void refuseLiveOwner(final Path path)
    {
        if (!Files.isRegularFile(path))
        {
            return;
        }
        try (CountersFileReader existing = CountersFileReader.open(path))
        {
            if (existing.isWriterAlive())
            {
                throw new IllegalStateException("counters file " + path + " belongs to a running " + existing.role() +
                    " (pid " + existing.pid() + "); stop it or choose another counters file");
            }
        }
        catch (final IllegalArgumentException | UncheckedIOException ignored)
        {
            // Not a counters file we can read (old layout, truncated): nobody live owns it, replace it.
        }
    }

    static long littleEndian(final long value)
    {
        return ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? value : Long.reverseBytes(value);
    }

    /**
     * @return the counters manager to allocate counters in.
     */
    public CountersManager manager()
    {
        return manager;
    }

    /**
     * @return the file's path.
     */
    public Path path()
    {
        return path;
    }

    /**
     * Records that the writer is alive; cheap enough for a duty cycle, but once per millisecond is plenty.
     *
     * @param nowMillis epoch milliseconds.
     */
    public void heartbeat(final long nowMillis)
    {
        header.putLongRelease(HEARTBEAT_OFFSET, littleEndian(nowMillis));
    }

    /**
     * Marks the file closed (the writer exited cleanly; the counters keep their final values) and unmaps it.
     */
    @Override
    public void close()
    {
        final long now = System.currentTimeMillis();
        header.putLongRelease(HEARTBEAT_OFFSET, littleEndian(now));
        header.putLongRelease(CLOSED_OFFSET, littleEndian(now));
        mapped.force();
        IoUtil.unmap(mapped);
    }
}
