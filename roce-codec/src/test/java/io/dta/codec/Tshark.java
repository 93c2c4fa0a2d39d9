package io.dta.codec;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Wireshark's dissectors as an independent oracle: {@code tshark -T fields} over a capture, one line per frame with
 * the requested fields tab-separated, InfiniBand payloads not guessed at.
 */
final class Tshark
{
    private Tshark()
    {
    }

    /**
     * @param file    the capture.
     * @param scratch a directory for tshark's standard error (shown when it fails).
     * @param fields  display-filter field names.
     * @return one line per frame.
     * @throws Exception when tshark cannot run.
     */
    static List<String> fields(final Path file, final Path scratch, final String... fields) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("tshark", "-n", "-r", file.toString(), "-T", "fields",
            "-o", "infiniband.identify_payload:FALSE"));
        for (final String field : fields)
        {
            command.add("-e");
            command.add(field);
        }
        final Path stderr = scratch.resolve("stderr.txt");
        final Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        final List<String> lines = new ArrayList<>();
        try (var reader = process.inputReader(StandardCharsets.UTF_8))
        {
            String line;
            while (null != (line = reader.readLine()))
            {
                lines.add(line);
            }
        }
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "tshark timed out");
        assertEquals(0, process.exitValue(), Files.readString(stderr));
        return lines;
    }
}
