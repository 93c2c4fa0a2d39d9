package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Options that shape {@code dta bench}'s traffic. Guards against: the bench's Append batch size (default 16)
 * replacing the configuration's for every list, also for Key-Write runs, so that a valid configuration whose list
 * cannot hold a batch of 16 ends in a stack trace, or a reference ring the configuration validator refuses for that
 * batch size is measured; options that shape other primitives' traffic taken without a word; {@code --eal --vdev}
 * replacing the bench's own ports; a bad option printing the whole usage after its reason.
 */
class BenchShapeOptionsTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void shouldRunAKeyWriteBenchWithTheListsOwnBatchSize() throws Exception
    {
        final String config = sequencedListOf(40);
        final CliRunner.Result r = CliRunner.run("bench", "--primitive", "keywrite", "--config", config,
            "--reports", "2000", "--warmup", "100", "--json");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(ConfigDefaults.load().append().batchSize(), JSON.readTree(r.out()).get("batchSize").asInt(),
            r.out());
    }

    @Test
    void shouldRefuseABatchSizeAListCannotTake() throws Exception
    {
        final String config = sequencedListOf(40);
        refused("--batch 16 does not fit collectors[0].lists[1] (id 1): length 40 / 4 = 10 entries, fewer than " +
            "batch size 16; give a smaller --batch", "bench", "--primitive", "append", "--config", config);
        final String reference = write("ref.yaml", ConfigDefaults.yaml().replaceFirst(
            "(?s)(lists:.*?length: )\\d+", "$11040"));
        final CliRunner.Result r = CliRunner.run("bench", "--primitive", "append", "--config", reference,
            "--batch", "4", "--reports", "2000", "--warmup", "100");
        assertEquals(0, r.exitCode(), r.err());
        refused("--batch 16 does not fit collectors[0].lists[0] (id 0): length 1040 / 4 = 260 entries, not a " +
            "multiple of batch size 16 (required by layout reference); give a smaller --batch", "bench",
            "--primitive", "append", "--config", reference);
        final String capture = dir.resolve("reports.pcap").toString();
        assertEquals(0, CliRunner.run("gen", "--out", capture, "--reports", "100", "--no-progress").exitCode());
        refused("--batch 16 does not fit", "bench", "--in", capture, "--config", config, "--batch", "16");
    }

    @Test
    void shouldRefuseOptionsThatShapeAnotherPrimitivesTraffic()
    {
        refused("--batch sets the Append batch size of --primitive append (or of an --in capture's Append " +
            "reports); --primitive keywrite sends none", "bench", "--primitive", "keywrite", "--batch", "8");
        refused("--redundancy shapes the traffic of --primitive keywrite and keyincrement only", "bench",
            "--primitive", "append", "--redundancy", "2");
        refused("--redundancy shapes the traffic of --primitive keywrite and keyincrement only", "bench",
            "--primitive", "postcard", "--redundancy", "3");
    }

    @Test
    void shouldRefuseDevicesInTheEalLine()
    {
        refused("--eal must not add devices (--vdev)", "bench", "--io", "dpdk", "--primitive", "keywrite", "--eal",
            "--vdev net_null5");
        refused("--eal must not add devices (--vdev)", "bench", "--io", "dpdk", "--primitive", "keywrite", "--eal",
            "-l 0 --vdev=net_pcap0,rx_pcap=/tmp/x.pcap");
    }

    @Test
    void shouldRefuseABadOptionInOneLine()
    {
        for (final String[] args : new String[][] {
            { "bench", "--reports", "abc" }, { "bench", "--bogus" }, { "replay", "--speed" }, { "benc" } })
        {
            final CliRunner.Result r = CliRunner.run(args);
            assertEquals(2, r.exitCode(), r.err());
            final String first = r.err().lines().findFirst().orElse("");
            assertTrue(first.startsWith("dta") && first.endsWith("--help lists the options)"), r.err());
            assertFalse(r.err().contains("Usage:"), r.err());
            assertTrue(r.err().lines().count() <= 2, r.err());
        }
    }

    private String sequencedListOf(final int length) throws Exception
    {
        // The default configuration's second list is sequenced; 40 bytes hold a record of the batch size 4 only.
        final String yaml = ConfigDefaults.yaml();
        final int second = yaml.indexOf("length:", yaml.indexOf("- id: 1"));
        assertTrue(second > 0, "the default configuration has a list with id 1");
        final int end = yaml.indexOf('\n', second);
        return write("seq.yaml", yaml.substring(0, second) + "length: " + length + yaml.substring(end));
    }

    private String write(final String name, final String content) throws Exception
    {
        return Files.writeString(dir.resolve(name), content).toString();
    }

    private static void refused(final String message, final String... args)
    {
        final CliRunner.Result r = CliRunner.run(args);
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("dta bench: " + message), r.err());
    }
}
