package io.dta.codec.pcap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A capture file streamed through one large reusable direct {@link ByteBuffer}, compacted and refilled as the reader
 * consumes it, so files of any size are read in constant memory. After the read area the same buffer has a scratch
 * area of {@link PcapFormat#MAX_CAPTURED_LENGTH} + {@link LinkLayerAdapter#MAX_GROWTH} bytes for the frame of a
 * non-Ethernet packet, so one {@link UnsafeBuffer} instance exposes every packet. Knows nothing of the format.
 * Not thread-safe.
 */
final class CaptureStream
{
    private static final byte[] EMPTY = new byte[0];

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer byteBuffer;
    private final UnsafeBuffer buffer;
    /** Bytes of the buffer used for file data; the scratch area for adapted frames follows them. */
    private final int readCapacity;

    /** File byte offset of buffer index 0. */
    private long bufferFileOffset;
    /** Buffer index of the first byte not yet consumed. */
    private int readIndex;
    /** Buffer index one past the last valid byte read from the file. */
    private int dataLimit;
    private boolean endOfFile;
    private boolean closed;

    /**
     * Open a file for reading.
     *
     * @param path         of the file.
     * @param readCapacity bytes of the read area.
     * @throws IOException if the file cannot be opened.
     */
    CaptureStream(final Path path, final int readCapacity) throws IOException
    {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.READ);
        // Plain allocateDirect (not an aligned slice) so BufferUtil.free can release it eagerly on close. The scratch
        // area after the read area holds the frame of a non-Ethernet packet, so buffer() is one instance for all.
        this.readCapacity = readCapacity;
        this.byteBuffer = ByteBuffer.allocateDirect(
            readCapacity + PcapFormat.MAX_CAPTURED_LENGTH + LinkLayerAdapter.MAX_GROWTH);
        this.buffer = new UnsafeBuffer(byteBuffer);
    }

    Path path()
    {
        return path;
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return buffer index of the scratch area after the read area.
     */
    int scratchOffset()
    {
        return readCapacity;
    }

    /**
     * @return buffer index of the first byte not yet consumed.
     */
    int readIndex()
    {
        return readIndex;
    }

    /**
     * @return bytes buffered and not yet consumed.
     */
    int available()
    {
        return dataLimit - readIndex;
    }

    /**
     * @return file byte offset of the first byte not yet consumed.
     */
    long fileOffset()
    {
        return bufferFileOffset + readIndex;
    }

    /**
     * @return whether the file has been read to its end (what is buffered is all that is left).
     */
    boolean endOfFile()
    {
        return endOfFile;
    }

    /**
     * Consume bytes already buffered.
     *
     * @param length bytes to consume, at most {@link #available()}.
     */
    void consume(final int length)
    {
        readIndex += length;
    }

    /**
     * Make at least {@code length} bytes available when the file still has them, reading more only when fewer are
     * buffered.
     *
     * @param length bytes wanted, at most the read capacity.
     * @return bytes available afterwards (fewer than {@code length} only at the end of the file).
     * @throws IOException if reading fails.
     */
    int request(final long length) throws IOException
    {
        if (available() < length)
        {
            fill();
        }
        return available();
    }

    /**
     * Move the unread bytes to the start of the buffer and read from the file until the buffer is full or the file
     * ends. Position and limit are set explicitly because callers may have changed them.
     *
     * @throws IOException if reading fails.
     */
    void fill() throws IOException
    {
        if (endOfFile)
        {
            return;
        }

        final int remaining = dataLimit - readIndex;
        if (readIndex > 0)
        {
            byteBuffer.limit(dataLimit).position(readIndex);
            byteBuffer.compact();
            bufferFileOffset += readIndex;
            readIndex = 0;
            dataLimit = remaining;
        }

        byteBuffer.limit(readCapacity).position(dataLimit);
        while (byteBuffer.hasRemaining())
        {
            final int read = channel.read(byteBuffer);
            if (read < 0)
            {
                endOfFile = true;
                break;
            }
            if (0 == read)
            {
                // A blocking FileChannel never returns 0 with space left; stop rather than risk spinning.
                break;
            }
        }
        dataLimit = byteBuffer.position();
    }

    boolean closed()
    {
        return closed;
    }

    /**
     * Close the file and release the buffer. {@link #buffer()} is re-pointed at an empty array first, so a stale
     * access fails with a bounds error instead of touching freed memory. Idempotent.
     *
     * @throws IOException if closing the file fails.
     */
    void close() throws IOException
    {
        if (!closed)
        {
            closed = true;
            buffer.wrap(EMPTY);
            BufferUtil.free(byteBuffer);
            channel.close();
        }
    }

    /**
     * Close after a failure, keeping the failure rather than a close error.
     */
    void closeQuietly()
    {
        try
        {
            close();
        }
        catch (final IOException ignore)
        {
            // The original failure is more useful to the caller than the close failure.
        }
    }
}
