package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoCommandTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void shouldLandEveryEssentialReportWithTwoPercentLossEachWay() throws Exception
    {
        final CliRunner.Result r = CliRunner.run("demo", "--loss", "0.02", "--reports", "30000", "--essential", "0.1",
            "--seed", "7", "--json");
        assertEquals(0, r.exitCode(), r.err());
        final JsonNode n = JSON.readTree(r.out());
        assertTrue(n.get("quiescent").asBoolean());
        assertTrue(n.get("essentialDelivery").get("reports").asLong() > 2000);
        assertTrue(n.get("essentialDelivery").get("allLanded").asBoolean(), r.out());
        assertTrue(n.get("link").get("toCollector").get("lost").asLong() > 0, "the link must actually lose frames");
        assertTrue(n.get("translator").get("nakSequenceErrorsIn").asLong() > 0, "losses must cause resyncs");
        assertTrue(n.get("translator").get("drops").get("dropGracePeriod").asLong() > 0,
            "non-essential losses are reported");
    }

    /**
     * The closing of a sketch epoch (4096 columns, batchColumns 1) offers 4096 column WRITEs and its final header at
     * once to an essential ring of 1024: dropping 3074 of them would make the demo say "quiescent: true" and "NO,
     * 3074 outstanding". Sketch WRITEs wait for room, so that sketch lands whole with the default backlog;
     * essential Key-Writes that find a ring of 1 full are still dropped, and the verdict names them apart from
     * operations waiting for an ACK.
     */
    @Test
    void shouldNameEssentialWritesDroppedForAFullBacklogApartFromUnacknowledgedOnes() throws Exception
    {
        final Path sketch = dir.resolve("sketch.yaml");
        Files.writeString(sketch, """
            translator:
              mac: "02:00:0a:00:00:65"
              ip: 10.0.0.101
            collectors:
              - name: c
                mac: "02:00:0a:00:00:33"
                ip: 10.0.0.51
                sketches:
                  - id: 1
                    type: count-min
                    rows: 1
                    columns: 4096
                    batchColumns: 1
                    localQpn: 0x600
                    qpn: 0x600
                    rkey: 1
                    address: 0
                    length: 32896
            """);
        for (final String loss : new String[] {"0", "0.001"})
        {
            final CliRunner.Result ok = CliRunner.run("demo", "--config", sketch.toString(), "--loss", loss,
                "--reports", "50", "--json");
            assertEquals(0, ok.exitCode(), ok.err() + ok.out());
            final JsonNode landed = JSON.readTree(ok.out()).get("essentialDelivery");
            assertEquals(0, landed.get("operationsDroppedBacklogFull").asLong(), ok.out());
            assertTrue(landed.get("allLanded").asBoolean(), ok.out());
        }

        final Path small = dir.resolve("small-backlog.yaml");
        Files.writeString(small, """
            translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101}
            essential: {backlog: 1}
            collectors:
              - name: c
                mac: "02:00:0a:00:00:33"
                ip: 10.0.0.51
                keyWrite: {localQpn: 0x600, qpn: 0x600, rkey: 1, address: 0, length: 4096, slotSize: 8}
            """);
        final String[] args = {"demo", "--config", small.toString(), "--loss", "0", "--reports", "200",
            "--essential", "1"};
        final CliRunner.Result r = CliRunner.run(concat(args, "--json"));
        assertEquals(1, r.exitCode(), r.err());
        final JsonNode n = JSON.readTree(r.out());
        assertTrue(n.get("quiescent").asBoolean(), r.out());
        final JsonNode essential = n.get("essentialDelivery");
        assertEquals(0, essential.get("unacknowledged").asLong(), "quiescent: nothing waits for an ACK; " + r.out());
        final long dropped = essential.get("operationsDroppedBacklogFull").asLong();
        assertTrue(dropped > 0, r.out());
        assertTrue(n.get("translator").get("drops").get("dropBacklogFull").asLong() > 0, "reports dropped; " + r.out());
        assertFalse(essential.get("allLanded").asBoolean(), r.out());

        final CliRunner.Result text = CliRunner.run(args);
        assertEquals(1, text.exitCode(), text.err());
        assertTrue(text.out().contains("NO, 0 unacknowledged, " + String.format("%,d", dropped) +
            " dropped for a full essential backlog (OPERATIONS_DROPPED_BACKLOG_FULL): raise essential.backlog"),
            text.out());
    }

    private static String[] concat(final String[] args, final String last)
    {
        final String[] all = Arrays.copyOf(args, args.length + 1);
        all[args.length] = last;
        return all;
    }

    /**
     * The sample queries cover every collector (each line names its collector), and never call a wrapped reference
     * ring's last slot its "newest" entry.
     */
    @Test
    void shouldShowSampleQueriesForEveryCollectorAndNoNewestOfAReferenceRing() throws Exception
    {
        final Path config = dir.resolve("two.yaml");
        Files.writeString(config, """
            translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101}
            collectors:
              - name: ca
                mac: "02:00:0a:00:00:33"
                ip: 10.0.0.51
                keyWrite: {localQpn: 0x539, qpn: 0x456, rkey: 1, address: 0, length: 4096, slotSize: 8}
                lists:
                  - {id: 0, localQpn: 0x53c, qpn: 0x459, rkey: 2, address: 0x100000, length: 96, layout: reference}
              - name: cb
                mac: "02:00:0a:00:00:34"
                ip: 10.0.0.52
                keyIncrement: {localQpn: 0x63a, qpn: 0x557, rkey: 3, address: 0x200000, length: 4096}
            """);
        final CliRunner.Result r = CliRunner.run("demo", "--config", config.toString(), "--loss", "0", "--reports",
            "2000", "--json");
        assertEquals(0, r.exitCode(), r.err() + r.out());
        final List<JsonNode> queries = new ArrayList<>();
        JSON.readTree(r.out()).get("queries").forEach(queries::add);
        assertTrue(queries.stream().anyMatch(q -> command(q).startsWith("dta query --collector ca keywrite --key ") &&
            "ca".equals(q.get("collector").asText())), r.out());
        assertTrue(queries.stream().anyMatch(q -> command(q).startsWith("dta query --collector cb counter --key ")),
            r.out());
        final JsonNode list = queries.stream().filter(q -> command(q).startsWith("dta query --collector ca list --id 0"))
            .findFirst().orElseThrow();
        assertEquals(24, list.get("entriesRetained").asLong(), list.toString());
        assertEquals("reference", list.get("layout").asText(), list.toString());
        assertFalse(list.has("newest"), list.toString());
        final CliRunner.Result text = CliRunner.run("demo", "--config", config.toString(), "--loss", "0", "--reports",
            "2000");
        final String line = text.out().lines().filter(l -> l.contains("dta query --collector ca list --id 0"))
            .findFirst().orElseThrow();
        assertTrue(line.contains("24 entries retained") && line.contains("reference ring") && !line.contains("newest"),
            line);
    }

    private static String command(final JsonNode query)
    {
        return query.get("command").asText();
    }

    /**
     * With a capture ({@code --in}) the capture's Key-Write, Key-Increment and postcard reports give sample queries, as
     * generated reports do, not only the stores' lists and sketches.
     */
    @Test
    void shouldShowSampleQueriesOfTheCapturesReports() throws Exception
    {
        final Path capture = dir.resolve("mix.pcap");
        final CliRunner.Result gen = CliRunner.run("gen", "--out", capture.toString(), "--reports", "3000",
            "--no-progress");
        assertEquals(0, gen.exitCode(), gen.err());
        final CliRunner.Result r = CliRunner.run("demo", "--in", capture.toString(), "--loss", "0", "--json");
        assertEquals(0, r.exitCode(), r.err() + r.out());
        final List<JsonNode> queries = new ArrayList<>();
        JSON.readTree(r.out()).get("queries").forEach(queries::add);
        assertTrue(queries.stream().anyMatch(q -> "keywrite".equals(q.get("query").asText()) &&
            q.get("found").asBoolean() && q.get("agreeing").asInt() > 0), r.out());
        assertTrue(queries.stream().anyMatch(q -> "counter".equals(q.get("query").asText())), r.out());
        assertTrue(queries.stream().anyMatch(q -> "postcard".equals(q.get("query").asText()) &&
            q.get("found").asBoolean() && q.get("hops").isArray() && !q.get("hops").isEmpty()), r.out());
    }

    @Test
    void shouldTranslateEverythingWithoutLossAndKeepTheStore() throws Exception
    {
        final Path store = dir.resolve("store");
        final CliRunner.Result r = CliRunner.run("demo", "--loss", "0", "--reports", "20000", "--store",
            store.toString(), "--json");
        assertEquals(0, r.exitCode(), r.err());
        final JsonNode n = JSON.readTree(r.out());
        assertTrue(n.get("quiescent").asBoolean());
        assertEquals(0, n.get("link").get("toCollector").get("lost").asLong());
        assertEquals(0, n.get("translator").get("nakSequenceErrorsIn").asLong());
        assertFalse(n.get("translator").get("drops").has("dropGracePeriod"), r.out());
        assertEquals(n.get("translator").get("roceFramesOut").asLong(),
            n.get("collectorCounters").get("messages").asLong(), "every frame executed by the collector");
        assertTrue(Files.isDirectory(store.resolve("demo-collector")), "the store is kept with --store");
        final CliRunner.Result q = CliRunner.run("query", "--store", store.toString(), "list", "--id", "1", "--json");
        assertEquals(0, q.exitCode(), q.err());
        assertTrue(JSON.readTree(q.out()).get("entries").size() > 0, q.out());
    }

    @Test
    void shouldRefuseAMissingCaptureWithAMessageNotAStackTrace()
    {
        final CliRunner.Result r = CliRunner.run("demo", "--in", dir.resolve("missing.pcap").toString(), "--json");
        assertEquals(1, r.exitCode(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("dta demo: cannot read --in ") && r.err().contains("no such file"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @Test
    void shouldRefuseAStoreAnotherCollectorHoldsWithAMessageNotAStackTrace() throws Exception
    {
        final Path store = dir.resolve("held");
        final ApplianceConfig config = NegotiatedRegions.assign(ConfigDefaults.load());
        try (CollectorStore held = CollectorStore.create(store, config, config.collectors().get(0)))
        {
            final CliRunner.Result r = CliRunner.run("demo", "--reports", "100", "--store", store.toString());
            assertEquals(1, r.exitCode(), r.err());
            assertTrue(r.err().startsWith("dta demo: ") && r.err().contains("is in use"), r.err());
            assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        }
    }

    @Test
    void shouldNameTheOptionAtFault()
    {
        assertUsageError("--loss", "demo", "--loss", "1");
        assertUsageError("--essential", "demo", "--essential", "1.5");
        assertUsageError("--reports", "demo", "--reports", "0");
        assertUsageError("--inject-remote-access-error", "demo", "--inject-remote-access-error", "-1");
        assertUsageError("--reports", "demo", "--in", dir.resolve("any.pcap").toString(), "--reports", "5");
    }

    private static void assertUsageError(final String option, final String... args)
    {
        final CliRunner.Result r = CliRunner.run(args);
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().startsWith("dta demo: " + option), r.err());
        assertFalse(r.err().replace(option, "").contains("--loss"), "only the option at fault: " + r.err());
    }
}
