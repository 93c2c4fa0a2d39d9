package io.dta.codec.pcap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
        final long seed = System.nanoTime();
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

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void shouldRefuseEditcapPcapngAndReadItsConversionBack(final boolean nanos) throws Exception
    {
        assumeInstalled("editcap");
        final long seed = System.nanoTime();
        final Path file = dir.resolve("orig.pcap");
        final long[] timestamps = new long[PACKETS];
        final int[] lengths = new int[PACKETS];
        writeRandomFile(file, nanos, seed, timestamps, lengths);

        final Path pcapng = dir.resolve("converted.pcapng");
        run("editcap", "-F", "pcapng", file.toString(), pcapng.toString());
        final PcapFormatException ex = assertThrows(PcapFormatException.class, () -> new PcapReader(pcapng));
        assertTrue(ex.getMessage().contains("editcap -F pcap in.pcapng out.pcap"), ex.getMessage());
        assertFalse(PcapReader.isPcap(pcapng));

        // editcap's "pcap" output is microsecond, "nsecpcap" nanosecond: a nanosecond round trip through pcapng
        // also checks that Wireshark's library understood our nanosecond files as such.
        final Path back = dir.resolve("back.pcap");
        run("editcap", "-F", nanos ? "nsecpcap" : "pcap", pcapng.toString(), back.toString());
        try (PcapReader reader = new PcapReader(back))
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
