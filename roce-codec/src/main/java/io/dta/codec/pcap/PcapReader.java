package io.dta.codec.pcap;

import static io.dta.codec.pcap.PcapFormat.GLOBAL_HEADER_LENGTH;
import static io.dta.codec.pcap.PcapFormat.INCL_LEN_OFFSET;
import static io.dta.codec.pcap.PcapFormat.LINKTYPE_ETHERNET;
import static io.dta.codec.pcap.PcapFormat.MAGIC_MICROSECONDS;
import static io.dta.codec.pcap.PcapFormat.MAGIC_MODIFIED;
import static io.dta.codec.pcap.PcapFormat.MAGIC_NANOSECONDS;
import static io.dta.codec.pcap.PcapFormat.MAGIC_OFFSET;
import static io.dta.codec.pcap.PcapFormat.MAX_CAPTURED_LENGTH;
import static io.dta.codec.pcap.PcapFormat.NETWORK_OFFSET;
import static io.dta.codec.pcap.PcapFormat.ORIG_LEN_OFFSET;
import static io.dta.codec.pcap.PcapFormat.PCAPNG_CONVERSION_HINT;
import static io.dta.codec.pcap.PcapFormat.PCAPNG_SECTION_HEADER_BLOCK_TYPE;
import static io.dta.codec.pcap.PcapFormat.RECORD_HEADER_LENGTH;
import static io.dta.codec.pcap.PcapFormat.SNAPLEN_OFFSET;
import static io.dta.codec.pcap.PcapFormat.TS_FRACTION_OFFSET;
import static io.dta.codec.pcap.PcapFormat.TS_SEC_OFFSET;
import static io.dta.codec.pcap.PcapFormat.VERSION_MAJOR;
import static io.dta.codec.pcap.PcapFormat.VERSION_MAJOR_OFFSET;
import static io.dta.codec.pcap.PcapFormat.VERSION_MINOR;
import static io.dta.codec.pcap.PcapFormat.VERSION_MINOR_OFFSET;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Streaming, zero-allocation-per-packet cursor over a classic libpcap file with Ethernet link type.
 * <p>
 * The file is read through one large reusable direct {@link ByteBuffer} (4 MiB by default) which is compacted and
 * refilled as the cursor advances, so files of any size stream in constant memory. Usage:
 * <pre>{@code
 * try (PcapReader reader = new PcapReader(path))
 * {
 *     while (reader.next())
 *     {
 *         handle(reader.timestampNanos(), reader.buffer(), reader.offset(), reader.capturedLength());
 *     }
 * }
 * }</pre>
 * The packet bytes are exposed in place: {@link #buffer()} is always the same {@link UnsafeBuffer} instance, wrapping
 * the reader's direct {@link ByteBuffer} (so {@code buffer().byteBuffer()} is non-null), and the current packet lies
 * at {@link #offset()} for {@link #capturedLength()} bytes. They are valid only until the next call to
 * {@link #next()} or {@link #close()}. Callers may change the position and limit of {@code buffer().byteBuffer()}
 * (e.g. for {@code CRC32.update(ByteBuffer)}); the reader never relies on them between calls.
 * <p>
 * Every call to {@link #next()} either consumes a whole record, reports a clean end of file, or throws a
 * {@link PcapFormatException} naming the file byte offset of the record at fault; once it has failed or ended it
 * keeps doing so, so a corrupt file can never make a caller loop. Records whose captured length exceeds the snap
 * length are tolerated up to {@link PcapFormat#MAX_CAPTURED_LENGTH}; records whose captured length exceeds the original
 * length, or whose timestamp fraction is out of range, are refused as corrupt. Not thread-safe.
 */
public final class PcapReader implements AutoCloseable
{
    /** Default capacity of the read buffer. */
    public static final int DEFAULT_BUFFER_CAPACITY = 4 * 1024 * 1024;

    /** Smallest read buffer capacity accepted: one record of the largest allowed captured length. */
    public static final int MIN_BUFFER_CAPACITY = RECORD_HEADER_LENGTH + MAX_CAPTURED_LENGTH;

    private static final byte[] EMPTY = new byte[0];

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer byteBuffer;
    private final UnsafeBuffer buffer;
    private final ByteOrder fileByteOrder;
    private final boolean nanosecondResolution;
    private final int snapLength;

    /** File byte offset of buffer index 0. */
    private long bufferFileOffset;
    /** Buffer index of the first byte not yet consumed. */
    private int readIndex;
    /** Buffer index one past the last valid byte read from the file. */
    private int dataLimit;
    private boolean endOfFile;
    private boolean closed;
    private boolean finished;
    private PcapFormatException failure;

    private long packetIndex = -1;
    private long recordOffset = -1;
    private long timestampNanos;
    private int capturedLength;
    private int originalLength;
    private int packetOffset;

    /**
     * Open a pcap file with the default 4 MiB read buffer and parse its global header.
     *
     * @param path of the file.
     * @throws PcapFormatException if the file is not a supported classic pcap Ethernet capture.
     * @throws IOException         if the file cannot be opened or read.
     */
    public PcapReader(final Path path) throws IOException
    {
        this(path, DEFAULT_BUFFER_CAPACITY);
    }

    /**
     * Open a pcap file and parse its global header.
     *
     * @param path           of the file.
     * @param bufferCapacity of the reusable read buffer, at least {@link #MIN_BUFFER_CAPACITY}.
     * @throws PcapFormatException if the file is not a supported classic pcap Ethernet capture.
     * @throws IOException         if the file cannot be opened or read.
     */
    public PcapReader(final Path path, final int bufferCapacity) throws IOException
    {
        if (bufferCapacity < MIN_BUFFER_CAPACITY)
        {
            throw new IllegalArgumentException(
                "bufferCapacity " + bufferCapacity + " is below the minimum " + MIN_BUFFER_CAPACITY);
        }

        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.READ);
        // Plain allocateDirect (not an aligned slice) so BufferUtil.free can release it eagerly on close.
        this.byteBuffer = ByteBuffer.allocateDirect(bufferCapacity);
        this.buffer = new UnsafeBuffer(byteBuffer);

        try
        {
            fill();
            final int available = dataLimit - readIndex;
            if (available < 4)
            {
                throw failure(0, "truncated global header at byte offset 0: need " + GLOBAL_HEADER_LENGTH +
                    " bytes, " + available + " present");
            }

            final int magicBigEndian = buffer.getInt(MAGIC_OFFSET, ByteOrder.BIG_ENDIAN);
            final int magicLittleEndian = buffer.getInt(MAGIC_OFFSET, ByteOrder.LITTLE_ENDIAN);
            if (MAGIC_MICROSECONDS == magicBigEndian || MAGIC_NANOSECONDS == magicBigEndian)
            {
                fileByteOrder = ByteOrder.BIG_ENDIAN;
                nanosecondResolution = MAGIC_NANOSECONDS == magicBigEndian;
            }
            else if (MAGIC_MICROSECONDS == magicLittleEndian || MAGIC_NANOSECONDS == magicLittleEndian)
            {
                fileByteOrder = ByteOrder.LITTLE_ENDIAN;
                nanosecondResolution = MAGIC_NANOSECONDS == magicLittleEndian;
            }
            else if (PCAPNG_SECTION_HEADER_BLOCK_TYPE == magicBigEndian)
            {
                throw failure(0, "pcapng block type 0x0a0d0d0a at byte offset 0: this is a pcapng file and " +
                    "pcapng is not supported, only classic pcap; " + PCAPNG_CONVERSION_HINT);
            }
            else if (MAGIC_MODIFIED == magicBigEndian || MAGIC_MODIFIED == magicLittleEndian)
            {
                throw failure(0, "magic 0xa1b2cd34 at byte offset 0: the modified (Kuznetzov) pcap variant is " +
                    "not supported; convert it with `editcap -F pcap in out.pcap`");
            }
            else
            {
                throw failure(0, "bad magic 0x" + hex(magicBigEndian) + " at byte offset 0: not a pcap file");
            }

            if (available < GLOBAL_HEADER_LENGTH)
            {
                throw failure(0, "truncated global header at byte offset 0: need " + GLOBAL_HEADER_LENGTH +
                    " bytes, " + available + " present");
            }

            final int major = buffer.getShort(VERSION_MAJOR_OFFSET, fileByteOrder) & 0xFFFF;
            final int minor = buffer.getShort(VERSION_MINOR_OFFSET, fileByteOrder) & 0xFFFF;
            if (VERSION_MAJOR != major || VERSION_MINOR != minor)
            {
                throw failure(0, "unsupported pcap version " + major + "." + minor + " at byte offset 0: only " +
                    VERSION_MAJOR + "." + VERSION_MINOR + " is supported");
            }

            final long network = buffer.getInt(NETWORK_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
            if (LINKTYPE_ETHERNET != network)
            {
                throw failure(0, "unsupported link type " + (network & 0xFFFF) + " (link type field 0x" +
                    hex((int)network) + ") at byte offset 0: only link type 1 (Ethernet, without FCS) is supported");
            }

            final long snap = buffer.getInt(SNAPLEN_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
            snapLength = (int)Math.min(snap, Integer.MAX_VALUE);
            readIndex = GLOBAL_HEADER_LENGTH;
        }
        catch (final IOException | RuntimeException ex)
        {
            closeQuietly();
            throw ex;
        }
    }

    /**
     * Cheap probe: does the file start with a classic pcap magic number (either byte order, micro- or nanosecond)?
     * It does not validate the rest of the header.
     *
     * @param path of the file.
     * @return true if the first four bytes are a classic pcap magic number.
     * @throws IOException if the file cannot be opened or read.
     */
    public static boolean isPcap(final Path path) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            final ByteBuffer magic = ByteBuffer.allocate(4);
            while (magic.hasRemaining())
            {
                if (channel.read(magic) < 0)
                {
                    return false;
                }
            }

            final int bigEndian = magic.getInt(0);
            final int littleEndian = Integer.reverseBytes(bigEndian);
            return MAGIC_MICROSECONDS == bigEndian || MAGIC_NANOSECONDS == bigEndian ||
                MAGIC_MICROSECONDS == littleEndian || MAGIC_NANOSECONDS == littleEndian;
        }
    }

    /**
     * Advance to the next packet record.
     *
     * @return true if a record is now current, false at a clean end of file (the file ends exactly after a record).
     * @throws PcapFormatException if the next record is truncated or corrupt; thrown again by later calls.
     * @throws IOException         if reading fails.
     */
    public boolean next() throws IOException
    {
        if (closed)
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

        if (dataLimit - readIndex < RECORD_HEADER_LENGTH)
        {
            fill();
        }

        final long offset = bufferFileOffset + readIndex;
        final int available = dataLimit - readIndex;
        if (0 == available)
        {
            finished = true;
            return false;
        }
        if (available < RECORD_HEADER_LENGTH)
        {
            throw failure(offset, "truncated packet record header at byte offset " + offset + ": need " +
                RECORD_HEADER_LENGTH + " bytes, " + available + " remain");
        }

        final long included = buffer.getInt(readIndex + INCL_LEN_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        final long original = buffer.getInt(readIndex + ORIG_LEN_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        final long seconds = buffer.getInt(readIndex + TS_SEC_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        final long fraction = buffer.getInt(readIndex + TS_FRACTION_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;

        if (included > MAX_CAPTURED_LENGTH)
        {
            throw failure(offset, "captured length " + included + " exceeds snap length " + snapLength +
                " and the sanity cap " + MAX_CAPTURED_LENGTH + " at byte offset " + offset);
        }
        if (included > original)
        {
            throw failure(offset, "captured length " + included + " greater than original length " + original +
                " at byte offset " + offset);
        }
        final long fractionLimit = nanosecondResolution ? 1_000_000_000L : 1_000_000L;
        if (fraction >= fractionLimit)
        {
            throw failure(offset, "timestamp fraction " + fraction + " out of range (must be below " +
                fractionLimit + ") at byte offset " + offset);
        }

        final int recordLength = RECORD_HEADER_LENGTH + (int)included;
        if (dataLimit - readIndex < recordLength)
        {
            fill();
            if (dataLimit - readIndex < recordLength)
            {
                throw failure(offset, "truncated packet record at byte offset " + offset + ": header says " +
                    included + " captured bytes, " + (dataLimit - readIndex - RECORD_HEADER_LENGTH) + " remain");
            }
        }

        packetIndex++;
        recordOffset = offset;
        timestampNanos = seconds * 1_000_000_000L + (nanosecondResolution ? fraction : fraction * 1_000L);
        capturedLength = (int)included;
        originalLength = (int)Math.min(original, Integer.MAX_VALUE);
        packetOffset = readIndex + RECORD_HEADER_LENGTH;
        readIndex += recordLength;

        return true;
    }

    /**
     * Timestamp of the current packet in nanoseconds since the epoch, converted from microseconds if need be.
     *
     * @return timestamp of the current packet in nanoseconds since the epoch.
     */
    public long timestampNanos()
    {
        return timestampNanos;
    }

    /**
     * Number of packet bytes present in the file for the current record.
     *
     * @return captured length of the current packet.
     */
    public int capturedLength()
    {
        return capturedLength;
    }

    /**
     * Length of the current packet on the wire, at least {@link #capturedLength()}; values above
     * {@link Integer#MAX_VALUE} are clamped.
     *
     * @return original length of the current packet.
     */
    public int originalLength()
    {
        return originalLength;
    }

    /**
     * The buffer holding the current packet in place; always the same instance, wrapping a direct ByteBuffer.
     * Contents are valid until the next call to {@link #next()} or {@link #close()}.
     *
     * @return the buffer holding the current packet.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * Index in {@link #buffer()} of the first byte of the current packet.
     *
     * @return index of the current packet in {@link #buffer()}.
     */
    public int offset()
    {
        return packetOffset;
    }

    /**
     * Zero-based index of the current packet in the file, -1 before the first call to {@link #next()}.
     *
     * @return index of the current packet.
     */
    public long packetIndex()
    {
        return packetIndex;
    }

    /**
     * File byte offset of the current record's header, -1 before the first call to {@link #next()}.
     *
     * @return file byte offset of the current record.
     */
    public long recordOffset()
    {
        return recordOffset;
    }

    /**
     * Whether the file stores nanosecond (magic a1b23c4d) rather than microsecond timestamps.
     *
     * @return true for a nanosecond-resolution file.
     */
    public boolean nanosecondResolution()
    {
        return nanosecondResolution;
    }

    /**
     * Snap length declared by the global header, clamped to {@link Integer#MAX_VALUE}.
     *
     * @return snap length from the global header.
     */
    public int snapLength()
    {
        return snapLength;
    }

    /**
     * Byte order of the file's headers, as detected from the magic number.
     *
     * @return byte order of the file.
     */
    public ByteOrder fileByteOrder()
    {
        return fileByteOrder;
    }

    /**
     * Link type of the file; always {@link PcapFormat#LINKTYPE_ETHERNET} since others are refused.
     *
     * @return link type of the file.
     */
    public int linkType()
    {
        return LINKTYPE_ETHERNET;
    }

    /**
     * Path of the file being read.
     *
     * @return path of the file.
     */
    public Path path()
    {
        return path;
    }

    /**
     * Close the file and release the read buffer. {@link #buffer()} is re-pointed at an empty array first, so a
     * stale access fails with a bounds error instead of touching freed memory. Idempotent.
     *
     * @throws IOException if closing the file fails.
     */
    public void close() throws IOException
    {
        if (!closed)
        {
            closed = true;
            buffer.wrap(EMPTY);
            BufferUtil.free(byteBuffer);
            channel.close();
        }
    }

    private void closeQuietly()
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

    /**
     * Move the unread bytes to the start of the buffer and read from the file until the buffer is full or the file
     * ends. Position and limit are set explicitly because callers may have changed them.
     */
    private void fill() throws IOException
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

        byteBuffer.limit(byteBuffer.capacity()).position(dataLimit);
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

    private PcapFormatException failure(final long offset, final String message)
    {
        failure = new PcapFormatException(offset, message + " (" + path + ")");
        return failure;
    }

    private static String hex(final int value)
    {
        final String digits = Integer.toHexString(value);
        return "0".repeat(8 - digits.length()) + digits;
    }
}
