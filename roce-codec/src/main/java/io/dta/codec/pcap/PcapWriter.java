package io.dta.codec.pcap;

import static io.dta.codec.pcap.PcapFormat.GLOBAL_HEADER_LENGTH;
import static io.dta.codec.pcap.PcapFormat.INCL_LEN_OFFSET;
import static io.dta.codec.pcap.PcapFormat.LINKTYPE_ETHERNET;
import static io.dta.codec.pcap.PcapFormat.MAGIC_MICROSECONDS;
import static io.dta.codec.pcap.PcapFormat.MAGIC_NANOSECONDS;
import static io.dta.codec.pcap.PcapFormat.MAGIC_OFFSET;
import static io.dta.codec.pcap.PcapFormat.MAX_CAPTURED_LENGTH;
import static io.dta.codec.pcap.PcapFormat.MAX_TIMESTAMP_NANOS;
import static io.dta.codec.pcap.PcapFormat.NETWORK_OFFSET;
import static io.dta.codec.pcap.PcapFormat.ORIG_LEN_OFFSET;
import static io.dta.codec.pcap.PcapFormat.RECORD_HEADER_LENGTH;
import static io.dta.codec.pcap.PcapFormat.SIGFIGS_OFFSET;
import static io.dta.codec.pcap.PcapFormat.SNAPLEN_OFFSET;
import static io.dta.codec.pcap.PcapFormat.THISZONE_OFFSET;
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
 * Buffered, zero-allocation-per-packet writer of classic libpcap files with Ethernet link type.
 * <p>
 * Creates or truncates the file and writes the global header at construction. Headers are always written
 * little-endian (the native order of x86 and ARM hosts, what libpcap itself would write there), whatever the
 * platform. Timestamps are microsecond resolution by default (magic a1b2c3d4, readable by every tool); nanosecond
 * resolution (magic a1b23c4d) is available on request. Full packets are written: a packet longer than the snap length
 * is refused rather than silently truncated. Records accumulate in a direct buffer which is written to the file when
 * full, on {@link #flush()} and on {@link #close()}. Not thread-safe.
 */
public final class PcapWriter implements AutoCloseable
{
    /** Default capacity of the write buffer. */
    public static final int DEFAULT_BUFFER_CAPACITY = 1024 * 1024;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final FileChannel channel;
    private final ByteBuffer byteBuffer;
    private final UnsafeBuffer buffer;
    private final boolean nanosecondResolution;
    private final int snapLength;
    private int position;
    private long packetsWritten;
    private boolean closed;

    /**
     * Create or truncate a file for microsecond-resolution records with snap length 65535.
     *
     * @param path of the file.
     * @throws IOException if the file cannot be created or the header written.
     */
    public PcapWriter(final Path path) throws IOException
    {
        this(path, false);
    }

    /**
     * Create or truncate a file with snap length 65535.
     *
     * @param path                 of the file.
     * @param nanosecondResolution true for nanosecond timestamps (magic a1b23c4d), false for microseconds.
     * @throws IOException if the file cannot be created or the header written.
     */
    public PcapWriter(final Path path, final boolean nanosecondResolution) throws IOException
    {
        this(path, nanosecondResolution, PcapFormat.DEFAULT_SNAP_LENGTH, DEFAULT_BUFFER_CAPACITY);
    }

    /**
     * Create or truncate a file.
     *
     * @param path                 of the file.
     * @param nanosecondResolution true for nanosecond timestamps (magic a1b23c4d), false for microseconds.
     * @param snapLength           largest packet accepted, 1 to {@link PcapFormat#MAX_CAPTURED_LENGTH}.
     * @param bufferCapacity       of the write buffer, at least a record header plus the snap length.
     * @throws IOException if the file cannot be created or the header written.
     */
    public PcapWriter(
        final Path path, final boolean nanosecondResolution, final int snapLength, final int bufferCapacity)
        throws IOException
    {
        if (snapLength < 1 || snapLength > MAX_CAPTURED_LENGTH)
        {
            throw new IllegalArgumentException(
                "snapLength " + snapLength + " must be between 1 and " + MAX_CAPTURED_LENGTH);
        }
        if (bufferCapacity < RECORD_HEADER_LENGTH + snapLength)
        {
            throw new IllegalArgumentException("bufferCapacity " + bufferCapacity + " must be at least " +
                (RECORD_HEADER_LENGTH + snapLength) + " for snapLength " + snapLength);
        }

        this.nanosecondResolution = nanosecondResolution;
        this.snapLength = snapLength;
        this.channel = FileChannel.open(
            path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        this.byteBuffer = ByteBuffer.allocateDirect(bufferCapacity);
        this.buffer = new UnsafeBuffer(byteBuffer);

        buffer.putInt(MAGIC_OFFSET, nanosecondResolution ? MAGIC_NANOSECONDS : MAGIC_MICROSECONDS, ORDER);
        buffer.putShort(VERSION_MAJOR_OFFSET, (short)VERSION_MAJOR, ORDER);
        buffer.putShort(VERSION_MINOR_OFFSET, (short)VERSION_MINOR, ORDER);
        buffer.putInt(THISZONE_OFFSET, 0, ORDER);
        buffer.putInt(SIGFIGS_OFFSET, 0, ORDER);
        buffer.putInt(SNAPLEN_OFFSET, snapLength, ORDER);
        buffer.putInt(NETWORK_OFFSET, LINKTYPE_ETHERNET, ORDER);
        position = GLOBAL_HEADER_LENGTH;

        try
        {
            flush();
        }
        catch (final IOException | RuntimeException ex)
        {
            closed = true;
            BufferUtil.free(byteBuffer);
            channel.close();
            throw ex;
        }
    }

    /**
     * Append one packet record, captured and original length both equal to {@code length}.
     *
     * @param timestampNanos nanoseconds since the epoch, 0 to {@link PcapFormat#MAX_TIMESTAMP_NANOS}; truncated to
     *                       microseconds in a microsecond-resolution file.
     * @param buffer         holding the packet.
     * @param offset         of the packet in {@code buffer}.
     * @param length         of the packet, 0 to the snap length.
     * @throws IllegalArgumentException if the length exceeds the snap length or the timestamp is out of range.
     * @throws IOException              if flushing a full buffer to the file fails.
     */
    public void write(final long timestampNanos, final DirectBuffer buffer, final int offset, final int length)
        throws IOException
    {
        if (closed)
        {
            throw new IllegalStateException("writer is closed");
        }
        if (length < 0 || length > snapLength)
        {
            throw new IllegalArgumentException(
                "packet length " + length + " must be between 0 and the snap length " + snapLength);
        }
        if (timestampNanos < 0 || timestampNanos > MAX_TIMESTAMP_NANOS)
        {
            throw new IllegalArgumentException(
                "timestamp " + timestampNanos + " ns is outside the pcap range 0.." + MAX_TIMESTAMP_NANOS);
        }

        final int recordLength = RECORD_HEADER_LENGTH + length;
        if (position + recordLength > this.buffer.capacity())
        {
            flush();
        }

        final long seconds = timestampNanos / 1_000_000_000L;
        final long nanos = timestampNanos - seconds * 1_000_000_000L;
        final int index = position;
        this.buffer.putInt(index + TS_SEC_OFFSET, (int)seconds, ORDER);
        this.buffer.putInt(index + TS_FRACTION_OFFSET, (int)(nanosecondResolution ? nanos : nanos / 1_000L), ORDER);
        this.buffer.putInt(index + INCL_LEN_OFFSET, length, ORDER);
        this.buffer.putInt(index + ORIG_LEN_OFFSET, length, ORDER);
        this.buffer.putBytes(index + RECORD_HEADER_LENGTH, buffer, offset, length);
        position = index + recordLength;
        packetsWritten++;
    }

    /**
     * Write all buffered records to the file (to the operating system; no fsync).
     *
     * @throws IOException if writing fails.
     */
    public void flush() throws IOException
    {
        if (closed)
        {
            throw new IllegalStateException("writer is closed");
        }

        byteBuffer.limit(position).position(0);
        while (byteBuffer.hasRemaining())
        {
            channel.write(byteBuffer);
        }
        position = 0;
    }

    /**
     * Number of packets written since construction.
     *
     * @return number of packets written.
     */
    public long packetsWritten()
    {
        return packetsWritten;
    }

    /**
     * Whether records carry nanosecond rather than microsecond timestamps.
     *
     * @return true for a nanosecond-resolution file.
     */
    public boolean nanosecondResolution()
    {
        return nanosecondResolution;
    }

    /**
     * Snap length written in the global header; the largest packet accepted.
     *
     * @return snap length of the file.
     */
    public int snapLength()
    {
        return snapLength;
    }

    /**
     * Flush buffered records, close the file and release the buffer. Idempotent.
     *
     * @throws IOException if the final flush or the close fails; the file is closed either way.
     */
    public void close() throws IOException
    {
        if (!closed)
        {
            try
            {
                flush();
            }
            finally
            {
                closed = true;
                BufferUtil.free(byteBuffer);
                channel.close();
            }
        }
    }
}
