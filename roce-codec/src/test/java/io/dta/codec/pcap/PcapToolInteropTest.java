package io.dta.codec.pcap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cross-checks against Wireshark's tools; skipped when {@code tshark}/{@code editcap} are not installed.
 */
class PcapToolInteropTest
{
    private static final int PACKETS = 1_000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void shouldBeReadByTsharkWithSameCountLengthsAndTimestamps(final boolean nanos) throws Exception
    {
        assumeInstalled("tshark");
        final long seed = Long.getLong("dta.test.seed", 0xED75CE38L);
        final Path file = dir.resolve("tshark.pcap");
        final long[] timestamps = new long[PACKETS];
        final int[] lengths = new int[PACKETS];
        writeRandomFile(file, nanos, seed, timestamps, lengths);

        final List<String> lines = run("tshark", "-n", "-r", file.toString(), "-T", "fields",
            "-e", "frame.len", "-e", "frame.cap_len", "-e", "frame.time_epoch");
        assertEquals(PACKETS, lines.size(), "seed=" + seed);
        for (int i = 0; i < PACKETS; i++)
        {
            final String[] fields = lines.get(i).split("\t");
            final String context = "seed=" + seed + " packet=" + i + " line=" + lines.get(i);
            assertEquals(lengths[i], Integer.parseInt(fields[0]), context);
            assertEquals(lengths[i], Integer.parseInt(fields[1]), context);
            final long expectedNanos = nanos ? timestamps[i] : timestamps[i] / 1000 * 1000;
            assertEquals(expectedNanos, epochNanos(fields[2]), context);
        }
    }

    /**
     * editcap's pcapng of one of our files must read back as the same packets and nanosecond timestamps. editcap
     * keeps the source's precision: a microsecond pcap gives interfaces without {@code if_tsresol} (the pcapng
     * default, microseconds), a nanosecond pcap gives {@code if_tsresol} 9, so both resolutions are covered.
     */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void shouldReadEditcapPcapngLikeTheClassicOriginal(final boolean nanos) throws Exception
    {
        assumeInstalled("editcap");
        final long seed = Long.getLong("dta.test.seed", 0x90023A7DL);
        final Path file = dir.resolve("orig.pcap");
        final long[] timestamps = new long[PACKETS];
        final int[] lengths = new int[PACKETS];
        writeRandomFile(file, nanos, seed, timestamps, lengths);

        final Path pcapng = dir.resolve("converted.pcapng");
        run("editcap", "-F", "pcapng", file.toString(), pcapng.toString());
        assertTrue(PcapReader.isPcap(pcapng));
        try (PcapReader classic = PcapReader.open(file); PcapReader converted = PcapReader.open(pcapng))
        {
            assertFalse(classic.pcapng());
            assertTrue(converted.pcapng());
            for (int i = 0; i < PACKETS; i++)
            {
                final String context = "seed=" + seed + " packet=" + i;
                assertTrue(classic.next(), context);
                assertTrue(converted.next(), context);
                assertEquals(nanos, converted.nanosecondResolution(), context);
                assertEquals(nanos ? timestamps[i] : timestamps[i] / 1000 * 1000, converted.timestampNanos(), context);
                assertEquals(classic.timestampNanos(), converted.timestampNanos(), context);
                assertEquals(lengths[i], converted.capturedLength(), context);
                assertEquals(classic.originalLength(), converted.originalLength(), context);
                assertEquals(0, compare(classic, converted), context + ": first differing byte, 1-based");
            }
            assertFalse(classic.next(), "seed=" + seed);
            assertFalse(converted.next(), "seed=" + seed);
        }

        // And back to classic pcap ("nsecpcap" keeps nanoseconds): the pcapng was understood by Wireshark's library
        // exactly as we read it.
        final Path back = dir.resolve("back.pcap");
        run("editcap", "-F", nanos ? "nsecpcap" : "pcap", pcapng.toString(), back.toString());
        try (PcapReader reader = PcapReader.open(back))
        {
            assertEquals(nanos, reader.nanosecondResolution(), "seed=" + seed);
            for (int i = 0; i < PACKETS; i++)
            {
                final String context = "seed=" + seed + " packet=" + i;
                assertTrue(reader.next(), context);
                assertEquals(lengths[i], reader.capturedLength(), context);
                assertEquals(nanos ? timestamps[i] : timestamps[i] / 1000 * 1000, reader.timestampNanos(), context);
            }
            assertFalse(reader.next(), "seed=" + seed);
        }
    }

    /** One plus the index of the first differing packet byte, or 0 when the packets are equal. */
    private static int compare(final PcapReader expected, final PcapReader actual)
    {
        for (int i = 0; i < expected.capturedLength(); i++)
        {
            if (expected.buffer().getByte(expected.offset() + i) != actual.buffer().getByte(actual.offset() + i))
            {
                return i + 1;
            }
        }
        return 0;
    }

    private static void writeRandomFile(
        final Path file, final boolean nanos, final long seed, final long[] timestamps, final int[] lengths)
        throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[1514]);
        long timestamp = 1_700_000_000_000_000_000L;
        try (PcapWriter writer = new PcapWriter(file, nanos))
        {
            for (int i = 0; i < PACKETS; i++)
            {
                timestamp += random.nextLong(2_000_000_000L);
                timestamps[i] = timestamp;
                lengths[i] = 14 + random.nextInt(1501);
                PcapRoundTripTest.fill(packet, 0, lengths[i], random.nextLong());
                writer.write(timestamp, packet, 0, lengths[i]);
            }
        }
    }

    private static long epochNanos(final String epoch)
    {
        final int dot = epoch.indexOf('.');
        final String fraction = (epoch.substring(dot + 1) + "000000000").substring(0, 9);
        return Long.parseLong(epoch.substring(0, dot)) * 1_000_000_000L + Long.parseLong(fraction);
    }

    private static void assumeInstalled(final String tool)
    {
        final boolean installed = Files.isExecutable(Path.of("/usr/bin", tool)) ||
            Files.isExecutable(Path.of("/usr/local/bin", tool));
        Assumptions.assumeTrue(installed, tool + " not installed");
    }

    private List<String> run(final String... command) throws Exception
    {
        final Path stderr = dir.resolve("stderr.txt");
        final Process process = new ProcessBuilder(command)
            .redirectError(stderr.toFile())
            .start();
        final List<String> lines = new ArrayList<>();
        try (var reader = process.inputReader(StandardCharsets.UTF_8))
        {
            String line;
            while ((line = reader.readLine()) != null)
            {
                if (!line.isBlank())
                {
                    lines.add(line);
                }
            }
        }
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "timed out: " + String.join(" ", command));
        assertEquals(0, process.exitValue(),
            String.join(" ", command) + " failed: " + Files.readString(stderr));
        return lines;
    }
}
