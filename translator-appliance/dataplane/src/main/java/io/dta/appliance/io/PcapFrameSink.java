package io.dta.appliance.io;

import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.SendOutcome;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.FileErrors;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A {@link FrameSink} that writes every frame to a pcap file, timestamped with the engine clock.
 */
public final class PcapFrameSink implements FrameSink, AutoCloseable
{
    private static final int MAX_FRAME = 16 * 1024;

    private final PcapWriter writer;
    private final Path path;
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_FRAME));
    private long frames;

    /**
     * @param writer the pcap writer to fill; closed with this sink.
     */
    public PcapFrameSink(final PcapWriter writer)
    {
        this(writer, null);
    }

    private PcapFrameSink(final PcapWriter writer, final Path path)
    {
        this.writer = writer;
        this.path = path;
    }

    /**
     * Creates (or truncates) a nanosecond pcap file to write to; every failure, opening, writing or closing it, is
     * then worded {@code cannot write PATH: reason} ({@link FileErrors#cannotWrite}), for a command to print as is.
     *
     * @param path the file.
     * @return the sink.
     * @throws IOException if the file cannot be created or its header written.
     */
    public static PcapFrameSink open(final Path path) throws IOException
    {
        try
        {
            return new PcapFrameSink(new PcapWriter(path, true), path);
        }
        catch (final IOException ex)
        {
            throw new IOException(FileErrors.cannotWrite(path, ex), ex);
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int claim(final int maxLength)
    {
        return maxLength <= MAX_FRAME ? 0 : -1;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public SendOutcome commit(
        final int offset, final int length, final long timeNanos, final OutFrameKind kind, final int reports)
    {
        try
        {
            writer.write(timeNanos, buffer, offset, length);
            frames++;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(FileErrors.cannotWrite(path, ex), ex);
        }
        return SendOutcome.SENT;
    }

    /**
     * @return frames written.
     */
    public long frames()
    {
        return frames;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void close() throws IOException
    {
        try
        {
            writer.close();
        }
        catch (final IOException ex)
        {
            // The last buffered records are written here: a full disk often shows only now.
            throw new IOException(FileErrors.cannotWrite(path, ex), ex);
        }
    }
}
