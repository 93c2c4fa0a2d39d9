package io.dta.codec.pcap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An Ethernet capture with records longer than its snap length needs the copy: libpcap (DPDK's {@code net_pcap})
 * cuts such records to the snap length, {@link PcapReader} reads them whole.
 */
class PcapNormalizerSnapLengthTest
{
    @TempDir
    Path dir;

    @Test
    void shouldAskForACopyOnlyWhenARecordIsLongerThanTheSnapLength() throws IOException
    {
        assertTrue(PcapNormalizer.needsNormalizing(classic("short-snap.pcap", 48, 40, 54, 40)));
        assertFalse(PcapNormalizer.needsNormalizing(classic("exact-snap.pcap", 54, 40, 54, 40)));
        assertFalse(PcapNormalizer.needsNormalizing(classic("no-snap.pcap", 0, 40, 54, 40)));
        assertFalse(PcapNormalizer.needsNormalizing(classic("empty.pcap", 48)));
    }

    @Test
    void shouldCopyTheRecordsWhole() throws IOException
    {
        final Path copy = dir.resolve("copy.pcap");
        assertEquals(3, PcapNormalizer.normalize(classic("short-snap.pcap", 48, 40, 54, 40), copy, 0));
        try (PcapReader reader = PcapReader.open(copy))
        {
            for (final int length : new int[] { 40, 54, 40 })
            {
                assertTrue(reader.next());
                assertEquals(length, reader.capturedLength());
            }
            assertFalse(reader.next());
        }
    }

    private Path classic(final String name, final int snapLength, final int... lengths) throws IOException
    {
        int size = 24;
        for (final int length : lengths)
        {
            size += 16 + length;
        }
        final ByteBuffer bytes = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(0xa1b2c3d4).putShort((short)2).putShort((short)4).putInt(0).putInt(0).putInt(snapLength).putInt(1);
        int second = 1_700_000_000;
        for (final int length : lengths)
        {
            bytes.putInt(second++).putInt(0).putInt(length).putInt(length);
            for (int i = 0; i < length; i++)
            {
                bytes.put((byte)(12 == i ? 0x08 : i));
            }
        }
        return Files.write(dir.resolve(name), bytes.array());
    }
}
