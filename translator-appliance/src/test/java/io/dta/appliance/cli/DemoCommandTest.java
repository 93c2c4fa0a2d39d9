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
        assertTrue(n.get("essential").get("reports").asLong() > 2000);
        assertTrue(n.get("essential").get("allLanded").asBoolean(), r.out());
        assertTrue(n.get("link").get("toCollector").get("lost").asLong() > 0, "the link must actually lose frames");
        assertTrue(n.get("translator").get("nakResyncs").asLong() > 0, "losses must cause resyncs");
        assertTrue(n.get("translator").get("drops").get("dropGracePeriod").asLong() > 0,
            "non-essential losses are reported");
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
        assertEquals(0, n.get("translator").get("nakResyncs").asLong());
        assertFalse(n.get("translator").get("drops").has("dropGracePeriod"), r.out());
        assertEquals(n.get("translator").get("framesOut").asLong(),
            n.get("collector").get("messages").asLong(), "every frame executed by the collector");
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
