package io.dta.appliance.cli;

import io.dta.appliance.engine.worker.RssSpreader;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a capture of reports as a NIC's RSS would give them to a port's queues ({@link RssSpreader}), one capture per
 * queue: virtual devices have no RSS, and {@code net_pcap} fills rx queue i from its i-th {@code rx_pcap=} file.
 */
final class RssSplit
{
    private RssSplit()
    {
    }

    /**
     * @param capture the reports.
     * @param queues  the queues.
     * @param prefix  the parts are {@code PREFIXi.pcap}, i from 0.
     * @return the parts, queue 0's first.
     * @throws IOException when a capture cannot be read or written.
     */
    static List<Path> split(final Path capture, final int queues, final Path prefix) throws IOException
    {
        final RssSpreader rss = new RssSpreader(queues);
        final List<Path> parts = new ArrayList<>();
        final PcapWriter[] writers = new PcapWriter[queues];
        try (PcapReader in = PcapReader.open(capture))
        {
            for (int q = 0; q < queues; q++)
            {
                parts.add(prefix.resolveSibling(prefix.getFileName() + Integer.toString(q) + ".pcap"));
                writers[q] = new PcapWriter(parts.get(q));
            }
            long t = 0;
            while (in.next())
            {
                writers[rss.workerOf(in.buffer(), in.offset(), in.capturedLength())]
                    .write(t += 1000, in.buffer(), in.offset(), in.capturedLength());
            }
        }
        finally
        {
            for (final PcapWriter w : writers)
            {
                if (null != w)
                {
                    w.close();
                }
            }
        }
        return parts;
    }

    /**
     * @param capture a capture.
     * @return its frames.
     */
    static long count(final Path capture)
    {
        try (PcapReader in = PcapReader.open(capture))
        {
            long n = 0;
            while (in.next())
            {
                n++;
            }
            return n;
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
