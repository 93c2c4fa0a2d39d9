/**
 * Streaming reader and writer for classic libpcap capture files (not pcapng), Ethernet link type only.
 * <p>
 * <b>Supported input.</b> Magic {@code a1b2c3d4} (microsecond timestamps) and {@code a1b23c4d} (nanosecond
 * timestamps), in either byte order, version 2.4, link type 1 (Ethernet without FCS). Everything else is refused
 * with a {@link io.dta.codec.pcap.PcapFormatException} whose message names the file byte offset: other link types
 * (the message names the link type), other versions, the "modified" a1b2cd34 variant, and pcapng files (magic
 * {@code 0a0d0d0a}), for which the message explains how to convert: {@code editcap -F pcap in.pcapng out.pcap}.
 * <p>
 * <b>Reading.</b> {@link io.dta.codec.pcap.PcapReader} is a cursor: {@code next()} then accessors
 * ({@code timestampNanos()}, {@code capturedLength()}, {@code originalLength()}, {@code buffer()},
 * {@code offset()}, {@code packetIndex()}, {@code recordOffset()}). It streams through one reusable 4 MiB direct
 * buffer, so multi-gigabyte files need constant memory, and allocates nothing per packet. Packet bytes are exposed
 * in place through the same {@link org.agrona.concurrent.UnsafeBuffer} instance for every packet, wrapping a direct
 * {@link java.nio.ByteBuffer} ({@code buffer().byteBuffer()} is non-null, e.g. for {@code CRC32.update}); they are
 * valid only until the next {@code next()}. Timestamps are always reported in nanoseconds since the epoch.
 * <p>
 * <b>Error policy.</b> Every {@code next()} consumes a whole record, reports a clean end (only when the file ends
 * exactly on a record boundary), or throws; after an end or a failure it keeps returning false or rethrowing, so a
 * corrupt file can never hang a loop. Specifically refused, with the record's byte offset:
 * <ul>
 *     <li>a file or record cut short: {@code "truncated packet record at byte offset 1234: header says 90 captured
 *     bytes, 40 remain"}, {@code "truncated packet record header at byte offset ..."}, {@code "truncated global
 *     header at byte offset 0: ..."};</li>
 *     <li>a captured length above the hard sanity cap of 262144 bytes (libpcap's and Wireshark's own limit). A
 *     captured length above the file's snap length but within the cap is <em>tolerated</em>, as libpcap and
 *     Wireshark do, because some writers record a wrong snap length;</li>
 *     <li>a captured length greater than the original length: <em>refused</em>. No correct writer produces it, and
 *     it is the most reliable early sign of a corrupt or misaligned record header;</li>
 *     <li>a timestamp fraction of 1,000,000 or more microseconds (1,000,000,000 or more nanoseconds): refused as
 *     corrupt for the same reason.</li>
 * </ul>
 * <p>
 * <b>Writing.</b> {@link io.dta.codec.pcap.PcapWriter} writes little-endian files, microsecond resolution by default
 * for the widest tool compatibility (nanosecond on request), link type Ethernet, snap length 65535 by default. It
 * writes full packets and refuses longer ones with {@link java.lang.IllegalArgumentException}; it buffers through a
 * direct buffer and allocates nothing per packet. Output is checked against {@code tshark} and {@code editcap} in
 * the tests when they are installed.
 * <p>
 * Layout constants are in {@link io.dta.codec.pcap.PcapFormat}.
 */
package io.dta.codec.pcap;
