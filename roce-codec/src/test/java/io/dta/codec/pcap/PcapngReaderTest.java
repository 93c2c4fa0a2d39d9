package io.dta.codec.pcap;

import static io.dta.codec.pcap.PcapReaderFormatTest.assertContains;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PcapngReaderTest
{
    private static final long SECOND = 1_000_000_000L;
    private static final long EPOCH_SECONDS = 1_700_000_000L;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = { "BIG_ENDIAN", "LITTLE_ENDIAN" })
    void shouldReadEnhancedPacketsInEitherByteOrder(final String orderName) throws Exception
    {
        final ByteOrder order = order(orderName);
        final byte[] first = PcapFileBuilder.pattern(60, 1);
        final byte[] second = PcapFileBuilder.pattern(0, 2);
        final byte[] third = PcapFileBuilder.pattern(1514, 3);
        final PcapngFileBuilder builder = new PcapngFileBuilder(order).section(order).interfaceDescription(1, 1600);
        final int firstOffset = builder.size();
        builder.enhancedPacket(0, EPOCH_SECONDS * 1_000_000L + 999_999L, first);
        final int secondOffset = builder.size();
        builder.enhancedPacket(0, 0xFFFF_FFFFL * 1_000_000L, second) // timestamp high word in use
            .enhancedPacket(0, 5, 41, 1514, PcapFileBuilder.pattern(41, 3)) // 3 bytes of padding
            .enhancedPacket(0, 6, third);
        final byte[] file = builder.toByteArray();

        try (PcapReader reader = open(file))
        {
            assertTrue(reader.pcapng());
            assertEquals(order, reader.fileByteOrder());

            assertTrue(reader.next());
            assertEquals(EPOCH_SECONDS * SECOND + 999_999_000L, reader.timestampNanos());
            assertEquals(firstOffset, reader.recordOffset());
            assertEquals(0, reader.packetIndex());
            assertEquals(1600, reader.snapLength());
            assertEquals(1, reader.linkType());
            assertFalse(reader.nanosecondResolution());
            assertPacket(first, reader);

            assertTrue(reader.next());
            assertEquals(0xFFFF_FFFFL * SECOND, reader.timestampNanos());
            assertEquals(secondOffset, reader.recordOffset());
            assertPacket(second, reader);

            assertTrue(reader.next());
            assertEquals(5_000, reader.timestampNanos());
            assertEquals(1514, reader.originalLength());
            assertPacket(PcapFileBuilder.pattern(41, 3), reader);

            assertTrue(reader.next());
            assertEquals(3, reader.packetIndex());
            assertPacket(third, reader);
            assertFalse(reader.next());
            assertFalse(reader.next());
        }
        assertTrue(PcapReader.isPcap(write(file)));
    }

    @Test
    void shouldReadSectionsAndInterfacesWithTheirOwnByteOrderResolutionAndOffset() throws Exception
    {
        final PcapngFileBuilder builder = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .section(ByteOrder.LITTLE_ENDIAN);
        builder.interfaceDescription(1, 65535) // 0: microseconds by default
            .interfaceDescription(1, 262144, builder.tsresol(9), builder.endOfOptions()) // 1: nanoseconds
            .interfaceDescription(1, 0, builder.tsresol(0x80 | 30), builder.tsoffset(100)) // 2: 2^-30 s, +100 s
            .block(PcapngFileBuilder.NRB, new byte[] { 1, 0, 4, 0, 10, 0, 0, 1, 0, 0, 0, 0 })
            .enhancedPacket(0, 1_500_000L, PcapFileBuilder.pattern(20, 0))
            .block(PcapngFileBuilder.CUSTOM, PcapFileBuilder.pattern(33, 9))
            .enhancedPacket(1, 1_500_000_001L, PcapFileBuilder.pattern(21, 1))
            .enhancedPacket(2, 3L << 30 | 1L << 29, PcapFileBuilder.pattern(22, 2)) // 3.5 s
            .enhancedPacket(2, 1, PcapFileBuilder.pattern(23, 3)) // 0.93 ns: rounds down to 0
            .block(PcapngFileBuilder.ISB, new byte[20])
            .section(ByteOrder.BIG_ENDIAN);
        builder.interfaceDescription(1, 128, builder.tsresol(3), builder.tsoffset(-5)) // 0: milliseconds, -5 s
            .enhancedPacket(0, 7_001L, PcapFileBuilder.pattern(24, 4))
            .section(ByteOrder.LITTLE_ENDIAN)
            .interfaceDescription(1, 65535, builder.tsresol(0x80 | 20)) // 0: 2^-20 s, coarser than ns
            .enhancedPacket(0, 1L << 20, PcapFileBuilder.pattern(25, 5));

        final long[] expectedNanos = {
            1_500_000_000L, 1_500_000_001L, 103_500_000_000L, 100 * SECOND, 2_001_000_000L, SECOND };
        final boolean[] expectedNanosecond = { false, true, true, true, false, false };
        final int[] expectedSnap = { 65535, 262144, 0, 0, 128, 65535 };
        final ByteOrder[] expectedOrder = {
            ByteOrder.LITTLE_ENDIAN, ByteOrder.LITTLE_ENDIAN, ByteOrder.LITTLE_ENDIAN, ByteOrder.LITTLE_ENDIAN,
            ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN };
        try (PcapReader reader = open(builder.toByteArray()))
        {
            for (int i = 0; i < expectedNanos.length; i++)
            {
                final String context = "packet " + i;
                assertTrue(reader.next(), context);
                assertEquals(expectedNanos[i], reader.timestampNanos(), context);
                assertEquals(expectedNanosecond[i], reader.nanosecondResolution(), context);
                assertEquals(expectedSnap[i], reader.snapLength(), context);
                assertEquals(expectedOrder[i], reader.fileByteOrder(), context);
                assertPacket(PcapFileBuilder.pattern(20 + i, i), reader);
            }
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldReadSimplePacketBlocksWithZeroTimestampAndSnapLength() throws Exception
    {
        final byte[] full = PcapFileBuilder.pattern(60, 1);
        final byte[] file = new PcapngFileBuilder(ByteOrder.BIG_ENDIAN).section(ByteOrder.BIG_ENDIAN)
            .interfaceDescription(1, 100)
            .simplePacket(60, full)
            .simplePacket(1514, PcapFileBuilder.pattern(100, 2))
            .section(ByteOrder.LITTLE_ENDIAN)
            .interfaceDescription(1, 0)
            .simplePacket(61, PcapFileBuilder.pattern(61, 3))
            .toByteArray();

        try (PcapReader reader = open(file))
        {
            assertTrue(reader.next());
            assertEquals(0, reader.timestampNanos());
            assertEquals(60, reader.originalLength());
            assertPacket(full, reader);

            assertTrue(reader.next());
            assertEquals(1514, reader.originalLength());
            assertPacket(PcapFileBuilder.pattern(100, 2), reader);

            assertTrue(reader.next());
            assertEquals(0, reader.snapLength());
            assertPacket(PcapFileBuilder.pattern(61, 3), reader);
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldReadObsoletePacketBlock() throws Exception
    {
        final PcapngFileBuilder builder = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .section(ByteOrder.LITTLE_ENDIAN);
        final byte[] file = builder.interfaceDescription(1, 65535)
            .interfaceDescription(1, 65535, builder.tsresol(9))
            .packetBlock(1, EPOCH_SECONDS * SECOND + 7, PcapFileBuilder.pattern(70, 7))
            .toByteArray();

        try (PcapReader reader = open(file))
        {
            assertTrue(reader.next());
            assertEquals(EPOCH_SECONDS * SECOND + 7, reader.timestampNanos());
            assertPacket(PcapFileBuilder.pattern(70, 7), reader);
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldStreamPastSkippedBlocksLargerThanTheReadBuffer() throws Exception
    {
        final int huge = 3 * PcapReader.MIN_BUFFER_CAPACITY + 12;
        final PcapngFileBuilder builder = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN);
        final java.io.ByteArrayOutputStream comments = new java.io.ByteArrayOutputStream();
        while (comments.size() < huge)
        {
            comments.writeBytes(builder.option(1, PcapFileBuilder.pattern(60_000, comments.size())));
        }
        builder.section(ByteOrder.LITTLE_ENDIAN, 1, comments.toByteArray())
            .interfaceDescription(1, 65535)
            .block(PcapngFileBuilder.CUSTOM, PcapFileBuilder.pattern(huge, 2))
            .enhancedPacket(0, 1, PcapFileBuilder.pattern(100, 3))
            .block(0x0000_000A, PcapFileBuilder.pattern(huge, 4));
        final byte[] file = builder.toByteArray();

        try (PcapReader reader = PcapReader.open(write(file), PcapReader.MIN_BUFFER_CAPACITY))
        {
            assertTrue(reader.next());
            assertPacket(PcapFileBuilder.pattern(100, 3), reader);
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldRefuseUnknownInterfaceIdNamingTheBlockOffset() throws Exception
    {
        final PcapngFileBuilder builder = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .section(ByteOrder.LITTLE_ENDIAN)
            .interfaceDescription(1, 65535)
            .interfaceDescription(1, 65535)
            .enhancedPacket(1, 1, PcapFileBuilder.pattern(10, 1))
            .section(ByteOrder.LITTLE_ENDIAN)
            .interfaceDescription(1, 65535);
        final int offset = builder.size();
        // Interface 1 belonged to the previous section only.
        builder.enhancedPacket(1, 1, PcapFileBuilder.pattern(10, 1));

        try (PcapReader reader = open(builder.toByteArray()))
        {
            assertTrue(reader.next());
            final PcapFormatException ex = assertThrows(PcapFormatException.class, reader::next);
            assertContains(ex, "unknown interface id 1 in the enhanced packet block at byte offset " + offset +
                ": the section defines 1 interface(s)");
            assertEquals(offset, ex.byteOffset());
            assertSame(ex, assertThrows(PcapFormatException.class, reader::next), "failure must be sticky");
        }
    }

    @Test
    void shouldRefusePacketBlocksBeforeAnyInterface() throws Exception
    {
        final byte[] epb = new PcapngFileBuilder(ByteOrder.BIG_ENDIAN).section(ByteOrder.BIG_ENDIAN)
            .enhancedPacket(0, 1, PcapFileBuilder.pattern(10, 1)).toByteArray();
        assertContains(firstFailure(epb), "unknown interface id 0 in the enhanced packet block at byte offset 28");

        final byte[] spb = new PcapngFileBuilder(ByteOrder.BIG_ENDIAN).section(ByteOrder.BIG_ENDIAN)
            .simplePacket(10, PcapFileBuilder.pattern(10, 1)).toByteArray();
        assertContains(firstFailure(spb), "simple packet block at byte offset 28 refers to interface 0");
    }

    @Test
    void shouldRefuseOtherLinkTypeAndFcsWhenAPacketUsesIt() throws Exception
    {
        final PcapngFileBuilder builder = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .section(ByteOrder.LITTLE_ENDIAN);
        builder.interfaceDescription(1, 65535)
            .interfaceDescription(105, 65535) // IEEE 802.11, unused so far
            .interfaceDescription(1, 65535, builder.option(13, new byte[] { 4 }))
            .enhancedPacket(0, 1, PcapFileBuilder.pattern(10, 1));
        final int cookedOffset = builder.size();
        final byte[] cooked = builder.toByteArray();
        builder.enhancedPacket(1, 1, PcapFileBuilder.pattern(10, 1));

        try (PcapReader reader = open(builder.toByteArray()))
        {
            assertTrue(reader.next());
            final PcapFormatException ex = assertThrows(PcapFormatException.class, reader::next);
            assertContains(ex, "unsupported link type 105 of interface 1 (defined at byte offset 48) for the " +
                "enhanced packet block at byte offset " + cookedOffset + ": the supported link types are 1 ");
            assertEquals(cookedOffset, ex.byteOffset());
        }

        final byte[] fcs = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN).raw(cooked)
            .enhancedPacket(2, 1, PcapFileBuilder.pattern(10, 1)).toByteArray();
        try (PcapReader reader = open(fcs))
        {
            assertTrue(reader.next());
            assertContains(assertThrows(PcapFormatException.class, reader::next),
                "unsupported link type 1 with a 4-byte FCS of interface 2");
        }
    }

    @Test
    void shouldRefuseMalformedBlockLengths() throws Exception
    {
        final PcapngFileBuilder base = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN).section(ByteOrder.LITTLE_ENDIAN)
            .interfaceDescription(1, 65535);
        final int offset = base.size();
        final byte[] prefix = base.toByteArray();
        final byte[] packet = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .enhancedPacket(0, 1, PcapFileBuilder.pattern(10, 1)).toByteArray(); // 44 bytes

        final byte[] trailer = packet.clone();
        trailer[40] = 48;
        assertContains(firstFailure(concat(prefix, trailer)),
            "block total length 44 at the start and 48 at the end differ at byte offset " + offset);

        final byte[] notMultiple = packet.clone();
        notMultiple[4] = 42;
        assertContains(firstFailure(concat(prefix, notMultiple)),
            "block total length 42 of a enhanced packet block not a multiple of 4 at byte offset " + offset);

        final byte[] tooShort = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN).raw(prefix)
            .raw(new byte[] { 4, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0 }).toByteArray();
        assertContains(firstFailure(tooShort), "block total length 8 below the minimum 12 of a block of type " +
            "0x00000004 at byte offset " + offset);

        final byte[] shortEpb = packet.clone();
        shortEpb[4] = 28;
        assertContains(firstFailure(concat(prefix, shortEpb)),
            "block total length 28 below the minimum 32 of a enhanced packet block at byte offset " + offset);

        final byte[] noRoom = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN).raw(prefix)
            .enhancedPacket(0, 1, 13, 13, PcapFileBuilder.pattern(10, 1)).toByteArray();
        assertContains(firstFailure(noRoom),
            "captured length 13 exceeds the room of 12 bytes in the enhanced packet block at byte offset " + offset);

        final byte[] greater = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN).raw(prefix)
            .enhancedPacket(0, 1, 10, 9, PcapFileBuilder.pattern(10, 1)).toByteArray();
        assertContains(firstFailure(greater),
            "captured length 10 greater than original length 9 at byte offset " + offset);

        final byte[] overCap = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN).raw(prefix)
            .enhancedPacket(0, 1, 10, 10, new byte[PcapngFormat.MAX_BLOCK_LENGTH]).toByteArray();
        assertContains(firstFailure(overCap), "block total length " + (PcapngFormat.MAX_BLOCK_LENGTH + 32) +
            " of a enhanced packet block exceeds the sanity cap " + PcapngFormat.MAX_BLOCK_LENGTH +
            " at byte offset " + offset);

        final byte[] capturedOverCap = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN).raw(prefix)
            .enhancedPacket(0, 1, 262_148, 262_148, new byte[262_148]).toByteArray();
        assertContains(firstFailure(capturedOverCap), "captured length 262148 exceeds snap length 65535 and the " +
            "sanity cap 262144 at byte offset " + offset);
    }

    @Test
    void shouldRefuseBadSectionHeaders() throws Exception
    {
        final byte[] badMagic = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN).section(ByteOrder.LITTLE_ENDIAN)
            .toByteArray();
        badMagic[8] = 0x4e;
        final PcapFormatException magic = assertThrows(PcapFormatException.class, () -> open(badMagic));
        assertContains(magic, "bad byte-order magic 0x4e3c2b1a in the section header block at byte offset 0");

        final PcapFormatException version = assertThrows(PcapFormatException.class, () -> open(
            new PcapngFileBuilder(ByteOrder.BIG_ENDIAN).section(ByteOrder.BIG_ENDIAN, 2, new byte[0]).toByteArray()));
        assertContains(version, "unsupported pcapng version 2.0 at byte offset 0");

        final PcapngFileBuilder later = new PcapngFileBuilder(ByteOrder.BIG_ENDIAN).section(ByteOrder.BIG_ENDIAN)
            .interfaceDescription(1, 65535).enhancedPacket(0, 1, PcapFileBuilder.pattern(10, 1));
        final int offset = later.size();
        final byte[] second = later.section(ByteOrder.LITTLE_ENDIAN).toByteArray();
        second[offset + 27] = 29; // most significant byte of the little-endian trailing length
        try (PcapReader reader = open(second))
        {
            assertTrue(reader.next());
            final PcapFormatException ex = assertThrows(PcapFormatException.class, reader::next);
            assertContains(ex, "block total length 28 at the start and");
            assertEquals(offset, ex.byteOffset());
        }
    }

    @Test
    void shouldRefuseMalformedInterfaceOptions() throws Exception
    {
        final PcapngFileBuilder builder = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .section(ByteOrder.LITTLE_ENDIAN);
        final byte[] overrun = builder.toByteArray();
        final byte[] option = builder.option(2, new byte[8]);
        option[2] = 9; // says 9 bytes, 8 present before the trailer
        final byte[] withOverrun = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN).raw(overrun)
            .interfaceDescription(1, 65535, option).toByteArray();
        assertContains(firstFailure(withOverrun), "option 2 of length 9 overruns the interface description block " +
            "at byte offset 28");

        final byte[] badResolution = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN).raw(overrun)
            .interfaceDescription(1, 65535, builder.option(9, new byte[2])).toByteArray();
        assertContains(firstFailure(badResolution), "option 9 of length 2 (must be 1)");

        final byte[] farOffset = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN).raw(overrun)
            .interfaceDescription(1, 65535, builder.tsoffset(Long.MIN_VALUE)).toByteArray();
        assertContains(firstFailure(farOffset), "if_tsoffset -9223372036854775808 seconds out of range");
    }

    @Test
    void shouldRefuseTimestampsOutsideTheNanosecondRange() throws Exception
    {
        final PcapngFileBuilder builder = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .section(ByteOrder.LITTLE_ENDIAN);
        builder.interfaceDescription(1, 65535, builder.tsresol(0)) // seconds
            .interfaceDescription(1, 65535, builder.tsresol(9), builder.tsoffset(-10))
            .enhancedPacket(0, Long.MAX_VALUE / SECOND, PcapFileBuilder.pattern(10, 1));
        final int offset = builder.size();
        final byte[] prefix = builder.toByteArray();
        try (PcapReader reader = open(prefix))
        {
            assertTrue(reader.next());
            assertEquals(Long.MAX_VALUE / SECOND * SECOND, reader.timestampNanos());
        }

        final byte[] tooLate = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN).raw(prefix)
            .enhancedPacket(0, Long.MAX_VALUE / SECOND + 1, PcapFileBuilder.pattern(10, 1)).toByteArray();
        final byte[] beforeEpoch = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN).raw(prefix)
            .enhancedPacket(1, 9 * SECOND, PcapFileBuilder.pattern(10, 1)).toByteArray();
        for (final byte[] file : new byte[][] { tooLate, beforeEpoch })
        {
            try (PcapReader reader = open(file))
            {
                assertTrue(reader.next());
                final PcapFormatException ex = assertThrows(PcapFormatException.class, reader::next);
                assertContains(ex, "out of the range of nanoseconds since the epoch at byte offset " + offset);
            }
        }
    }

    @Test
    void shouldReadWithoutAllocatingPerPacket() throws Exception
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().threadId();
        final PcapngFileBuilder builder = new PcapngFileBuilder(ByteOrder.BIG_ENDIAN).section(ByteOrder.BIG_ENDIAN);
        builder.interfaceDescription(1, 65535, builder.tsresol(0x80 | 30), builder.tsoffset(1))
            .interfaceDescription(1, 65535);
        final int packets = 100_000;
        for (int i = 0; i < packets; i++)
        {
            final byte[] packet = PcapFileBuilder.pattern(60 + (i & 63), i);
            if (0 == i % 3)
            {
                builder.simplePacket(packet.length, packet);
            }
            else
            {
                builder.enhancedPacket(i & 1, (long)i << 20, packet);
            }
            if (0 == i % 100)
            {
                builder.block(PcapngFileBuilder.NRB, new byte[12]);
            }
        }
        final Path file = write(builder.toByteArray());

        long checksum = 0;
        long count = 0;
        final long allocated;
        try (PcapReader reader = PcapReader.open(file, PcapReader.MIN_BUFFER_CAPACITY))
        {
            final long before = threads.getThreadAllocatedBytes(threadId);
            while (reader.next())
            {
                checksum += reader.capturedLength() + reader.timestampNanos() +
                    reader.buffer().getByte(reader.offset());
                count++;
            }
            allocated = threads.getThreadAllocatedBytes(threadId) - before;
        }

        assertEquals(packets, count);
        assertTrue(checksum != 0);
        // One allocation per packet of even 16 bytes would be 1.6 MB; allow a little slack for JVM internals.
        assertTrue(allocated < 64 * 1024, "reader allocated " + allocated + " bytes");
    }

    /** Every resolution byte against exact big-integer arithmetic, rounding down. */
    @Test
    void shouldConvertUnitsToNanosecondsExactly()
    {
        final long seed = Long.getLong("dta.test.seed", 0x3DE629F2L);
        final SplittableRandom random = new SplittableRandom(seed);
        final BigInteger nanosPerSecond = BigInteger.valueOf(SECOND);
        final BigInteger maxLong = BigInteger.valueOf(Long.MAX_VALUE);
        for (int i = 0; i < 50_000; i++)
        {
            final int tsresol = random.nextInt(256);
            final long units = switch (random.nextInt(4))
            {
                case 0 -> random.nextLong();
                case 1 -> random.nextLong(1L << 40);
                case 2 -> random.nextLong(1L << 62);
                default -> random.nextInt(1000);
            };
            final BigInteger value = new BigInteger(Long.toUnsignedString(units));
            final int exponent = tsresol & 0x7F;
            final BigInteger perSecond = 0 == (tsresol & 0x80) ?
                BigInteger.TEN.pow(exponent) : BigInteger.TWO.pow(exponent);
            final BigInteger exact = value.multiply(nanosPerSecond).divide(perSecond);
            final long expected = exact.compareTo(maxLong) > 0 ? -1 : exact.longValueExact();
            assertEquals(expected, PcapngInterfaces.unitsToNanos(units, tsresol),
                "seed=" + seed + " units=" + Long.toUnsignedString(units) + " tsresol=0x" +
                Integer.toHexString(tsresol));
        }
    }

    private PcapFormatException firstFailure(final byte[] file) throws Exception
    {
        try (PcapReader reader = open(file))
        {
            return assertThrows(PcapFormatException.class, () ->
            {
                while (reader.next())
                {
                    assertTrue(reader.packetIndex() < 100);
                }
            });
        }
    }

    private PcapReader open(final byte[] bytes) throws Exception
    {
        return PcapReader.open(write(bytes));
    }

    private Path write(final byte[] bytes) throws Exception
    {
        final Path file = Files.createTempFile(dir, "hand", ".pcapng");
        Files.write(file, bytes);
        return file;
    }

    static ByteOrder order(final String name)
    {
        return "BIG_ENDIAN".equals(name) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    private static byte[] concat(final byte[] first, final byte[] second)
    {
        final byte[] all = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    private static void assertPacket(final byte[] expected, final PcapReader reader)
    {
        assertEquals(expected.length, reader.capturedLength());
        final byte[] actual = new byte[reader.capturedLength()];
        reader.buffer().getBytes(reader.offset(), actual);
        assertArrayEquals(expected, actual);
    }
}
