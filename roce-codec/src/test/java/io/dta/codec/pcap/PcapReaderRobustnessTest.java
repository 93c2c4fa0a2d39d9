package io.dta.codec.pcap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PcapReaderRobustnessTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /**
     * Cut a multi-packet file at every byte offset: a cut on a record boundary is a clean end with exactly the
     * complete records; a cut inside a record is the same end, reported cut short at the offset of the record it
     * falls into (these cuts were refused with "truncated packet record" until captures cut short were read as
     * tshark reads them); a cut inside the global header is still refused, naming offset 0.
     */
    @ParameterizedTest
    @CsvSource({ "LITTLE_ENDIAN, false", "BIG_ENDIAN, true" })
    void shouldEndCleanlyOrReportCutShortWhenTruncatedAtEveryByte(final String orderName, final boolean nanos)
    {
        final ByteOrder order = "BIG_ENDIAN".equals(orderName) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        final int[] lengths = { 60, 0, 1, 17, 90, 15, 16, 200 };
        final PcapFileBuilder builder = new PcapFileBuilder(order)
            .globalHeader(nanos ? PcapFormat.MAGIC_NANOSECONDS : PcapFormat.MAGIC_MICROSECONDS, 65535, 1);
        final List<Integer> recordStarts = new ArrayList<>();
        for (int i = 0; i < lengths.length; i++)
        {
            recordStarts.add(builder.size());
            builder.record(1_700_000_000L + i, i, PcapFileBuilder.pattern(lengths[i], i));
        }
        final byte[] full = builder.toByteArray();

        assertTimeoutPreemptively(TIMEOUT, () ->
        {
            final Path file = dir.resolve("truncated.pcap");
            for (int cut = 0; cut <= full.length; cut++)
            {
                Files.write(file, Arrays.copyOf(full, cut));
                final int completeRecords = completeRecords(recordStarts, lengths, cut);
                final boolean onBoundary = cut == full.length || recordStarts.contains(cut);
                final long faultOffset = faultOffset(recordStarts, cut);
                final String context = "cut=" + cut + " of " + full.length;

                if (cut < PcapFormat.GLOBAL_HEADER_LENGTH)
                {
                    try (PcapReader reader = PcapReader.open(file, PcapReader.MIN_BUFFER_CAPACITY))
                    {
                        fail(context + ": a cut global header was accepted");
                    }
                    catch (final PcapFormatException ex)
                    {
                        assertTrue(ex.getMessage().contains("truncated global header at byte offset 0:"),
                            context + ": " + ex.getMessage());
                    }
                    continue;
                }

                int read = 0;
                try (PcapReader reader = PcapReader.open(file, PcapReader.MIN_BUFFER_CAPACITY))
                {
                    while (reader.next())
                    {
                        assertEquals(lengths[read], reader.capturedLength(), context);
                        assertEquals((1_700_000_000L + read) * 1_000_000_000L + (nanos ? read : read * 1000L),
                            reader.timestampNanos(), context);
                        read++;
                    }
                    assertEquals(completeRecords, read, context);
                    assertEquals(!onBoundary, reader.cutShort(), context);
                    assertEquals(onBoundary ? -1 : faultOffset, reader.cutShortAt(), context);
                    assertFalse(reader.next(), context);
                }
            }
        });
    }

    @Test
    void shouldFailClearlyOnRandomGarbage()
    {
        final long seed = Long.getLong("dta.test.seed", 0x90146B61L);
        final SplittableRandom random = new SplittableRandom(seed);
        assertTimeoutPreemptively(TIMEOUT, () ->
        {
            final Path file = dir.resolve("garbage.pcap");
            for (int i = 0; i < 500; i++)
            {
                final byte[] garbage = new byte[random.nextInt(3000)];
                random.nextBytes(garbage);
                Files.write(file, garbage);
                final String context = "seed=" + seed + " case=" + i + " size=" + garbage.length;
                try (PcapReader reader = PcapReader.open(file, PcapReader.MIN_BUFFER_CAPACITY))
                {
                    fail(context + ": random garbage accepted as pcap with snap length " + reader.snapLength());
                }
                catch (final PcapFormatException ex)
                {
                    assertTrue(ex.getMessage().contains("at byte offset 0"), context + ": " + ex.getMessage());
                }
            }
        });
    }

    /**
     * A valid global header followed by garbage, and valid files with random bytes overwritten: every read must end
     * cleanly or fail with a PcapFormatException naming an offset inside the file, promptly and without any other
     * exception type.
     */
    @Test
    void shouldNeverHangOrThrowOtherExceptionsOnCorruptRecords()
    {
        final long seed = Long.getLong("dta.test.seed", 0x66CFF8CEL);
        final SplittableRandom random = new SplittableRandom(seed);
        assertTimeoutPreemptively(TIMEOUT, () ->
        {
            final Path file = dir.resolve("corrupt.pcap");
            for (int i = 0; i < 1_000; i++)
            {
                final byte[] bytes = corruptFile(random, i % 2 == 0);
                Files.write(file, bytes);
                final String context = "seed=" + seed + " case=" + i + " size=" + bytes.length;
                long read = 0;
                try (PcapReader reader = PcapReader.open(file, PcapReader.MIN_BUFFER_CAPACITY))
                {
                    long previousOffset = -1;
                    while (reader.next())
                    {
                        assertTrue(reader.recordOffset() > previousOffset, context);
                        assertTrue(reader.offset() + reader.capturedLength() <= reader.buffer().capacity(), context);
                        assertTrue(reader.recordOffset() + 16 + reader.capturedLength() <= bytes.length, context);
                        previousOffset = reader.recordOffset();
                        read++;
                    }
                    assertTrue(!reader.cutShort() ||
                        reader.cutShortAt() > previousOffset && reader.cutShortAt() < bytes.length, context);
                }
                catch (final PcapFormatException ex)
                {
                    assertTrue(ex.byteOffset() >= 0 && ex.byteOffset() < bytes.length, context + ": " + ex);
                    assertTrue(ex.getMessage().contains("at byte offset " + ex.byteOffset()), context + ": " + ex);
                }
                assertTrue(read <= bytes.length / 16, context);
            }
        });
    }

    private static byte[] corruptFile(final SplittableRandom random, final boolean garbageRecords)
    {
        final PcapFileBuilder builder = new PcapFileBuilder(
            random.nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN)
            .globalHeader(random.nextBoolean() ? PcapFormat.MAGIC_NANOSECONDS : PcapFormat.MAGIC_MICROSECONDS,
                65535, 1);
        if (garbageRecords)
        {
            final byte[] garbage = new byte[random.nextInt(2000)];
            random.nextBytes(garbage);
            return builder.raw(garbage).toByteArray();
        }

        final int records = 1 + random.nextInt(10);
        for (int r = 0; r < records; r++)
        {
            builder.record(random.nextInt(Integer.MAX_VALUE), random.nextInt(1000),
                PcapFileBuilder.pattern(random.nextInt(300), r));
        }
        final byte[] bytes = builder.toByteArray();
        final int flips = 1 + random.nextInt(4);
        for (int f = 0; f < flips; f++)
        {
            // Only records are mutated: header corruption is covered by the garbage and format tests.
            bytes[24 + random.nextInt(bytes.length - 24)] = (byte)random.nextInt(256);
        }
        return bytes;
    }

    private static int completeRecords(final List<Integer> recordStarts, final int[] lengths, final int cut)
    {
        int complete = 0;
        for (int i = 0; i < lengths.length; i++)
        {
            if (recordStarts.get(i) + 16 + lengths[i] <= cut)
            {
                complete++;
            }
        }
        return complete;
    }

    private static long faultOffset(final List<Integer> recordStarts, final int cut)
    {
        if (cut < PcapFormat.GLOBAL_HEADER_LENGTH)
        {
            return 0;
        }
        long offset = 0;
        for (final int start : recordStarts)
        {
            if (start <= cut)
            {
                offset = start;
            }
        }
        return offset;
    }
}
