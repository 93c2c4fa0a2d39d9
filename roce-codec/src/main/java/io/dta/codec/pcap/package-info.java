/**
 * Streaming reader for classic libpcap and pcapng capture files, presenting every packet as an Ethernet frame, and
 * writer for classic libpcap Ethernet files.
 * <p>
 * <b>Supported input.</b> The format is detected from the first four bytes, transparently for callers.
 * <ul>
 *     <li>Classic pcap: magic {@code a1b2c3d4} (microsecond timestamps) and {@code a1b23c4d} (nanosecond
 *     timestamps), in either byte order, version 2.4, of a supported link type (below). Other link types (the
 *     message names the link type and lists the supported ones), other versions and the "modified" a1b2cd34
 *     variant are refused.</li>
 *     <li>pcapng (block type {@code 0a0d0d0a}, draft-ietf-opsawg-pcapng), as written by dumpcap, tshark, Wireshark
 *     and editcap: any number of sections, each in its own byte order with its own Interface Description Blocks
 *     (link type, snap length, {@code if_tsresol} in base 10 or 2 with microseconds by default, {@code if_tsoffset});
 *     Enhanced Packet Blocks, Simple Packet Blocks (no timestamp: reported as 0) and the obsolete Packet Block. Every
 *     other block (name resolution, interface statistics, decryption secrets, custom...) is skipped by its length,
 *     streamed past whatever its size. The interfaces of a section may have different link types. A packet on an
 *     interface whose link type is not supported, or which declares an FCS ({@code if_fcslen}), is refused naming
 *     the link type, the interface and the block.</li>
 * </ul>
 * <b>Link types.</b> 1 (Ethernet without FCS) is read in place. 113 and 276 (Linux cooked SLL and SLL2, from
 * {@code tcpdump -i any}) and 101 and 228 (raw IP and IPv4, e.g. from scapy) are presented as Ethernet frames by
 * {@link io.dta.codec.pcap.LinkLayerAdapter}, which documents the mapping (synthesized MACs, EtherType, VLAN tags,
 * truncated cooked headers); {@link io.dta.codec.pcap.PcapNormalizer} writes an Ethernet copy of such a capture for
 * consumers of the file itself (DPDK's {@code net_pcap}).
 * Anything else is refused with a {@link io.dta.codec.pcap.PcapFormatException} whose message names the file byte
 * offset of the header, record or block at fault.
 * <p>
 * <b>Reading.</b> {@link io.dta.codec.pcap.PcapReader#open(java.nio.file.Path)} sniffs the format and returns a
 * cursor (a classic or a pcapng reader over one buffered file): {@code next()} then accessors
 * ({@code timestampNanos()}, {@code capturedLength()}, {@code originalLength()}, {@code buffer()},
 * {@code offset()}, {@code packetIndex()}, {@code recordOffset()}). It streams through one reusable 4 MiB direct
 * buffer, so multi-gigabyte files need constant memory, and allocates nothing per packet. Packet bytes are exposed
 * in place through the same {@link org.agrona.concurrent.UnsafeBuffer} instance for every packet, wrapping a direct
 * {@link java.nio.ByteBuffer} ({@code buffer().byteBuffer()} is non-null, e.g. for {@code CRC32.update}); they are
 * valid only until the next {@code next()}. Timestamps are always reported in nanoseconds since the epoch (pcapng:
 * converted from the interface's resolution, rounded down when finer, plus its offset). For pcapng,
 * {@code linkType()}, {@code snapLength()} and {@code nanosecondResolution()} describe the current packet's interface
 * and {@code fileByteOrder()} the current section. Memory is allocated per pcapng interface only, never per packet.
 * <p>
 * <b>Error policy.</b> Every {@code next()} consumes a whole record (pcapng: the blocks up to and including the next
 * packet block), reports the end of the file, or throws; after an end or a failure it keeps returning false or
 * rethrowing, so a corrupt file can never hang a loop.
 * <p>
 * <b>A capture cut short</b> (copied while tcpdump was still writing it, or tcpdump killed mid-write) ends inside
 * its last record: its header, its data, or (pcapng) a block header or a block whose total length runs past the end
 * of the file. It is read as tshark reads it: every whole record, then {@code next()} returns false as at a clean
 * end, and {@code cutShort()}, {@code cutShortAt()} (the byte offset of the incomplete record) and
 * {@code cutShortWarning()} tell the caller, who warns. What such a cut cannot explain stays refused: a last record
 * whose header is already corrupt (any of the checks below, or a classic captured length above a non-zero snap
 * length), a skipped pcapng block of absurd length (above {@code PcapngFormat.MAX_BLOCK_LENGTH}), and a file cut
 * inside its global header or first Section Header Block.
 * <p>
 * Specifically refused, with the record's or block's byte offset:
 * <ul>
 *     <li>a file cut inside its global header or first section header: {@code "truncated global header at byte
 *     offset 0: ..."}, {@code "truncated section header block at byte offset 0: ..."};</li>
 *     <li>a captured length above the hard sanity cap of 262144 bytes (libpcap's and Wireshark's own limit). A
 *     captured length above the snap length but within the cap is <em>tolerated</em>, as libpcap and Wireshark do,
 *     because some writers record a wrong snap length. A pcapng packet or interface block longer than
 *     {@code PcapngFormat.MAX_BLOCK_LENGTH} (the cap plus 64 KiB for options) is refused likewise;</li>
 *     <li>a captured length greater than the original length: <em>refused</em>. No correct writer produces it, and
 *     it is the most reliable early sign of a corrupt or misaligned record header;</li>
 *     <li>a classic timestamp fraction of 1,000,000 or more microseconds (1,000,000,000 or more nanoseconds), or a
 *     pcapng timestamp that does not fit 0 to {@code Long.MAX_VALUE} nanoseconds since the epoch once converted and
 *     offset: refused as corrupt for the same reason;</li>
 *     <li>pcapng only: block total lengths below 12 (or the block type's minimum), not a multiple of 4, or different
 *     at the two ends of the block; a captured length that does not fit in its block; an interface id the section
 *     has not defined; a byte-order magic other than 1a2b3c4d in either order; a major version other than 1; an
 *     interface option overrunning its block or of the wrong length.</li>
 * </ul>
 * <p>
 * <b>Writing.</b> {@link io.dta.codec.pcap.PcapWriter} writes little-endian files, microsecond resolution by default
 * for the widest tool compatibility (nanosecond on request), link type Ethernet, snap length 65535 by default. It
 * writes full packets and refuses longer ones with {@link java.lang.IllegalArgumentException}; it buffers through a
 * direct buffer and allocates nothing per packet. Output is checked against {@code tshark} and {@code editcap} in
 * the tests when they are installed.
 * <p>
 * Layout constants are in {@link io.dta.codec.pcap.PcapFormat} and {@link io.dta.codec.pcap.PcapngFormat}.
 */
package io.dta.codec.pcap;
