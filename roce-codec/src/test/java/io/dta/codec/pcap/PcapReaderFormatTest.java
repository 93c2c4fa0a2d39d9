package io.dta.codec.pcap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PcapReaderFormatTest
{
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({ "BIG_ENDIAN, false", "BIG_ENDIAN, true", "LITTLE_ENDIAN, false", "LITTLE_ENDIAN, true" })
    void shouldReadHandBuiltFileInEitherByteOrderAndResolution(final String orderName, final boolean nanos)
        throws Exception
    {
        final ByteOrder order = "BIG_ENDIAN".equals(orderName) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        final int magic = nanos ? PcapFormat.MAGIC_NANOSECONDS : PcapFormat.MAGIC_MICROSECONDS;
        final long fraction = nanos ? 999_999_999L : 999_999L;
        final byte[] first = PcapFileBuilder.pattern(60, 1);
        final byte[] second = PcapFileBuilder.pattern(0, 2);
        final byte[] third = PcapFileBuilder.pattern(1514, 3);
        final byte[] file = new PcapFileBuilder(order)
            .globalHeader(magic, 1600, 1)
            .record(0xFFFF_FFFFL, fraction, first) // seconds above Integer.MAX_VALUE: must be read unsigned
            .record(1, 5, second)
            .record(1_700_000_000L, 123, 40, 1514, PcapFileBuilder.pattern(40, 3))
            .record(1_700_000_001L, 0, third)
            .toByteArray();

        try (PcapReader reader = open(file))
        {
            assertEquals(order, reader.fileByteOrder());
            assertEquals(nanos, reader.nanosecondResolution());
            assertEquals(1600, reader.snapLength());
            assertEquals(1, reader.linkType());

            assertTrue(reader.next());
            assertEquals(0xFFFF_FFFFL * 1_000_000_000L + (nanos ? fraction : fraction * 1000), reader.timestampNanos());
            assertEquals(
                PcapFormat.MAX_TIMESTAMP_NANOS, nanos ? reader.timestampNanos() : reader.timestampNanos() + 999);
            assertPacket(first, reader);

            assertTrue(reader.next());
            assertEquals(1_000_000_000L + (nanos ? 5 : 5_000), reader.timestampNanos());
            assertPacket(second, reader);
            assertEquals(24 + 16 + 60, reader.recordOffset());

            assertTrue(reader.next());
            assertEquals(1_700_000_000_000_000_000L + (nanos ? 123 : 123_000), reader.timestampNanos());
            assertEquals(40, reader.capturedLength());
            assertEquals(1514, reader.originalLength());
            assertPacket(PcapFileBuilder.pattern(40, 3), reader);

            assertTrue(reader.next());
            assertEquals(3, reader.packetIndex());
            assertPacket(third, reader);
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldTolerateCapturedLengthAboveSnapLengthUpToSanityCap() throws Exception
    {
        final byte[] packet = PcapFileBuilder.pattern(70_000, 9);
        final byte[] file = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, 1)
            .record(1, 0, packet)
            .toByteArray();

        try (PcapReader reader = open(file))
        {
            assertTrue(reader.next());
            assertPacket(packet, reader);
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldRefuseCapturedLengthAboveSanityCapWithOffset() throws Exception
    {
        final byte[] file = new PcapFileBuilder(ByteOrder.BIG_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, 1)
            .record(1, 0, PcapFileBuilder.pattern(10, 1))
            .record(1, 0, 262_145, 262_145, new byte[0])
            .toByteArray();

        try (PcapReader reader = open(file))
        {
            assertTrue(reader.next());
            final PcapFormatException ex = assertThrows(PcapFormatException.class, reader::next);
            assertContains(ex, "captured length 262145 exceeds snap length 65535");
            assertContains(ex, "at byte offset 50");
            assertEquals(50, ex.byteOffset());
            assertSame(ex, assertThrows(PcapFormatException.class, reader::next), "failure must be sticky");
        }
    }

    @Test
    void shouldRefuseCapturedLengthGreaterThanOriginalLength() throws Exception
    {
        final byte[] file = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, 1)
            .record(1, 0, 100, 90, PcapFileBuilder.pattern(100, 1))
            .toByteArray();

        try (PcapReader reader = open(file))
        {
            final PcapFormatException ex = assertThrows(PcapFormatException.class, reader::next);
            assertContains(ex, "captured length 100 greater than original length 90 at byte offset 24");
        }
    }

    @Test
    void shouldCarryATimestampFractionOfAWholeSecondOrMoreIntoTheSeconds() throws Exception
    {
        // scapy's wrpcap writes x.9999996 s as x s and 1000000 us; libpcap and Wireshark read it as x + 1 s.
        for (final boolean nanos : new boolean[] {false, true})
        {
            final long second = nanos ? 1_000_000_000L : 1_000_000L;
            final byte[] file = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
                .globalHeader(nanos ? PcapFormat.MAGIC_NANOSECONDS : PcapFormat.MAGIC_MICROSECONDS, 65535, 1)
                .record(1, second, PcapFileBuilder.pattern(10, 1))
                .record(1, 3 * second + 7, PcapFileBuilder.pattern(10, 2))
                .record(0xFFFF_FFFFL, 0xFFFF_FFFFL, PcapFileBuilder.pattern(10, 3))
                .toByteArray();
            try (PcapReader reader = open(file))
            {
                assertTrue(reader.next());
                assertEquals(2_000_000_000L, reader.timestampNanos());
                assertTrue(reader.next());
                assertEquals(4_000_000_000L + (nanos ? 7 : 7_000), reader.timestampNanos());
                assertTrue(reader.next(), "the largest fields still fit the long nanoseconds");
                assertEquals(0xFFFF_FFFFL * 1_000_000_000L + 0xFFFF_FFFFL * (nanos ? 1 : 1_000),
                    reader.timestampNanos());
                assertFalse(reader.next());
            }
        }
    }

    @Test
    void shouldRefuseOtherLinkTypeNamingIt() throws Exception
    {
        final byte[] file = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, 105) // IEEE 802.11
            .toByteArray();

        final PcapFormatException ex = assertThrows(PcapFormatException.class, () -> open(file));
        assertContains(ex, "unsupported link type 105");
        assertContains(ex, "at byte offset 0");
        assertContains(ex, "the supported link types are 1 (Ethernet, without FCS), 113 (Linux cooked SLL), " +
            "276 (Linux cooked SLL2), 101 (raw IP) and 228 (IPv4)");
    }

    @Test
    void shouldRefuseEthernetWithFcsFlag() throws Exception
    {
        final byte[] file = new PcapFileBuilder(ByteOrder.BIG_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, 0x1400_0001) // F bit set, 4-byte FCS
            .toByteArray();

        final PcapFormatException ex = assertThrows(PcapFormatException.class, () -> open(file));
        assertContains(ex, "link type field 0x14000001");
    }

    @Test
    void shouldRefuseOtherVersion() throws Exception
    {
        final byte[] file = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 3, 0, 65535, 1)
            .toByteArray();

        final PcapFormatException ex = assertThrows(PcapFormatException.class, () -> open(file));
        assertContains(ex, "unsupported pcap version 3.0 at byte offset 0: only 2.0 to 2.4 are supported");
    }

    @Test
    void shouldRefuseVersionsLibpcapRefuses() throws Exception
    {
        for (final int[] version : new int[][] {{1, 0}, {2, 5}, {543, 0}})
        {
            final byte[] file = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
                .globalHeader(PcapFormat.MAGIC_MICROSECONDS, version[0], version[1], 65535, 1)
                .toByteArray();

            final PcapFormatException ex = assertThrows(PcapFormatException.class, () -> open(file));
            assertContains(ex, "unsupported pcap version " + version[0] + "." + version[1] +
                " at byte offset 0: only 2.0 to 2.4 are supported");
        }
    }

    @Test
    void shouldReadTheSwappedLengthsOfVersionsBefore23() throws Exception
    {
        // Before 2.3 a record header held the original length first, then the captured one.
        for (int minor = 0; minor <= 2; minor++)
        {
            final byte[] packet = PcapFileBuilder.pattern(60, minor);
            final byte[] file = new PcapFileBuilder(ByteOrder.BIG_ENDIAN)
                .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 2, minor, 65535, 1)
                .record(5, 6, 1514, 60, packet)
                .record(7, 8, 60, 60, packet)
                .toByteArray();

            try (PcapReader reader = open(file))
            {
                assertTrue(reader.next(), "2." + minor);
                assertEquals(60, reader.capturedLength(), "2." + minor);
                assertEquals(1514, reader.originalLength(), "2." + minor);
                assertTrue(reader.next(), "2." + minor);
                assertEquals(60, reader.capturedLength(), "2." + minor);
                assertFalse(reader.next(), "2." + minor);
            }
        }
    }

    @Test
    void shouldTakeTheSmallerLengthAsCapturedInVersion23() throws Exception
    {
        final byte[] packet = PcapFileBuilder.pattern(60, 3);
        final byte[] file = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 2, 3, 65535, 1)
            .record(5, 6, 1514, 60, packet) // swapped
            .record(7, 8, 60, 1514, packet) // standard
            .toByteArray();

        try (PcapReader reader = open(file))
        {
            for (int i = 0; i < 2; i++)
            {
                assertTrue(reader.next());
                assertEquals(60, reader.capturedLength());
                assertEquals(1514, reader.originalLength());
            }
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldReadMinimalPcapngSectionAsEmptyCapture() throws Exception
    {
        // Minimal Section Header Block: type, length 28, byte-order magic, version 1.0, section length -1, length.
        final byte[] file = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .raw(new byte[] {
                0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0,
                -1, -1, -1, -1, -1, -1, -1, -1, 28, 0, 0, 0 })
            .toByteArray();

        try (PcapReader reader = open(file))
        {
            assertTrue(reader.pcapng());
            assertEquals(ByteOrder.LITTLE_ENDIAN, reader.fileByteOrder());
            assertFalse(reader.next());
            assertFalse(reader.next());
        }
        assertTrue(PcapReader.isPcap(write(file)));
    }

    @Test
    void shouldRefuseModifiedPcapVariant() throws Exception
    {
        final byte[] file = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MODIFIED, 65535, 1)
            .toByteArray();

        final PcapFormatException ex = assertThrows(PcapFormatException.class, () -> open(file));
        assertContains(ex, "modified (Kuznetzov) pcap variant is not supported");
    }

    @Test
    void shouldRefuseBadMagic() throws Exception
    {
        final byte[] file = new PcapFileBuilder(ByteOrder.BIG_ENDIAN)
            .globalHeader(0x12345678, 65535, 1)
            .toByteArray();

        final PcapFormatException ex = assertThrows(PcapFormatException.class, () -> open(file));
        assertContains(ex, "bad magic 0x12345678 at byte offset 0: not a pcap or pcapng file");
        assertEquals(0, ex.byteOffset());
    }

    @Test
    void shouldRefuseEmptyFile() throws Exception
    {
        final PcapFormatException ex = assertThrows(PcapFormatException.class, () -> open(new byte[0]));
        assertContains(ex, "truncated global header at byte offset 0: need 24 bytes, 0 present");
    }

    /**
     * Once refused with "truncated packet record at byte offset 1234"; a file cut inside its last record is now read
     * to its last whole record and reported cut short there, as tshark reads it.
     */
    @Test
    void shouldReportRecordCutShortAtItsOffset() throws Exception
    {
        final PcapFileBuilder builder = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, 1);
        int whole = 0;
        while (builder.size() < 1234)
        {
            builder.record(1, 0, PcapFileBuilder.pattern(Math.min(1234 - builder.size() - 16, 100), 1));
            whole++;
        }
        assertEquals(1234, builder.size());
        final byte[] full = builder.record(1, 0, PcapFileBuilder.pattern(90, 1)).toByteArray();
        final byte[] truncated = java.util.Arrays.copyOf(full, full.length - 50);

        try (PcapReader reader = open(truncated))
        {
            int read = 0;
            while (reader.next())
            {
                assertTrue(reader.recordOffset() < 1234);
                read++;
            }
            assertEquals(whole, read);
            assertTrue(reader.cutShort());
            assertEquals(1234, reader.cutShortAt());
            assertFalse(reader.next(), "an end stays an end");
            assertEquals(reader.path() + " appears to have been cut short in the middle of a packet at byte " +
                "offset 1234 (the " + whole + " whole packets before it were read)", reader.cutShortWarning());
        }
    }

    @Test
    void shouldRejectUseAfterCloseWithoutTouchingFreedMemory() throws Exception
    {
        final byte[] file = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, 1)
            .record(1, 0, PcapFileBuilder.pattern(60, 1))
            .toByteArray();

        final PcapReader reader = open(file);
        assertTrue(reader.next());
        final int offset = reader.offset();
        reader.close();
        reader.close();
        assertThrows(IllegalStateException.class, reader::next);
        assertThrows(IndexOutOfBoundsException.class, () -> reader.buffer().getByte(offset));
    }

    private PcapReader open(final byte[] bytes) throws Exception
    {
        return PcapReader.open(write(bytes));
    }

    private Path write(final byte[] bytes) throws Exception
    {
        final Path file = Files.createTempFile(dir, "hand", ".pcap");
        Files.write(file, bytes);
        return file;
    }

    private static void assertPacket(final byte[] expected, final PcapReader reader)
    {
        assertEquals(expected.length, reader.capturedLength());
        final byte[] actual = new byte[reader.capturedLength()];
        reader.buffer().getBytes(reader.offset(), actual);
        assertArrayEquals(expected, actual);
    }

    static void assertContains(final Exception ex, final String expected)
    {
        assertTrue(ex.getMessage().contains(expected),
            "message '" + ex.getMessage() + "' should contain '" + expected + "'");
    }
}
