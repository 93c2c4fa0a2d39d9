package io.dta.appliance.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dta.collector.query.CounterQuery;
import io.dta.collector.query.KeyWriteQuery;
import io.dta.collector.query.KeyWriteAnswers;
import io.dta.collector.query.ListReadResult;
import io.dta.collector.query.ListReader;
import io.dta.collector.query.PostcardQuery;
import io.dta.collector.query.PostcardResult;
import io.dta.collector.query.StoreQueries;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.StoreException;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.FileErrors;
import io.dta.config.ListConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * {@code dta query}: reads a soft collector's store (read-only, safe while {@code dta collector} runs) and answers
 * Key-Write lookups, counters, lists and postcard paths. Exit codes: 0 answered, 2 bad arguments or configuration,
 * 1 store missing or inconsistent with the configuration.
 */
@Command(
    name = "query",
    header = "Query a soft collector's store (Key-Write, counters, lists, postcards, sketches).",
    mixinStandardHelpOptions = true,
    description = {
        "Query a soft collector's store. The store is mapped read-only; the configuration must be the one the",
        "store was written with (checked against the store's manifest)." },
    subcommands = {
        QueryCommand.KeyWrite.class, QueryCommand.Counter.class, QueryCommand.ListQuery.class,
        QueryCommand.Postcard.class, SketchQueryCommand.class, QueryBenchCommand.class })
public final class QueryCommand implements Callable<Integer>
{
    /** Exit code: bad arguments or configuration. */
    static final int BAD_ARGUMENTS = 2;

    /** Exit code: store missing or inconsistent. */
    static final int BAD_STORE = 1;

    /** Keys per batch lookup. */
    static final int BATCH = 256;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    // Checked when a subcommand opens the store rather than by picocli, whose check of a parent's required option
    // would also refuse `dta query keywrite --help`.
    @Option(names = "--store", paramLabel = "DIR", description = "store directory (required)")
    private Path store;

    @Mixin
    private ConfigOption config = new ConfigOption();

    @Option(names = "--collector", paramLabel = "NAME",
        description = "collector to query (default: the first one with the asked-for region)")
    private String collectorName;

    /**
     * {@inheritDoc}
     */
    @Override
    public Integer call()
    {
        System.err.println("dta query: a subcommand is required (keywrite, counter, list, postcard, sketch, bench)");
        spec.commandLine().usage(System.err);
        return BAD_ARGUMENTS;
    }

    /**
     * Parses a key or list id: decimal or 0x-hex, 0 .. 2^32 − 1.
     *
     * @param text the text.
     * @return the value, or -1 if invalid.
     */
    static long parseU32(final String text)
    {
        final String t = text.trim();
        try
        {
            final long v = t.startsWith("0x") || t.startsWith("0X") ?
                Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
            return v >= 0 && v <= 0xFFFF_FFFFL && !t.startsWith("+") && !t.startsWith("0x-") ? v : -1;
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /**
     * An open store and its queries, or the exit code explaining why there is none.
     */
    static final class Opened implements AutoCloseable
    {
        final int exitCode;
        final ApplianceConfig config;
        final CollectorConfig collector;
        final CollectorStore store;
        final StoreQueries queries;

        Opened(final int exitCode, final ApplianceConfig config, final CollectorConfig collector,
            final CollectorStore store)
        {
            this.exitCode = exitCode;
            this.config = config;
            this.collector = collector;
            this.store = store;
            this.queries = null == store ? null : new StoreQueries(config, store);
        }

        @Override
        public void close()
        {
            if (null != store)
            {
                store.close();
            }
        }
    }

    Opened open(final String command, final String what, final Predicate<CollectorConfig> hasRegion)
    {
        return open(command, what, hasRegion, false);
    }

    /**
     * Picks the collector ({@code --collector}, else the first with the region; with {@code unique} the only one,
     * so an ambiguous region id must be resolved by {@code --collector}) and opens its store read-only.
     */
    Opened open(final String command, final String what, final Predicate<CollectorConfig> hasRegion,
        final boolean unique)
    {
        if (null == store)
        {
            System.err.println("dta query " + command + ": --store DIR is required (the soft collector's store)");
            return new Opened(BAD_ARGUMENTS, null, null, null);
        }
        final ApplianceConfig loaded = config.load("query");
        if (null == loaded)
        {
            return new Opened(BAD_ARGUMENTS, null, null, null);
        }
        // Negotiated regions sit where the soft collector put them, a pure function of the configuration.
        final ApplianceConfig appliance = NegotiatedRegions.assign(loaded);
        if (unique && null == collectorName)
        {
            final List<String> names = new ArrayList<>();
            for (final CollectorConfig c : appliance.collectors())
            {
                if (hasRegion.test(c))
                {
                    names.add(c.name());
                }
            }
            if (names.size() > 1)
            {
                System.err.println("dta query " + command + ": collectors " + String.join(", ", names) + " all have " +
                    what + "; choose one with --collector NAME");
                return new Opened(BAD_ARGUMENTS, appliance, null, null);
            }
        }
        CollectorConfig chosen = null;
        for (final CollectorConfig c : appliance.collectors())
        {
            if (null == collectorName ? hasRegion.test(c) : c.name().equals(collectorName))
            {
                chosen = c;
                break;
            }
        }
        if (null == chosen)
        {
            System.err.println("dta query " + command + ": " + (null == collectorName ?
                "no collector in the configuration has " + what : "no collector named '" + collectorName + "'"));
            return new Opened(BAD_ARGUMENTS, appliance, null, null);
        }
        if (!hasRegion.test(chosen))
        {
            System.err.println("dta query " + command + ": collector '" + chosen.name() + "' has no " + what);
            return new Opened(BAD_ARGUMENTS, appliance, chosen, null);
        }
        try
        {
            return new Opened(0, appliance, chosen, CollectorStore.openReadOnly(store, appliance, chosen));
        }
        catch (final StoreException ex)
        {
            System.err.println("dta query " + command + ": " + ex.getMessage());
            return new Opened(BAD_STORE, appliance, chosen, null);
        }
    }

    static void printJson(final PrintStream out, final ObjectNode node)
    {
        try
        {
            out.println(MAPPER.writeValueAsString(node));
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    static final ObjectMapper MAPPER = new ObjectMapper();

    static boolean redundancyInRange(final String command, final int n)
    {
        if (n < 1 || n > 256)
        {
            System.err.println("dta query " + command + ": --redundancy must be 1..256: " + n);
            return false;
        }
        return true;
    }

    /**
     * The keys and the number of copies that {@code keywrite} and {@code counter} both take.
     */
    static final class KeySelection
    {
        @Option(names = "--key", paramLabel = "K", description = "key, decimal or 0x-hex (repeatable)")
        List<String> key;

        @Option(names = "--keys", paramLabel = "FILE", description = "file with one key per line")
        Path keysFile;

        @Option(names = "--redundancy", paramLabel = "N",
            description = "copies per key: keywrite looks at N (default redundancy.max), counter takes the minimum " +
                "of N counters (required unless redundancy.max is 1)")
        Integer redundancy;
    }

    /**
     * {@code dta query keywrite}.
     */
    @Command(name = "keywrite", mixinStandardHelpOptions = true,
        header = "Look keys up in the Key-Write store: value by checksum and plurality vote.",
        description = {
            "Look keys up in the Key-Write store: the copies whose checksum matches vote, the most frequent data",
            "wins (ties: lowest copy index). The value is the data as an unsigned big-endian number." })
    static final class KeyWrite implements Callable<Integer>
    {
        @ParentCommand
        private QueryCommand parent;

        @Mixin
        private KeySelection selection = new KeySelection();

        @Option(names = "--consensus", description = "all matching copies must agree (else: conflict)")
        private boolean consensus;

        @Option(names = "--json", description = "JSON Lines: one object per key")
        private boolean json;

        @Override
        public Integer call()
        {
            final long[] keys = QueryKeys.keys("keywrite", selection.key, selection.keysFile);
            if (null == keys || (null != selection.redundancy && !redundancyInRange("keywrite", selection.redundancy)))
            {
                return BAD_ARGUMENTS;
            }
            try (Opened o = parent.open("keywrite", "a Key-Write store", c -> null != c.keyWrite()))
            {
                if (0 != o.exitCode)
                {
                    return o.exitCode;
                }
                // A slot the key was never written to cannot hold its checksum (CRC-32 of 4 bytes is a bijection),
                // so looking at more copies than the key has does not change the answer: redundancy.max is safe.
                final int n = null == selection.redundancy ? o.config.redundancy().max() : selection.redundancy;
                final KeyWriteQuery query = o.queries.keyWrite();
                final KeyWriteAnswers answers = new KeyWriteAnswers(BATCH);
                final KeyWriteLines lines = new KeyWriteLines(System.out, json);
                for (int from = 0; from < keys.length; from += BATCH)
                {
                    final int count = Math.min(BATCH, keys.length - from);
                    query.lookup(keys, from, count, n, consensus, answers);
                    for (int i = 0; i < count; i++)
                    {
                        lines.add(answers.get(i));
                    }
                }
                lines.flush();
                return 0;
            }
        }
    }

    /**
     * {@code dta query counter}.
     */
    @Command(name = "counter", mixinStandardHelpOptions = true,
        header = "Read Key-Increment counters: the minimum of each key's N counters.",
        description = {
            "Read Key-Increment counters: the minimum of the key's N counters (count-min), unsigned 64-bit, where N",
            "is the redundancy the key was counted with. The store does not record N, and the minimum over counters",
            "the key was not added to reads other keys' counts (or untouched zeros): --redundancy N is therefore",
            "required, unless redundancy.max is 1. --each-n shows the estimate for every N up to redundancy.max (or",
            "--redundancy) instead of a value, to find where a key's estimate falls to other keys' counters." })
    static final class Counter implements Callable<Integer>
    {
        @ParentCommand
        private QueryCommand parent;

        @Mixin
        private KeySelection selection = new KeySelection();

        @Option(names = "--each-n", description = "the estimate for every N from 1, no single value")
        private boolean eachN;

        @Option(names = "--json", description = "JSON Lines: one object per key")
        private boolean json;

        @Override
        public Integer call()
        {
            final long[] keys = QueryKeys.keys("counter", selection.key, selection.keysFile);
            if (null == keys || (null != selection.redundancy && !redundancyInRange("counter", selection.redundancy)))
            {
                return BAD_ARGUMENTS;
            }
            try (Opened o = parent.open("counter", "a Key-Increment store", c -> null != c.keyIncrement()))
            {
                if (0 != o.exitCode)
                {
                    return o.exitCode;
                }
                final int max = o.config.redundancy().max();
                if (null == selection.redundancy && !eachN && max > 1)
                {
                    System.err.println("dta query counter: give --redundancy N, the N the keys were counted with " +
                        "(1.." + max + "): the store does not record it, and the minimum over counters a key was " +
                        "not added to would read other keys' counts; --each-n shows the estimate for every N");
                    return BAD_ARGUMENTS;
                }
                final int n = null == selection.redundancy ? max : selection.redundancy;
                if (eachN)
                {
                    printEachN(o.queries.counters(), keys, n);
                }
                else
                {
                    printValues(o.queries.counters(), keys, n);
                }
                return 0;
            }
        }

        private void printValues(final CounterQuery query, final long[] keys, final int n)
        {
            final PrintStream out = System.out;
            if (!json)
            {
                out.printf("%-12s %s%n", "key", "value");
            }
            final long[] values = new long[BATCH];
            for (int from = 0; from < keys.length; from += BATCH)
            {
                final int count = Math.min(BATCH, keys.length - from);
                query.values(keys, from, count, n, values);
                for (int i = 0; i < count; i++)
                {
                    final long k = keys[from + i];
                    final long v = values[i];
                    if (json)
                    {
                        final ObjectNode node = MAPPER.createObjectNode();
                        node.put("key", k);
                        node.put("found", 0 != v);
                        node.put("value", new BigInteger(Long.toUnsignedString(v)));
                        node.put("redundancy", n);
                        printJson(out, node);
                    }
                    else
                    {
                        out.printf("%-12d %s%n", k, Long.toUnsignedString(v));
                    }
                }
            }
        }

        private void printEachN(final CounterQuery query, final long[] keys, final int n)
        {
            final PrintStream out = System.out;
            if (!json)
            {
                out.printf("%-12s %s%n", "key", "estimate by N = 1.." + n);
            }
            for (final long k : keys)
            {
                final long[] byN = query.valuesByRedundancy(k, n);
                if (json)
                {
                    final ObjectNode node = MAPPER.createObjectNode();
                    node.put("key", k);
                    final ArrayNode values = node.putArray("valuesByRedundancy");
                    for (final long estimate : byN)
                    {
                        values.add(new BigInteger(Long.toUnsignedString(estimate)));
                    }
                    printJson(out, node);
                }
                else
                {
                    out.printf("%-12d %s%n", k, Arrays.stream(byN).mapToObj(Long::toUnsignedString)
                        .collect(Collectors.joining(" ")));
                }
            }
        }
    }

    /**
     * {@code dta query list}.
     */
    @Command(name = "list", mixinStandardHelpOptions = true,
        header = "Read an Append list, oldest first, with a cursor to read on from.",
        description = {
            "Read an Append list, oldest first. Sequenced layout: entries of the batches after --since, the new",
            "cursor, and whether the reader was lapped. Reference layout: every non-zero entry in ring order",
            "(the bare ring has no head or sequence; --since is ignored)." })
    static final class ListQuery implements Callable<Integer>
    {
        @ParentCommand
        private QueryCommand parent;

        @Option(names = "--id", required = true, paramLabel = "L", description = "list id")
        private String id;

        @Option(names = "--since", defaultValue = "0", paramLabel = "CURSOR",
            description = "cursor of a previous read (default 0: everything retained)")
        private long since;

        @Option(names = "--follow", description = "keep polling and print new entries as they arrive")
        private boolean follow;

        @Option(names = "--interval-ms", defaultValue = "200", paramLabel = "MS",
            description = "poll interval of --follow (default 200)")
        private long intervalMs;

        @Option(names = "--polls", defaultValue = "0", paramLabel = "N",
            description = "stop --follow after N polls (default 0: until interrupted)")
        private long polls;

        @Option(names = "--json", description = "one JSON object per read (per poll with --follow)")
        private boolean json;

        @Override
        public Integer call() throws InterruptedException
        {
            final long listId = parseU32(id);
            if (listId < 0 || since < 0 || intervalMs < 0 || polls < 0)
            {
                System.err.println("dta query list: --id must be a 32-bit id, --since, --interval-ms and --polls " +
                    "non-negative");
                return BAD_ARGUMENTS;
            }
            try (Opened o = parent.open("list", "list " + listId, c -> hasList(c, listId)))
            {
                if (0 != o.exitCode)
                {
                    return o.exitCode;
                }
                final ListReader reader = o.queries.list(listId);
                final String layout = layoutName(o.collector, listId);
                if (!follow)
                {
                    print(listId, layout, reader.read(since));
                    return 0;
                }
                reader.cursor(since);
                for (long poll = 1; 0 == polls || poll <= polls; poll++)
                {
                    final ListReadResult r = reader.poll();
                    if (1 == poll || r.entries().length > 0 || r.lapped() || r.lostBatches() > 0)
                    {
                        print(listId, layout, r);
                    }
                    if (0 == polls || poll < polls)
                    {
                        Thread.sleep(intervalMs);
                    }
                }
                return 0;
            }
        }

        private void print(final long listId, final String layout, final ListReadResult r)
        {
            final PrintStream out = System.out;
            if (json)
            {
                final ObjectNode node = MAPPER.createObjectNode();
                node.put("listId", listId);
                node.put("layout", layout);
                final ArrayNode entries = node.putArray("entries");
                for (final long e : r.entries())
                {
                    entries.add(e);
                }
                node.put("cursor", r.cursor());
                node.put("lapped", r.lapped());
                node.put("lostBatches", r.lostBatches());
                printJson(out, node);
                return;
            }
            out.printf("list %d (%s): %d entries, cursor %d, lapped %s, lost batches %d%n", listId, layout,
                r.entries().length, r.cursor(), r.lapped() ? "yes" : "no", r.lostBatches());
            final StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.entries().length; i++)
            {
                line.append(String.format("%12d", r.entries()[i]));
                if (i % 8 == 7 || i == r.entries().length - 1)
                {
                    out.println(line);
                    line.setLength(0);
                }
            }
        }

        private static boolean hasList(final CollectorConfig c, final long id)
        {
            for (final ListConfig l : c.lists())
            {
                if (l.id() == id)
                {
                    return true;
                }
            }
            return false;
        }

        private static String layoutName(final CollectorConfig c, final long id)
        {
            for (final ListConfig l : c.lists())
            {
                if (l.id() == id)
                {
                    return l.layout().name().toLowerCase(java.util.Locale.ROOT);
                }
            }
            return "?";
        }
    }

    /**
     * {@code dta query postcard}.
     */
    @Command(name = "postcard", mixinStandardHelpOptions = true,
        description = "Read a flow's postcard record: its hops (missing ones marked) or a collision with another flow.")
    static final class Postcard implements Callable<Integer>
    {
        @ParentCommand
        private QueryCommand parent;

        @Option(names = "--key", required = true, paramLabel = "K", description = "flow key (repeatable)")
        private List<String> key;

        @Option(names = "--json", description = "JSON Lines: one object per key")
        private boolean json;

        @Override
        public Integer call()
        {
            final long[] keys = QueryKeys.keys("postcard", key, null);
            if (null == keys)
            {
                return BAD_ARGUMENTS;
            }
            try (Opened o = parent.open("postcard", "a postcard store", c -> null != c.postcards()))
            {
                if (0 != o.exitCode)
                {
                    return o.exitCode;
                }
                final PostcardQuery query = o.queries.postcards();
                final PrintStream out = System.out;
                for (final long k : keys)
                {
                    final PostcardResult r = query.path(k);
                    if (json)
                    {
                        printJson(out, pathJson(k, r));
                    }
                    else if (r.found())
                    {
                        final StringBuilder sb = new StringBuilder();
                        for (int h = 1; h <= r.hops().length; h++)
                        {
                            sb.append("  hop ").append(h).append(": ")
                                .append(r.hasHop(h) ? Long.toString(r.hops()[h - 1]) : "missing");
                        }
                        out.println("flow " + k + ":" + sb);
                    }
                    else if (r.collision())
                    {
                        out.println("flow " + k + ": collision, the slot holds flow " + r.storedKey());
                    }
                    else
                    {
                        out.println("flow " + k + ": not found");
                    }
                }
                return 0;
            }
        }

        private static ObjectNode pathJson(final long k, final PostcardResult r)
        {
            final ObjectNode node = MAPPER.createObjectNode();
            node.put("key", k);
            node.put("found", r.found());
            final ArrayNode hops = node.putArray("hops");
            for (int h = 1; h <= r.hops().length; h++)
            {
                if (r.hasHop(h))
                {
                    hops.add(r.hops()[h - 1]);
                }
                else
                {
                    hops.addNull();
                }
            }
            node.put("collision", r.collision());
            if (r.collision())
            {
                node.put("collidingKey", r.storedKey());
            }
            return node;
        }
    }
}
