package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dta.collector.query.bench.KeyWriteWorker;
import io.dta.collector.query.bench.ListPollWorker;
import io.dta.collector.query.bench.SyntheticKeyWriteStore;
import io.dta.collector.query.bench.TimedThreads;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code dta query bench}: how fast this machine answers queries, over a Key-Write store of the given size filled as
 * the translator fills one (no configuration or store needed): lookups per second per thread and for T threads,
 * for each N and hit share, the bytes allocated per lookup, and the rate of full reads of a sequenced list.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {
        "Benchmark the query library on a synthetic Key-Write store and a full sequenced list.",
        "The store is filled as the translator fills one: keys 1..K, K = slots / --write-redundancy, each written N",
        "times. Reports lookups per second per thread and for all threads, with the plurality vote, and bytes",
        "allocated per lookup." })
final class QueryBenchCommand implements Callable<Integer>
{
    private static final int KEYS_PER_THREAD = KeyWriteWorker.ROUND * 128;

    @Option(names = "--store-mib", defaultValue = "1024", paramLabel = "MIB",
        description = "Key-Write store size in MiB, a power of two up to 1024 (default 1024)")
    private int storeMib;

    @Option(names = "--slot-size", defaultValue = "8", paramLabel = "B", description = "8, 16 or 32 (default 8)")
    private int slotSize;

    @Option(names = "--write-redundancy", defaultValue = "4", paramLabel = "N",
        description = "the N every key was written with (default 4)")
    private int writeRedundancy;

    @Option(names = "--redundancy", defaultValue = "1,2,3,4", split = ",", paramLabel = "N",
        description = "the N of the lookups, comma-separated (default 1,2,3,4)")
    private List<Integer> redundancies;

    @Option(names = "--hit-percent", defaultValue = "100,0", split = ",", paramLabel = "P",
        description = "shares of written keys among the looked-up keys (default 100,0: all hits, all misses)")
    private List<Integer> hitPercents;

    @Option(names = "--threads", paramLabel = "T",
        description = "also measure T threads side by side (default: the available processors)")
    private Integer threads;

    @Option(names = "--batch", defaultValue = "64", paramLabel = "K",
        description = "keys per batch lookup, 0 for one lookup at a time (default 64)")
    private int batch;

    @Option(names = "--seconds", defaultValue = "1", paramLabel = "S",
        description = "measured seconds per point, after as much warm-up (default 1)")
    private double seconds;

    @Option(names = "--list-kib", defaultValue = "1024", paramLabel = "KIB",
        description = "size of the sequenced list read in full (default 1024)")
    private int listKib;

    @Option(names = "--small-pages",
        description = "back the store with 4 KiB pages (default: transparent huge pages, as the reference collector's " +
            "stores use huge pages)")
    private boolean smallPages;

    @Option(names = "--json", description = "JSON Lines: one object per point")
    private boolean json;

    @Override
    public Integer call() throws InterruptedException
    {
        final int t = null == threads ? Runtime.getRuntime().availableProcessors() : threads;
        if (storeMib < 1 || storeMib > 1024 || Integer.bitCount(storeMib) != 1 || t < 1 || batch < 0 ||
            seconds <= 0 || listKib < 1 || writeRedundancy < 1 || writeRedundancy > 256 ||
            redundancies.stream().anyMatch(n -> n < 1 || n > 256) || hitPercents.stream().anyMatch(p -> p < 0 || p > 100))
        {
            System.err.println("dta query bench: --store-mib must be a power of two 1..1024, --threads and " +
                "--list-kib at least 1, --batch at least 0, --seconds positive, N 1..256, hit shares 0..100");
            return QueryCommand.BAD_ARGUMENTS;
        }
        final long nanos = (long)(seconds * 1e9);
        final PrintStream out = System.out;
        try (SyntheticKeyWriteStore store = new SyntheticKeyWriteStore((long)storeMib << 20, slotSize,
            writeRedundancy, !smallPages))
        {
            if (!json)
            {
                out.printf("Key-Write store %d MiB (%s), %d-byte slots, %d keys written with N = %d; plurality " +
                    "vote, %s%n", storeMib, store.hugePages() ? "huge pages" : "4 KiB pages", slotSize, store.keys(),
                    writeRedundancy, batch > 0 ? "batches of " + batch : "one lookup at a time");
                out.printf("%-4s %-5s %-8s %-16s %-14s %s%n", "N", "hit%", "threads", "M/s per thread", "M/s total",
                    "bytes/lookup");
            }
            for (final int n : redundancies)
            {
                for (final int hit : hitPercents)
                {
                    for (final int threadCount : t > 1 ? new int[] { 1, t } : new int[] { 1 })
                    {
                        final TimedThreads.Result r = TimedThreads.run(threadCount, i -> new KeyWriteWorker(
                            store.buffer(), slotSize, store.queryKeys(KEYS_PER_THREAD, hit, 17 + i), n, batch),
                            nanos, nanos);
                        print(out, "keywrite", n, hit, r);
                    }
                }
            }
        }
        final TimedThreads.Result list = TimedThreads.run(1, i -> new ListPollWorker(listKib << 10, 4), nanos, nanos);
        print(out, "list", 0, 0, list);
        return 0;
    }

    private void print(final PrintStream out, final String what, final int n, final int hit,
        final TimedThreads.Result r)
    {
        if (json)
        {
            final ObjectNode node = QueryCommand.MAPPER.createObjectNode();
            node.put("query", what);
            if (n > 0)
            {
                node.put("redundancy", n).put("hitPercent", hit).put("batch", batch);
            }
            node.put("threads", r.threads()).put("perThreadPerSecond", Math.round(r.perThreadRate()))
                .put("totalPerSecond", Math.round(r.totalRate())).put("allocatedBytesPerQuery", r.bytesPerOperation());
            QueryCommand.printJson(out, node);
        }
        else if (n > 0)
        {
            out.printf(Locale.ROOT, "%-4d %-5d %-8d %-16.2f %-14.2f %.3f%n", n, hit, r.threads(),
                r.perThreadRate() / 1e6, r.totalRate() / 1e6, r.bytesPerOperation());
        }
        else
        {
            out.printf(Locale.ROOT, "list: full reads of a %d KiB sequenced list (batches of 4): %.1f M entries/s, " +
                "%.2f ns per entry, %.3f bytes allocated per entry%n", listKib, r.perThreadRate() / 1e6,
                1e9 / r.perThreadRate(), r.bytesPerOperation());
        }
    }
}
