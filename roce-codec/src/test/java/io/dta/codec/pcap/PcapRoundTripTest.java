package io.dta.codec.pcap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PcapRoundTripTest
{
    private static final int PACKETS = 5_000;
    private static final int MAX_LENGTH = 1600;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void shouldRoundTripRandomPackets(final boolean nanosecondResolution) throws Exception
    {
        final long seed = Long.getLong("dta.test.seed", 0xC28C23C7L);
        final Path file = dir.resolve("random.pcap");
        final UnsafeBuffer source = new UnsafeBuffer(new byte[MAX_LENGTH + 64]);

        final SplittableRandom writeRandom = new SplittableRandom(seed);
        try (PcapWriter writer = new PcapWriter(file, nanosecondResolution))
        {
            for (int i = 0; i < PACKETS; i++)
            {
                final int length = writeRandom.nextInt(MAX_LENGTH + 1);
                final int offset = writeRandom.nextInt(64);
                final long timestamp = writeRandom.nextLong(PcapFormat.MAX_TIMESTAMP_NANOS + 1);
                fill(source, offset, length, writeRandom.nextLong());
                writer.write(timestamp, source, offset, length);
            }
            assertEquals(PACKETS, writer.packetsWritten(), "seed=" + seed);
        }

        final SplittableRandom readRandom = new SplittableRandom(seed);
        final UnsafeBuffer expected = new UnsafeBuffer(new byte[MAX_LENGTH + 64]);
        try (PcapReader reader = PcapReader.open(file))
        {
            assertEquals(nanosecondResolution, reader.nanosecondResolution(), "seed=" + seed);
            assertEquals(ByteOrder.LITTLE_ENDIAN, reader.fileByteOrder());
            assertEquals(PcapFormat.DEFAULT_SNAP_LENGTH, reader.snapLength());
            final DirectBuffer firstBuffer = reader.buffer();

            long expectedRecordOffset = PcapFormat.GLOBAL_HEADER_LENGTH;
            for (int i = 0; i < PACKETS; i++)
            {
                final int length = readRandom.nextInt(MAX_LENGTH + 1);
                final int offset = readRandom.nextInt(64);
                final long timestamp = readRandom.nextLong(PcapFormat.MAX_TIMESTAMP_NANOS + 1);
                fill(expected, offset, length, readRandom.nextLong());

                final String context = "seed=" + seed + " packet=" + i;
                assertTrue(reader.next(), context);
                assertSame(firstBuffer, reader.buffer(), context);
                assertEquals(i, reader.packetIndex(), context);
                assertEquals(expectedRecordOffset, reader.recordOffset(), context);
                assertEquals(length, reader.capturedLength(), context);
                assertEquals(length, reader.originalLength(), context);
                final long expectedTimestamp = nanosecondResolution ? timestamp : timestamp / 1_000L * 1_000L;
                assertEquals(expectedTimestamp, reader.timestampNanos(), context);
                assertRegionEquals(expected, offset, reader.buffer(), reader.offset(), length, context);
                expectedRecordOffset += PcapFormat.RECORD_HEADER_LENGTH + length;
            }
            assertFalse(reader.next(), "seed=" + seed);
            assertEquals(Files.size(file), expectedRecordOffset, "seed=" + seed);
        }
    }

    @Test
    void shouldStreamFileMuchBiggerThanReadBuffer() throws Exception
    {
        final Path file = dir.resolve("big.pcap");
        final UnsafeBuffer source = new UnsafeBuffer(new byte[1514]);
        final long seed = 42;
        final int packets = 16_500; // about 21 MB of 1000..1514-byte frames, five times the 4 MiB read buffer
        try (PcapWriter writer = new PcapWriter(file, true))
        {
            for (int i = 0; i < packets; i++)
            {
                final int length = 1000 + (i % 515);
                fill(source, 0, length, seed + i);
                writer.write(1_000_000_000L * i + i, source, 0, length);
            }
        }
        assertTrue(Files.size(file) > 20_000_000L, "size " + Files.size(file));

        for (final int capacity : new int[] { PcapReader.DEFAULT_BUFFER_CAPACITY, PcapReader.MIN_BUFFER_CAPACITY })
        {
            final UnsafeBuffer expected = new UnsafeBuffer(new byte[1514]);
            try (PcapReader reader = PcapReader.open(file, capacity))
            {
                int count = 0;
                long expectedRecordOffset = PcapFormat.GLOBAL_HEADER_LENGTH;
                while (reader.next())
                {
                    final int length = 1000 + (count % 515);
                    fill(expected, 0, length, seed + count);
                    final String context = "capacity=" + capacity + " packet=" + count;
                    assertEquals(length, reader.capturedLength(), context);
                    assertEquals(1_000_000_000L * count + count, reader.timestampNanos(), context);
                    assertEquals(expectedRecordOffset, reader.recordOffset(), context);
                    assertRegionEquals(expected, 0, reader.buffer(), reader.offset(), length, context);
                    expectedRecordOffset += PcapFormat.RECORD_HEADER_LENGTH + length;
                    count++;
                }
                assertEquals(packets, count, "capacity=" + capacity);
            }
        }
    }

    @Test
    void shouldReadAndWriteWithoutAllocatingPerPacket() throws Exception
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().threadId();
        final Path file = dir.resolve("alloc.pcap");
        final UnsafeBuffer source = new UnsafeBuffer(new byte[256]);
        final int packets = 200_000;

        final long writeAllocated;
        try (PcapWriter writer = new PcapWriter(file))
        {
            final long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = 0; i < packets; i++)
            {
                writer.write(i * 1_000L, source, 0, 60 + (i & 127));
            }
            writeAllocated = threads.getThreadAllocatedBytes(threadId) - before;
        }

        final long readAllocated;
        long checksum = 0;
        try (PcapReader reader = PcapReader.open(file))
        {
            final long before = threads.getThreadAllocatedBytes(threadId);
            while (reader.next())
            {
                checksum += reader.capturedLength() + reader.timestampNanos() +
                    reader.buffer().getByte(reader.offset());
            }
            readAllocated = threads.getThreadAllocatedBytes(threadId) - before;
        }

        assertTrue(checksum != 0);
        // One allocation per packet of even 16 bytes would be 3.2 MB; allow a little slack for JVM internals.
        assertTrue(writeAllocated < 64 * 1024, "writer allocated " + writeAllocated + " bytes");
        assertTrue(readAllocated < 64 * 1024, "reader allocated " + readAllocated + " bytes");
    }

    static void fill(final UnsafeBuffer buffer, final int offset, final int length, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < length; i++)
        {
            buffer.putByte(offset + i, (byte)random.nextInt(256));
        }
    }

    static void assertRegionEquals(
        final DirectBuffer expected,
        final int expectedOffset,
        final DirectBuffer actual,
        final int actualOffset,
        final int length,
        final String context)
    {
        for (int i = 0; i < length; i++)
        {
            if (expected.getByte(expectedOffset + i) != actual.getByte(actualOffset + i))
            {
                throw new AssertionError(context + ": byte " + i + " differs: expected " +
                    expected.getByte(expectedOffset + i) + " but was " + actual.getByte(actualOffset + i));
            }
        }
    }
}
