package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta decode -c N} stops after N frames, as tshark's {@code -c} does, so that the head of a large capture
 * costs what N frames cost.
 */
class DecodeCountTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void shouldStopAfterTheFramesAskedFor() throws Exception
    {
        final Path capture = dir.resolve("r.pcap");
        assertEquals(0, CliRunner.run("gen", "--out", capture.toString(), "--reports", "500", "--no-progress")
            .exitCode());

        final CliRunner.Result text = CliRunner.run("decode", capture.toString(), "-c", "7");
        assertEquals(0, text.exitCode(), text.err());
        final String[] lines = text.out().strip().split("\n");
        assertEquals(7 + 2, lines.length, "7 frames, a blank line, the summary: " + text.out());
        assertTrue(lines[lines.length - 1].startsWith("7 frames: 7 dta,"), text.out());

        final CliRunner.Result json = CliRunner.run("decode", capture.toString(), "--json", "--count", "3");
        assertEquals(0, json.exitCode(), json.err());
        final String[] objects = json.out().strip().split("\n");
        assertEquals(3, objects.length, json.out());
        assertEquals(3, JSON.readTree(objects[2]).get("index").asLong(), objects[2]);

        final CliRunner.Result all = CliRunner.run("decode", capture.toString(), "--count", "100000");
        assertTrue(all.out().contains("\n500 frames: "), "more than there are: every frame");
    }

    @Test
    void shouldRefuseACountBelowOne()
    {
        final CliRunner.Result r = CliRunner.run("decode", dir.resolve("none.pcap").toString(), "-c", "0");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--count must be at least 1, not 0"), r.err());
    }
}
