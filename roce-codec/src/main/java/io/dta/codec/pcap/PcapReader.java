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
import static io.dta.codec.pcap.PcapFormat.RECORD_HEADER_LENGTH;
import static io.dta.codec.pcap.PcapFormat.SNAPLEN_OFFSET;
import static io.dta.codec.pcap.PcapFormat.TS_FRACTION_OFFSET;
import static io.dta.codec.pcap.PcapFormat.TS_SEC_OFFSET;
import static io.dta.codec.pcap.PcapFormat.VERSION_MAJOR;
import static io.dta.codec.pcap.PcapFormat.VERSION_MAJOR_OFFSET;
import static io.dta.codec.pcap.PcapFormat.VERSION_MINOR;
import static io.dta.codec.pcap.PcapFormat.VERSION_MINOR_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.BLOCK_HEADER_LENGTH;
import static io.dta.codec.pcap.PcapngFormat.BLOCK_TOTAL_LENGTH_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.BLOCK_TRAILER_LENGTH;
import static io.dta.codec.pcap.PcapngFormat.BLOCK_TYPE_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.BYTE_ORDER_MAGIC;
import static io.dta.codec.pcap.PcapngFormat.DEFAULT_TSRESOL;
import static io.dta.codec.pcap.PcapngFormat.ENHANCED_PACKET_BLOCK_TYPE;
import static io.dta.codec.pcap.PcapngFormat.EPB_CAPTURED_LENGTH_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.EPB_DATA_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.EPB_INTERFACE_ID_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.EPB_MIN_LENGTH;
import static io.dta.codec.pcap.PcapngFormat.EPB_ORIGINAL_LENGTH_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.EPB_TIMESTAMP_HIGH_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.EPB_TIMESTAMP_LOW_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.IDB_LINK_TYPE_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.IDB_MIN_LENGTH;
import static io.dta.codec.pcap.PcapngFormat.IDB_OPTIONS_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.IDB_SNAP_LENGTH_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.IF_FCSLEN;
import static io.dta.codec.pcap.PcapngFormat.IF_TSOFFSET;
import static io.dta.codec.pcap.PcapngFormat.IF_TSRESOL;
import static io.dta.codec.pcap.PcapngFormat.INTERFACE_DESCRIPTION_BLOCK_TYPE;
import static io.dta.codec.pcap.PcapngFormat.MAX_BLOCK_LENGTH;
import static io.dta.codec.pcap.PcapngFormat.MAX_INTERFACES;
import static io.dta.codec.pcap.PcapngFormat.MIN_BLOCK_LENGTH;
import static io.dta.codec.pcap.PcapngFormat.OPTION_HEADER_LENGTH;
import static io.dta.codec.pcap.PcapngFormat.OPT_ENDOFOPT;
import static io.dta.codec.pcap.PcapngFormat.PACKET_BLOCK_TYPE;
import static io.dta.codec.pcap.PcapngFormat.PB_CAPTURED_LENGTH_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.PB_DATA_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.PB_INTERFACE_ID_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.PB_MIN_LENGTH;
import static io.dta.codec.pcap.PcapngFormat.PB_ORIGINAL_LENGTH_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.PB_TIMESTAMP_HIGH_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.PB_TIMESTAMP_LOW_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.SECTION_HEADER_BLOCK_TYPE;
import static io.dta.codec.pcap.PcapngFormat.SHB_BYTE_ORDER_MAGIC_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.SHB_MIN_LENGTH;
import static io.dta.codec.pcap.PcapngFormat.SHB_VERSION_MAJOR_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.SHB_VERSION_MINOR_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.SIMPLE_PACKET_BLOCK_TYPE;
import static io.dta.codec.pcap.PcapngFormat.SPB_DATA_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.SPB_MIN_LENGTH;
import static io.dta.codec.pcap.PcapngFormat.SPB_ORIGINAL_LENGTH_OFFSET;

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
 * Streaming, zero-allocation-per-packet cursor over a classic libpcap or a pcapng file that presents every packet as
 * an Ethernet frame; the format is detected from the first four bytes and the API is the same for both.
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
 * The packet bytes are exposed through {@link #buffer()}, always the same {@link UnsafeBuffer} instance, wrapping
 * the reader's direct {@link ByteBuffer} (so {@code buffer().byteBuffer()} is non-null), and the current packet lies
 * at {@link #offset()} for {@link #capturedLength()} bytes. They are valid only until the next call to
 * {@link #next()} or {@link #close()}. Callers may change the position and limit of {@code buffer().byteBuffer()}
 * (e.g. for {@code CRC32.update(ByteBuffer)}); the reader never relies on them between calls.
 * <p>
 * <b>Link types.</b> Ethernet packets (link type 1, without FCS) are exposed in place, where they were read from
 * the file, with no copy. Linux cooked captures (SLL 113, SLL2 276, as {@code tcpdump -i any} writes) and raw IP
 * packets (RAW 101, IPV4 228, as scapy writes bare {@code IP()} packets) are presented as Ethernet frames too:
 * {@link LinkLayerAdapter} writes each into a scratch area after the read area of the same buffer, and
 * {@link #offset()}, {@link #capturedLength()} and {@link #originalLength()} describe that frame (see
 * {@link LinkLayerAdapter} for the mapping, and {@link #destinationMac(long)}). {@link #linkType()} tells which
 * link type the current packet had in the file. Other link types are refused.
 * <p>
 * Every call to {@link #next()} either consumes a whole record (pcapng: every block up to and including the next
 * packet block), reports an end of file, or throws a {@link PcapFormatException} naming the file byte offset of
 * the record or block at fault; once it has failed or ended it keeps doing so, so a corrupt file can never make a
 * caller loop.
 * <p>
 * <b>A capture cut short.</b> A file that ends inside a record (its header or its data; pcapng: inside a block
 * header, or a block whose total length runs past the end of the file), as a capture copied while tcpdump was still
 * writing it does, ends like a complete file after its last whole record: {@link #next()} returns false, and
 * {@link #cutShort()} and {@link #cutShortAt()} tell that and where (tshark and Wireshark read such a file the same
 * way, warning that it "appears to have been cut short in the middle of a packet"). Only what an end-of-file cut
 * can explain is taken for one: a last record whose header is already corrupt (a captured length above the sanity
 * cap, above the original length, or above a classic file's non-zero snap length, which no writer cut mid-record
 * exceeds; a pcapng block length below the minimum, not a multiple of 4, above {@link PcapngFormat#MAX_BLOCK_LENGTH};
 * a bad byte-order magic) is refused as before, and so is a file cut inside its global header or first Section
 * Header Block, which is no capture at all. Records whose captured length exceeds the snap length are tolerated up to
 * {@link PcapFormat#MAX_CAPTURED_LENGTH}; records whose captured length exceeds the original length are refused as
 * corrupt. A classic record's timestamp fraction of a second or more is carried into its seconds (libpcap and
 * Wireshark do the same; scapy writes 1000000 microseconds when its rounding reaches the next second).
 * <p>
 * <b>pcapng.</b> Sections (each with its own byte order and interfaces), Interface Description Blocks (link type,
 * snap length, {@code if_tsresol}, {@code if_tsoffset}, {@code if_fcslen}), Enhanced, Simple and obsolete Packet
 * Blocks are read; every other block type is skipped by its length, whatever that length. The per-packet accessors
 * ({@link #linkType()}, {@link #snapLength()}, {@link #nanosecondResolution()}) describe the current packet's
 * interface and {@link #fileByteOrder()} the current section; before the first packet they hold the pcapng defaults
 * (Ethernet, snap length 0, microseconds) and the first section's byte order. A Simple Packet Block has no
 * timestamp: {@link #timestampNanos()} reports 0 for it. Interfaces of a section may have different link types; a
 * packet on an interface whose link type is not supported (or which declares an FCS) is refused when it is reached,
 * so unused interfaces of other types do no harm. Memory
 * is allocated per interface only (at most {@link PcapngFormat#MAX_INTERFACES} per section), never per packet.
 * Not thread-safe.
 */
public final class PcapReader implements AutoCloseable
{
    /** Default capacity of the read buffer. */
    public static final int DEFAULT_BUFFER_CAPACITY = 4 * 1024 * 1024;

    /**
     * Smallest read buffer capacity accepted: one classic record of the largest allowed captured length or one
     * pcapng block of {@link PcapngFormat#MAX_BLOCK_LENGTH}, whichever is larger.
     */
    public static final int MIN_BUFFER_CAPACITY =
        Math.max(RECORD_HEADER_LENGTH + MAX_CAPTURED_LENGTH, MAX_BLOCK_LENGTH);

    private static final byte[] EMPTY = new byte[0];
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long MAX_OFFSET_SECONDS = Long.MAX_VALUE / NANOS_PER_SECOND;
    private static final int SWAPPED_LENGTHS_BEFORE_MINOR = 3;

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer byteBuffer;
    private final UnsafeBuffer buffer;
    /** Bytes of the buffer used for file data; the scratch area for adapted frames follows them. */
    private final int readCapacity;
    private final LinkLayerAdapter adapter = new LinkLayerAdapter();
    private final boolean pcapng;
    private ByteOrder fileByteOrder;
    private boolean nanosecondResolution;
    private LengthOrder lengthOrder = LengthOrder.STANDARD;
    private int snapLength;
    private int linkType = LINKTYPE_ETHERNET;

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
    /** File byte offset of the record the file ends inside, or -1. */
    private long cutShortAt = -1;

    private long packetIndex = -1;
    private long recordOffset = -1;
    private long timestampNanos;
    private int capturedLength;
    private int originalLength;
    private int packetOffset;

    // Interfaces of the current pcapng section, indexed by interface id; grown (only) when a section defines more.
    private final PcapngInterfaces interfaces = new PcapngInterfaces();

    /**
     * Open a pcap or pcapng file with the default 4 MiB read buffer and parse its global header (pcapng: its first
     * Section Header Block).
     *
     * @param path of the file.
     * @throws PcapFormatException if the file is not a supported classic pcap or pcapng capture.
     * @throws IOException         if the file cannot be opened or read.
     */
    public PcapReader(final Path path) throws IOException
    {
        this(path, DEFAULT_BUFFER_CAPACITY);
    }

    /**
     * Open a pcap or pcapng file and parse its global header (pcapng: its first Section Header Block).
     *
     * @param path           of the file.
     * @param bufferCapacity of the reusable read buffer, at least {@link #MIN_BUFFER_CAPACITY} (a scratch area for
     *                       the frames of non-Ethernet packets is added to it).
     * @throws PcapFormatException if the file is not a supported classic pcap or pcapng capture.
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
        // Plain allocateDirect (not an aligned slice) so BufferUtil.free can release it eagerly on close. The scratch
        // area after the read area holds the frame of a non-Ethernet packet, so buffer() is one instance for all.
        this.readCapacity = bufferCapacity;
        this.byteBuffer = ByteBuffer.allocateDirect(
            bufferCapacity + MAX_CAPTURED_LENGTH + LinkLayerAdapter.MAX_GROWTH);
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
            pcapng = SECTION_HEADER_BLOCK_TYPE == magicBigEndian;
            if (pcapng)
            {
                sectionHeader(0);
            }
            else
            {
                globalHeader(magicBigEndian, available);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            closeQuietly();
            throw ex;
        }
    }

    /**
     * Cheap probe: does the file start with a classic pcap magic number (either byte order, micro- or nanosecond)
     * or a pcapng Section Header Block type? It does not validate the rest of the header.
     *
     * @param path of the file.
     * @return true if the first four bytes are a classic pcap magic number or the pcapng block type 0x0a0d0d0a.
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
                MAGIC_MICROSECONDS == littleEndian || MAGIC_NANOSECONDS == littleEndian ||
                SECTION_HEADER_BLOCK_TYPE == bigEndian;
        }
    }

    /**
     * Advance to the next packet.
     *
     * @return true if a packet is now current, false at the end of the file: a clean end (the file ends exactly
     * after a record or block) or a file cut short inside the next record ({@link #cutShort()}).
     * @throws PcapFormatException if the next record or block is corrupt; thrown again by later calls.
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

        return pcapng ? nextBlockPacket() : nextRecord();
    }

    /**
     * Whether the file ended inside a record (pcapng: inside a block): {@link #next()} has returned false after the
     * last whole record, as at a clean end, and {@link #cutShortAt()} tells where the incomplete record starts.
     *
     * @return true once {@link #next()} has met the end of the file inside a record.
     */
    public boolean cutShort()
    {
        return cutShortAt >= 0;
    }

    /**
     * File byte offset of the incomplete record the file ends inside (classic: of its record header; pcapng: of its
     * block), -1 unless {@link #cutShort()}.
     *
     * @return file byte offset of the record cut short, or -1.
     */
    public long cutShortAt()
    {
        return cutShortAt;
    }

    /**
     * One line for a warning about a capture cut short, in the words of tshark's, naming the file, the offset and
     * the number of whole packets read.
     *
     * @return e.g. {@code "in.pcap appears to have been cut short in the middle of a packet at byte offset 1234 (the
     * 7 whole packets before it were read)"}, or null unless {@link #cutShort()}.
     */
    public String cutShortWarning()
    {
        if (!cutShort())
        {
            return null;
        }
        final long whole = packetIndex + 1;
        return path + " appears to have been cut short in the middle of a packet at byte offset " + cutShortAt +
            " (the " + whole + " whole packet" + (1 == whole ? "" : "s") + " before it " +
            (1 == whole ? "was" : "were") + " read)";
    }

    /**
     * Timestamp of the current packet in nanoseconds since the epoch, converted from the file's or interface's
     * resolution (rounded down when finer than a nanosecond) and including the interface's {@code if_tsoffset}.
     * Always 0 for a pcapng Simple Packet Block, which carries no timestamp.
     *
     * @return timestamp of the current packet in nanoseconds since the epoch.
     */
    public long timestampNanos()
    {
        return timestampNanos;
    }

    /**
     * Number of bytes of the current packet's frame: the bytes present in the file for the current record, adjusted
     * for a non-Ethernet link type by {@link LinkLayerAdapter#frameLength(int, long)} (0 when the record is shorter
     * than its cooked header).
     *
     * @return captured length of the current packet's frame.
     */
    public int capturedLength()
    {
        return capturedLength;
    }

    /**
     * Length of the current packet on the wire, at least {@link #capturedLength()}, adjusted for a non-Ethernet link
     * type as {@link #capturedLength()} is; values above {@link Integer#MAX_VALUE} are clamped.
     *
     * @return original length of the current packet's frame.
     */
    public int originalLength()
    {
        return originalLength;
    }

    /**
     * The buffer holding the current packet's Ethernet frame (in place for an Ethernet packet); always the same
     * instance, wrapping a direct ByteBuffer. Contents are valid until the next call to {@link #next()} or
     * {@link #close()}.
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
     * File byte offset of the current record's header (pcapng: of the current packet block), -1 before the first
     * call to {@link #next()}.
     *
     * @return file byte offset of the current record.
     */
    public long recordOffset()
    {
        return recordOffset;
    }

    /**
     * Whether timestamps are stored in nanoseconds or finer: a classic file with magic a1b23c4d, or a pcapng packet
     * whose interface's {@code if_tsresol} is 10^-9 s or finer (including 2^-30 s and finer).
     *
     * @return true for nanosecond (or finer) resolution.
     */
    public boolean nanosecondResolution()
    {
        return nanosecondResolution;
    }

    /**
     * Snap length declared by the global header (pcapng: by the current packet's interface, 0 meaning no limit),
     * clamped to {@link Integer#MAX_VALUE}.
     *
     * @return snap length of the file or of the current packet's interface.
     */
    public int snapLength()
    {
        return snapLength;
    }

    /**
     * Byte order of the file's headers (pcapng: of the current section), as detected from the magic number.
     *
     * @return byte order of the file or current section.
     */
    public ByteOrder fileByteOrder()
    {
        return fileByteOrder;
    }

    /**
     * Link type of the file (pcapng: of the current packet's interface, {@link PcapFormat#LINKTYPE_ETHERNET} before
     * the first packet): one that {@link LinkLayerAdapter#isSupported(int)} accepts. Whatever it is, the packet is
     * exposed as an Ethernet frame.
     *
     * @return link type of the file or of the current packet's interface.
     */
    public int linkType()
    {
        return linkType;
    }

    /**
     * Destination MAC of the Ethernet header synthesized for packets of a non-Ethernet link type.
     *
     * @return the destination MAC in the low 48 bits, {@link LinkLayerAdapter#DEFAULT_DESTINATION_MAC} unless set.
     */
    public long destinationMac()
    {
        return adapter.destinationMac();
    }

    /**
     * Set the destination MAC of the Ethernet header synthesized for packets of a non-Ethernet link type; readers
     * of report captures give the appliance's own MAC ({@code translator.mac}). Takes effect from the next packet.
     *
     * @param mac destination MAC in the low 48 bits.
     * @return this.
     */
    public PcapReader destinationMac(final long mac)
    {
        adapter.destinationMac(mac);
        return this;
    }

    /**
     * Whether the file is pcapng rather than classic pcap.
     *
     * @return true for a pcapng file.
     */
    public boolean pcapng()
    {
        return pcapng;
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

    private void globalHeader(final int magicBigEndian, final int available) throws PcapFormatException
    {
        final int magicLittleEndian = Integer.reverseBytes(magicBigEndian);
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
        else if (MAGIC_MODIFIED == magicBigEndian || MAGIC_MODIFIED == magicLittleEndian)
        {
            throw failure(0, "magic 0xa1b2cd34 at byte offset 0: the modified (Kuznetzov) pcap variant is " +
                "not supported; convert it with `editcap -F pcap in out.pcap`");
        }
        else
        {
            throw failure(0, "bad magic 0x" + hex(magicBigEndian) + " at byte offset 0: not a pcap or pcapng file");
        }

        if (available < GLOBAL_HEADER_LENGTH)
        {
            throw failure(0, "truncated global header at byte offset 0: need " + GLOBAL_HEADER_LENGTH +
                " bytes, " + available + " present");
        }

        final int major = buffer.getShort(VERSION_MAJOR_OFFSET, fileByteOrder) & 0xFFFF;
        final int minor = buffer.getShort(VERSION_MINOR_OFFSET, fileByteOrder) & 0xFFFF;
        if (VERSION_MAJOR != major || minor > VERSION_MINOR)
        {
            throw failure(0, "unsupported pcap version " + major + "." + minor + " at byte offset 0: only " +
                VERSION_MAJOR + ".0 to " + VERSION_MAJOR + "." + VERSION_MINOR + " are supported");
        }
        // As libpcap reads them: writers before 2.3 put the original length first, and some 2.3 writers did too.
        lengthOrder = minor < SWAPPED_LENGTHS_BEFORE_MINOR ? LengthOrder.SWAPPED :
            minor == SWAPPED_LENGTHS_BEFORE_MINOR ? LengthOrder.MAYBE_SWAPPED : LengthOrder.STANDARD;

        final long network = buffer.getInt(NETWORK_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        // The upper bits of the field (FCS length, class) must be clear: none of the supported types has an FCS.
        if (network > 0xFFFF || !LinkLayerAdapter.isSupported((int)network))
        {
            throw failure(0, "unsupported link type " + (network & 0xFFFF) + " (link type field 0x" +
                hex((int)network) + ") at byte offset 0: the supported link types are " +
                LinkLayerAdapter.SUPPORTED_LINK_TYPES);
        }
        linkType = (int)network;

        final long snap = buffer.getInt(SNAPLEN_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        snapLength = (int)Math.min(snap, Integer.MAX_VALUE);
        readIndex = GLOBAL_HEADER_LENGTH;
    }

    /**
     * Brings the next {@code length} bytes (a record or block header) into the buffer.
     *
     * @return false at the end of the file, which marks the reader finished: a clean end (no byte left) or a file
     * cut short inside the header.
     */
    private boolean headerAvailable(final int length, final String what) throws IOException
    {
        if (dataLimit - readIndex < length)
        {
            fill();
        }
        final int available = dataLimit - readIndex;
        if (0 == available)
        {
            finished = true;
            return false;
        }
        if (available < length)
        {
            return cutShort(bufferFileOffset + readIndex, what, available);
        }
        return true;
    }

    /**
     * The file ends inside the record or block at {@code offset}: end as at a clean end, remembering where.
     *
     * @return false, for {@link #next()} to return.
     */
    private boolean cutShort(final long offset, final String what, final long present) throws PcapFormatException
    {
        if (!endOfFile)
        {
            // The buffer always holds a whole record or block once filled; reaching this otherwise is a reader bug.
            throw failure(offset, "truncated " + what + " at byte offset " + offset + ": " + present +
                " bytes buffered before the end of the file");
        }
        cutShortAt = offset;
        finished = true;
        return false;
    }

    private boolean nextRecord() throws IOException
    {
        if (!headerAvailable(RECORD_HEADER_LENGTH, "packet record header"))
        {
            return false;
        }
        final long offset = bufferFileOffset + readIndex;

        final long first = buffer.getInt(readIndex + INCL_LEN_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        final long second = buffer.getInt(readIndex + ORIG_LEN_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        final boolean swapped = LengthOrder.SWAPPED == lengthOrder ||
            (LengthOrder.MAYBE_SWAPPED == lengthOrder && first > second);
        final long included = swapped ? second : first;
        final long original = swapped ? first : second;
        final long seconds = buffer.getInt(readIndex + TS_SEC_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        final long fraction = buffer.getInt(readIndex + TS_FRACTION_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;

        // A fraction of a whole second or more is carried into the seconds, as libpcap and Wireshark read it:
        // scapy's wrpcap rounds a time such as x.9999996 to x seconds and 1000000 microseconds.
        checkLengths(offset, included, original);

        final int recordLength = RECORD_HEADER_LENGTH + (int)included;
        if (dataLimit - readIndex < recordLength)
        {
            fill();
            if (dataLimit - readIndex < recordLength)
            {
                final int remain = dataLimit - readIndex - RECORD_HEADER_LENGTH;
                if (0 != snapLength && included > snapLength)
                {
                    // A writer cut mid-record had written a header within its snap length: this one is damaged.
                    throw failure(offset, "truncated packet record at byte offset " + offset + ": header says " +
                        included + " captured bytes, above the snap length " + snapLength + ", " + remain +
                        " remain: a damaged record, not a capture cut short");
                }
                return cutShort(offset, "packet record", remain);
            }
        }

        packetIndex++;
        recordOffset = offset;
        timestampNanos = seconds * NANOS_PER_SECOND + (nanosecondResolution ? fraction : fraction * 1_000L);
        capturedLength = (int)included;
        originalLength = (int)Math.min(original, Integer.MAX_VALUE);
        packetOffset = readIndex + RECORD_HEADER_LENGTH;
        readIndex += recordLength;
        if (LINKTYPE_ETHERNET != linkType)
        {
            adapt(original);
        }

        return true;
    }

    /**
     * Replace the current packet, of a non-Ethernet link type, by its Ethernet frame in the scratch area.
     */
    private void adapt(final long original)
    {
        capturedLength = adapter.toEthernet(linkType, buffer, packetOffset, capturedLength, buffer, readCapacity);
        originalLength = (int)Math.min(LinkLayerAdapter.frameLength(linkType, original), Integer.MAX_VALUE);
        packetOffset = readCapacity;
    }

    private void checkLengths(final long offset, final long captured, final long original)
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
     * Consume pcapng blocks up to and including the next packet block. Each iteration consumes at least one whole
     * block of 12 bytes or more, or fails, so a corrupt file cannot loop.
     */
    private boolean nextBlockPacket() throws IOException
    {
        while (true)
        {
            if (!headerAvailable(BLOCK_HEADER_LENGTH, "block header"))
            {
                return false;
            }
            final long offset = bufferFileOffset + readIndex;

            final int type = buffer.getInt(readIndex + BLOCK_TYPE_OFFSET, fileByteOrder);
            if (SECTION_HEADER_BLOCK_TYPE == type)
            {
                if (!sectionHeader(offset))
                {
                    return false;
                }
                continue;
            }

            final long length = buffer.getInt(readIndex + BLOCK_TOTAL_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
            switch (type)
            {
                case INTERFACE_DESCRIPTION_BLOCK_TYPE:
                    checkBlockLength(offset, type, length, IDB_MIN_LENGTH);
                    if (!readWholeBlock(offset, type, length))
                    {
                        return false;
                    }
                    interfaceDescription(offset, (int)length);
                    readIndex += (int)length;
                    break;

                case ENHANCED_PACKET_BLOCK_TYPE:
                case PACKET_BLOCK_TYPE:
                case SIMPLE_PACKET_BLOCK_TYPE:
                    checkBlockLength(offset, type, length, minimumLength(type));
                    if (!readWholeBlock(offset, type, length))
                    {
                        return false;
                    }
                    packetBlock(offset, type, (int)length);
                    return true;

                default:
                    checkBlockLength(offset, type, length, MIN_BLOCK_LENGTH);
                    if (!skipBlock(offset, type, length))
                    {
                        return false;
                    }
                    break;
            }
        }
    }

    /**
     * Parse a Section Header Block at {@code readIndex}: it sets the byte order of the section and forgets the
     * previous section's interfaces. Its options are not needed, so it is streamed past whatever its length.
     *
     * @return false if the file is cut short inside the block (never for the first one, which is refused instead).
     */
    private boolean sectionHeader(final long offset) throws IOException
    {
        if (dataLimit - readIndex < SHB_MIN_LENGTH)
        {
            fill();
        }
        final int available = dataLimit - readIndex;
        if (available < SHB_BYTE_ORDER_MAGIC_OFFSET + 4)
        {
            return truncatedSectionHeader(offset, available);
        }

        final int magic = buffer.getInt(readIndex + SHB_BYTE_ORDER_MAGIC_OFFSET, ByteOrder.BIG_ENDIAN);
        final ByteOrder order;
        if (BYTE_ORDER_MAGIC == magic)
        {
            order = ByteOrder.BIG_ENDIAN;
        }
        else if (BYTE_ORDER_MAGIC == Integer.reverseBytes(magic))
        {
            order = ByteOrder.LITTLE_ENDIAN;
        }
        else
        {
            throw failure(offset, "bad byte-order magic 0x" + hex(magic) + " in the section header block at " +
                "byte offset " + offset + ": expected 0x1a2b3c4d in either byte order");
        }

        final long length = buffer.getInt(readIndex + BLOCK_TOTAL_LENGTH_OFFSET, order) & 0xFFFF_FFFFL;
        checkBlockLength(offset, SECTION_HEADER_BLOCK_TYPE, length, SHB_MIN_LENGTH);
        if (available < SHB_MIN_LENGTH)
        {
            return truncatedSectionHeader(offset, available);
        }

        final int major = buffer.getShort(readIndex + SHB_VERSION_MAJOR_OFFSET, order) & 0xFFFF;
        final int minor = buffer.getShort(readIndex + SHB_VERSION_MINOR_OFFSET, order) & 0xFFFF;
        if (PcapngFormat.VERSION_MAJOR != major)
        {
            throw failure(offset, "unsupported pcapng version " + major + "." + minor + " at byte offset " + offset +
                ": only major version " + PcapngFormat.VERSION_MAJOR + " is supported");
        }

        fileByteOrder = order;
        interfaces.clear();
        return skipBlock(offset, SECTION_HEADER_BLOCK_TYPE, length);
    }

    /**
     * A later section's header cut short ends the capture; the first one, before any packet could be, is refused.
     */
    private boolean truncatedSectionHeader(final long offset, final int available) throws PcapFormatException
    {
        if (0 == offset)
        {
            throw failure(offset, "truncated section header block at byte offset " + offset + ": need " +
                SHB_MIN_LENGTH + " bytes, " + available + " remain");
        }
        return cutShort(offset, blockName(SECTION_HEADER_BLOCK_TYPE), available);
    }

    private void interfaceDescription(final long offset, final int length) throws PcapFormatException
    {
        if (MAX_INTERFACES == interfaces.count())
        {
            throw failure(offset, "more than " + MAX_INTERFACES + " interface description blocks in one section " +
                "at byte offset " + offset);
        }

        final int linkTypeField = buffer.getShort(readIndex + IDB_LINK_TYPE_OFFSET, fileByteOrder) & 0xFFFF;
        final long snap = buffer.getInt(readIndex + IDB_SNAP_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        int tsresol = DEFAULT_TSRESOL;
        int fcsLength = 0;
        long offsetNanos = 0;

        final int end = readIndex + length - BLOCK_TRAILER_LENGTH;
        int position = readIndex + IDB_OPTIONS_OFFSET;
        while (end - position >= OPTION_HEADER_LENGTH)
        {
            final int code = buffer.getShort(position, fileByteOrder) & 0xFFFF;
            final int optionLength = buffer.getShort(position + 2, fileByteOrder) & 0xFFFF;
            if (OPT_ENDOFOPT == code)
            {
                break;
            }
            final int value = position + OPTION_HEADER_LENGTH;
            if (optionLength > end - value)
            {
                throw failure(offset, "option " + code + " of length " + optionLength + " overruns the interface " +
                    "description block at byte offset " + offset);
            }

            if (IF_TSRESOL == code || IF_FCSLEN == code)
            {
                if (1 != optionLength)
                {
                    throw failure(offset, "option " + code + " of length " + optionLength + " (must be 1) in the " +
                        "interface description block at byte offset " + offset);
                }
                if (IF_TSRESOL == code)
                {
                    tsresol = buffer.getByte(value) & 0xFF;
                }
                else
                {
                    fcsLength = buffer.getByte(value) & 0xFF;
                }
            }
            else if (IF_TSOFFSET == code)
            {
                if (8 != optionLength)
                {
                    throw failure(offset, "if_tsoffset of length " + optionLength + " (must be 8) in the " +
                        "interface description block at byte offset " + offset);
                }
                final long seconds = buffer.getLong(value, fileByteOrder);
                if (seconds > MAX_OFFSET_SECONDS || seconds < -MAX_OFFSET_SECONDS)
                {
                    throw failure(offset, "if_tsoffset " + seconds + " seconds out of range in the interface " +
                        "description block at byte offset " + offset);
                }
                offsetNanos = seconds * NANOS_PER_SECOND;
            }
            position = value + ((optionLength + 3) & ~3);
        }

        interfaces.add(linkTypeField, snap, tsresol, fcsLength, offsetNanos, offset);
    }

    /**
     * Validate the packet block buffered whole at {@code readIndex}, make it current and consume it.
     */
    private void packetBlock(final long offset, final int type, final int length) throws PcapFormatException
    {
        final long interfaceId;
        final long captured;
        final long original;
        final long units;
        final int dataOffset;
        if (SIMPLE_PACKET_BLOCK_TYPE == type)
        {
            interfaceId = 0;
            original = buffer.getInt(readIndex + SPB_ORIGINAL_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
            units = 0;
            dataOffset = SPB_DATA_OFFSET;
            if (0 == interfaces.count())
            {
                throw failure(offset, "simple packet block at byte offset " + offset + " refers to interface 0 " +
                    "but the section defines no interface");
            }
            final long snap = interfaces.snapLength(0);
            captured = 0 == snap ? original : Math.min(original, snap);
        }
        else
        {
            if (ENHANCED_PACKET_BLOCK_TYPE == type)
            {
                interfaceId = buffer.getInt(readIndex + EPB_INTERFACE_ID_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
                units = (buffer.getInt(readIndex + EPB_TIMESTAMP_HIGH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL) << 32 |
                    (buffer.getInt(readIndex + EPB_TIMESTAMP_LOW_OFFSET, fileByteOrder) & 0xFFFF_FFFFL);
                captured = buffer.getInt(readIndex + EPB_CAPTURED_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
                original = buffer.getInt(readIndex + EPB_ORIGINAL_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
                dataOffset = EPB_DATA_OFFSET;
            }
            else
            {
                interfaceId = buffer.getShort(readIndex + PB_INTERFACE_ID_OFFSET, fileByteOrder) & 0xFFFF;
                units = (buffer.getInt(readIndex + PB_TIMESTAMP_HIGH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL) << 32 |
                    (buffer.getInt(readIndex + PB_TIMESTAMP_LOW_OFFSET, fileByteOrder) & 0xFFFF_FFFFL);
                captured = buffer.getInt(readIndex + PB_CAPTURED_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
                original = buffer.getInt(readIndex + PB_ORIGINAL_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
                dataOffset = PB_DATA_OFFSET;
            }
            if (interfaceId >= interfaces.count())
            {
                throw failure(offset, "unknown interface id " + interfaceId + " in the " + blockName(type) +
                    " at byte offset " + offset + ": the section defines " + interfaces.count() + " interface(s)");
            }
        }

        final int id = (int)interfaceId;
        snapLength = interfaces.snapLength(id);
        checkLengths(offset, captured, original);
        // Fixed fields, data and trailer must fit the block; the data is padded to 32 bits, which the multiple-of-4
        // total length and fixed part already guarantee once this holds.
        final int room = length - dataOffset - BLOCK_TRAILER_LENGTH;
        if (captured > room)
        {
            throw failure(offset, "captured length " + captured + " exceeds the room of " + room + " bytes in the " +
                blockName(type) + " at byte offset " + offset);
        }

        final int interfaceLinkTypeField = interfaces.linkType(id);
        final int fcs = interfaces.fcsLength(id);
        if (!LinkLayerAdapter.isSupported(interfaceLinkTypeField) || 0 != fcs)
        {
            throw failure(offset, "unsupported link type " + interfaceLinkTypeField +
                (0 != fcs ? " with a " + fcs + "-byte FCS" : "") +
                " of interface " + id + " (defined at byte offset " + interfaces.blockOffset(id) + ") for the " +
                blockName(type) + " at byte offset " + offset + ": the supported link types are " +
                LinkLayerAdapter.SUPPORTED_LINK_TYPES);
        }

        final int tsresol = interfaces.tsresol(id);
        long nanos = 0;
        if (SIMPLE_PACKET_BLOCK_TYPE != type)
        {
            nanos = PcapngInterfaces.unitsToNanos(units, tsresol);
            final long offsetNanos = interfaces.offsetNanos(id);
            if (nanos < 0 || (offsetNanos > 0 && nanos > Long.MAX_VALUE - offsetNanos) || nanos + offsetNanos < 0)
            {
                throw failure(offset, "timestamp " + Long.toUnsignedString(units) + " (if_tsresol 0x" +
                    Integer.toHexString(tsresol) + ", if_tsoffset " + offsetNanos / NANOS_PER_SECOND +
                    " s) out of the range of nanoseconds since the epoch at byte offset " + offset);
            }
            nanos += offsetNanos;
        }

        packetIndex++;
        recordOffset = offset;
        timestampNanos = nanos;
        capturedLength = (int)captured;
        originalLength = (int)Math.min(original, Integer.MAX_VALUE);
        packetOffset = readIndex + dataOffset;
        linkType = interfaceLinkTypeField;
        nanosecondResolution = PcapngInterfaces.nanosecondOrFiner(tsresol);
        readIndex += length;
        if (LINKTYPE_ETHERNET != linkType)
        {
            adapt(original);
        }
    }

    private void checkBlockLength(final long offset, final int type, final long length, final int minimum)
        throws PcapFormatException
    {
        if (length < minimum)
        {
            throw failure(offset, "block total length " + length + " below the minimum " + minimum + " of a " +
                blockName(type) + " at byte offset " + offset);
        }
        if (0 != (length & 3))
        {
            throw failure(offset, "block total length " + length + " of a " + blockName(type) +
                " not a multiple of 4 at byte offset " + offset);
        }
    }

    /**
     * Make the whole block at {@code readIndex} present in the buffer and check its trailing length.
     *
     * @return false if the file is cut short inside the block.
     */
    private boolean readWholeBlock(final long offset, final int type, final long length) throws IOException
    {
        if (length > MAX_BLOCK_LENGTH)
        {
            throw failure(offset, "block total length " + length + " of a " + blockName(type) + " exceeds the " +
                "sanity cap " + MAX_BLOCK_LENGTH + " at byte offset " + offset);
        }
        if (dataLimit - readIndex < length)
        {
            fill();
            if (dataLimit - readIndex < length)
            {
                return cutShort(offset, blockName(type), dataLimit - readIndex);
            }
        }
        checkTrailer(offset, length, buffer.getInt(readIndex + (int)length - BLOCK_TRAILER_LENGTH, fileByteOrder));
        return true;
    }

    /**
     * Stream past the block at {@code readIndex}, of any length, in constant memory, and check its trailing length.
     *
     * @return false if the file is cut short inside the block.
     */
    private boolean skipBlock(final long offset, final int type, final long length) throws IOException
    {
        final long body = length - BLOCK_TRAILER_LENGTH;
        long remaining = body;
        while (remaining > 0)
        {
            if (dataLimit == readIndex)
            {
                fill();
                if (dataLimit == readIndex)
                {
                    return skippedPastEnd(offset, type, length, body - remaining);
                }
            }
            final int step = (int)Math.min(remaining, dataLimit - readIndex);
            readIndex += step;
            remaining -= step;
        }

        if (dataLimit - readIndex < BLOCK_TRAILER_LENGTH)
        {
            fill();
            if (dataLimit - readIndex < BLOCK_TRAILER_LENGTH)
            {
                return skippedPastEnd(offset, type, length, body + dataLimit - readIndex);
            }
        }
        checkTrailer(offset, length, buffer.getInt(readIndex, fileByteOrder));
        readIndex += BLOCK_TRAILER_LENGTH;
        return true;
    }

    /**
     * A skipped block runs past the end of the file: a capture cut short, unless its length is absurd, which a
     * damaged length explains better. The first Section Header Block is no capture yet: a cut there is refused.
     */
    private boolean skippedPastEnd(final long offset, final int type, final long length, final long present)
        throws PcapFormatException
    {
        if (0 == offset)
        {
            throw failure(offset, "truncated block at byte offset " + offset + ": block total length says " +
                length + " bytes, " + present + " remain");
        }
        if (length > MAX_BLOCK_LENGTH)
        {
            throw failure(offset, "truncated block at byte offset " + offset + ": block total length says " +
                length + " bytes, above the sanity cap " + MAX_BLOCK_LENGTH + ", " + present + " remain: a damaged " +
                blockName(type) + ", not a capture cut short");
        }
        return cutShort(offset, blockName(type), present);
    }

    private void checkTrailer(final long offset, final long length, final int trailer) throws PcapFormatException
    {
        final long trailing = trailer & 0xFFFF_FFFFL;
        if (trailing != length)
        {
            throw failure(offset, "block total length " + length + " at the start and " + trailing +
                " at the end differ at byte offset " + offset);
        }
    }

    private static int minimumLength(final int type)
    {
        switch (type)
        {
            case ENHANCED_PACKET_BLOCK_TYPE:
                return EPB_MIN_LENGTH;
            case PACKET_BLOCK_TYPE:
                return PB_MIN_LENGTH;
            case SIMPLE_PACKET_BLOCK_TYPE:
                return SPB_MIN_LENGTH;
            default:
                return MIN_BLOCK_LENGTH;
        }
    }

    private static String blockName(final int type)
    {
        switch (type)
        {
            case SECTION_HEADER_BLOCK_TYPE:
                return "section header block";
            case INTERFACE_DESCRIPTION_BLOCK_TYPE:
                return "interface description block";
            case ENHANCED_PACKET_BLOCK_TYPE:
                return "enhanced packet block";
            case PACKET_BLOCK_TYPE:
                return "packet block";
            case SIMPLE_PACKET_BLOCK_TYPE:
                return "simple packet block";
            default:
                return "block of type 0x" + hex(type);
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

    /**
     * Where a classic pcap record header has its captured length: libpcap's reading of the versions before 2.4.
     */
    private enum LengthOrder
    {
        /** Captured length, then original length (2.4). */
        STANDARD,
        /** Original length first (2.0 to 2.2). */
        SWAPPED,
        /** Either (2.3): the smaller of the two is the captured length. */
        MAYBE_SWAPPED
    }
}
