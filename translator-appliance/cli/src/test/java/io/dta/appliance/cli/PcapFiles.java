package io.dta.appliance.cli;

import io.dta.codec.pcap.PcapWriter;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes small captures for tests.
 */
final class PcapFiles
{
    private PcapFiles()
    {
    }

    static void write(final Path file, final byte[]... frames) throws IOException
    {
        try (PcapWriter writer = new PcapWriter(file))
        {
            long t = 1_700_000_000_000_000_000L;
            for (final byte[] frame : frames)
            {
                writer.write(t, new UnsafeBuffer(frame), 0, frame.length);
                t += 1000;
            }
        }
    }
}
