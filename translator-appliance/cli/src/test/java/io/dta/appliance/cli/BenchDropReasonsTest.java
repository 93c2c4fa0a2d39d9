package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta bench --primitive P} names its drops as the {@code --in} runs do: {@code drops} by reason in the JSON,
 * and the warning on stderr lists every reason with its count, not grace periods only (a run that drops reports for
 * want of atomic credit must say so).
 */
class BenchDropReasonsTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One outstanding FETCH_ADD and one queued: closed loop, most Key-Increment reports find the queue full. */
    static final String ATOM1 =
        "translator: {mac: \"02:00:0a:00:00:65\", ip: 10.0.0.101}\n" +
        "collectors:\n" +
        "  - name: c1\n" +
        "    mac: \"02:00:0a:00:00:33\"\n" +
        "    ip: 10.0.0.51\n" +
        "    keyIncrement: {localQpn: 0x53a, qpn: 0x457, rkey: 0x1235, address: 0x7f0000100000, length: 2048,\n" +
        "                   maxOutstandingAtomics: 1, atomicQueueSize: 1}\n";

    @TempDir
    Path dir;

    @Test
    void shouldNameTheDropsOfSyntheticReportsByReasonInTheJsonAndTheWarning() throws Exception
    {
        final String config = Files.writeString(dir.resolve("atom1.yaml"), ATOM1).toString();
        final CliRunner.Result r = CliRunner.run("bench", "--io", "java", "--closed-loop", "--primitive",
            "keyincrement", "--config", config, "--reports", "80000", "--warmup", "20000", "--json");
        final String ctx = r.out() + r.err();
        assertEquals(0, r.exitCode(), ctx);
        final JsonNode json = JSON.readTree(r.out());
        final long drops = json.get("totalDrops").asLong();
        assertTrue(drops > 40_000, "most reports find the atomic queue full: " + ctx);
        final JsonNode byReason = json.get("drops");
        assertTrue(null != byReason && byReason.isObject(), ctx);
        final long atomicQueueFull = byReason.path("dropAtomicQueueFull").asLong();
        assertTrue(atomicQueueFull > 40_000, ctx);
        long sum = 0;
        final StringBuilder reasons = new StringBuilder();
        for (final Iterator<Map.Entry<String, JsonNode>> it = byReason.fields(); it.hasNext();)
        {
            final Map.Entry<String, JsonNode> e = it.next();
            assertTrue(e.getValue().asLong() > 0, "non-zero reasons only: " + ctx);
            sum += e.getValue().asLong();
            reasons.append(e.getKey()).append(' ').append(e.getValue().asLong()).append(", ");
        }
        assertEquals(drops, sum, ctx);
        final String warning = "dta bench: warning: the engine dropped " + drops + " reports or responses while " +
            "measuring (";
        assertTrue(r.err().startsWith(warning), ctx);
        assertTrue(r.err().contains("dropAtomicQueueFull " + atomicQueueFull), ctx);
        for (final Iterator<Map.Entry<String, JsonNode>> it = byReason.fields(); it.hasNext();)
        {
            final Map.Entry<String, JsonNode> e = it.next();
            assertTrue(r.err().contains(e.getKey() + " " + e.getValue().asLong()), e.getKey() + ": " + ctx);
        }
        assertTrue(!r.err().contains("grace periods or probing") || byReason.has("dropGracePeriod"), ctx);
    }

    @Test
    void shouldPrintNoDropReasonsWhenNothingWasDropped() throws Exception
    {
        final CliRunner.Result r = CliRunner.run("bench", "--primitive", "keywrite", "--reports", "40000",
            "--warmup", "10000", "--json");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        final JsonNode json = JSON.readTree(r.out());
        assertEquals(0, json.get("totalDrops").asLong(), r.out());
        assertTrue(json.get("drops").isObject() && json.get("drops").isEmpty(), r.out());
        assertEquals("", r.err());
    }
}
