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
import org.junit.jupiter.params.provider.ValueSource;

class PcapngReaderRobustnessTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /**
     * Cut a file of every block kind at every byte offset: a cut on a block boundary (after the first section
     * header) is a clean end with exactly the complete packets; a cut inside a later block is the same end, reported
     * cut short at the offset of the block it falls into (these cuts were refused with "truncated" until captures cut
     * short were read as tshark reads them); a cut inside the first section header is still refused.
     */
    @ParameterizedTest
    @ValueSource(strings = { "LITTLE_ENDIAN", "BIG_ENDIAN" })
    void shouldEndCleanlyOrReportCutShortWhenTruncatedAtEveryByte(final String orderName)
    {
        final ByteOrder order = PcapngReaderTest.order(orderName);
        final ByteOrder other = ByteOrder.BIG_ENDIAN == order ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        final PcapngFileBuilder builder = new PcapngFileBuilder(order);
        final List<Integer> blockStarts = new ArrayList<>();
        final List<Integer> packetEnds = new ArrayList<>();
        final List<Integer> packetLengths = new ArrayList<>();

        blockStarts.add(builder.size());
        builder.section(order);
        blockStarts.add(builder.size());
        builder.interfaceDescription(1, 65535, builder.tsresol(9), builder.tsoffset(3), builder.endOfOptions());
        final int[] lengths = { 60, 0, 1, 17, 90 };
        for (int i = 0; i < lengths.length; i++)
        {
            blockStarts.add(builder.size());
            builder.enhancedPacket(0, 1_700_000_000_000_000_000L + i, PcapFileBuilder.pattern(lengths[i], i));
            packetEnds.add(builder.size());
            packetLengths.add(lengths[i]);
            blockStarts.add(builder.size());
            builder.block(PcapngFileBuilder.NRB, PcapFileBuilder.pattern(4 * i + 4, i));
        }
        blockStarts.add(builder.size());
        builder.simplePacket(30, PcapFileBuilder.pattern(30, 9));
        packetEnds.add(builder.size());
        packetLengths.add(30);
        blockStarts.add(builder.size());
        builder.block(PcapngFileBuilder.ISB, new byte[20]);
        blockStarts.add(builder.size());
        builder.section(other);
        blockStarts.add(builder.size());
        builder.interfaceDescription(1, 65535);
        blockStarts.add(builder.size());
        builder.packetBlock(0, 5, PcapFileBuilder.pattern(15, 7));
        packetEnds.add(builder.size());
        packetLengths.add(15);
        final byte[] full = builder.toByteArray();

        assertTimeoutPreemptively(TIMEOUT, () ->
        {
            final Path file = dir.resolve("truncated.pcapng");
            for (int cut = 0; cut <= full.length; cut++)
            {
                Files.write(file, Arrays.copyOf(full, cut));
                final boolean onBoundary = cut >= 28 && (cut == full.length || blockStarts.contains(cut));
                long faultOffset = 0;
                for (final int start : blockStarts)
                {
                    if (start <= cut)
                    {
                        faultOffset = start;
                    }
                }
                int complete = 0;
                for (final int end : packetEnds)
                {
                    complete += end <= cut ? 1 : 0;
                }
                final String context = "order=" + order + " cut=" + cut + " of " + full.length;

                if (cut < 28)
                {
                    try (PcapReader reader = PcapReader.open(file, PcapReader.MIN_BUFFER_CAPACITY))
                    {
                        fail(context + ": a cut first section header was accepted");
                    }
                    catch (final PcapFormatException ex)
                    {
                        assertTrue(ex.getMessage().contains("at byte offset 0:"), context + ": " + ex.getMessage());
                        assertEquals(0, ex.byteOffset(), context);
                    }
                    continue;
                }

                int read = 0;
                try (PcapReader reader = PcapReader.open(file, PcapReader.MIN_BUFFER_CAPACITY))
                {
                    while (reader.next())
                    {
                        assertEquals(packetLengths.get(read), reader.capturedLength(), context);
                        if (read < lengths.length)
                        {
                            assertEquals(1_700_000_003_000_000_000L + read, reader.timestampNanos(), context);
                        }
                        read++;
                    }
                    assertEquals(complete, read, context);
                    assertEquals(!onBoundary, reader.cutShort(), context);
                    assertEquals(onBoundary ? -1 : faultOffset, reader.cutShortAt(), context);
                    assertFalse(reader.next(), context);
                }
            }
        });
    }

    /**
     * Valid random pcapng files with random bytes overwritten, or a valid section header followed by garbage: every
     * read ends cleanly or fails with a PcapFormatException naming an offset inside the file, promptly and without
     * any other exception type.
     */
    @Test
    void shouldNeverHangOrThrowOtherExceptionsOnMutatedFiles()
    {
        final long seed = Long.getLong("dta.test.seed", 0xE8A7AD6BL);
        final SplittableRandom random = new SplittableRandom(seed);
        assertTimeoutPreemptively(TIMEOUT, () ->
        {
            final Path file = dir.resolve("mutated.pcapng");
            int failures = 0;
            for (int i = 0; i < 2_000; i++)
            {
                final byte[] bytes = mutatedFile(random, i % 4 == 0);
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
                        assertTrue(reader.timestampNanos() >= 0, context);
                        previousOffset = reader.recordOffset();
                        read++;
                    }
                }
                catch (final PcapFormatException ex)
                {
                    failures++;
                    assertTrue(ex.byteOffset() >= 0 && ex.byteOffset() < bytes.length, context + ": " + ex);
                    assertTrue(ex.getMessage().contains("at byte offset " + ex.byteOffset()), context + ": " + ex);
                }
                assertTrue(read <= bytes.length / 16, context);
            }
            assertTrue(failures > 100, "seed=" + seed + ": mutations should mostly be caught, " + failures);
        });
    }

    private static byte[] mutatedFile(final SplittableRandom random, final boolean garbageBlocks)
    {
        final ByteOrder order = random.nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        final PcapngFileBuilder builder = new PcapngFileBuilder(order).section(order);
        if (garbageBlocks)
        {
            final byte[] garbage = new byte[random.nextInt(2000)];
            random.nextBytes(garbage);
            return builder.raw(garbage).toByteArray();
        }

        builder.interfaceDescription(1, 65535, builder.tsresol(random.nextInt(256)));
        builder.interfaceDescription(1, random.nextInt(200), builder.tsoffset(random.nextInt(1000) - 500));
        final int blocks = 1 + random.nextInt(12);
        for (int b = 0; b < blocks; b++)
        {
            final byte[] packet = PcapFileBuilder.pattern(random.nextInt(300), b);
            switch (random.nextInt(6))
            {
                case 0 -> builder.simplePacket(packet.length, packet);
                case 1 -> builder.packetBlock(random.nextInt(2), random.nextLong(1L << 60), packet);
                case 2 -> builder.block(PcapngFileBuilder.CUSTOM, packet);
                case 3 -> builder.section(random.nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN)
                    .interfaceDescription(1, 65535);
                default -> builder.enhancedPacket(random.nextInt(2), random.nextLong(1L << 60), packet);
            }
        }
        final byte[] bytes = builder.toByteArray();
        final int flips = 1 + random.nextInt(4);
        for (int f = 0; f < flips; f++)
        {
            bytes[random.nextInt(bytes.length)] = (byte)random.nextInt(256);
        }
        return bytes;
    }
}
