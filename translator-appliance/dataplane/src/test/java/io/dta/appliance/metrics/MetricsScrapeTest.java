package io.dta.appliance.metrics;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.live.PortCounters;
import io.dta.appliance.stat.CountersFile;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One scrape of a counters file in the text exposition format: the values the writer published, under their
 * Prometheus names, accepted by Prometheus's own checker ({@code promtool check metrics}), and the same served over
 * HTTP.
 */
class MetricsScrapeTest
{
    static final Path PROMTOOL = Path.of("/usr/bin/promtool");

    @TempDir
    Path dir;

    private Path countersFile()
    {
        final Path path = dir.resolve("translator.counters");
        final CountersFile file = CountersFile.create(path, "translator", EngineCounters.count() + 16,
            System.currentTimeMillis());
        final EngineCounters engine = new EngineCounters(file.manager());
        engine.add(EngineCounter.REPORTS_IN, 1234);
        engine.add(EngineCounter.ROCE_FRAMES_OUT, 1000);
        engine.add(EngineCounter.DROP_MALFORMED, 7);
        engine.add(EngineCounter.DROP_GRACE_PERIOD, 3);
        engine.publish();
        final AtomicCounter rxBytes = file.manager().newCounter("port 0 net_ring0 (reports): rx bytes", PortCounters.TYPE_ID);
        rxBytes.set(99_000);
        file.close();
        return path;
    }

    static String scrape(final Path countersFile) throws Exception
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        MetricsExporter.writeText(countersFile, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldWriteThePublishedValuesUnderTheirNames() throws Exception
    {
        final String text = scrape(countersFile());
        assertTrue(text.contains("dta_reports_in_total{worker=\"0\"} 1234.0"), text);
        assertTrue(text.contains("dta_roce_frames_out_total{worker=\"0\"} 1000.0"), text);
        assertTrue(text.contains("dta_dropped_frames_total{reason=\"malformed\",worker=\"0\"} 7.0"), text);
        assertTrue(text.contains("dta_dropped_reports_total{reason=\"grace_period\",worker=\"0\"} 3.0"), text);
        assertTrue(text.contains("dta_port_rx_bytes_total{device=\"net_ring0\",port=\"0\",role=\"reports\"} 99000.0"), text);
        assertTrue(text.contains("dta_info{role=\"translator\"} 1.0"), text);
        // The writer closed the file: not up.
        assertTrue(text.contains("dta_up 0.0"), text);
        assertTrue(text.contains("# TYPE dta_reports_in_total counter"), text);
    }

    @Test
    void shouldPassPromtoolCheckMetrics() throws Exception
    {
        Assumptions.assumeTrue(Files.isExecutable(PROMTOOL),
            "assumes promtool (Debian package prometheus, which .ci/run installs)");
        final Path scrape = dir.resolve("scrape.txt");
        Files.writeString(scrape, scrape(countersFile()));
        final Process promtool = new ProcessBuilder(PROMTOOL.toString(), "check", "metrics")
            .redirectInput(scrape.toFile())
            .redirectErrorStream(true)
            .start();
        final String said = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(promtool.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, promtool.exitValue(), said);
        assertEquals("", said.strip(), "promtool warns: " + said);
    }

    @Test
    void shouldServeTheSameMetricsOverHttp() throws Exception
    {
        final Path path = countersFile();
        try (var server = MetricsExporter.serve(path, ListenAddress.parse("127.0.0.1:0")))
        {
            final HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode());
            assertTrue(response.body().contains("dta_reports_in_total{worker=\"0\"} 1234"), response.body());
            final HttpResponse<String> openMetrics = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + "/metrics"))
                    .header("Accept", "application/openmetrics-text; version=1.0.0").build(),
                HttpResponse.BodyHandlers.ofString());
            assertTrue(openMetrics.body().contains("# TYPE dta_reports_in counter") &&
                openMetrics.body().endsWith("# EOF\n"), openMetrics.body());
            // A file replaced under the server (a restarted process) is read afresh at the next scrape.
            Files.delete(path);
            final String gone = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(gone.contains("dta_up 0") && !gone.contains("dta_reports_in"), gone);
        }
    }

    @Test
    void shouldParseListenAddresses()
    {
        assertEquals(new ListenAddress("127.0.0.1", 9464), ListenAddress.parse("127.0.0.1:9464"));
        assertEquals(new ListenAddress("::1", 0), ListenAddress.parse("[::1]:0"));
        for (final String bad : new String[] { "9464", ":9464", "host:", "::1:9464", "host:70000", "host:x" })
        {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> ListenAddress.parse(bad), bad);
        }
    }
}
