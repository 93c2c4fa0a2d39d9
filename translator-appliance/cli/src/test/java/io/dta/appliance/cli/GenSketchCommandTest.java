package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.codec.pcap.PcapReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GenSketchCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldWriteSketchTrafficUntilItEndsWithItsTruthAndTheSameBytesForTheSameSeed() throws Exception
    {
        final Path a = dir.resolve("a.pcap");
        final Path b = dir.resolve("b.pcap");
        final Path truth = dir.resolve("truth.json");
        final String[] args = { "--mix", "sketch=1", "--sketches", "1,3", "--switches", "2", "--epochs", "2",
            "--sketch-items", "500", "--keys", "zipf", "--sketch-gaps", "0.01", "--missing-switch", "--json",
            "--no-progress" };
        final CliRunner.Result first = CliRunner.run(concat(new String[]{ "gen", "--out", a.toString(), "--truth",
            truth.toString() }, args));
        assertEquals(0, first.exitCode(), first.err());
        final CliRunner.Result second = CliRunner.run(concat(new String[]{ "gen", "--out", b.toString() }, args));
        assertEquals(0, second.exitCode(), second.err());
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));

        final ObjectMapper mapper = new ObjectMapper();
        final JsonNode summary = mapper.readTree(first.out());
        final long frames = summary.get("reports").asLong();
        assertEquals(frames, summary.get("primitives").get("sketch").asLong());
        assertEquals(2, summary.get("sketches").size());
        long sent = 0;
        for (final JsonNode s : summary.get("sketches"))
        {
            sent += s.get("frames").asLong();
            assertTrue(s.get("finished").asBoolean());
        }
        assertEquals(frames, sent);
        long inCapture = 0;
        try (PcapReader reader = PcapReader.open(a))
        {
            while (reader.next())
            {
                inCapture++;
            }
        }
        assertEquals(frames, inCapture);

        final JsonNode t = mapper.readTree(Files.readString(truth));
        final JsonNode cm = t.get("sketches").get(0);
        assertEquals(1, cm.get("sketchId").asInt());
        assertEquals(2, cm.get("epochs").size());
        final JsonNode e1 = cm.get("epochs").get(0);
        assertEquals(1, e1.get("epoch").asLong());
        assertTrue(e1.get("complete").asBoolean());
        assertEquals(4, e1.get("cells").size());
        assertEquals(1024, e1.get("cells").get(0).size());
        long rowSum = 0;
        for (final JsonNode v : e1.get("cells").get(0))
        {
            rowSum += v.asLong();
        }
        assertEquals(1000, rowSum, "each of 2 switches added 500 keys to every row");
        long keySum = 0;
        for (final JsonNode v : e1.get("keys"))
        {
            keySum += v.asLong();
        }
        assertEquals(1000, keySum);
        final JsonNode e2 = cm.get("epochs").get(1);
        assertFalse(e2.get("complete").asBoolean());
        assertEquals(1, e2.get("contributors").size());
        assertEquals(512, e2.get("sentColumns").get(1).asInt());
        final JsonNode hll = t.get("sketches").get(1);
        assertEquals("hyperloglog", hll.get("type").asText());
        assertTrue(hll.get("epochs").get(0).get("distinct").asLong() > 10);
    }

    private static String[] concat(final String[] a, final String[] b)
    {
        final String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
