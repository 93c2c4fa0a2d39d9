package io.dta.appliance.cli;

import io.dta.codec.pcap.PcapReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta collector} offline reads its input through before it zero-fills a store or writes an output: an input
 * that is no capture, or a capture damaged in its middle, fails with the store of an earlier run and an earlier
 * responses file exactly as they were.
 */
class CollectorInputFirstTest
{
    @TempDir
    Path dir;

    private Path store;
    private Path roce;
    private Map<Path, byte[]> storeBefore;

    @BeforeEach
    void runOnce() throws IOException
    {
        final Path reports = dir.resolve("reports.pcap");
        roce = dir.resolve("roce.pcap");
        store = dir.resolve("store");
        assertEquals(0, CliRunner.run("gen", "--out", reports.toString(), "--reports", "2000").exitCode());
        assertEquals(0, CliRunner.run("replay", "--in", reports.toString(), "--out", roce.toString()).exitCode());
        final CliRunner.Result first = CliRunner.run("collector", "--in", roce.toString(), "--out",
            dir.resolve("responses.pcap").toString(), "--store", store.toString());
        assertEquals(0, first.exitCode(), first.err());
        storeBefore = contents(store);
        assertTrue(storeBefore.values().stream().anyMatch(CollectorInputFirstTest::anyNonZero),
            "the first run wrote the store");
    }

    @Test
    void shouldLeaveTheStoreAsItWasWhenTheInputIsNoCapture() throws IOException
    {
        final Path text = Files.writeString(dir.resolve("README.md"), "# not a capture\n\nsome text\n");
        final Path out = dir.resolve("again.pcap");
        final CliRunner.Result result = CliRunner.run("collector", "--in", text.toString(), "--out", out.toString(),
            "--store", store.toString());
        assertEquals(1, result.exitCode());
        assertTrue(result.err().startsWith("dta collector: bad magic"), result.err());
        assertStoreUnchanged();
        assertFalse(Files.exists(out));
    }

    @Test
    void shouldLeaveTheStoreAndAnEarlierOutputAsTheyWereWhenTheCaptureIsDamagedInItsMiddle() throws IOException
    {
        final Path damaged = dir.resolve("damaged.pcap");
        Files.copy(roce, damaged);
        final long middle;
        try (PcapReader reader = PcapReader.open(damaged))
        {
            long records = 0;
            while (reader.next())
            {
                records++;
            }
            assertTrue(records > 100, "records: " + records);
            try (PcapReader again = PcapReader.open(damaged))
            {
                for (long i = 0; i <= records / 2; i++)
                {
                    again.next();
                }
                middle = again.recordOffset();
            }
        }
        try (RandomAccessFile file = new RandomAccessFile(damaged.toFile(), "rw"))
        {
            // The captured length of a record in the middle, little-endian: far above any snap length.
            file.seek(middle + 8);
            file.write(new byte[] { (byte)0xFF, (byte)0xFF, (byte)0xFF, 0x7F });
        }
        final Path out = Files.writeString(dir.resolve("earlier-responses.pcap"), "an earlier result");
        final CliRunner.Result result = CliRunner.run("collector", "--in", damaged.toString(), "--out",
            out.toString(), "--store", store.toString());
        assertEquals(1, result.exitCode());
        assertTrue(result.err().contains("byte offset " + middle), result.err());
        assertStoreUnchanged();
        assertEquals("an earlier result", Files.readString(out));
    }

    private void assertStoreUnchanged() throws IOException
    {
        final Map<Path, byte[]> after = contents(store);
        assertEquals(storeBefore.keySet(), after.keySet());
        for (final Map.Entry<Path, byte[]> e : storeBefore.entrySet())
        {
            assertTrue(Arrays.equals(e.getValue(), after.get(e.getKey())), e.getKey() + " changed");
        }
    }

    private static Map<Path, byte[]> contents(final Path directory) throws IOException
    {
        final Map<Path, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(directory))
        {
            for (final Path p : walk.filter(Files::isRegularFile).toList())
            {
                files.put(directory.relativize(p), Files.readAllBytes(p));
            }
        }
        return files;
    }

    private static boolean anyNonZero(final byte[] bytes)
    {
        for (final byte b : bytes)
        {
            if (0 != b)
            {
                return true;
            }
        }
        return false;
    }
}
