package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.metrics.ListenAddress;
import io.dta.appliance.metrics.MetricsExporter;
import io.dta.appliance.stat.CountersFile;
import io.dta.appliance.stat.CountersFileReader;
import io.dta.appliance.stat.WriterStatus;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.CountersReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code dta stat}: reads the live counters of a running translator or collector from its shared-memory counters
 * file, without disturbing it.
 */
@Command(
    name = "stat",
    mixinStandardHelpOptions = true,
    description = {
        "Show the counters of a running (or finished) dta process from its shared-memory counters file.",
        "With --watch, sampling ends (exit 0) after the first sample that finds the process ended.",
        "--format openmetrics prints one scrape of the metrics (dta_ names) in the Prometheus text exposition format, " +
            "as node_exporter's textfile collector reads and promtool check metrics lints it; --serve HOST:PORT serves " +
            "them over HTTP at /metrics (OpenMetrics 1.0 to a scraper that asks for it, as Prometheus does), reading " +
            "the file at each scrape (a restarted process is followed; dta_up is 0 while no writer runs), until " +
            "SIGINT/SIGTERM.",
        "Exit status: 0 when the file was read (always with --format openmetrics and --serve), 1 when there is no " +
            "readable counters file, 2 for bad options or a --serve address that cannot be bound." })
public final class StatCommand implements Callable<Integer>
{
    @Option(names = "--counters", paramLabel = "FILE",
        description = "counters file (default: the translator's, /dev/shm/dta/translator.counters)")
    private Path file;

    @Option(names = "--role", defaultValue = "translator", paramLabel = "translator|collector",
        description = "whose default counters file to read when --counters is not given (default: ${DEFAULT-VALUE})")
    private String role;

    @Spec
    private CommandSpec spec;

    @Option(names = "--per-worker", description = "with several workers, show each worker's engine counters " +
        "(labelled \"worker N: ...\") besides their totals")
    private boolean perWorker;

    @Option(names = "--all", description = "show counters that are still zero too")
    private boolean all;

    @Option(names = "--json", description = "one JSON object per sample: file, role, pid, status (running, stalled, " +
        "exited or ended), startedAt, heartbeatAt, exitedAt (once exited), counters (every counter by name) and, " +
        "with --watch from the second sample on, ratesPerSecond")
    private boolean json;

    @Option(names = "--format", paramLabel = "text|json|openmetrics",
        description = "output: text (default), json (as --json) or openmetrics (one scrape of the metrics)")
    private String format;

    @Option(names = "--serve", paramLabel = "HOST:PORT",
        description = "serve the metrics over HTTP at http://HOST:PORT/metrics (port 0: any free port, printed)")
    private String serve;

    @Option(names = "--watch", description = "sample repeatedly, showing the rate per second since the last sample")
    private boolean watch;

    @Option(names = "--interval", defaultValue = "1000", paramLabel = "MS",
        description = "milliseconds between samples with --watch, at least 10 (default: ${DEFAULT-VALUE}); a running " +
            "process publishes its counters every 100 ms, so rates over shorter intervals come in steps")
    private long intervalMillis;

    @Option(names = "--samples", defaultValue = "0", paramLabel = "N",
        description = "stop after N samples with --watch (default: until interrupted)")
    private long samples;

    private final ObjectMapper mapper = new ObjectMapper();

    /**
     * {@inheritDoc}
     */
    @Override
    public Integer call() throws Exception
    {
        if (!"translator".equals(role) && !"collector".equals(role))
        {
            System.err.println("dta stat: --role must be translator or collector, not '" + role + "'");
            return 2;
        }
        final Path path = null != file ? file : CountersFile.defaultPath(role);
        if (null != format && !List.of("text", "json", "openmetrics").contains(format))
        {
            System.err.println("dta stat: --format must be text, json or openmetrics, not '" + format + "'");
            return 2;
        }
        if ("json".equals(format))
        {
            json = true;
        }
        if (null != serve || "openmetrics".equals(format))
        {
            return metrics(path);
        }
        if (!Files.isRegularFile(path))
        {
            System.err.println("dta stat: no counters file at " + path + " (is the " + role +
                " running? pass --counters FILE for another location)");
            return 1;
        }
        final String watchProblem = watchProblem();
        if (null != watchProblem)
        {
            System.err.println("dta stat: " + watchProblem);
            return 2;
        }
        final CountersFileReader reader;
        try
        {
            reader = CountersFileReader.open(path);
        }
        catch (final IllegalArgumentException | UncheckedIOException ex)
        {
            System.err.println("dta stat: " + ex.getMessage());
            return 1;
        }
        try (reader)
        {
            return watch(reader, path);
        }
    }

    /**
     * @return what is wrong with the options of {@code --watch}, or null.
     */
    private String watchProblem()
    {
        if (!watch)
        {
            // Options of --watch would be ignored without a word: refused.
            for (final String option : new String[] { "--interval", "--samples" })
            {
                if (spec.commandLine().getParseResult().hasMatchedOption(option))
                {
                    return option + " needs --watch";
                }
            }
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--samples") && samples < 1)
        {
            return "--samples must be at least 1 (leave it out to sample until interrupted)";
        }
        if (intervalMillis < 10)
        {
            return "--interval must be at least 10 ms";
        }
        return null;
    }

    /**
     * Prints a sample, and with {@code --watch} one every interval, until {@code --samples} or the writer ends.
     */
    private int watch(final CountersFileReader reader, final Path path) throws Exception
    {
        final PrintStream out = System.out;
        List<Sample> previous = null;
        long previousNanos = 0;
        long taken = 0;
        while (true)
        {
            final long now = System.nanoTime();
            // Before the sample: a writer found gone has published its final values, so this sample holds them.
            final boolean gone = writerGone(reader);
            final List<Sample> current = sample(reader.counters());
            final double seconds = null == previous ? 0 : (now - previousNanos) / 1e9;
            print(out, path, reader, current, previous, seconds);
            taken++;
            if (!watch || (samples > 0 && taken >= samples))
            {
                return 0;
            }
            if (gone)
            {
                // Its values are final, and a restarted process writes a new file this mapping never shows.
                System.err.println("dta stat: the " + reader.role() + " (pid " + reader.pid() + ") has ended: " +
                    "watch over");
                return 0;
            }
            previous = current;
            previousNanos = now;
            Thread.sleep(intervalMillis);
        }
    }

    private int metrics(final Path path) throws Exception
    {
        if (watch || json || (null != serve && null != format))
        {
            System.err.println("dta stat: " + (null != serve ? "--serve" : "--format openmetrics") +
                " takes none of --watch, --json" + (null != serve ? ", --format" : ""));
            return 2;
        }
        if (null == serve)
        {
            MetricsExporter.writeText(path, System.out);
            return 0;
        }
        final ListenAddress address;
        final HTTPServer server;
        try
        {
            address = ListenAddress.parse(serve);
            server = MetricsExporter.serve(path, address);
        }
        catch (final IllegalArgumentException | IOException ex)
        {
            System.err.println("dta stat: --serve " + serve + ": " + (ex instanceof IOException ?
                "cannot listen there (" + ex.getMessage() + ")" : ex.getMessage()));
            return 2;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "dta-stat-serve-stop"));
        System.err.println("dta stat: serving the metrics of " + path + " at http://" +
            (address.host().contains(":") ? "[" + address.host() + "]" : address.host()) + ":" + server.getPort() +
            "/metrics (until SIGINT/SIGTERM)");
        Thread.currentThread().join();
        return 0;
    }

    /**
     * One counter: its label for the table, its camelCase key for {@code --json} (docs/naming.md), its value.
     */
    private record Sample(int id, String label, String key, long value)
    {
    }

    private List<Sample> sample(final CountersReader counters)
    {
        final List<Sample> list = new ArrayList<>();
        counters.forEach((id, typeId, keyBuffer, label) ->
        {
            // A worker's own engine counters are shown on request; the totals always.
            if (perWorker || EngineCounters.WORKER_TYPE_ID != typeId)
            {
                list.add(new Sample(id, label, jsonKey(typeId, keyBuffer, label), counters.getCounterValue(id)));
            }
        });
        return list;
    }

    /**
     * @return an engine counter's name as every command's {@code --json} spells it ({@code reportsIn}); any other
     * counter's label in camelCase ({@code "port 0 net_pcap0 (reports): rx packets"} is
     * {@code port0NetPcap0ReportsRxPackets}, the soft collector's {@code frames-in} is {@code framesIn}).
     */
    static String jsonKey(final int typeId, final DirectBuffer keyBuffer, final String label)
    {
        if (EngineCounters.TYPE_ID == typeId || EngineCounters.WORKER_TYPE_ID == typeId)
        {
            final int ordinal = keyBuffer.getInt(0);
            if (ordinal >= 0 && ordinal < EngineCounter.values().length)
            {
                final String name = EngineSummary.camel(EngineCounter.values()[ordinal].name());
                // A worker's: worker1ReportsIn.
                return EngineCounters.TYPE_ID == typeId ? name : "worker" + keyBuffer.getInt(4) +
                    Character.toUpperCase(name.charAt(0)) + name.substring(1);
            }
        }
        final StringBuilder key = new StringBuilder();
        for (final String word : label.split("[^A-Za-z0-9]+"))
        {
            if (!word.isEmpty())
            {
                final String lower = word.toLowerCase(Locale.ROOT);
                key.append(key.isEmpty() ? lower : Character.toUpperCase(lower.charAt(0)) + lower.substring(1));
            }
        }
        return key.toString();
    }

    private ObjectNode jsonSample(
        final Path path, final CountersFileReader reader, final List<Sample> current, final List<Sample> previous,
        final double seconds)
    {
        final ObjectNode root = mapper.createObjectNode();
        root.put("file", path.toString());
        root.put("role", reader.role());
        root.put("pid", reader.pid());
        root.put("status", jsonStatus(reader));
        root.put("startedAt", Instant.ofEpochMilli(reader.startMillis()).toString());
        root.put("heartbeatAt", Instant.ofEpochMilli(reader.heartbeatMillis()).toString());
        if (0 != reader.closedMillis())
        {
            root.put("exitedAt", Instant.ofEpochMilli(reader.closedMillis()).toString());
        }
        final ObjectNode values = root.putObject("counters");
        final ObjectNode rates = null == previous ? null : root.putObject("ratesPerSecond");
        for (int i = 0; i < current.size(); i++)
        {
            final Sample s = current.get(i);
            values.put(s.key, s.value);
            if (null != rates && i < previous.size() && seconds > 0)
            {
                rates.put(s.key, Math.round((s.value - previous.get(i).value) / seconds));
            }
        }
        return root;
    }

    private void print(
        final PrintStream out, final Path path, final CountersFileReader reader, final List<Sample> current,
        final List<Sample> previous, final double seconds) throws Exception
    {
        if (json)
        {
            out.println(mapper.writeValueAsString(jsonSample(path, reader, current, previous, seconds)));
            return;
        }

        out.printf("%s pid %d, %s, started %s (%s)%n", reader.role(), reader.pid(), status(reader),
            Instant.ofEpochMilli(reader.startMillis()), path);
        // One column for every value: the labels' width is the longest label's (port labels carry the port's name).
        int width = 52;
        for (final Sample s : current)
        {
            if (all || 0 != s.value)
            {
                width = Math.max(width, s.label.length());
            }
        }
        final String rated = "  %-" + width + "s %,18d  %,14.0f/s%n";
        final String plain = "  %-" + width + "s %,18d%n";
        for (int i = 0; i < current.size(); i++)
        {
            final Sample s = current.get(i);
            if (!all && 0 == s.value)
            {
                continue;
            }
            if (null != previous && i < previous.size() && seconds > 0)
            {
                out.printf(rated, s.label, s.value, (s.value - previous.get(i).value) / seconds);
            }
            else
            {
                out.printf(plain, s.label, s.value);
            }
        }
        out.flush();
    }

    private static boolean writerGone(final CountersFileReader reader)
    {
        return 0 != reader.closedMillis() || WriterStatus.ended(reader, System.currentTimeMillis());
    }

    /**
     * The status for {@code --json}: a word a script can compare, the times in fields of their own.
     *
     * @param reader the counters file.
     * @return {@code running}, {@code stalled} (no heartbeat for 5 s), {@code exited} (closed the file: final values)
     * or {@code ended} (gone without closing it).
     */
    static String jsonStatus(final CountersFileReader reader)
    {
        return WriterStatus.of(reader, System.currentTimeMillis()).word();
    }

    private static String status(final CountersFileReader reader)
    {
        final long now = System.currentTimeMillis();
        return switch (WriterStatus.of(reader, now))
        {
            case EXITED -> "exited at " + Instant.ofEpochMilli(reader.closedMillis()) + " (final values)";
            case ENDED -> "not running (ended without closing the file; last heartbeat " +
                Instant.ofEpochMilli(reader.heartbeatMillis()) + ")";
            case STALLED -> "running, but no heartbeat for " + (now - reader.heartbeatMillis()) / 1000 + " s (stalled?)";
            case RUNNING -> "running";
        };
    }
}
