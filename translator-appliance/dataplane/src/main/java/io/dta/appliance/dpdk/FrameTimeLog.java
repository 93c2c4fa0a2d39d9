package io.dta.appliance.dpdk;

import io.dta.appliance.io.RunFiles;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;

/**
 * The engine clock of every frame a replay sent, in sending order, kept in a temporary file (a replay can send more
 * frames than a heap array would hold comfortably) and read back once, in the same order, by
 * {@link #restamp(Path)}.
 * <p>
 * Why: {@code net_pcap}'s {@code tx_pcap} stamps each frame with the time it was written, so the DPDK replay's
 * output capture would differ from the Java replay's in every record header although the frames are identical.
 * After the port is closed, the output is rewritten with these times, which makes the two replays' captures
 * byte-identical.
 */
final class FrameTimeLog implements AutoCloseable
{
    private static final int BUFFER_BYTES = 64 * 1024;

    private final Path file;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES).order(ByteOrder.nativeOrder());
    private long count;

    /**
     * @param directory where the temporary file goes (next to the output capture, so the same file system).
     * @throws IOException if it cannot be created.
     */
    FrameTimeLog(final Path directory) throws IOException
    {
        file = Files.createTempFile(directory, ".dta-frame-times-", ".bin");
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
            StandardOpenOption.DELETE_ON_CLOSE);
    }

    /**
     * Notes the engine clock of the next frame sent.
     *
     * @param timeNanos engine clock.
     */
    void record(final long timeNanos)
    {
        if (!buffer.hasRemaining())
        {
            drain();
        }
        buffer.putLong(timeNanos);
        count++;
    }

    /**
     * @return frames recorded.
     */
    long count()
    {
        return count;
    }

    /**
     * Rewrites a capture whose records are the recorded frames, in order, with the recorded times (nanosecond
     * resolution, as the Java replay writes its output).
     *
     * @param capture the capture to rewrite in place.
     * @throws IOException if it cannot be read or written, or if it does not hold exactly the recorded frames.
     */
    void restamp(final Path capture) throws IOException
    {
        restamp(capture, RunFiles.unguarded());
    }

    /**
     * {@link #restamp(Path)}, the rewritten capture a temporary file of the run's (deleted if a signal ends it).
     *
     * @param capture the capture to rewrite in place.
     * @param files   the run's files.
     * @throws IOException if it cannot be read or written, or if it does not hold exactly the recorded frames.
     */
    void restamp(final Path capture, final RunFiles files) throws IOException
    {
        drain();
        final Path rewritten = files.createTempFile(capture.toAbsolutePath().getParent(), ".dta-restamp-", ".pcap");
        long frames = 0;
        try
        {
            try (PcapReader reader = PcapReader.open(capture);
                PcapWriter writer = new PcapWriter(rewritten, true))
            {
                channel.position(0);
                buffer.clear().limit(0);
                while (reader.next())
                {
                    if (frames == count)
                    {
                        throw new IOException(capture + " holds more frames than the " + count + " sent");
                    }
                    writer.write(nextTime(), reader.buffer(), reader.offset(), reader.capturedLength());
                    frames++;
                }
            }
            if (frames != count)
            {
                throw new IOException(capture + " holds " + frames + " frames, " + count + " were sent");
            }
            // The temporary file is 0600; the capture keeps the permissions tx_pcap (or an earlier file of that
            // name) gave it, as the Java replay's output does.
            copyPermissions(capture, rewritten);
            files.replace(rewritten, capture);
        }
        finally
        {
            files.delete(rewritten);
        }
    }

    private static void copyPermissions(final Path from, final Path to) throws IOException
    {
        if (Files.getFileStore(to).supportsFileAttributeView(PosixFileAttributeView.class))
        {
            Files.setPosixFilePermissions(to, Files.getPosixFilePermissions(from));
        }
    }

    private long nextTime() throws IOException
    {
        if (buffer.remaining() < Long.BYTES)
        {
            buffer.compact();
            while (buffer.position() < Long.BYTES)
            {
                if (channel.read(buffer) < 0)
                {
                    throw new IOException("frame time log " + file + " ended early");
                }
            }
            buffer.flip();
        }
        return buffer.getLong();
    }

    private void drain()
    {
        buffer.flip();
        try
        {
            while (buffer.hasRemaining())
            {
                channel.write(buffer);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the frame time log " + file, ex);
        }
        buffer.clear();
    }

    /**
     * Deletes the temporary file.
     */
    @Override
    public void close() throws IOException
    {
        channel.close();
    }
}
