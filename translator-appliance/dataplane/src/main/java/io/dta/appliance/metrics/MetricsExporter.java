package io.dta.appliance.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * A counters file's metrics, once ({@code dta stat --format openmetrics}) or served over HTTP at {@code /metrics}
 * ({@code dta stat --serve}), read from the file at each scrape.
 * <p>
 * The one scrape is written in the Prometheus text exposition format (version 0.0.4): the format node_exporter's
 * textfile collector reads and {@code promtool check metrics} lints. Its OpenMetrics 1.0 form names a counter family
 * without {@code _total} in {@code # HELP} and {@code # TYPE}, which both read as a family without samples and a
 * sample without help. The HTTP server answers each scraper in the format it asks for (Prometheus asks for
 * OpenMetrics 1.0 first).
 */
public final class MetricsExporter
{
    private MetricsExporter()
    {
    }

    /**
     * A registry of one collector over the file.
     *
     * @param countersFile the counters file (it may not exist yet).
     * @return the registry.
     */
    public static PrometheusRegistry registry(final Path countersFile)
    {
        final PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new CountersCollector(countersFile));
        return registry;
    }

    /**
     * Writes one scrape in the Prometheus text exposition format.
     *
     * @param countersFile the counters file.
     * @param out          where.
     * @throws IOException if {@code out} fails.
     */
    public static void writeText(final Path countersFile, final OutputStream out) throws IOException
    {
        PrometheusTextFormatWriter.create().write(out, registry(countersFile).scrape());
        out.flush();
    }

    /**
     * Serves the file's metrics until {@link HTTPServer#close()}.
     *
     * @param countersFile the counters file (it may not exist yet: {@code dta_up} is 0 until it does).
     * @param address      where to listen.
     * @return the running server ({@link HTTPServer#getPort()} is the bound port, also for port 0).
     * @throws IOException if the address cannot be bound.
     */
    public static HTTPServer serve(final Path countersFile, final ListenAddress address) throws IOException
    {
        return HTTPServer.builder()
            .hostname(address.host())
            .port(address.port())
            .registry(registry(countersFile))
            .buildAndStart();
    }
}
