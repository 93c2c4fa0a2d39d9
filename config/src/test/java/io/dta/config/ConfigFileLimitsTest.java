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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A configuration file is refused before parsing when it is over 1 MiB or not UTF-8 (naming the line and the byte
 * offset), and a huge value or key is shortened in the message that names it.
 */
class ConfigFileLimitsTest
{
    private static final String MINIMAL = """
        translator:
          mac: "02:00:00:00:00:01"
          ip: 192.168.1.1
        collectors:
          - mac: "02:00:00:00:00:02"
            ip: 192.168.1.2
            keyWrite:
              localQpn: 100
              qpn: 200
              rkey: 7
              address: 0x1000
              length: 1024
        """;

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

        assertEquals("(file): not UTF-8 at line 3, byte offset " + head.length + " (byte 6 of the line): 0xe9; a " +
            "configuration is UTF-8 text", ex.problems().getFirst());
        assertNull(ex.getCause());
    }

    @Test
    void shouldRefuseAMultiByteSequenceCutShortAtTheEnd() throws IOException
    {
        final byte[] text = MINIMAL.getBytes(StandardCharsets.UTF_8);
        final Path file = write("cut.yaml", text, new byte[] { '#', ' ', (byte)0xC3 });

        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(file));

        final long lines = MINIMAL.lines().count();
        assertEquals("(file): not UTF-8 at line " + (lines + 1) + ", byte offset " + (text.length + 2) + " (byte 3 of " +
            "the line): 0xc3; a configuration is UTF-8 text", ex.problems().getFirst());
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

        assertEquals("(file): " + Files.size(file) + " bytes; a configuration file is at most 1048576 bytes (1 MiB)",
            ex.problems().getFirst());
    }

    @Test
    void shouldTakeAFileOfExactlyOneMebibyte() throws IOException
    {
        final byte[] text = MINIMAL.getBytes(StandardCharsets.UTF_8);
        final byte[] comment = new byte[ConfigFileText.MAX_BYTES - text.length];
        Arrays.fill(comment, (byte)' ');
        comment[0] = '#';
        comment[comment.length - 1] = '\n';
        final Path file = write("full.yaml", text, comment);
        assertEquals(ConfigFileText.MAX_BYTES, Files.size(file));

        assertEquals(1, ConfigLoader.load(file).collectors().size());
    }

    @Test
    void shouldShortenAHugeValueInItsMessage()
    {
        final String huge = "a".repeat(500_000);
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> ConfigLoader.load(MINIMAL.replace("\"02:00:00:00:00:01\"", "\"" + huge + "\"")));

        assertEquals("translator.mac: " + "a".repeat(ShortText.SHOWN_START) + "... (500000 characters) is not a MAC " +
            "address (aa:bb:cc:dd:ee:ff; quote it in YAML)", ex.problems().getFirst());
    }

    @Test
    void shouldShortenAHugeKeyAndAHugeNumberInTheirMessages()
    {
        final String key = "k".repeat(200_000);
        final String number = "9".repeat(100_000);
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(
            MINIMAL.replace("ip: 192.168.1.1", "ip: 192.168.1.1\n  " + key + ": 1")
                .replace("rkey: 7", "rkey: " + number)));

        for (final String problem : ex.problems())
        {
            assertTrue(problem.length() < 400, problem.substring(0, 400));
        }
        assertTrue(ex.problems().stream().anyMatch(p -> p.startsWith("translator." + "k".repeat(60) +
            "... (200000 characters): unknown key")), ex.getMessage());
        assertTrue(ex.problems().stream().anyMatch(p -> p.startsWith("collectors[0].keyWrite.rkey: " +
            "9".repeat(60) + "... (100000 characters) ")), ex.getMessage());
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
