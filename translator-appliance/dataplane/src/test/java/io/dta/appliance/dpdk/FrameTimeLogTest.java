package io.dta.appliance.dpdk;

import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The re-stamping of the DPDK replay's output ({@link FrameTimeLog#restamp(Path)}), without an EAL.
 */
class FrameTimeLogTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRestampWithTheRecordedTimesAndKeepTheCapturesPermissions() throws Exception
    {
        final Path capture = dir.resolve("out.pcap");
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[60]);
        try (PcapWriter writer = new PcapWriter(capture, false))
        {
            for (int i = 0; i < 3; i++)
            {
                frame.putByte(0, (byte)i);
                writer.write(1_000_000_000L * (50 + i), frame, 0, 60);
            }
        }
        // As net_pcap's tx_pcap leaves it under umask 022 (or as an earlier file of that name was): the rewritten
        // capture is read by others as the Java replay's is (it came out 0600, from its temporary file).
        for (final String permissions : new String[] { "rw-r--r--", "rw-rw-r--" })
        {
            Files.setPosixFilePermissions(capture, PosixFilePermissions.fromString(permissions));
            try (FrameTimeLog times = new FrameTimeLog(dir))
            {
                times.record(7);
                times.record(8_000_000_001L);
                times.record(8_000_000_001L);
                times.restamp(capture);
            }
            assertEquals(permissions, PosixFilePermissions.toString(Files.getPosixFilePermissions(capture)));
        }
        try (PcapReader reader = PcapReader.open(capture))
        {
            assertTrue(reader.next());
            assertEquals(7, reader.timestampNanos());
            assertEquals(0, reader.buffer().getByte(reader.offset()));
            assertTrue(reader.next());
            assertEquals(8_000_000_001L, reader.timestampNanos());
            assertTrue(reader.next());
            assertEquals(2, reader.buffer().getByte(reader.offset()));
            assertFalse(reader.next());
        }
        try (var files = Files.list(dir))
        {
            assertEquals(1, files.count(), "temporary files removed");
        }
    }
}
