package io.dta.appliance.replay;

import io.dta.codec.pcap.PcapReader;

import java.nio.file.Path;
import java.util.List;

/**
 * An input capture of a replay that ends inside a record ({@link PcapReader#cutShort()}): every whole record before
 * the cut was translated, and the run finished normally.
 *
 * @param input        which input it is: {@code "in"} (the reports) or {@code "responses"}, as the options name them.
 * @param file         the capture, as given.
 * @param offset       file byte offset of the incomplete record.
 * @param wholePackets number of whole packets read before it.
 */
public record CutShortCapture(String input, Path file, long offset, long wholePackets)
{
    /** Input name of the capture of reports. */
    public static final String IN = "in";

    /** Input name of the capture of collector responses. */
    public static final String RESPONSES = "responses";

    /**
     * Adds the cut of a reader that has ended, if it was cut short.
     *
     * @param cuts   where the cut goes.
     * @param input  {@link #IN} or {@link #RESPONSES}.
     * @param file   the capture as given (the reader may read a copy of it).
     * @param reader the reader, after its last {@link PcapReader#next()}.
     */
    public static void addIfCut(
        final List<CutShortCapture> cuts, final String input, final Path file, final PcapReader reader)
    {
        if (reader.cutShort())
        {
            cuts.add(new CutShortCapture(input, file, reader.cutShortAt(), reader.packetIndex() + 1));
        }
    }

    /**
     * One warning line, in the words of tshark's.
     *
     * @return e.g. {@code "--in r.pcap appears to have been cut short in the middle of a packet at byte offset 1234
     * (the 7 whole packets before it were translated)"}.
     */
    public String warning()
    {
        return "--" + input + " " + file + " appears to have been cut short in the middle of a packet at byte offset " +
            offset + " (the " + wholePackets + " whole packet" + (1 == wholePackets ? " before it was" :
            "s before it were") + " translated)";
    }
}
