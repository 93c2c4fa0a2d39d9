package io.dta.appliance.io;

import io.dta.codec.pcap.PcapFormatException;
import io.dta.codec.pcap.PcapReader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a capture through before a command changes anything with it (zero-fills a store, truncates an output): a
 * file that is no capture, or one damaged in its middle, is refused while everything that existed is still as it
 * was. Only a regular file can be read twice; an input that is not one (a FIFO, a pipe) is checked as it is read.
 */
public final class CaptureCheck
{
    private CaptureCheck()
    {
    }

    /**
     * @param capture a capture the command is about to read.
     * @throws PcapFormatException if it is no capture, or a record of it is damaged.
     * @throws IOException         if it cannot be read.
     */
    public static void readThrough(final Path capture) throws IOException
    {
        if (!Files.isRegularFile(capture))
        {
            return;
        }
        try (PcapReader reader = PcapReader.open(capture))
        {
            while (reader.next())
            {
                // Every record is parsed, whatever it holds.
            }
        }
    }
}
