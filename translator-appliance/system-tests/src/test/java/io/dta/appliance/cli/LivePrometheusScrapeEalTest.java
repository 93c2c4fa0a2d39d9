package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.dpdk.LatencySampler;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The metrics path end to end: {@code dta run} on DPDK virtual devices translating a capture of reports,
 * {@code dta stat --serve} on loopback over its counters file, and a real Prometheus server (Debian's
 * {@code prometheus}) scraping it; the translator's report counter is then read back through Prometheus's HTTP API,
 * as a dashboard would read it.
 */
class LivePrometheusScrapeEalTest extends LiveProcessTests
{
    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    // Enough for two latency samples (one report in 1024).
    private static final int REPORTS = 3000;
    private static final Pattern SERVING = Pattern.compile("at http://127\\.0\\.0\\.1:(\\d+)/metrics");
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void shouldReadTheTranslatorsReportCounterBackThroughPrometheus() throws Exception
    {
        assumeTrue(Files.isExecutable(PROMETHEUS), "assumes Prometheus at " + PROMETHEUS +
            " (Debian package prometheus, which .ci/run installs)");
        final Path reports = dir.resolve("reports.pcap");
        final CliRunner.Result gen = CliRunner.run("gen", "--out", reports.toString(), "--reports", Integer.toString(REPORTS));
        assertEquals(0, gen.exitCode(), gen.err());
        final Path counters = dir.resolve("run.counters");
        final Process run = start("run", "run",
            "--reports-port", "net_pcap0", "--collector-port", "net_memif0",
            "--vdev", "net_pcap0,rx_pcap=" + reports + ",tx_pcap=" + dir.resolve("reports-port.pcap"),
            "--vdev", "net_memif0,role=server,socket=" + dir.resolve("x.sock") + ",socket-abstract=no",
            "--link-wait-ms", "500", "-l", "0", "--file-prefix", prefix("dta-prom-" + ProcessHandle.current().pid()),
            "--counters", counters.toString(), "--state-file", dir.resolve("run.lists").toString(),
            "--latency-log", dir.resolve("latency.hlog").toString());
        LiveStat.await(counters, run, dir, 60_000, n -> REPORTS == n.get("counters").path("reportsIn").asLong());

        final Process stat = start("stat", "stat", "--counters", counters.toString(), "--serve", "127.0.0.1:0");
        final int metricsPort = awaitServingPort(stat, dir.resolve("stat.err"));

        final int prometheusPort = freePort();
        final Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, """
            global:
              scrape_interval: 1s
              scrape_timeout: 1s
            scrape_configs:
              - job_name: dta
                static_configs:
                  - targets: ["127.0.0.1:%d"]
            """.formatted(metricsPort));
        final Process prometheus = killedAtEnd(new ProcessBuilder(PROMETHEUS.toString(),
            "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("tsdb"),
            "--web.listen-address=127.0.0.1:" + prometheusPort)
            .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start());

        assertEquals(REPORTS, Long.parseLong(
            awaitQuery(prometheus, prometheusPort, "dta_reports_in_total{job=\"dta\",worker=\"0\"}")));
        // The sampled latency, in seconds: positive, and at most its maximum.
        final double p50 = Double.parseDouble(
            awaitQuery(prometheus, prometheusPort, "dta_report_latency_seconds{job=\"dta\",quantile=\"0.5\"} > 0"));
        final double max = Double.parseDouble(
            awaitQuery(prometheus, prometheusPort, "dta_report_latency_seconds{job=\"dta\",quantile=\"1\"}"));
        assertTrue(p50 > 0 && p50 <= max && max < 10, p50 + " " + max);
        final HistogramLogReader log = new HistogramLogReader(dir.resolve("latency.hlog").toFile());
        long logged = 0;
        while (log.hasNext())
        {
            logged += ((org.HdrHistogram.Histogram)log.nextIntervalHistogram()).getTotalCount();
        }
        assertEquals(REPORTS / LatencySampler.EVERY, logged, "one sample per 1024 reports in the interval log");
        assertEquals("1", awaitQuery(prometheus, prometheusPort, "dta_up{job=\"dta\"}"));
        assertEquals("1", awaitQuery(prometheus, prometheusPort, "up{job=\"dta\"}"));
    }

    private static int awaitServingPort(final Process stat, final Path err) throws Exception
    {
        final long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline && stat.isAlive())
        {
            final Matcher m = SERVING.matcher(Files.readString(err));
            if (m.find())
            {
                return Integer.parseInt(m.group(1));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("dta stat --serve did not start: " + Files.readString(err));
    }

    /**
     * Queries Prometheus until the expression has one sample, and returns its value.
     */
    private String awaitQuery(final Process prometheus, final int port, final String query) throws Exception
    {
        final URI uri = URI.create("http://127.0.0.1:" + port + "/api/v1/query?query=" +
            URLEncoder.encode(query, StandardCharsets.UTF_8));
        final long deadline = System.currentTimeMillis() + 60_000;
        String last = "";
        while (System.currentTimeMillis() < deadline && prometheus.isAlive())
        {
            try
            {
                last = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();
                final JsonNode result = JSON.readTree(last).path("data").path("result");
                if (1 == result.size())
                {
                    return result.get(0).get("value").get(1).asText();
                }
            }
            catch (final IOException notYetListening)
            {
                last = notYetListening.toString();
            }
            Thread.sleep(200);
        }
        throw new AssertionError("Prometheus (alive " + prometheus.isAlive() + ") has no " + query + ": " + last +
            "\n" + Files.readString(dir.resolve("prometheus.log")));
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }
}
