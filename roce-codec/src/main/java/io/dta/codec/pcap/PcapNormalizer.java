package io.dta.codec.pcap;

import static io.dta.codec.pcap.PcapFormat.LINKTYPE_ETHERNET;
import static io.dta.codec.pcap.PcapFormat.MAX_CAPTURED_LENGTH;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Whole-file counterpart of {@link LinkLayerAdapter}, for consumers that hand a capture file to code that takes its
 * bytes as Ethernet whatever the link type (DPDK's {@code net_pcap}): tells whether a capture holds packets of
 * another link type (or packets longer than a snap length, which libpcap cuts), and writes an Ethernet copy of one,
 * frame for frame as {@link PcapReader} presents them.
 */
public final class PcapNormalizer
{
    private PcapNormalizer()
    {
    }

    /**
     * Whether a reader taking the file's bytes as Ethernet frames through libpcap would read some packet otherwise
     * than {@link PcapReader} presents it: any pcapng capture, and a classic capture with a packet that is not
     * Ethernet or whose captured length exceeds the file's snap length, which libpcap cuts to that snap length where
     * {@link PcapReader}, like Wireshark, reads it whole. libpcap's pcapng reader differs from {@link PcapReader} in
     * more ways than can be checked packet by packet (it cuts every packet to the first interface's snap length, even
     * when no packet is on that interface, and refuses interfaces of different link types, used or not), so a pcapng
     * capture is always copied: the copy costs time, a divergence would cost the replay. A classic capture is read
     * whole (up to the first such packet).
     *
     * @param capture classic pcap or pcapng file.
     * @return true if the capture is pcapng, or a packet of it has a link type other than Ethernet or is longer than
     * the snap length.
     * @throws PcapFormatException if the capture is corrupt or has a packet of an unsupported link type.
     * @throws IOException         if it cannot be read.
     */
    public static boolean needsNormalizing(final Path capture) throws IOException
    {
        try (PcapReader reader = PcapReader.open(capture))
        {
            if (reader.pcapng() || LINKTYPE_ETHERNET != reader.linkType())
            {
                return true;
            }
            final int snapLength = 0 == reader.snapLength() ? Integer.MAX_VALUE : reader.snapLength();
            while (reader.next())
            {
                if (reader.capturedLength() > snapLength)
                {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Write every packet of a capture, as the Ethernet frame {@link PcapReader} presents it, to a classic Ethernet
     * capture with the same timestamps. The copy always has nanosecond timestamps (magic a1b23c4d): that keeps the
     * nanoseconds of a nanosecond capture and loses nothing of a microsecond one, whatever the resolutions of the
     * interfaces of a pcapng capture. Its snap length is {@link PcapFormat#MAX_CAPTURED_LENGTH}; captured and
     * original lengths are both the frame's length. A capture cut short inside its last record
     * ({@link PcapReader#cutShort()}) is copied up to its last whole record: the copy is complete.
     *
     * @param in             classic pcap or pcapng capture of any supported link types.
     * @param out            file to create or replace.
     * @param destinationMac destination MAC of the frames made from non-Ethernet packets (see
     *                       {@link PcapReader#destinationMac(long)}).
     * @return the number of packets written.
     * @throws PcapFormatException if {@code in} is corrupt or has a packet of an unsupported link type, or a frame
     *                             does not fit a classic capture (longer than its snap length, or a pcapng timestamp
     *                             after 2106).
     * @throws IOException         if a file cannot be read or written.
     */
    public static long normalize(final Path in, final Path out, final long destinationMac) throws IOException
    {
        try (PcapReader reader = PcapReader.open(in).destinationMac(destinationMac);
            PcapWriter writer = new PcapWriter(out, true, MAX_CAPTURED_LENGTH, PcapWriter.DEFAULT_BUFFER_CAPACITY))
        {
            while (reader.next())
            {
                try
                {
                    writer.write(reader.timestampNanos(), reader.buffer(), reader.offset(), reader.capturedLength());
                }
                catch (final IllegalArgumentException ex)
                {
                    throw new PcapFormatException(reader.recordOffset(), "packet " + reader.packetIndex() +
                        " at byte offset " + reader.recordOffset() + " of " + in + " cannot be written to the " +
                        "Ethernet copy " + out + ": " + ex.getMessage());
                }
            }
            return writer.packetsWritten();
        }
    }
}
