package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.engine.worker.RssSpreader;
import io.dta.config.ConfigLoader;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta run --workers W} live against {@code dta collector --port} in another process over {@code net_memif}
 * (W queues each side), for W = 1 to 4: the collector's memory ends the same whatever W ({@link CollectorMemory}:
 * Key-Write values, counters, postcard paths and sketch merges equal, list entries the same multiset with each
 * reporter's order kept), and every report is counted in exactly once over all workers. The reports, of all five
 * primitives from 32 reporters, reach the workers as a NIC's RSS would give them ({@code net_pcap} queue i reads the
 * i-th part of the capture split by {@link RssSpreader}); Append entries, postcards and sketch columns cross to their
 * owner worker, and the collector answers every request on queue 0, so worker 0 hands the other workers' responses
 * over. Four workers share this machine's two CPUs ({@code -l 0@0,1@1,2@0,3@1}).
 */
class LiveWorkersCollectorEalTest extends LiveProcessTests
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TIMEOUT_MILLIS = 90_000;
    private static final String[] LCORES = { "0@0", "1@1", "2@0", "3@1" };

    @Test
    void shouldLeaveTheSameCollectorMemoryWhateverTheWorkers() throws Exception
    {
        final String yaml;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("default-translator.yaml"))
        {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // Cold JVMs on two shared CPUs: ACK round trips far beyond the default timeout, connection set-up answers
        // slower than the default CM timeouts allow. A postcard record goes out when its flow is complete (or at the
        // stop), never for being idle while four workers share two CPUs, and flows in flight never meet in one cache
        // entry: a partial record written early would be overwritten by a later one in an order of the run's timing.
        // List 0 large enough not to wrap, so that its entries do not depend on the order the reporters' entries met
        // in. The reports come as fast as net_pcap reads them: FETCH_ADDs beyond the outstanding atomics wait in a
        // queue long enough for all of them.
        final String common = "acks:\n  timeoutMicros: 2000000\n" +
            "postcards:\n  idleFlushMicros: 600000000\n  cacheEntries: 65536\n" +
            yaml.replace("length: 1024         # 256 entries, reference ring", "length: 65536")
                .replace("length: 65536          # 8192 counters", "length: 65536\n      atomicQueueSize: 65536")
                .replace("cmResponseTimeout: 8", "cmResponseTimeout: 15")
                .replace("localAckTimeout: 8", "localAckTimeout: 18");
        assertTrue(common.contains("atomicQueueSize") && !common.contains("256 entries") &&
            common.contains("localAckTimeout: 18"), common);
        final Path config = dir.resolve("static.yaml");
        Files.writeString(config, ReplayWorkersTest.withWorkerQueuePairs(common, LCORES.length));
        final Path negotiated = dir.resolve("negotiated.yaml");
        Files.writeString(negotiated, ReplayWorkersTest.withWorkerQueuePairs(negotiate(common), LCORES.length));
        assertTrue(ConfigLoader.load(negotiated).hasNegotiatedRegions());
        final Path capture = dir.resolve("reports.pcap");
        final CliRunner.Result gen = CliRunner.run("gen", "--config", config.toString(), "--out", capture.toString(),
            "--reports", "4000", "--reporters", "32", "--seed", "11", "--no-progress",
            "--mix", "keywrite=3,append=3,keyincrement=2,postcard=1,sketch=1");
        assertEquals(0, gen.exitCode(), gen.err());

        final CollectorMemory memory = new CollectorMemory(ConfigLoader.load(config), config, capture);
        final Path one = runLive(config, capture, 1, "static");
        for (int workers = 2; workers <= LCORES.length; workers++)
        {
            memory.assertSame(one, runLive(config, capture, workers, "static"), workers + " workers live", false);
        }
        for (final int workers : new int[] { 2, 3 })
        {
            memory.assertSame(one, runLive(negotiated, capture, workers, "negotiated"), negotiated,
                workers + " workers live, negotiated", false);
        }
    }

    /**
     * Key-Write, Key-Increment, list 0 and sketch 1 negotiated (service ports 1337 to 1340), the rest static.
     */
    private static String negotiate(final String yaml)
    {
        String out = yaml;
        final String[][] regions = {
            { "0x000456", "0x00001234", "0x00007f0000000000" }, { "0x000457", "0x00001235", "0x00007f0000100000" },
            { "0x000459", "0x00001237", "0x00007f0000300000" }, { "0x00045b", "0x00001239", "0x00007f0000500000" } };
        for (int i = 0; i < regions.length; i++)
        {
            final Matcher m = Pattern.compile("(?m)^(\\s+)qpn: " + regions[i][0] + "\\n\\s+rkey: " + regions[i][1] +
                "\\n\\s+address: " + regions[i][2] + "\\n").matcher(out);
            assertTrue(m.find(), regions[i][0]);
            out = m.replaceFirst("$1servicePort: " + (1337 + i) + "\n");
        }
        return out;
    }

    /**
     * Runs the collector and the translator with {@code workers} workers until every report is translated and
     * acknowledged, stops both, and returns the collector's store.
     */
    private Path runLive(final Path config, final Path capture, final int workers, final String kind) throws Exception
    {
        final boolean negotiated = ConfigLoader.load(config).hasNegotiatedRegions();
        final int reports = (int)RssSplit.split(capture, workers, dir.resolve("q" + workers + "-")).stream()
            .mapToLong(RssSplit::count).sum();
        final Path store = dir.resolve("store-" + kind + workers);
        final Path socket = dir.resolve("memif-" + kind + workers + ".sock");
        final String memif = "net_memif0,socket=" + socket + ",socket-abstract=no,rsize=13";
        final Path collectorCounters = dir.resolve("collector-" + kind + workers + ".counters");
        final Path translatorCounters = dir.resolve("translator-" + kind + workers + ".counters");
        final long pid = ProcessHandle.current().pid();

        final Process collector = start("collector-" + kind + workers, "collector", "--config", config.toString(),
            "--store", store.toString(), "--port", "net_memif0", "--vdev", memif + ",role=server",
            "--queues", Integer.toString(workers), "-l", "1", "--file-prefix", prefix("dta-lw-col-" + pid),
            "--counters", collectorCounters.toString(), "--json");
        LiveStat.await(collectorCounters, collector, dir, TIMEOUT_MILLIS, n -> true);

        final StringBuilder rx = new StringBuilder("net_pcap0");
        for (int q = 0; q < workers; q++)
        {
            rx.append(",rx_pcap=").append(dir.resolve("q" + workers + "-" + q + ".pcap"))
                .append(",tx_pcap=").append(dir.resolve("back-" + kind + workers + "-" + q + ".pcap"));
        }
        final Process translator = start("translator-" + kind + workers, "run", "--config", config.toString(),
            "--workers", Integer.toString(workers), "--reports-port", "net_pcap0", "--collector-port", "net_memif0",
            "--vdev", rx.toString(), "--vdev", memif + ",role=client",
            "-l", String.join(",", List.of(LCORES).subList(0, workers)),
            "--file-prefix", prefix("dta-lw-run-" + pid), "--counters", translatorCounters.toString(),
            "--drain-ms", "10000", "--json");
        LiveStat.await(translatorCounters, translator, dir, TIMEOUT_MILLIS,
            n -> reports == n.get("counters").path("reportsIn").asLong());

        translator.destroy();
        assertTrue(translator.waitFor(60, TimeUnit.SECONDS), "translator stops on SIGTERM");
        final String out = Files.readString(dir.resolve("translator-" + kind + workers + ".out"));
        final String why = out + Files.readString(dir.resolve("translator-" + kind + workers + ".err"));
        assertEquals(0, translator.exitValue(), why);
        final JsonNode summary = JSON.readTree(out.lines().filter(l -> l.startsWith("{")).findFirst().orElseThrow());
        assertEquals(workers, summary.get("workers").asInt(), why);
        assertEquals(reports, summary.get("reportsIn").asLong(), "each report counted in once: " + why);
        assertEquals(reports, summary.get("reportsTranslated").asLong(), why);
        assertEquals(0, summary.get("counters").get("postcardEvictions").asLong(), why);
        if (negotiated)
        {
            // Every worker connected its own QP to each negotiated region (four regions, W connections each), and
            // disconnected it at the stop.
            final JsonNode connections = summary.get("connections");
            assertEquals(4 * workers, connections.get("regions").size(), why);
            assertEquals(4 * workers, connections.get("counters").get("connected").asLong(), why);
            assertEquals(4 * workers, connections.get("counters").get("dreps").asLong(), why);
            for (final JsonNode region : connections.get("regions"))
            {
                assertEquals("DISCONNECTED", region.get("state").asText(), why);
            }
        }
        summary.get("drops").properties().forEach(d -> assertEquals(0, d.getValue().asLong(), d.getKey() + ": " + why));

        collector.destroy();
        assertTrue(collector.waitFor(60, TimeUnit.SECONDS), "collector stops on SIGTERM");
        assertEquals(0, collector.exitValue(), Files.readString(dir.resolve("collector-" + kind + workers + ".err")));
        return store;
    }
}
