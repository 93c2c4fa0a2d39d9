package io.dta.codec.pcap;

/**
 * Layout constants of the classic libpcap file format; pcapng's are in {@link PcapngFormat}.
 * <p>
 * A file is a 24-byte global header followed by records, each a 16-byte record header and the captured bytes.
 * All header fields are written in the byte order of the writing host; readers detect it from the magic number.
 * <pre>
 * global header: magic u32 | version_major u16 | version_minor u16 | thiszone s32 | sigfigs u32 |
 *                snaplen u32 | network (link type) u32
 * record header: ts_sec u32 | ts_usec_or_nsec u32 | incl_len u32 | orig_len u32
 * </pre>
 */
public final class PcapFormat
{
    /** Magic number of microsecond-resolution files, as read in the file's own byte order. */
    public static final int MAGIC_MICROSECONDS = 0xA1B2C3D4;

    /** Magic number of nanosecond-resolution files, as read in the file's own byte order. */
    public static final int MAGIC_NANOSECONDS = 0xA1B23C4D;

    /** Magic of the unsupported "modified" (Kuznetzov) pcap variant with 24-byte record headers. */
    public static final int MAGIC_MODIFIED = 0xA1B2CD34;

    /** Supported major version. */
    public static final int VERSION_MAJOR = 2;

    /** Supported minor version. */
    public static final int VERSION_MINOR = 4;

    /** LINKTYPE_ETHERNET: Ethernet frames without FCS, read as they are and the only link type written. */
    public static final int LINKTYPE_ETHERNET = 1;

    /** LINKTYPE_RAW: raw IPv4 or IPv6 packets, read as Ethernet frames through {@link LinkLayerAdapter}. */
    public static final int LINKTYPE_RAW = 101;

    /** LINKTYPE_LINUX_SLL: Linux cooked capture, read as Ethernet frames through {@link LinkLayerAdapter}. */
    public static final int LINKTYPE_LINUX_SLL = 113;

    /** LINKTYPE_IPV4: raw IPv4 packets, read as Ethernet frames through {@link LinkLayerAdapter}. */
    public static final int LINKTYPE_IPV4 = 228;

    /** LINKTYPE_LINUX_SLL2: Linux cooked capture v2, read as Ethernet frames through {@link LinkLayerAdapter}. */
    public static final int LINKTYPE_LINUX_SLL2 = 276;

    /** Default snap length written by {@link PcapWriter}. */
    public static final int DEFAULT_SNAP_LENGTH = 65535;

    /**
     * Hard sanity cap on a record's captured length, whatever the file's snap length says. Equal to libpcap's
     * and Wireshark's maximum snap length, so any larger value means a corrupt or misaligned record.
     */
    public static final int MAX_CAPTURED_LENGTH = 262144;

    /** Length of the global file header. */
    public static final int GLOBAL_HEADER_LENGTH = 24;

    /** Offset of the magic number in the global header. */
    public static final int MAGIC_OFFSET = 0;

    /** Offset of the major version (u16) in the global header. */
    public static final int VERSION_MAJOR_OFFSET = 4;

    /** Offset of the minor version (u16) in the global header. */
    public static final int VERSION_MINOR_OFFSET = 6;

    /** Offset of the time zone correction (s32, always 0 in practice) in the global header. */
    public static final int THISZONE_OFFSET = 8;

    /** Offset of the timestamp accuracy (u32, always 0 in practice) in the global header. */
    public static final int SIGFIGS_OFFSET = 12;

    /** Offset of the snap length (u32) in the global header. */
    public static final int SNAPLEN_OFFSET = 16;

    /** Offset of the link type (u32) in the global header. */
    public static final int NETWORK_OFFSET = 20;

    /** Length of a record header. */
    public static final int RECORD_HEADER_LENGTH = 16;

    /** Offset of the timestamp seconds (u32) in a record header. */
    public static final int TS_SEC_OFFSET = 0;

    /** Offset of the timestamp fraction (u32, micro- or nanoseconds) in a record header. */
    public static final int TS_FRACTION_OFFSET = 4;

    /** Offset of the captured length (u32) in a record header. */
    public static final int INCL_LEN_OFFSET = 8;

    /** Offset of the original (on-the-wire) length (u32) in a record header. */
    public static final int ORIG_LEN_OFFSET = 12;

    /** Largest timestamp, in nanoseconds since the epoch, that fits the unsigned 32-bit seconds field. */
    public static final long MAX_TIMESTAMP_NANOS = 0xFFFF_FFFFL * 1_000_000_000L + 999_999_999L;

    private PcapFormat()
    {
    }
}
