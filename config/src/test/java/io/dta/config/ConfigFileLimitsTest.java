package io.dta.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A configuration file is refused before parsing when it is over 1 MiB, not UTF-8 (naming the line and the byte
 * offset) or has a line over 64 KiB, and a huge value or key is shortened in the message that names it.
 */
class ConfigFileLimitsTest
{
    /** The smallest valid configuration. */
    private static final String MINIMAL = ConfigLoaderTest.MINIMAL;

    @TempDir
    Path dir;

    @Test
    void shouldNameTheLineAndByteOffsetOfAByteThatIsNotUtf8() throws IOException
    {
        // "café" in Latin-1 in a comment on line 3.
        final byte[] head = "translator:\n  mac: \"02:00:00:00:00:01\"\n# caf".getBytes(StandardCharsets.US_ASCII);
        final byte[] tail = "\n".getBytes(StandardCharsets.US_ASCII);
        final Path file = write("latin1.yaml", head, new byte[] { (byte)0xE9 }, tail);

        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(file));

        assertEquals(file + ": cannot read: not UTF-8 text: byte 0xe9 at line 3, byte offset " + head.length +
            " (byte 6 of the line)", ex.problems().getFirst());
    }

    @Test
    void shouldRefuseAMultiByteSequenceCutShortAtTheEnd() throws IOException
    {
        final byte[] text = MINIMAL.getBytes(StandardCharsets.UTF_8);
        final Path file = write("cut.yaml", text, new byte[] { '#', ' ', (byte)0xC3 });

        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(file));

        final long lines = MINIMAL.lines().count();
        assertEquals(file + ": cannot read: not UTF-8 text: byte 0xc3 at line " + (lines + 1) + ", byte offset " +
            (text.length + 2) + " (byte 3 of the line)", ex.problems().getFirst());
    }

    @Test
    void shouldLoadUtf8TextBeyondAscii() throws IOException
    {
        final Path file = write("utf8.yaml", ("# café, Zürich, 東京, 🛰\n" + MINIMAL).getBytes(StandardCharsets.UTF_8));

        assertEquals(1, ConfigLoader.load(file).collectors().size());
    }

    @Test
    void shouldRefuseAFileOverOneMebibyteUnread() throws IOException
    {
        final byte[] comment = new byte[10 * 1024 * 1024];
        Arrays.fill(comment, (byte)'x');
        comment[0] = '#';
        final Path file = write("huge.yaml", MINIMAL.getBytes(StandardCharsets.UTF_8), comment);

        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(file));

        assertEquals(file + ": cannot read: too large, " + Files.size(file) + " bytes; a configuration file is at " +
            "most 1048576 bytes (1 MiB)", ex.problems().getFirst());
    }

    @Test
    void shouldReadAFileOfExactlyOneMebibyte() throws IOException
    {
        final byte[] line = ("#" + " ".repeat(126) + "\n").getBytes(StandardCharsets.US_ASCII);
        final byte[][] lines = new byte[ConfigFileText.MAX_BYTES / line.length][];
        Arrays.fill(lines, line);
        final Path file = write("full.yaml", lines);
        assertEquals(ConfigFileText.MAX_BYTES, Files.size(file));

        assertEquals(ConfigFileText.MAX_BYTES, ConfigFileText.read(file).length());
    }

    @Test
    void shouldRefuseALineOver64KibibytesNamingIt() throws IOException
    {
        final byte[] text = MINIMAL.getBytes(StandardCharsets.UTF_8);
        final byte[] comment = ("# " + "x".repeat(ConfigFileText.MAX_LINE_BYTES) + "\n# done\n")
            .getBytes(StandardCharsets.US_ASCII);
        final Path file = write("long-line.yaml", text, comment);

        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(file));

        assertEquals(file + ": cannot read: line " + (MINIMAL.lines().count() + 1) + " is " +
            (ConfigFileText.MAX_LINE_BYTES + 2) + " bytes long; a configuration line is at most 65536 bytes",
            ex.problems().getFirst());
    }

    @Test
    void shouldReadALineOfExactly64Kibibytes() throws IOException
    {
        final Path file = write("longest.yaml", MINIMAL.getBytes(StandardCharsets.UTF_8),
            ("#" + "x".repeat(ConfigFileText.MAX_LINE_BYTES - 1)).getBytes(StandardCharsets.US_ASCII));

        assertEquals(1, ConfigLoader.load(file).collectors().size());
    }

    @Test
    void shouldShortenAHugeValueInItsMessage()
    {
        final String huge = "a".repeat(50_000);
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> ConfigLoader.load(MINIMAL.replace("\"02:00:00:00:00:01\"", "\"" + huge + "\"")));

        assertEquals("translator.mac: " + "a".repeat(ShortText.SHOWN_START) + "... (50000 characters) is not a MAC " +
            "address (aa:bb:cc:dd:ee:ff; quote it in YAML)", ex.problems().getFirst());
    }

    @Test
    void shouldShortenAHugeKeyAndAHugeNumberInTheirMessages()
    {
        // JSON: YAML allows no implicit key over 1024 characters; JSON no number over 1000 digits, a string of them
        // is read as the number.
        final String key = "k".repeat(50_000);
        final String number = "9".repeat(50_000);
        final String json = "{\"translator\": {\"mac\": \"02:00:00:00:00:01\", \"ip\": \"192.168.1.1\", \"" + key +
            "\": 1}, \"collectors\": [{\"mac\": \"02:00:00:00:00:02\", \"ip\": \"192.168.1.2\", \"keyWrite\": " +
            "{\"localQpn\": 100, \"qpn\": 200, \"rkey\": \"" + number + "\", \"address\": 4096, \"length\": 1024}}]}";
        final ConfigException ex =
            assertThrows(ConfigException.class, () -> ConfigLoader.load(json, ConfigFormat.JSON));

        for (final String problem : ex.problems())
        {
            assertTrue(problem.length() < 400, problem.substring(0, Math.min(problem.length(), 400)));
        }
        assertTrue(ex.problems().stream().anyMatch(p -> p.startsWith("translator." + "k".repeat(60) +
            "... (50000 characters): unknown key")), ex.getMessage());
        assertTrue(ex.problems().stream().anyMatch(p -> p.startsWith("collectors[0].keyWrite.rkey: " +
            "9".repeat(60) + "... (50000 characters) ")), ex.getMessage());
    }

    private Path write(final String name, final byte[]... parts) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.write(file, new byte[0]);
        for (final byte[] part : parts)
        {
            Files.write(file, part, StandardOpenOption.APPEND);
        }
        return file;
    }
}
