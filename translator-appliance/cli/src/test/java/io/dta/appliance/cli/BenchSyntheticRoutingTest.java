package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta bench --primitive P}: the synthetic reports go to the first collector that has P's region, a
 * configuration where none has it is refused in one line (exit 2; Append divided by no list and died, the others
 * printed the rate of reports dropped as unroutable), and {@code drops} counts the measured phase alone (the java
 * bench counted the warm-up's too).
 */
class BenchSyntheticRoutingTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String TRANSLATOR = "translator: {mac: \"02:00:0a:00:00:65\", ip: 10.0.0.101}\n";
    private static final String KEY_WRITE =
        "    keyWrite: {localQpn: 0x539, qpn: 0x456, rkey: 0x1234, address: 0x7f0000000000, length: 2048}\n";
    /** One collector with a Key-Write store only. */
    static final String KEY_WRITE_ONLY = TRANSLATOR +
        "collectors:\n" +
        "  - name: c1\n" +
        "    mac: \"02:00:0a:00:00:33\"\n" +
        "    ip: 10.0.0.51\n" +
        KEY_WRITE;
    /** The first collector with a list only, the second with Key-Write, Key-Increment and a sketch. */
    static final String TWO = TRANSLATOR +
        "collectors:\n" +
        "  - name: first\n" +
        "    mac: \"02:00:0a:00:00:34\"\n" +
        "    ip: 10.0.0.52\n" +
        "    lists:\n" +
        "      - {id: 5, localQpn: 0x603, qpn: 0x703, rkey: 0x78, address: 0x40000, length: 2048}\n" +
        "  - name: second\n" +
        "    mac: \"02:00:0a:00:00:33\"\n" +
        "    ip: 10.0.0.51\n" +
        KEY_WRITE +
        "    keyIncrement: {localQpn: 0x53a, qpn: 0x457, rkey: 0x1235, address: 0x7f0000100000, length: 2048}\n" +
        "    sketches:\n" +
        "      - {id: 1, type: count-min, rows: 4, columns: 1024, localQpn: 0x53e, qpn: 0x45b, rkey: 0x1239,\n" +
        "         address: 0x7f0000500000, length: 32896}\n";

    @TempDir
    Path dir;

    @Test
    void shouldRefuseAPrimitiveNoCollectorHostsInOneLine() throws Exception
    {
        final String config = write("kwonly.yaml", KEY_WRITE_ONLY);
        final String[][] refusals = {
            { "append", "a list (lists)" },
            { "keyincrement", "a Key-Increment counter store (keyIncrement)" },
            { "postcard", "a postcard store (postcards)" },
            { "sketch", "a sketch (sketches)" } };
        for (final String io : new String[] { "java", "dpdk" })
        {
            for (final String[] refusal : refusals)
            {
                if ("dpdk".equals(io) && "sketch".equals(refusal[0]))
                {
                    continue;
                }
                final CliRunner.Result r = CliRunner.run("bench", "--io", io, "--primitive", refusal[0], "--config",
                    config, "--reports", "100000", "--warmup", "1000");
                final String ctx = io + " " + refusal[0] + ": " + r.err();
                assertEquals(2, r.exitCode(), ctx);
                assertEquals("dta bench: --primitive " + refusal[0] + " needs " + refusal[1] + " on a collector, and " +
                    "no collector of the configuration has one" + System.lineSeparator(), r.err(), ctx);
                assertEquals("", r.out(), ctx);
            }
        }
    }

    @Test
    void shouldSendSyntheticReportsToTheFirstCollectorWithThePrimitivesRegion() throws Exception
    {
        final String config = write("two.yaml", TWO);
        for (final String primitive : new String[] { "keywrite", "keyincrement", "append", "sketch" })
        {
            final CliRunner.Result r = CliRunner.run("bench", "--primitive", primitive, "--config", config,
                "--reports", "4096", "--warmup", "1000", "--json");
            final String ctx = primitive + ": " + r.out() + r.err();
            assertEquals(0, r.exitCode(), ctx);
            final JsonNode json = JSON.readTree(r.out());
            assertEquals(4096, json.get("reports").asLong(), ctx);
            // Before, everything but Append went to the first collector, which hosts none of them: all dropped.
            assertEquals(0, json.get("totalDrops").asLong(), ctx);
            assertTrue(json.get("roceFramesOut").asLong() > 0, ctx);
            assertEquals("", r.err(), ctx);
        }
    }

    @Test
    void shouldCountTheDropsOfTheMeasuredPhaseOnly() throws Exception
    {
        // Every report of the capture is invalid (gen --bad 1), so the warm-up drops as many as the measured phase.
        final String config = write("kwonly.yaml", KEY_WRITE_ONLY);
        final String capture = dir.resolve("bad.pcap").toString();
        final CliRunner.Result gen = CliRunner.run("gen", "--config", config, "--out", capture, "--bad", "1",
            "--reports", "50", "--no-progress");
        assertEquals(0, gen.exitCode(), gen.out() + gen.err());
        final CliRunner.Result r = CliRunner.run("bench", "--in", capture, "--config", config,
            "--reports", "1000", "--warmup", "370", "--json");
        final String ctx = r.out() + r.err();
        assertEquals(0, r.exitCode(), ctx);
        final JsonNode json = JSON.readTree(r.out());
        assertEquals(1000, json.get("reports").asLong(), ctx);
        assertEquals(1000, json.get("totalDrops").asLong(), ctx);
        long byReason = 0;
        for (final JsonNode count : json.get("drops"))
        {
            byReason += count.asLong();
        }
        assertEquals(1000, byReason, ctx);
    }

    private String write(final String name, final String yaml) throws Exception
    {
        return Files.writeString(dir.resolve(name), yaml).toString();
    }
}
