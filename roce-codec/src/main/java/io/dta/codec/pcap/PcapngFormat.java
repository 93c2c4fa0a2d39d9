package io.dta.codec.pcap;

/**
 * Layout constants of the pcapng capture file format (draft-ietf-opsawg-pcapng), as far as {@link PcapReader} reads
 * it.
 * <p>
 * A file is a sequence of blocks, each {@code block type u32 | block total length u32 | body | block total length
 * u32}, the total length a multiple of 4 covering the whole block. A file holds one or more sections, each starting
 * with a Section Header Block whose byte-order magic gives the byte order of every block of the section; interface
 * ids count the Interface Description Blocks of the section from 0. Options are {@code code u16 | length u16 |
 * value} padded to 32 bits, ended by {@link #OPT_ENDOFOPT} or by the end of the block.
 * <pre>
 * SHB: type 0x0a0d0d0a | length | byte-order magic u32 | major u16 | minor u16 | section length s64 | options | length
 * IDB: type 1 | length | link type u16 | reserved u16 | snap length u32 | options | length
 * EPB: type 6 | length | interface id u32 | ts high u32 | ts low u32 | captured u32 | original u32 | data (padded)
 *      | options | length
 * SPB: type 3 | length | original u32 | data (padded) | length
 * PB:  type 2 | length | interface id u16 | drops u16 | ts high u32 | ts low u32 | captured u32 | original u32
 *      | data (padded) | options | length
 * </pre>
 */
public final class PcapngFormat
{
    /** Block type of a Section Header Block; a palindrome, so identical in both byte orders. */
    public static final int SECTION_HEADER_BLOCK_TYPE = 0x0A0D0D0A;

    /** Block type of an Interface Description Block. */
    public static final int INTERFACE_DESCRIPTION_BLOCK_TYPE = 0x0000_0001;

    /** Block type of the obsolete Packet Block. */
    public static final int PACKET_BLOCK_TYPE = 0x0000_0002;

    /** Block type of a Simple Packet Block. */
    public static final int SIMPLE_PACKET_BLOCK_TYPE = 0x0000_0003;

    /** Block type of a Name Resolution Block (skipped by the reader). */
    public static final int NAME_RESOLUTION_BLOCK_TYPE = 0x0000_0004;

    /** Block type of an Interface Statistics Block (skipped by the reader). */
    public static final int INTERFACE_STATISTICS_BLOCK_TYPE = 0x0000_0005;

    /** Block type of an Enhanced Packet Block. */
    public static final int ENHANCED_PACKET_BLOCK_TYPE = 0x0000_0006;

    /** Block type of a Decryption Secrets Block (skipped by the reader). */
    public static final int DECRYPTION_SECRETS_BLOCK_TYPE = 0x0000_000A;

    /** Block type of a Custom Block that may be copied (skipped by the reader). */
    public static final int CUSTOM_BLOCK_TYPE = 0x0000_0BAD;

    /** Block type of a Custom Block that must not be copied (skipped by the reader). */
    public static final int CUSTOM_BLOCK_NO_COPY_TYPE = 0x4000_0BAD;

    /** Byte-order magic of a Section Header Block, as read in the section's own byte order. */
    public static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;

    /** Supported major version of a section. */
    public static final int VERSION_MAJOR = 1;

    /** Offset of the block type (u32) in every block. */
    public static final int BLOCK_TYPE_OFFSET = 0;

    /** Offset of the leading block total length (u32) in every block. */
    public static final int BLOCK_TOTAL_LENGTH_OFFSET = 4;

    /** Length of the block type and leading total length. */
    public static final int BLOCK_HEADER_LENGTH = 8;

    /** Length of the trailing copy of the block total length. */
    public static final int BLOCK_TRAILER_LENGTH = 4;

    /** Smallest valid block: header and trailer with an empty body. */
    public static final int MIN_BLOCK_LENGTH = BLOCK_HEADER_LENGTH + BLOCK_TRAILER_LENGTH;

    /** Offset of the byte-order magic (u32) in a Section Header Block. */
    public static final int SHB_BYTE_ORDER_MAGIC_OFFSET = 8;

    /** Offset of the major version (u16) in a Section Header Block. */
    public static final int SHB_VERSION_MAJOR_OFFSET = 12;

    /** Offset of the minor version (u16) in a Section Header Block. */
    public static final int SHB_VERSION_MINOR_OFFSET = 14;

    /** Offset of the section length (s64, -1 when unknown) in a Section Header Block. */
    public static final int SHB_SECTION_LENGTH_OFFSET = 16;

    /** Smallest Section Header Block (no options). */
    public static final int SHB_MIN_LENGTH = 28;

    /** Offset of the link type (u16) in an Interface Description Block. */
    public static final int IDB_LINK_TYPE_OFFSET = 8;

    /** Offset of the snap length (u32, 0 for no limit) in an Interface Description Block. */
    public static final int IDB_SNAP_LENGTH_OFFSET = 12;

    /** Offset of the options in an Interface Description Block. */
    public static final int IDB_OPTIONS_OFFSET = 16;

    /** Smallest Interface Description Block (no options). */
    public static final int IDB_MIN_LENGTH = 20;

    /** Offset of the interface id (u32) in an Enhanced Packet Block. */
    public static final int EPB_INTERFACE_ID_OFFSET = 8;

    /** Offset of the upper 32 bits of the timestamp in an Enhanced Packet Block. */
    public static final int EPB_TIMESTAMP_HIGH_OFFSET = 12;

    /** Offset of the lower 32 bits of the timestamp in an Enhanced Packet Block. */
    public static final int EPB_TIMESTAMP_LOW_OFFSET = 16;

    /** Offset of the captured length (u32) in an Enhanced Packet Block. */
    public static final int EPB_CAPTURED_LENGTH_OFFSET = 20;

    /** Offset of the original length (u32) in an Enhanced Packet Block. */
    public static final int EPB_ORIGINAL_LENGTH_OFFSET = 24;

    /** Offset of the packet data in an Enhanced Packet Block. */
    public static final int EPB_DATA_OFFSET = 28;

    /** Smallest Enhanced Packet Block (no data, no options). */
    public static final int EPB_MIN_LENGTH = 32;

    /** Offset of the interface id (u16) in an obsolete Packet Block. */
    public static final int PB_INTERFACE_ID_OFFSET = 8;

    /** Offset of the drops count (u16) in an obsolete Packet Block. */
    public static final int PB_DROPS_COUNT_OFFSET = 10;

    /** Offset of the upper 32 bits of the timestamp in an obsolete Packet Block. */
    public static final int PB_TIMESTAMP_HIGH_OFFSET = 12;

    /** Offset of the lower 32 bits of the timestamp in an obsolete Packet Block. */
    public static final int PB_TIMESTAMP_LOW_OFFSET = 16;

    /** Offset of the captured length (u32) in an obsolete Packet Block. */
    public static final int PB_CAPTURED_LENGTH_OFFSET = 20;

    /** Offset of the original length (u32) in an obsolete Packet Block. */
    public static final int PB_ORIGINAL_LENGTH_OFFSET = 24;

    /** Offset of the packet data in an obsolete Packet Block. */
    public static final int PB_DATA_OFFSET = 28;

    /** Smallest obsolete Packet Block (no data, no options). */
    public static final int PB_MIN_LENGTH = 32;

    /** Offset of the original length (u32) in a Simple Packet Block. */
    public static final int SPB_ORIGINAL_LENGTH_OFFSET = 8;

    /** Offset of the packet data in a Simple Packet Block. */
    public static final int SPB_DATA_OFFSET = 12;

    /** Smallest Simple Packet Block (no data). */
    public static final int SPB_MIN_LENGTH = 16;

    /** Length of an option's code and length fields. */
    public static final int OPTION_HEADER_LENGTH = 4;

    /** Option code ending an option list. */
    public static final int OPT_ENDOFOPT = 0;

    /** Interface option: timestamp resolution (u8; top bit clear: 10^-n s, set: 2^-n s). */
    public static final int IF_TSRESOL = 9;

    /** Interface option: FCS length in bytes (u8) appended to every frame. */
    public static final int IF_FCSLEN = 13;

    /** Interface option: offset in seconds (s64) added to every timestamp of the interface. */
    public static final int IF_TSOFFSET = 14;

    /** Flag in {@link #IF_TSRESOL} selecting a power-of-two resolution. */
    public static final int TSRESOL_BASE2_FLAG = 0x80;

    /** Timestamp resolution of an interface without {@link #IF_TSRESOL}: 10^-6 s (microseconds). */
    public static final int DEFAULT_TSRESOL = 6;

    /**
     * Largest block the reader buffers whole (Interface Description and packet blocks): the classic captured length
     * cap {@link PcapFormat#MAX_CAPTURED_LENGTH} plus 64 KiB for fixed fields and options. Larger blocks of those
     * types are refused as corrupt; blocks the reader skips (Section Header options, name resolution, statistics,
     * custom, secrets...) may be of any length since they are streamed past.
     */
    public static final int MAX_BLOCK_LENGTH = PcapFormat.MAX_CAPTURED_LENGTH + 65536;

    /** Most Interface Description Blocks accepted in one section, to keep the reader's memory bounded. */
    public static final int MAX_INTERFACES = 65536;

    /**
     * Smallest total length of a block of this type.
     *
     * @param type block type.
     * @return its minimum total length: that of its fixed fields, or {@link #MIN_BLOCK_LENGTH}.
     */
    static int minimumLength(final int type)
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

    /**
     * Name of a block type, for messages.
     *
     * @param type block type.
     * @return e.g. "enhanced packet block", or "block of type 0x00000bad".
     */
    static String blockName(final int type)
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
                return "block of type 0x" + String.format("%08x", type);
        }
    }

    private PcapngFormat()
    {
    }
}
