package io.dta.codec.pcap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PcapWriterTest
{
    @TempDir
    Path dir;

    @Test
    void shouldWriteExactLittleEndianMicrosecondBytesByDefault() throws Exception
    {
        final Path file = dir.resolve("exact.pcap");
        final byte[] packet = PcapFileBuilder.pattern(5, 7);
        try (PcapWriter writer = new PcapWriter(file))
        {
            assertFalse(writer.nanosecondResolution());
            assertEquals(65535, writer.snapLength());
            writer.write(1_700_000_000_123_456_789L, new UnsafeBuffer(packet), 0, packet.length);
            assertEquals(1, writer.packetsWritten());
        }

        final byte[] expected = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, 1)
            .record(1_700_000_000L, 123_456L, packet) // truncated, not rounded, to microseconds
            .toByteArray();
        assertArrayEquals(expected, Files.readAllBytes(file));
    }

    @Test
    void shouldWriteExactNanosecondBytesWhenAsked() throws Exception
    {
        final Path file = dir.resolve("exact-ns.pcap");
        final byte[] packet = PcapFileBuilder.pattern(3, 1);
        try (PcapWriter writer = new PcapWriter(file, true))
        {
            writer.write(1_700_000_000_123_456_789L, new UnsafeBuffer(packet), 0, packet.length);
        }

        final byte[] expected = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_NANOSECONDS, 65535, 1)
            .record(1_700_000_000L, 123_456_789L, packet)
            .toByteArray();
        assertArrayEquals(expected, Files.readAllBytes(file));
    }

    @Test
    void shouldWriteHeaderEvenWithoutPacketsAndTruncateExistingFile() throws Exception
    {
        final Path file = dir.resolve("empty.pcap");
        Files.write(file, new byte[1000]);
        new PcapWriter(file).close();
        assertEquals(PcapFormat.GLOBAL_HEADER_LENGTH, Files.size(file));
        try (PcapReader reader = PcapReader.open(file))
        {
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldMakeRecordsVisibleOnFlush() throws Exception
    {
        final Path file = dir.resolve("flush.pcap");
        try (PcapWriter writer = new PcapWriter(file))
        {
            writer.write(0, new UnsafeBuffer(new byte[100]), 0, 100);
            assertEquals(PcapFormat.GLOBAL_HEADER_LENGTH, Files.size(file));
            writer.flush();
            assertEquals(PcapFormat.GLOBAL_HEADER_LENGTH + 16 + 100, Files.size(file));
        }
    }

    @Test
    void shouldRefusePacketLongerThanSnapLength() throws Exception
    {
        final Path file = dir.resolve("snap.pcap");
        try (PcapWriter writer = new PcapWriter(file, false, 128, 4096))
        {
            final UnsafeBuffer packet = new UnsafeBuffer(new byte[200]);
            writer.write(0, packet, 0, 128);
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> writer.write(0, packet, 0, 129));
            assertTrue(ex.getMessage().contains("129"), ex.getMessage());
            assertThrows(IllegalArgumentException.class, () -> writer.write(0, packet, 0, -1));
            assertEquals(1, writer.packetsWritten());
        }
        try (PcapReader reader = PcapReader.open(file))
        {
            assertEquals(128, reader.snapLength());
            assertTrue(reader.next());
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldRefuseTimestampsOutsidePcapRange() throws Exception
    {
        try (PcapWriter writer = new PcapWriter(dir.resolve("ts.pcap")))
        {
            final UnsafeBuffer packet = new UnsafeBuffer(new byte[10]);
            assertThrows(IllegalArgumentException.class, () -> writer.write(-1, packet, 0, 10));
            assertThrows(IllegalArgumentException.class,
                () -> writer.write(PcapFormat.MAX_TIMESTAMP_NANOS + 1, packet, 0, 10));
            writer.write(PcapFormat.MAX_TIMESTAMP_NANOS, packet, 0, 10);
            assertEquals(1, writer.packetsWritten());
        }
    }

    @Test
    void shouldRefuseBadConstructionAndUseAfterClose() throws Exception
    {
        assertThrows(IllegalArgumentException.class, () -> new PcapWriter(dir.resolve("a.pcap"), false, 0, 4096));
        assertThrows(IllegalArgumentException.class,
            () -> new PcapWriter(dir.resolve("b.pcap"), false, PcapFormat.MAX_CAPTURED_LENGTH + 1, 1 << 20));
        assertThrows(IllegalArgumentException.class, () -> new PcapWriter(dir.resolve("c.pcap"), false, 1000, 1000));

        final PcapWriter writer = new PcapWriter(dir.resolve("d.pcap"));
        writer.close();
        writer.close();
        assertThrows(IllegalStateException.class, () -> writer.write(0, new UnsafeBuffer(new byte[1]), 0, 1));
    }
}
