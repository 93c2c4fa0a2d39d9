package io.dta.codec.pcap;

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
import static io.dta.codec.pcap.PcapngFormat.SPB_ORIGINAL_LENGTH_OFFSET;
import static io.dta.codec.pcap.PcapngFormat.blockName;
import static io.dta.codec.pcap.PcapngFormat.minimumLength;

import java.io.IOException;
import java.nio.ByteOrder;

/**
 * {@link PcapReader} of a pcapng file: sections (each with its own byte order and interfaces), Interface Description
 * Blocks (link type, snap length, {@code if_tsresol}, {@code if_tsoffset}, {@code if_fcslen}) kept in a
 * {@link PcapngInterfaces} table, Enhanced, Simple and obsolete Packet Blocks; every other block type is streamed
 * past by its length, whatever that length. Each {@link #next()} consumes the blocks up to and including the next
 * packet block. A block header, or a block whose total length runs past the end of the file, ends the capture
 * ({@link #cutShort()}) unless the block length is already corrupt (below the minimum, not a multiple of 4, above
 * {@link PcapngFormat#MAX_BLOCK_LENGTH}) or the cut is inside the first Section Header Block, which is no capture
 * at all. A packet on an interface of an unsupported link type (or with an FCS) is refused when it is reached.
 * Obtained from {@link PcapReader#open(java.nio.file.Path)}.
 */
final class PcapngReader extends AbstractPcapReader
{
    private static final long MAX_OFFSET_SECONDS = Long.MAX_VALUE / NANOS_PER_SECOND;

    // Interfaces of the current section, indexed by interface id; grown (only) when a section defines more.
    private final PcapngInterfaces interfaces = new PcapngInterfaces();

    // Fields of the packet block being read (no allocation per packet).
    private long blockInterfaceId;
    private long blockUnits;
    private long blockCaptured;
    private long blockOriginal;
    private int blockDataOffset;

    // Options of the interface description block being read.
    private int optionTsresol;
    private int optionFcsLength;
    private long optionOffsetNanos;

    /**
     * Parse the first Section Header Block.
     *
     * @param stream of the file, at its start, whose first four bytes are the section header block type.
     * @throws PcapFormatException if the block is not a supported section header.
     * @throws IOException         if reading fails.
     */
    PcapngReader(final CaptureStream stream) throws IOException
    {
        super(stream);
        sectionHeader(0);
    }

    @Override
    public boolean pcapng()
    {
        return true;
    }

    /**
     * Consume pcapng blocks up to and including the next packet block. Each iteration consumes at least one whole
     * block of 12 bytes or more, or fails, so a corrupt file cannot loop.
     */
    @Override
    boolean advance() throws IOException
    {
        while (true)
        {
            if (!headerAvailable(BLOCK_HEADER_LENGTH, "block header"))
            {
                return false;
            }
            final long offset = stream.fileOffset();
            final int type = buffer.getInt(stream.readIndex() + BLOCK_TYPE_OFFSET, fileByteOrder);
            if (SECTION_HEADER_BLOCK_TYPE == type)
            {
                if (!sectionHeader(offset))
                {
                    return false;
                }
                continue;
            }

            final long length =
                buffer.getInt(stream.readIndex() + BLOCK_TOTAL_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
            switch (type)
            {
                case INTERFACE_DESCRIPTION_BLOCK_TYPE:
                    checkBlockLength(offset, type, length, IDB_MIN_LENGTH);
                    if (!readWholeBlock(offset, type, length))
                    {
                        return false;
                    }
                    interfaceDescription(offset, (int)length);
                    stream.consume((int)length);
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
     * Parse a Section Header Block at the read index: it sets the byte order of the section and forgets the
     * previous section's interfaces. Its options are not needed, so it is streamed past whatever its length.
     *
     * @return false if the file is cut short inside the block (never for the first one, which is refused instead).
     */
    private boolean sectionHeader(final long offset) throws IOException
    {
        final int available = stream.request(SHB_MIN_LENGTH);
        if (available < SHB_BYTE_ORDER_MAGIC_OFFSET + 4)
        {
            return truncatedSectionHeader(offset, available);
        }

        final int block = stream.readIndex();
        final int magic = buffer.getInt(block + SHB_BYTE_ORDER_MAGIC_OFFSET, ByteOrder.BIG_ENDIAN);
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

        final long length = buffer.getInt(block + BLOCK_TOTAL_LENGTH_OFFSET, order) & 0xFFFF_FFFFL;
        checkBlockLength(offset, SECTION_HEADER_BLOCK_TYPE, length, SHB_MIN_LENGTH);
        if (available < SHB_MIN_LENGTH)
        {
            return truncatedSectionHeader(offset, available);
        }

        final int major = buffer.getShort(block + SHB_VERSION_MAJOR_OFFSET, order) & 0xFFFF;
        final int minor = buffer.getShort(block + SHB_VERSION_MINOR_OFFSET, order) & 0xFFFF;
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

    /**
     * Define the next interface of the section from the Interface Description Block buffered whole at the read
     * index.
     */
    private void interfaceDescription(final long offset, final int length) throws PcapFormatException
    {
        if (MAX_INTERFACES == interfaces.count())
        {
            throw failure(offset, "more than " + MAX_INTERFACES + " interface description blocks in one section " +
                "at byte offset " + offset);
        }

        final int block = stream.readIndex();
        final int linkTypeField = buffer.getShort(block + IDB_LINK_TYPE_OFFSET, fileByteOrder) & 0xFFFF;
        final long snap = buffer.getInt(block + IDB_SNAP_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        optionTsresol = DEFAULT_TSRESOL;
        optionFcsLength = 0;
        optionOffsetNanos = 0;

        final int end = block + length - BLOCK_TRAILER_LENGTH;
        int position = block + IDB_OPTIONS_OFFSET;
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
            interfaceOption(offset, code, optionLength, value);
            position = value + ((optionLength + 3) & ~3);
        }

        interfaces.add(linkTypeField, snap, optionTsresol, optionFcsLength, optionOffsetNanos, offset);
    }

    /**
     * Read one option of an Interface Description Block: those of timestamps and FCS, checking their lengths.
     */
    private void interfaceOption(final long offset, final int code, final int optionLength, final int value)
        throws PcapFormatException
    {
        if (IF_TSRESOL == code || IF_FCSLEN == code)
        {
            if (1 != optionLength)
            {
                throw failure(offset, "option " + code + " of length " + optionLength + " (must be 1) in the " +
                    "interface description block at byte offset " + offset);
            }
            if (IF_TSRESOL == code)
            {
                optionTsresol = buffer.getByte(value) & 0xFF;
            }
            else
            {
                optionFcsLength = buffer.getByte(value) & 0xFF;
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
            optionOffsetNanos = seconds * NANOS_PER_SECOND;
        }
    }

    /**
     * Validate the packet block buffered whole at the read index, make it current and consume it.
     */
    private void packetBlock(final long offset, final int type, final int length) throws PcapFormatException
    {
        if (SIMPLE_PACKET_BLOCK_TYPE == type)
        {
            simplePacketFields(offset);
        }
        else
        {
            packetFields(type);
            if (blockInterfaceId >= interfaces.count())
            {
                throw failure(offset, "unknown interface id " + blockInterfaceId + " in the " + blockName(type) +
                    " at byte offset " + offset + ": the section defines " + interfaces.count() + " interface(s)");
            }
        }

        final int id = (int)blockInterfaceId;
        snapLength = interfaces.snapLength(id);
        checkLengths(offset, blockCaptured, blockOriginal);
        // Fixed fields, data and trailer must fit the block; the data is padded to 32 bits, which the multiple-of-4
        // total length and fixed part already guarantee once this holds.
        final int room = length - blockDataOffset - BLOCK_TRAILER_LENGTH;
        if (blockCaptured > room)
        {
            throw failure(offset, "captured length " + blockCaptured + " exceeds the room of " + room +
                " bytes in the " + blockName(type) + " at byte offset " + offset);
        }
        checkInterfaceLinkType(offset, type, id);

        final int tsresol = interfaces.tsresol(id);
        final long nanos = SIMPLE_PACKET_BLOCK_TYPE == type ? 0 : timestampNanos(offset, id, tsresol);
        linkType = interfaces.linkType(id);
        nanosecondResolution = PcapngInterfaces.nanosecondOrFiner(tsresol);
        final int dataIndex = stream.readIndex() + blockDataOffset;
        stream.consume(length);
        present(offset, nanos, blockCaptured, blockOriginal, dataIndex);
    }

    /**
     * The fields of a Simple Packet Block: interface 0, no timestamp, the captured length cut to its snap length.
     */
    private void simplePacketFields(final long offset) throws PcapFormatException
    {
        blockInterfaceId = 0;
        blockOriginal = buffer.getInt(stream.readIndex() + SPB_ORIGINAL_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
        blockUnits = 0;
        blockDataOffset = SPB_DATA_OFFSET;
        if (0 == interfaces.count())
        {
            throw failure(offset, "simple packet block at byte offset " + offset + " refers to interface 0 " +
                "but the section defines no interface");
        }
        final long snap = interfaces.snapLength(0);
        blockCaptured = 0 == snap ? blockOriginal : Math.min(blockOriginal, snap);
    }

    /**
     * The fields of an Enhanced Packet Block or of an obsolete Packet Block.
     */
    private void packetFields(final int type)
    {
        final int block = stream.readIndex();
        if (ENHANCED_PACKET_BLOCK_TYPE == type)
        {
            blockInterfaceId = buffer.getInt(block + EPB_INTERFACE_ID_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
            blockUnits = unsigned64(block + EPB_TIMESTAMP_HIGH_OFFSET, block + EPB_TIMESTAMP_LOW_OFFSET);
            blockCaptured = buffer.getInt(block + EPB_CAPTURED_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
            blockOriginal = buffer.getInt(block + EPB_ORIGINAL_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
            blockDataOffset = EPB_DATA_OFFSET;
        }
        else
        {
            blockInterfaceId = buffer.getShort(block + PB_INTERFACE_ID_OFFSET, fileByteOrder) & 0xFFFF;
            blockUnits = unsigned64(block + PB_TIMESTAMP_HIGH_OFFSET, block + PB_TIMESTAMP_LOW_OFFSET);
            blockCaptured = buffer.getInt(block + PB_CAPTURED_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
            blockOriginal = buffer.getInt(block + PB_ORIGINAL_LENGTH_OFFSET, fileByteOrder) & 0xFFFF_FFFFL;
            blockDataOffset = PB_DATA_OFFSET;
        }
    }

    private long unsigned64(final int highIndex, final int lowIndex)
    {
        return (buffer.getInt(highIndex, fileByteOrder) & 0xFFFF_FFFFL) << 32 |
            (buffer.getInt(lowIndex, fileByteOrder) & 0xFFFF_FFFFL);
    }

    private void checkInterfaceLinkType(final long offset, final int type, final int id) throws PcapFormatException
    {
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
    }

    /**
     * The block's timestamp in nanoseconds since the epoch, with the interface's offset; refused out of range.
     */
    private long timestampNanos(final long offset, final int id, final int tsresol) throws PcapFormatException
    {
        final long nanos = PcapngInterfaces.unitsToNanos(blockUnits, tsresol);
        final long offsetNanos = interfaces.offsetNanos(id);
        if (nanos < 0 || (offsetNanos > 0 && nanos > Long.MAX_VALUE - offsetNanos) || nanos + offsetNanos < 0)
        {
            throw failure(offset, "timestamp " + Long.toUnsignedString(blockUnits) + " (if_tsresol 0x" +
                Integer.toHexString(tsresol) + ", if_tsoffset " + offsetNanos / NANOS_PER_SECOND +
                " s) out of the range of nanoseconds since the epoch at byte offset " + offset);
        }
        return nanos + offsetNanos;
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
     * Make the whole block at the read index present in the buffer and check its trailing length.
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
        if (stream.request(length) < length)
        {
            return cutShort(offset, blockName(type), stream.available());
        }
        final int trailer = stream.readIndex() + (int)length - BLOCK_TRAILER_LENGTH;
        checkTrailer(offset, length, buffer.getInt(trailer, fileByteOrder));
        return true;
    }

    /**
     * Stream past the block at the read index, of any length, in constant memory, and check its trailing length.
     *
     * @return false if the file is cut short inside the block.
     */
    private boolean skipBlock(final long offset, final int type, final long length) throws IOException
    {
        final long body = length - BLOCK_TRAILER_LENGTH;
        long remaining = body;
        while (remaining > 0)
        {
            if (0 == stream.request(1))
            {
                return skippedPastEnd(offset, type, length, body - remaining);
            }
            final int step = (int)Math.min(remaining, stream.available());
            stream.consume(step);
            remaining -= step;
        }

        if (stream.request(BLOCK_TRAILER_LENGTH) < BLOCK_TRAILER_LENGTH)
        {
            return skippedPastEnd(offset, type, length, body + stream.available());
        }
        checkTrailer(offset, length, buffer.getInt(stream.readIndex(), fileByteOrder));
        stream.consume(BLOCK_TRAILER_LENGTH);
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
}
