package io.dta.codec.pcap;

import static io.dta.codec.pcap.PcapFormat.GLOBAL_HEADER_LENGTH;
import static io.dta.codec.pcap.PcapFormat.MAGIC_MICROSECONDS;
import static io.dta.codec.pcap.PcapFormat.MAGIC_NANOSECONDS;
import static io.dta.codec.pcap.PcapFormat.MAX_CAPTURED_LENGTH;
import static io.dta.codec.pcap.PcapFormat.RECORD_HEADER_LENGTH;
import static io.dta.codec.pcap.PcapngFormat.MAX_BLOCK_LENGTH;
import static io.dta.codec.pcap.PcapngFormat.SECTION_HEADER_BLOCK_TYPE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Streaming, zero-allocation-per-packet cursor over a classic libpcap or a pcapng file that presents every packet as
 * an Ethernet frame; {@link #open(Path)} detects the format from the first four bytes and returns a
 * {@code ClassicPcapReader} or a {@code PcapngReader}, whose API is this one.
 * <p>
 * The file is read through one large reusable direct {@link ByteBuffer} (4 MiB by default) which is compacted and
 * refilled as the cursor advances, so files of any size stream in constant memory. Usage:
 * <pre>{@code
 * try (PcapReader reader = PcapReader.open(path))
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
 * {@link LinkLayerAdapter} for the mapping, and {@link #destinationMac(long)}, a setting of the reader's
 * {@link #linkLayer()}). {@link #linkType()} tells which
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
public interface PcapReader extends AutoCloseable
{
    /** Default capacity of the read buffer. */
    int DEFAULT_BUFFER_CAPACITY = 4 * 1024 * 1024;

    /**
     * Smallest read buffer capacity accepted: one classic record of the largest allowed captured length or one
     * pcapng block of {@link PcapngFormat#MAX_BLOCK_LENGTH}, whichever is larger.
     */
    int MIN_BUFFER_CAPACITY = Math.max(RECORD_HEADER_LENGTH + MAX_CAPTURED_LENGTH, MAX_BLOCK_LENGTH);

    /**
     * Open a pcap or pcapng file with the default 4 MiB read buffer and parse its global header (pcapng: its first
     * Section Header Block).
     *
     * @param path of the file.
     * @return a reader of the file's format, before its first packet.
     * @throws PcapFormatException if the file is not a supported classic pcap or pcapng capture.
     * @throws IOException         if the file cannot be opened or read.
     */
    static PcapReader open(final Path path) throws IOException
    {
        return open(path, DEFAULT_BUFFER_CAPACITY);
    }

    /**
     * Open a pcap or pcapng file and parse its global header (pcapng: its first Section Header Block).
     *
     * @param path           of the file.
     * @param bufferCapacity of the reusable read buffer, at least {@link #MIN_BUFFER_CAPACITY} (a scratch area for
     *                       the frames of non-Ethernet packets is added to it).
     * @return a reader of the file's format, before its first packet.
     * @throws PcapFormatException if the file is not a supported classic pcap or pcapng capture.
     * @throws IOException         if the file cannot be opened or read.
     */
    static PcapReader open(final Path path, final int bufferCapacity) throws IOException
    {
        if (bufferCapacity < MIN_BUFFER_CAPACITY)
        {
            throw new IllegalArgumentException(
                "bufferCapacity " + bufferCapacity + " is below the minimum " + MIN_BUFFER_CAPACITY);
        }

        final CaptureStream stream = new CaptureStream(path, bufferCapacity);
        try
        {
            final int available = stream.request(4);
            if (available < 4)
            {
                throw new PcapFormatException(0, "truncated global header at byte offset 0: need " +
                    GLOBAL_HEADER_LENGTH + " bytes, " + available + " present (" + path + ")");
            }

            final int magicBigEndian = stream.buffer().getInt(stream.readIndex(), ByteOrder.BIG_ENDIAN);
            return SECTION_HEADER_BLOCK_TYPE == magicBigEndian ?
                new PcapngReader(stream) : new ClassicPcapReader(stream, magicBigEndian);
        }
        catch (final IOException | RuntimeException ex)
        {
            stream.closeQuietly();
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
    static boolean isPcap(final Path path) throws IOException
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
    boolean next() throws IOException;

    /**
     * Whether the file ended inside a record (pcapng: inside a block): {@link #next()} has returned false after the
     * last whole record, as at a clean end, and {@link #cutShortAt()} tells where the incomplete record starts.
     *
     * @return true once {@link #next()} has met the end of the file inside a record.
     */
    boolean cutShort();

    /**
     * File byte offset of the incomplete record the file ends inside (classic: of its record header; pcapng: of its
     * block), -1 unless {@link #cutShort()}.
     *
     * @return file byte offset of the record cut short, or -1.
     */
    long cutShortAt();

    /**
     * One line for a warning about a capture cut short, in the words of tshark's, naming the file, the offset and
     * the number of whole packets read.
     *
     * @return e.g. {@code "in.pcap appears to have been cut short in the middle of a packet at byte offset 1234 (the
     * 7 whole packets before it were read)"}, or null unless {@link #cutShort()}.
     */
    String cutShortWarning();

    /**
     * Timestamp of the current packet in nanoseconds since the epoch, converted from the file's or interface's
     * resolution (rounded down when finer than a nanosecond) and including the interface's {@code if_tsoffset}.
     * Always 0 for a pcapng Simple Packet Block, which carries no timestamp.
     *
     * @return timestamp of the current packet in nanoseconds since the epoch.
     */
    long timestampNanos();

    /**
     * Number of bytes of the current packet's frame: the bytes present in the file for the current record, adjusted
     * for a non-Ethernet link type by {@link LinkLayerAdapter#frameLength(int, long)} (0 when the record is shorter
     * than its cooked header).
     *
     * @return captured length of the current packet's frame.
     */
    int capturedLength();

    /**
     * Length of the current packet on the wire, at least {@link #capturedLength()}, adjusted for a non-Ethernet link
     * type as {@link #capturedLength()} is; values above {@link Integer#MAX_VALUE} are clamped.
     *
     * @return original length of the current packet's frame.
     */
    int originalLength();

    /**
     * The buffer holding the current packet's Ethernet frame (in place for an Ethernet packet); always the same
     * instance, wrapping a direct ByteBuffer. Contents are valid until the next call to {@link #next()} or
     * {@link #close()}.
     *
     * @return the buffer holding the current packet.
     */
    DirectBuffer buffer();

    /**
     * Index in {@link #buffer()} of the first byte of the current packet.
     *
     * @return index of the current packet in {@link #buffer()}.
     */
    int offset();

    /**
     * Zero-based index of the current packet in the file, -1 before the first call to {@link #next()}.
     *
     * @return index of the current packet.
     */
    long packetIndex();

    /**
     * File byte offset of the current record's header (pcapng: of the current packet block), -1 before the first
     * call to {@link #next()}.
     *
     * @return file byte offset of the current record.
     */
    long recordOffset();

    /**
     * Whether timestamps are stored in nanoseconds or finer: a classic file with magic a1b23c4d, or a pcapng packet
     * whose interface's {@code if_tsresol} is 10^-9 s or finer (including 2^-30 s and finer).
     *
     * @return true for nanosecond (or finer) resolution.
     */
    boolean nanosecondResolution();

    /**
     * Snap length declared by the global header (pcapng: by the current packet's interface, 0 meaning no limit),
     * clamped to {@link Integer#MAX_VALUE}.
     *
     * @return snap length of the file or of the current packet's interface.
     */
    int snapLength();

    /**
     * Byte order of the file's headers (pcapng: of the current section), as detected from the magic number.
     *
     * @return byte order of the file or current section.
     */
    ByteOrder fileByteOrder();

    /**
     * Link type of the file (pcapng: of the current packet's interface, {@link PcapFormat#LINKTYPE_ETHERNET} before
     * the first packet): one that {@link LinkLayerAdapter#isSupported(int)} accepts. Whatever it is, the packet is
     * exposed as an Ethernet frame.
     *
     * @return link type of the file or of the current packet's interface.
     */
    int linkType();

    /**
     * The adapter that presents packets of a non-Ethernet link type as Ethernet frames; its settings (the
     * destination MAC) take effect from the next packet.
     *
     * @return this reader's adapter.
     */
    LinkLayerAdapter linkLayer();

    /**
     * Destination MAC of the Ethernet header synthesized for packets of a non-Ethernet link type.
     *
     * @return the destination MAC in the low 48 bits, {@link LinkLayerAdapter#DEFAULT_DESTINATION_MAC} unless set.
     */
    default long destinationMac()
    {
        return linkLayer().destinationMac();
    }

    /**
     * Set the destination MAC of the Ethernet header synthesized for packets of a non-Ethernet link type; readers
     * of report captures give the appliance's own MAC ({@code translator.mac}). Takes effect from the next packet.
     *
     * @param mac destination MAC in the low 48 bits.
     * @return this.
     */
    default PcapReader destinationMac(final long mac)
    {
        linkLayer().destinationMac(mac);
        return this;
    }

    /**
     * Whether the file is pcapng rather than classic pcap.
     *
     * @return true for a pcapng file.
     */
    boolean pcapng();

    /**
     * Path of the file being read.
     *
     * @return path of the file.
     */
    Path path();

    /**
     * Close the file and release the read buffer. {@link #buffer()} is re-pointed at an empty array first, so a
     * stale access fails with a bounds error instead of touching freed memory. Idempotent.
     *
     * @throws IOException if closing the file fails.
     */
    @Override
    void close() throws IOException;
}
