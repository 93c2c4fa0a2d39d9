package io.dta.perf.query;

import io.dta.collector.query.bench.KeyWriteWorker;
import io.dta.collector.query.bench.SyntheticKeyWriteStore;
import io.dta.collector.query.bench.TimedThreads;

import java.util.Arrays;
import java.util.Locale;

/**
 * Key-Write lookups of this project's query library (batches, plurality vote) side by side with the reference
 * collector's C query (first match; as written, and with its slot CRC reset per copy as intended), over one store
 * filled as the translator fills one, in alternating rounds so that all of them see the same machine load; and the
 * reference's loop made to read every copy and nothing more ({@code c-all-copies}: each key's N lines loaded in C,
 * one key after another), the memory work of a plurality vote.
 * Rates are per thread over each thread's CPU time; the medians over rounds are printed.
 * <p>
 * Arguments: {@code storeMiB redundancies(comma) hitPercents(comma) threads(comma) rounds secondsPerRound}, e.g.
 * {@code 1024 1,2,4 100,0 1,2 5 0.3}.
 */
public final class QueryCompare
{
    private static final int KEYS_PER_THREAD = KeyWriteWorker.ROUND * 128;
    private static final int BATCH = 64;

    private QueryCompare()
    {
    }

    /**
     * @param args see the class comment.
     * @throws InterruptedException if interrupted.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final int storeMib = Integer.parseInt(args[0]);
        final int[] redundancies = ints(args[1]);
        final int[] hits = ints(args[2]);
        final int[] threads = ints(args[3]);
        final int rounds = Integer.parseInt(args[4]);
        final long nanos = (long)(Double.parseDouble(args[5]) * 1e9);
        try (SyntheticKeyWriteStore store = new SyntheticKeyWriteStore((long)storeMib << 20, 8, 4, true))
        {
            final long slots = ((long)storeMib << 20) / 8;
            System.out.printf("store %d MiB (%s), 8-byte slots, %d keys written with N = 4; %d rounds of %.2f s;" +
                " M lookups/s per thread (CPU time), medians%n", storeMib, store.hugePages() ? "huge pages" :
                "4 KiB pages", store.keys(), rounds, nanos / 1e9);
            System.out.printf("%-3s %-5s %-8s %-12s %-14s %-14s %-14s %-10s %s%n", "N", "hit%", "threads",
                "java-vote", "c-ref-written", "c-ref-fresh", "c-all-copies", "java/c", "java B/lookup");
            // Compiled before anything is measured: on a loaded machine a short warm-up per point is mostly spent
            // waiting for a core, with the lookups still interpreted.
            for (final int n : redundancies)
            {
                TimedThreads.run(1, i -> new KeyWriteWorker(store.buffer(), 8, store.queryKeys(KEYS_PER_THREAD, 50, 5),
                    n, BATCH), 1_000_000_000L, 1_000_000L);
            }
            for (final int n : redundancies)
            {
                for (final int hit : hits)
                {
                    for (final int t : threads)
                    {
                        compare(store, slots, n, hit, t, rounds, nanos);
                    }
                }
            }
        }
    }

    private static void compare(final SyntheticKeyWriteStore store, final long slots, final int n, final int hit,
        final int threads, final int rounds, final long nanos) throws InterruptedException
    {
        final double[] java = new double[rounds];
        final double[] written = new double[rounds];
        final double[] fresh = new double[rounds];
        final double[] allCopies = new double[rounds];
        double bytes = 0;
        for (int r = 0; r < rounds; r++)
        {
            final TimedThreads.Result j = TimedThreads.run(threads, i -> new KeyWriteWorker(store.buffer(), 8,
                store.queryKeys(KEYS_PER_THREAD, hit, 17 + i), n, BATCH), nanos / 2, nanos);
            java[r] = j.perThreadRate();
            bytes = Math.max(bytes, j.bytesPerOperation());
            written[r] = TimedThreads.run(threads, i -> new CQueryReference.Worker(store.address(), slots,
                store.queryKeys(KEYS_PER_THREAD, hit, 17 + i), KeyWriteWorker.ROUND, n, false), nanos / 2, nanos)
                .perThreadRate();
            fresh[r] = TimedThreads.run(threads, i -> new CQueryReference.Worker(store.address(), slots,
                store.queryKeys(KEYS_PER_THREAD, hit, 17 + i), KeyWriteWorker.ROUND, n, true), nanos / 2, nanos)
                .perThreadRate();
            allCopies[r] = TimedThreads.run(threads, i -> CQueryReference.Worker.allCopies(store.address(), slots,
                store.queryKeys(KEYS_PER_THREAD, hit, 17 + i), KeyWriteWorker.ROUND, n), nanos / 2, nanos)
                .perThreadRate();
        }
        final double jm = median(java);
        final double wm = median(written);
        System.out.printf(Locale.ROOT, "%-3d %-5d %-8d %-12.2f %-14.2f %-14.2f %-14.2f %-10.2f %.3f%n", n, hit,
            threads, jm / 1e6, wm / 1e6, median(fresh) / 1e6, median(allCopies) / 1e6, jm / wm, bytes);
    }

    private static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    }

    private static int[] ints(final String text)
    {
        return Arrays.stream(text.split(",")).mapToInt(Integer::parseInt).toArray();
    }
}
