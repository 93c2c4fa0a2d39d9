package io.dta.codec.pcap;

import static io.dta.codec.pcap.PcapFormat.LINKTYPE_ETHERNET;
import static io.dta.codec.pcap.PcapFormat.MAX_CAPTURED_LENGTH;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What the classic and pcapng readers share: the current packet and its accessors, the end, failure and cut-short
 * state of the cursor ({@link #next()} keeps returning false after an end and rethrowing after a failure), and the
 * presentation of a packet of another link type as an Ethernet frame through the {@link LinkLayerAdapter}. A
 * subclass parses its format in {@link #advance()}.
 */
abstract class AbstractPcapReader implements PcapReader
{
    static final long NANOS_PER_SECOND = 1_000_000_000L;

    /** The file streamed through the reusable buffer. */
    final CaptureStream stream;
    /** {@link CaptureStream#buffer()}, for the subclasses' header reads. */
    final UnsafeBuffer buffer;
    private final LinkLayerAdapter adapter = new LinkLayerAdapter();

    private boolean finished;
    private PcapFormatException failure;
    /** File byte offset of the record the file ends inside, or -1. */
    private long cutShortAt = -1;

    ByteOrder fileByteOrder;
    boolean nanosecondResolution;
    int snapLength;
    int linkType = LINKTYPE_ETHERNET;

    private long packetIndex = -1;
    private long recordOffset = -1;
    private long timestampNanos;
    private int capturedLength;
    private int originalLength;
    private int packetOffset;

    AbstractPcapReader(final CaptureStream stream)
    {
        this.stream = stream;
        this.buffer = stream.buffer();
    }

    /**
     * Consume the file up to and including the next packet, and make it current with {@link #present}.
     *
     * @return true if a packet is now current, false at the end of the file (clean or cut short).
     * @throws PcapFormatException through {@link #failure(long, String)} if the file is corrupt.
     * @throws IOException         if reading fails.
     */
    abstract boolean advance() throws IOException;

    @Override
    public final boolean next() throws IOException
    {
        if (stream.closed())
        {
            throw new IllegalStateException("reader is closed");
        }
        if (null != failure)
        {
            throw failure;
        }
        if (finished)
        {
            return false;
        }

        return advance();
    }

    /**
     * Brings the next {@code length} bytes (a record or block header) into the buffer.
     *
     * @return false at the end of the file, which marks the reader finished: a clean end (no byte left) or a file
     * cut short inside the header.
     */
    final boolean headerAvailable(final int length, final String what) throws IOException
    {
        final int available = stream.request(length);
        if (0 == available)
        {
            finished = true;
            return false;
        }
        if (available < length)
        {
            return cutShort(stream.fileOffset(), what, available);
        }
        return true;
    }

    /**
     * The file ends inside the record or block at {@code offset}: end as at a clean end, remembering where.
     *
     * @return false, for {@link #next()} to return.
     */
    final boolean cutShort(final long offset, final String what, final long present) throws PcapFormatException
    {
        if (!stream.endOfFile())
        {
            // The buffer always holds a whole record or block once filled; reaching this otherwise is a reader bug.
            throw failure(offset, "truncated " + what + " at byte offset " + offset + ": " + present +
                " bytes buffered before the end of the file");
        }
        cutShortAt = offset;
        finished = true;
        return false;
    }

    /**
     * Refuse a captured length above the sanity cap or above the original length.
     */
    final void checkLengths(final long offset, final long captured, final long original)
        throws PcapFormatException
    {
        if (captured > MAX_CAPTURED_LENGTH)
        {
            throw failure(offset, "captured length " + captured + " exceeds snap length " + snapLength +
                " and the sanity cap " + MAX_CAPTURED_LENGTH + " at byte offset " + offset);
        }
        if (captured > original)
        {
            throw failure(offset, "captured length " + captured + " greater than original length " + original +
                " at byte offset " + offset);
        }
    }

    /**
     * Make a packet of the file current, as an Ethernet frame: in place for Ethernet, else written by the adapter
     * into the scratch area after the read area.
     *
     * @param offset    file byte offset of its record or block.
     * @param nanos     its timestamp.
     * @param captured  bytes of it in the file, already checked by {@link #checkLengths}.
     * @param original  its length on the wire.
     * @param dataIndex buffer index of its first byte.
     */
    final void present(
        final long offset, final long nanos, final long captured, final long original, final int dataIndex)
    {
        packetIndex++;
        recordOffset = offset;
        timestampNanos = nanos;
        capturedLength = (int)captured;
        originalLength = (int)Math.min(original, Integer.MAX_VALUE);
        packetOffset = dataIndex;
        if (LINKTYPE_ETHERNET != linkType)
        {
            final int scratch = stream.scratchOffset();
            capturedLength = adapter.toEthernet(linkType, buffer, packetOffset, capturedLength, buffer, scratch);
            originalLength = (int)Math.min(LinkLayerAdapter.frameLength(linkType, original), Integer.MAX_VALUE);
            packetOffset = scratch;
        }
    }

    /**
     * Remember a failure, which every later {@link #next()} rethrows.
     *
     * @return the failure, for the caller to throw.
     */
    final PcapFormatException failure(final long offset, final String message)
    {
        failure = new PcapFormatException(offset, message + " (" + stream.path() + ")");
        return failure;
    }

    static String hex(final int value)
    {
        final String digits = Integer.toHexString(value);
        return "0".repeat(8 - digits.length()) + digits;
    }

    @Override
    public final boolean cutShort()
    {
        return cutShortAt >= 0;
    }

    @Override
    public final long cutShortAt()
    {
        return cutShortAt;
    }

    @Override
    public final String cutShortWarning()
    {
        if (!cutShort())
        {
            return null;
        }
        final long whole = packetIndex + 1;
        return stream.path() + " appears to have been cut short in the middle of a packet at byte offset " +
            cutShortAt + " (the " + whole + " whole packet" + (1 == whole ? "" : "s") + " before it " +
            (1 == whole ? "was" : "were") + " read)";
    }

    @Override
    public final long timestampNanos()
    {
        return timestampNanos;
    }

    @Override
    public final int capturedLength()
    {
        return capturedLength;
    }

    @Override
    public final int originalLength()
    {
        return originalLength;
    }

    @Override
    public final DirectBuffer buffer()
    {
        return buffer;
    }

    @Override
    public final int offset()
    {
        return packetOffset;
    }

    @Override
    public final long packetIndex()
    {
        return packetIndex;
    }

    @Override
    public final long recordOffset()
    {
        return recordOffset;
    }

    @Override
    public final boolean nanosecondResolution()
    {
        return nanosecondResolution;
    }

    @Override
    public final int snapLength()
    {
        return snapLength;
    }

    @Override
    public final ByteOrder fileByteOrder()
    {
        return fileByteOrder;
    }

    @Override
    public final int linkType()
    {
        return linkType;
    }

    @Override
    public final LinkLayerAdapter linkLayer()
    {
        return adapter;
    }

    @Override
    public final Path path()
    {
        return stream.path();
    }

    @Override
    public final void close() throws IOException
    {
        stream.close();
    }
}
