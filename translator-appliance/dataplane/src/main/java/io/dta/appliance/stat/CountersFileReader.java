package io.dta.appliance.stat;

import io.dta.config.FileErrors;
import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads a {@link CountersFile} from another process, mapped read-only: the header (who writes it, since when,
 * whether it is still alive) and the counters.
 */
public final class CountersFileReader implements AutoCloseable
{
    private final MappedByteBuffer mapped;
    private final AtomicBuffer header;
    private final CountersReader counters;

    private CountersFileReader(final MappedByteBuffer mapped, final int metaLength, final int valuesLength)
    {
        this.mapped = mapped;
        this.header = new UnsafeBuffer(mapped, 0, CountersFile.HEADER_LENGTH);
        this.counters = new CountersReader(
            new UnsafeBuffer(mapped, CountersFile.HEADER_LENGTH, metaLength),
            new UnsafeBuffer(mapped, CountersFile.HEADER_LENGTH + metaLength, valuesLength),
            StandardCharsets.UTF_8);
    }

    /**
     * Maps a counters file read-only.
     *
     * @param path the file.
     * @return the reader.
     * @throws IllegalArgumentException if the file is not a counters file of this version.
     * @throws UncheckedIOException     if it cannot be read.
     */
    public static CountersFileReader open(final Path path)
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            final long size = channel.size();
            if (size < CountersFile.HEADER_LENGTH)
            {
                throw new IllegalArgumentException(path + " is not a dta counters file (" + size + " bytes)");
            }
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
            final UnsafeBuffer h = new UnsafeBuffer(mapped, 0, CountersFile.HEADER_LENGTH);
            final long magic = h.getLongVolatile(CountersFile.MAGIC_OFFSET);
            final int version = h.getInt(CountersFile.VERSION_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int metaLength = h.getInt(CountersFile.METADATA_LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int valuesLength = h.getInt(CountersFile.VALUES_LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN);
            if (magic != CountersFile.littleEndian(CountersFile.MAGIC) || version != CountersFile.VERSION ||
                metaLength < 0 || valuesLength < 0 || CountersFile.HEADER_LENGTH + (long)metaLength + valuesLength > size)
            {
                IoUtil.unmap(mapped);
                throw new IllegalArgumentException(path + " is not a dta counters file of version " +
                    CountersFile.VERSION + " (or its writer has not finished creating it)");
            }
            return new CountersFileReader(mapped, metaLength, valuesLength);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(
                "cannot read counters file " + path + ": " + FileErrors.reason(path, ex), ex);
        }
    }

    /**
     * @return the counters, read live.
     */
    public CountersReader counters()
    {
        return counters;
    }

    /**
     * @return what writes the file ("translator", "collector").
     */
    public String role()
    {
        return header.getStringAscii(CountersFile.ROLE_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @return the writer's process id.
     */
    public long pid()
    {
        return header.getLong(CountersFile.PID_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @return when the writer started (epoch ms).
     */
    public long startMillis()
    {
        return header.getLong(CountersFile.START_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @return the writer's last heartbeat (epoch ms).
     */
    public long heartbeatMillis()
    {
        return CountersFile.littleEndian(header.getLongVolatile(CountersFile.HEARTBEAT_OFFSET));
    }

    /**
     * @return when the writer closed the file (epoch ms), or 0 while it runs.
     */
    public long closedMillis()
    {
        return CountersFile.littleEndian(header.getLongVolatile(CountersFile.CLOSED_OFFSET));
    }

    /**
     * @return true when the file is not closed and its writer process exists.
     */
    public boolean isWriterAlive()
    {
        return 0 == closedMillis() && ProcessHandle.of(pid()).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * @return true when the writer's pid means the same process here as where it ran: both in one known PID
     *         namespace. Only then does a pid this process cannot find prove the writer gone.
     */
    public boolean writerSharesPidNamespace()
    {
        final int writer = header.getInt(CountersFile.PID_NAMESPACE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        return PidNamespace.UNKNOWN != writer && writer == PidNamespace.current();
    }

    /**
     * Unmaps the file.
     */
    @Override
    public void close()
    {
        IoUtil.unmap(mapped);
    }
}
