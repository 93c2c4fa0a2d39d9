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
     * than {@link PcapReader} presents it: a packet that is not Ethernet, or one whose captured length exceeds the
     * snap length of its file (classic) or of an interface (pcapng), which libpcap cuts to that snap length where
     * {@link PcapReader}, like Wireshark, reads it whole. The whole capture is read (up to the first such packet).
     *
     * @param capture classic pcap or pcapng file.
     * @return true if a packet of the capture has a link type other than Ethernet or is longer than a snap length.
     * @throws PcapFormatException if the capture is corrupt or has a packet of an unsupported link type.
     * @throws IOException         if it cannot be read.
     */
    public static boolean needsNormalizing(final Path capture) throws IOException
    {
        try (PcapReader reader = new PcapReader(capture))
        {
            if (!reader.pcapng() && LINKTYPE_ETHERNET != reader.linkType())
            {
                return true;
            }
            // libpcap's pcapng reader cuts to a snap length that is not always the packet's own interface's: the
            // smallest one seen so far is the safe bound (a needless copy costs only time).
            long smallestSnapLength = Long.MAX_VALUE;
            while (reader.next())
            {
                if (0 != reader.snapLength())
                {
                    smallestSnapLength = Math.min(smallestSnapLength, reader.snapLength());
                }
                if (LINKTYPE_ETHERNET != reader.linkType() || reader.capturedLength() > smallestSnapLength)
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
        try (PcapReader reader = new PcapReader(in).destinationMac(destinationMac);
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
