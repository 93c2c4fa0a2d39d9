package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.stat.CountersFile;
import io.dta.appliance.stat.CountersFileReader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.CountersReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

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
        "Exit status: 0 when the file was read, 1 when there is no readable counters file." })
public final class StatCommand implements Callable<Integer>
{
    /** A heartbeat older than this (the writer beats every 100 ms) means the writer stalled or ended. */
    private static final long STALLED_AFTER_MILLIS = 5_000;

    @Option(names = "--counters", paramLabel = "FILE",
        description = "counters file (default: the translator's, /dev/shm/dta/translator.counters)")
    private Path file;

    @Option(names = "--role", defaultValue = "translator", paramLabel = "translator|collector",
        description = "whose default counters file to read when --counters is not given (default: ${DEFAULT-VALUE})")
    private String role;

    @Spec
    private CommandSpec spec;

    @Option(names = "--all", description = "show counters that are still zero too")
    private boolean all;

    @Option(names = "--json", description = "one JSON object per sample: file, role, pid, status (running, stalled, " +
        "exited or ended), startedAt, heartbeatAt, exitedAt (once exited), counters (every counter by name) and, " +
        "with --watch from the second sample on, ratesPerSecond")
    private boolean json;

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
        if (!Files.isRegularFile(path))
        {
            System.err.println("dta stat: no counters file at " + path + " (is the " + role +
                " running? pass --counters FILE for another location)");
            return 1;
        }
        if (!watch)
        {
            // Options of --watch would be ignored without a word: refused.
            for (final String option : new String[] { "--interval", "--samples" })
            {
                if (spec.commandLine().getParseResult().hasMatchedOption(option))
                {
                    System.err.println("dta stat: " + option + " needs --watch");
                    return 2;
                }
            }
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--samples") && samples < 1)
        {
            System.err.println("dta stat: --samples must be at least 1 (leave it out to sample until interrupted)");
            return 2;
        }
        if (intervalMillis < 10)
        {
            System.err.println("dta stat: --interval must be at least 10 ms");
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
    }

    /**
     * One counter: its label for the table, its camelCase key for {@code --json} (docs/naming.md), its value.
     */
    private record Sample(int id, String label, String key, long value)
    {
    }

    private static List<Sample> sample(final CountersReader counters)
    {
        final List<Sample> list = new ArrayList<>();
        counters.forEach((id, typeId, keyBuffer, label) -> list.add(
            new Sample(id, label, jsonKey(typeId, keyBuffer, label), counters.getCounterValue(id))));
        return list;
    }

    /**
     * @return an engine counter's name as every command's {@code --json} spells it ({@code reportsIn}); any other
     * counter's label in camelCase ({@code "port 0 net_pcap0 (reports): rx packets"} is
     * {@code port0NetPcap0ReportsRxPackets}, the soft collector's {@code frames-in} is {@code framesIn}).
     */
    static String jsonKey(final int typeId, final DirectBuffer keyBuffer, final String label)
    {
        if (EngineCounters.TYPE_ID == typeId)
        {
            final int ordinal = keyBuffer.getInt(0);
            if (ordinal >= 0 && ordinal < EngineCounter.values().length)
            {
                return EngineSummary.camel(EngineCounter.values()[ordinal].name());
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

    private void print(
        final PrintStream out, final Path path, final CountersFileReader reader, final List<Sample> current,
        final List<Sample> previous, final double seconds) throws Exception
    {
        if (json)
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
            out.println(mapper.writeValueAsString(root));
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
        return 0 != reader.closedMillis() || writerEnded(reader);
    }

    /**
     * Whether the writer ended without closing its file: its pid is not alive here, and either it ran in this PID
     * namespace (so its pid would be seen: at once after a SIGKILL) or its heartbeat is stale. A writer in another
     * PID namespace (a container sharing {@code /dev/shm}) has a pid this process cannot see, so there only the
     * heartbeat tells.
     */
    private static boolean writerEnded(final CountersFileReader reader)
    {
        return !reader.isWriterAlive() && (reader.writerSharesPidNamespace() || heartbeatStale(reader));
    }

    private static boolean heartbeatStale(final CountersFileReader reader)
    {
        return System.currentTimeMillis() - reader.heartbeatMillis() > STALLED_AFTER_MILLIS;
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
        if (0 != reader.closedMillis())
        {
            return "exited";
        }
        if (writerEnded(reader))
        {
            return "ended";
        }
        return heartbeatStale(reader) ? "stalled" : "running";
    }

    private static String status(final CountersFileReader reader)
    {
        final long closed = reader.closedMillis();
        if (0 != closed)
        {
            return "exited at " + Instant.ofEpochMilli(closed) + " (final values)";
        }
        if (writerEnded(reader))
        {
            return "not running (ended without closing the file; last heartbeat " +
                Instant.ofEpochMilli(reader.heartbeatMillis()) + ")";
        }
        final long age = System.currentTimeMillis() - reader.heartbeatMillis();
        return age > STALLED_AFTER_MILLIS ? "running, but no heartbeat for " + age / 1000 + " s (stalled?)" : "running";
    }
}
