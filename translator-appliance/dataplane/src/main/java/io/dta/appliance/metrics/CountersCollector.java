package io.dta.appliance.metrics;

import io.dta.appliance.stat.CountersFileReader;
import io.dta.appliance.stat.WriterStatus;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.dta.appliance.dpdk.LatencySampler;
import io.dta.appliance.live.LatencyCounters;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The counters of a {@code dta} process as Prometheus metrics, read from its counters file at each collection: the
 * file is mapped, read and unmapped every time, so a restarted process (a new file at the same path) is followed, and
 * the data plane does nothing for a scrape. Besides the counters ({@link CounterNaming}):
 * {@code dta_up} (1 while the writer runs with a fresh heartbeat, else 0, also when there is no file),
 * {@code dta_info{role}}, {@code dta_start_time_seconds} and {@code dta_heartbeat_timestamp_seconds}.
 */
public final class CountersCollector implements MultiCollector
{
    private final Path path;

    /**
     * @param path the counters file (it may not exist yet).
     */
    public CountersCollector(final Path path)
    {
        this.path = path;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public MetricSnapshots collect()
    {
        if (!Files.isRegularFile(path))
        {
            return MetricSnapshots.of(up(false));
        }
        try (CountersFileReader reader = CountersFileReader.open(path))
        {
            return collect(reader);
        }
        catch (final IllegalArgumentException | UncheckedIOException ex)
        {
            // Not (yet) a complete counters file: the writer is starting, or the file is something else.
            return MetricSnapshots.of(up(false));
        }
    }

    private static MetricSnapshots collect(final CountersFileReader reader)
    {
        final List<MetricSnapshot> snapshots = new ArrayList<>();
        snapshots.add(up(WriterStatus.RUNNING == WriterStatus.of(reader, System.currentTimeMillis())));
        snapshots.add(gauge("dta_info", "The role of the process writing the counters file", null,
            Labels.of("role", reader.role()), 1));
        snapshots.add(gauge("dta_start_time_seconds", "When the process started (Unix time)", Unit.SECONDS,
            Labels.EMPTY, Unit.millisToSeconds(reader.startMillis())));
        snapshots.add(gauge("dta_heartbeat_timestamp_seconds", "The process's last heartbeat (Unix time)",
            Unit.SECONDS, Labels.EMPTY, Unit.millisToSeconds(reader.heartbeatMillis())));

        // Families in the order of their first counter; counters that map to one name and labels are added up.
        final Map<String, String> help = new LinkedHashMap<>();
        final Map<String, Map<Labels, Long>> families = new LinkedHashMap<>();
        final GaugeSnapshot.Builder latency = GaugeSnapshot.builder().name("dta_report_latency_seconds")
            .help("Reports' latency through the data plane since the start, rx burst to tx burst, one report in " +
            LatencySampler.EVERY + " sampled (quantile 1: the maximum)").unit(Unit.SECONDS);
        final boolean[] latencies = new boolean[1];
        reader.counters().forEach((id, typeId, key, label) ->
        {
            if (LatencyCounters.TYPE_ID == typeId)
            {
                latencies[0] = true;
                latency.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                    .labels(Labels.of("quantile", quantile(key.getInt(0))))
                    .value(reader.counters().getCounterValue(id) / 1e9).build());
                return;
            }
            final CounterMetric metric = CounterNaming.of(typeId, key, label);
            if (null == metric)
            {
                return;
            }
            help.putIfAbsent(metric.name(), metric.help());
            families.computeIfAbsent(metric.name(), name -> new LinkedHashMap<>())
                .merge(metric.labels(), reader.counters().getCounterValue(id), Long::sum);
        });
        families.forEach((name, points) ->
        {
            final CounterSnapshot.Builder family = CounterSnapshot.builder().name(name).help(help.get(name));
            points.forEach((labels, value) -> family.dataPoint(
                CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(value).build()));
            snapshots.add(family.build());
        });
        if (latencies[0])
        {
            snapshots.add(latency.build());
        }
        return new MetricSnapshots(snapshots);
    }

    /**
     * @param thousandths a quantile in thousandths (1000: the maximum).
     * @return the quantile as Prometheus writes it: 0.5, 0.99, 0.999, 1.
     */
    static String quantile(final int thousandths)
    {
        return java.math.BigDecimal.valueOf(thousandths, 3).stripTrailingZeros().toPlainString();
    }

    private static GaugeSnapshot up(final boolean running)
    {
        return gauge("dta_up", "1 while the process writing the counters file runs (fresh heartbeat), else 0", null,
            Labels.EMPTY, running ? 1 : 0);
    }

    private static GaugeSnapshot gauge(
        final String name, final String help, final Unit unit, final Labels labels, final double value)
    {
        final GaugeSnapshot.Builder builder = GaugeSnapshot.builder().name(name).help(help);
        if (null != unit)
        {
            builder.unit(unit);
        }
        return builder.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(value).build())
            .build();
    }
}
