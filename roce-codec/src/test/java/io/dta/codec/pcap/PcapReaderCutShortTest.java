package io.dta.codec.pcap;

import static io.dta.codec.pcap.PcapReaderFormatTest.assertContains;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A capture whose last record is cut short (copied while tcpdump was writing it, or tcpdump killed mid-write) reads
 * to its last whole record and then reports where it was cut, as tshark does; damage that a cut at the end of the
 * file cannot explain is still refused.
 */
class PcapReaderCutShortTest
{
    private static final long BASE_SECONDS = 1_700_000_000L;

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({ "LITTLE_ENDIAN, false", "LITTLE_ENDIAN, true", "BIG_ENDIAN, false", "BIG_ENDIAN, true" })
    void shouldReadWholeRecordsOfClassicFileCutInsideRecordHeader(final String orderName, final boolean nanos)
        throws Exception
    {
        final ClassicFile file = classic(orderName, nanos, 6);
        // 7 of the 16 header bytes of the last record.
        final byte[] cut = Arrays.copyOf(file.bytes, file.starts.get(5) + 7);

        assertCutShort(cut, file, 5, file.starts.get(5), nanos);
    }

    @ParameterizedTest
    @CsvSource({ "LITTLE_ENDIAN, false", "LITTLE_ENDIAN, true", "BIG_ENDIAN, false", "BIG_ENDIAN, true" })
    void shouldReadWholeRecordsOfClassicFileCutInsideRecordBody(final String orderName, final boolean nanos)
        throws Exception
    {
        final ClassicFile file = classic(orderName, nanos, 6);
        // The whole header and 10 bytes of the data of the last record.
        final byte[] cut = Arrays.copyOf(file.bytes, file.starts.get(5) + 16 + 10);

        assertCutShort(cut, file, 5, file.starts.get(5), nanos);
    }

    @Test
    void shouldReportCutAfterGlobalHeaderWithNoWholeRecord() throws Exception
    {
        final ClassicFile file = classic("LITTLE_ENDIAN", false, 1);
        try (PcapReader reader = open(Arrays.copyOf(file.bytes, 24 + 3)))
        {
            assertFalse(reader.next());
            assertTrue(reader.cutShort());
            assertEquals(24, reader.cutShortAt());
            assertEquals(reader.path() + " appears to have been cut short in the middle of a packet at byte offset " +
                "24 (the 0 whole packets before it were read)", reader.cutShortWarning());
        }
    }

    @Test
    void shouldNotReportCompleteFileCutShort() throws Exception
    {
        final ClassicFile file = classic("LITTLE_ENDIAN", true, 4);
        try (PcapReader reader = open(file.bytes))
        {
            int read = 0;
            while (reader.next())
            {
                read++;
            }
            assertEquals(4, read);
            assertFalse(reader.cutShort());
            assertEquals(-1, reader.cutShortAt());
            assertNull(reader.cutShortWarning());
        }
    }

    @ParameterizedTest
    @CsvSource({ "LITTLE_ENDIAN, 6", "LITTLE_ENDIAN, 9", "BIG_ENDIAN, 6", "BIG_ENDIAN, 9" })
    void shouldReadWholePacketsOfPcapngFileCutInsideEnhancedPacketBlock(final String orderName, final int tsresol)
        throws Exception
    {
        final PcapngFile file = pcapng(orderName, tsresol);
        final int last = file.starts.size() - 1;
        // The block header, the fixed fields and 3 bytes of the data of the last EPB.
        final byte[] cut = Arrays.copyOf(file.bytes, file.starts.get(last) + 28 + 3);

        assertPcapngCutShort(cut, file, last, file.starts.get(last), tsresol);
    }

    @ParameterizedTest
    @CsvSource({ "LITTLE_ENDIAN, 6, 5", "BIG_ENDIAN, 9, 5", "LITTLE_ENDIAN, 9, 1", "BIG_ENDIAN, 6, 7" })
    void shouldReadWholePacketsOfPcapngFileCutInsideBlockHeader(
        final String orderName, final int tsresol, final int headerBytes) throws Exception
    {
        final PcapngFile file = pcapng(orderName, tsresol);
        final int last = file.starts.size() - 1;
        // Fewer than the 8 bytes of type and total length of the last EPB.
        final byte[] cut = Arrays.copyOf(file.bytes, file.starts.get(last) + headerBytes);

        assertPcapngCutShort(cut, file, last, file.starts.get(last), tsresol);
    }

    @ParameterizedTest
    @ValueSource(ints = { 3, 12, 20, 30 })
    void shouldReportPcapngCutInsideLaterSectionHeader(final int present) throws Exception
    {
        final PcapngFile file = pcapng("LITTLE_ENDIAN", 9);
        final int sectionAt = file.bytes.length;
        final byte[] next = new PcapngFileBuilder(ByteOrder.BIG_ENDIAN)
            .section(ByteOrder.BIG_ENDIAN, 1, new byte[8]).toByteArray();
        final byte[] bytes = Arrays.copyOf(file.bytes, sectionAt + present);
        System.arraycopy(next, 0, bytes, sectionAt, present);

        assertPcapngCutShort(bytes, file, file.starts.size(), sectionAt, 9);
    }

    @Test
    void shouldStillRefuseCorruptRecordInTheMiddleOfClassicFile() throws Exception
    {
        final ClassicFile file = classic("LITTLE_ENDIAN", false, 6);
        final byte[] bytes = file.bytes.clone();
        // Record 2 claims more than the sanity cap, and more than the rest of the file: damage, not a cut.
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(file.starts.get(2) + 8, 300_000);

        try (PcapReader reader = open(bytes))
        {
            assertTrue(reader.next());
            assertTrue(reader.next());
            final PcapFormatException ex = assertThrows(PcapFormatException.class, reader::next);
            assertEquals((long)file.starts.get(2), ex.byteOffset());
            assertContains(ex, "captured length 300000 exceeds snap length 65535 and the sanity cap 262144");
            assertFalse(reader.cutShort());
        }
    }

    @Test
    void shouldStillRefuseLastRecordLongerThanSnapLengthRunningPastTheEnd() throws Exception
    {
        final byte[] bytes = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 1600, 1)
            .record(BASE_SECONDS, 0, PcapFileBuilder.pattern(100, 1))
            .record(BASE_SECONDS, 1, 2000, 2000, PcapFileBuilder.pattern(500, 2))
            .toByteArray();

        try (PcapReader reader = open(bytes))
        {
            assertTrue(reader.next());
            final PcapFormatException ex = assertThrows(PcapFormatException.class, reader::next);
            assertEquals(24 + 16 + 100, ex.byteOffset());
            assertContains(ex, "header says 2000 captured bytes, above the snap length 1600, 500 remain: " +
                "a damaged record, not a capture cut short");
            assertFalse(reader.cutShort());
        }
    }

    @Test
    void shouldStillRefuseLastRecordCapturingMoreThanItsOriginalLength() throws Exception
    {
        final byte[] bytes = new PcapFileBuilder(ByteOrder.BIG_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_NANOSECONDS, 65535, 1)
            .record(BASE_SECONDS, 0, PcapFileBuilder.pattern(100, 1))
            .record(BASE_SECONDS, 1, 200, 150, PcapFileBuilder.pattern(50, 2))
            .toByteArray();

        try (PcapReader reader = open(bytes))
        {
            assertTrue(reader.next());
            final PcapFormatException ex = assertThrows(PcapFormatException.class, reader::next);
            assertContains(ex, "captured length 200 greater than original length 150 at byte offset 140");
        }
    }

    @Test
    void shouldStillRefuseDamagedLastPcapngBlocks() throws Exception
    {
        final PcapngFile file = pcapng("LITTLE_ENDIAN", 6);
        final int last = file.starts.get(file.starts.size() - 1);

        final byte[] notMultipleOf4 = Arrays.copyOf(file.bytes, last + 40);
        ByteBuffer.wrap(notMultipleOf4).order(ByteOrder.LITTLE_ENDIAN).putInt(last + 4, 1001);
        assertRefusedAfterWholePackets(notMultipleOf4, file.starts.size() - 1, last, "not a multiple of 4");

        final byte[] aboveCap = Arrays.copyOf(file.bytes, last + 40);
        ByteBuffer.wrap(aboveCap).order(ByteOrder.LITTLE_ENDIAN).putInt(last + 4, PcapngFormat.MAX_BLOCK_LENGTH + 4);
        assertRefusedAfterWholePackets(aboveCap, file.starts.size() - 1, last, "exceeds the sanity cap");

        final byte[] absurdOther = Arrays.copyOf(file.bytes, last + 40);
        ByteBuffer.wrap(absurdOther).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(last, PcapngFileBuilder.CUSTOM).putInt(last + 4, 0x7FFF_FFF0);
        assertRefusedAfterWholePackets(absurdOther, file.starts.size() - 1, last,
            "block total length says 2147483632 bytes, above the sanity cap 327680, 40 remain: a damaged block of " +
            "type 0x00000bad, not a capture cut short");

        final byte[] badMagic = Arrays.copyOf(file.bytes, last + 20);
        ByteBuffer.wrap(badMagic).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(last, PcapngFileBuilder.SHB).putInt(last + 4, 28).putInt(last + 8, 0x12345678);
        assertRefusedAfterWholePackets(badMagic, file.starts.size() - 1, last, "bad byte-order magic");
    }

    @Test
    void shouldStillRefuseWrongTrailingLengthInTheMiddleOfPcapngFile() throws Exception
    {
        final PcapngFile file = pcapng("BIG_ENDIAN", 9);
        final byte[] bytes = file.bytes.clone();
        final int second = file.starts.get(1);
        final int length = ByteBuffer.wrap(bytes).getInt(second + 4);
        ByteBuffer.wrap(bytes).putInt(second + length - 4, length + 4);

        assertRefusedAfterWholePackets(bytes, 1, second, "at the start and " + (length + 4) + " at the end differ");
    }

    @Test
    void shouldStillRefuseFileCutInsideItsGlobalHeaderOrFirstSectionHeader() throws Exception
    {
        final ClassicFile classic = classic("LITTLE_ENDIAN", false, 2);
        final PcapFormatException global =
            assertThrows(PcapFormatException.class, () -> open(Arrays.copyOf(classic.bytes, 20)));
        assertContains(global, "truncated global header at byte offset 0: need 24 bytes, 20 present");

        final PcapngFile pcapng = pcapng("LITTLE_ENDIAN", 9);
        final PcapFormatException section =
            assertThrows(PcapFormatException.class, () -> open(Arrays.copyOf(pcapng.bytes, 20)));
        assertContains(section, "truncated section header block at byte offset 0");
    }

    /**
     * Seeded random multi-megabyte-buffer files (classic or pcapng, records crossing the reader's buffer refills) cut
     * at a random byte: the reader returns exactly the whole records before the cut, with their bytes, and reports the
     * cut at the start of the record it falls into, or a clean end on a boundary.
     */
    @Test
    void shouldReadExactlyTheWholeRecordsBeforeRandomCuts() throws Exception
    {
        final long seed = Long.getLong("dta.test.seed", 0xC07_5407L);
        final SplittableRandom random = new SplittableRandom(seed);
        final Path path = dir.resolve("random-cut");
        for (int c = 0; c < 300; c++)
        {
            final boolean ng = random.nextBoolean();
            final ByteOrder order = random.nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            final List<Integer> starts = new ArrayList<>();
            final List<byte[]> packets = new ArrayList<>();
            final int records = random.nextInt(1, 700);
            final byte[] bytes;
            if (ng)
            {
                final PcapngFileBuilder builder = new PcapngFileBuilder(order).section(order)
                    .interfaceDescription(1, 0, new PcapngFileBuilder(order).tsresol(9));
                for (int r = 0; r < records; r++)
                {
                    final byte[] packet = PcapFileBuilder.pattern(random.nextInt(1600), r);
                    starts.add(builder.size());
                    packets.add(packet);
                    builder.enhancedPacket(0, BASE_SECONDS * 1_000_000_000L + r, packet);
                }
                bytes = builder.toByteArray();
            }
            else
            {
                final PcapFileBuilder builder = new PcapFileBuilder(order)
                    .globalHeader(PcapFormat.MAGIC_NANOSECONDS, 65535, 1);
                for (int r = 0; r < records; r++)
                {
                    final byte[] packet = PcapFileBuilder.pattern(random.nextInt(1600), r);
                    starts.add(builder.size());
                    packets.add(packet);
                    builder.record(BASE_SECONDS, r, packet);
                }
                bytes = builder.toByteArray();
            }
            final int first = starts.get(0);
            final int cut = random.nextInt(first, bytes.length + 1);
            Files.write(path, Arrays.copyOf(bytes, cut));
            final String context = "seed=" + seed + " case=" + c + " pcapng=" + ng + " cut=" + cut + " of " +
                bytes.length;

            int whole = 0;
            long cutAt = -1;
            for (int r = 0; r < records; r++)
            {
                final int end = r + 1 < records ? starts.get(r + 1) : bytes.length;
                if (end <= cut)
                {
                    whole++;
                }
                else
                {
                    cutAt = starts.get(r) == cut ? -1 : starts.get(r);
                    break;
                }
            }

            try (PcapReader reader = PcapReader.open(path, PcapReader.MIN_BUFFER_CAPACITY))
            {
                int read = 0;
                while (reader.next())
                {
                    final byte[] actual = new byte[reader.capturedLength()];
                    reader.buffer().getBytes(reader.offset(), actual);
                    assertArrayEquals(packets.get(read), actual, context + " packet " + read);
                    assertEquals(BASE_SECONDS * 1_000_000_000L + read, reader.timestampNanos(), context);
                    read++;
                }
                assertEquals(whole, read, context);
                assertEquals(cutAt, reader.cutShortAt(), context);
                assertEquals(cutAt >= 0, reader.cutShort(), context);
            }
        }
    }

    private void assertCutShort(
        final byte[] cut, final ClassicFile file, final int whole, final long at, final boolean nanos)
        throws Exception
    {
        try (PcapReader reader = open(cut))
        {
            int read = 0;
            while (reader.next())
            {
                assertEquals(file.lengths[read], reader.capturedLength());
                assertEquals((BASE_SECONDS + read) * 1_000_000_000L + (nanos ? 7 * read : 7_000L * read),
                    reader.timestampNanos());
                read++;
            }
            assertEquals(whole, read);
            assertTrue(reader.cutShort());
            assertEquals(at, reader.cutShortAt());
            assertFalse(reader.next(), "an end stays an end");
            assertTrue(reader.cutShort());
            assertEquals(reader.path() + " appears to have been cut short in the middle of a packet at byte offset " +
                at + " (the " + whole + " whole packets before it were read)", reader.cutShortWarning());
        }
    }

    private void assertPcapngCutShort(
        final byte[] cut, final PcapngFile file, final int whole, final long at, final int tsresol) throws Exception
    {
        final long unit = 6 == tsresol ? 1_000L : 1L;
        try (PcapReader reader = open(cut))
        {
            int read = 0;
            while (reader.next())
            {
                assertEquals(file.lengths[read], reader.capturedLength());
                assertEquals(file.units[read] * unit, reader.timestampNanos());
                assertEquals(9 == tsresol, reader.nanosecondResolution());
                read++;
            }
            assertEquals(whole, read);
            assertTrue(reader.cutShort());
            assertEquals(at, reader.cutShortAt());
            assertFalse(reader.next(), "an end stays an end");
        }
    }

    private void assertRefusedAfterWholePackets(
        final byte[] bytes, final int whole, final long at, final String message) throws Exception
    {
        try (PcapReader reader = open(bytes))
        {
            for (int i = 0; i < whole; i++)
            {
                assertTrue(reader.next(), "packet " + i);
            }
            final PcapFormatException ex = assertThrows(PcapFormatException.class, reader::next);
            assertEquals(at, ex.byteOffset());
            assertContains(ex, message);
            assertFalse(reader.cutShort());
            assertEquals(-1, reader.cutShortAt());
        }
    }

    private PcapReader open(final byte[] bytes) throws IOException
    {
        final Path path = dir.resolve("capture");
        Files.write(path, bytes);
        return PcapReader.open(path);
    }

    private static ClassicFile classic(final String orderName, final boolean nanos, final int records)
    {
        final ByteOrder order = "BIG_ENDIAN".equals(orderName) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        final PcapFileBuilder builder = new PcapFileBuilder(order)
            .globalHeader(nanos ? PcapFormat.MAGIC_NANOSECONDS : PcapFormat.MAGIC_MICROSECONDS, 65535, 1);
        final int[] lengths = new int[records];
        final List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < records; i++)
        {
            lengths[i] = 60 + 37 * i;
            starts.add(builder.size());
            builder.record(BASE_SECONDS + i, 7L * i, PcapFileBuilder.pattern(lengths[i], i));
        }
        return new ClassicFile(builder.toByteArray(), starts, lengths);
    }

    /**
     * Section, interface (if_tsresol 10^-tsresol), name resolution block, then EPBs; {@code starts} are the EPBs'.
     */
    private static PcapngFile pcapng(final String orderName, final int tsresol)
    {
        final ByteOrder order = "BIG_ENDIAN".equals(orderName) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        final PcapngFileBuilder builder = new PcapngFileBuilder(order).section(order);
        builder.interfaceDescription(1, 65535, builder.tsresol(tsresol), builder.endOfOptions())
            .block(PcapngFileBuilder.NRB, new byte[12]);
        final int packets = 5;
        final int[] lengths = new int[packets];
        final long[] units = new long[packets];
        final List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < packets; i++)
        {
            lengths[i] = 61 + 29 * i;
            units[i] = (6 == tsresol ? BASE_SECONDS * 1_000_000L : BASE_SECONDS * 1_000_000_000L) + 11L * i;
            starts.add(builder.size());
            builder.enhancedPacket(0, units[i], PcapFileBuilder.pattern(lengths[i], i));
        }
        return new PcapngFile(builder.toByteArray(), starts, lengths, units);
    }

    private record ClassicFile(byte[] bytes, List<Integer> starts, int[] lengths)
    {
    }

    private record PcapngFile(byte[] bytes, List<Integer> starts, int[] lengths, long[] units)
    {
    }
}
