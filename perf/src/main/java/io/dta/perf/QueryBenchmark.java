package io.dta.perf;

import io.dta.collector.query.KeyWriteAnswer;
import io.dta.collector.query.KeyWriteAnswers;
import io.dta.collector.query.KeyWriteQuery;
import io.dta.collector.query.bench.SyntheticKeyWriteStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * Key-Write lookups over a store filled as the translator fills one (keys written with N = 4, on transparent huge
 * pages like the reference collector's stores), plurality vote: in batches of {@link #BATCH} and one at a time,
 * for N and the share of written keys. Throughput is in lookups; run with {@code -t T} for T threads (each has its
 * own query and keys) and {@code -prof gc} for the allocation rate (0 B per lookup). The C reference of the same
 * lookups runs side by side in {@code io.dta.perf.query.QueryCompare}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {
    "--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED" })
public class QueryBenchmark
{
    /** Keys per batch. */
    static final int BATCH = 64;

    private static final int KEYS = 1 << 20;

    /**
     * The store, shared by every thread.
     */
    @State(Scope.Benchmark)
    public static class Store
    {
        /** Store size in MiB. */
        @Param("1024")
        public int storeMib;

        SyntheticKeyWriteStore store;

        /**
         * Fills the store.
         */
        @Setup(Level.Trial)
        public void fill()
        {
            store = new SyntheticKeyWriteStore((long)storeMib << 20, 8, 4, true);
        }

        /**
         * Frees it.
         */
        @TearDown(Level.Trial)
        public void free()
        {
            store.close();
        }
    }

    /**
     * One thread's query, keys and answers.
     */
    @State(Scope.Thread)
    public static class Lookups
    {
        /** N of the lookups. */
        @Param({ "1", "2", "4" })
        public int redundancy;

        /** Share of written keys, percent. */
        @Param({ "100", "0" })
        public int hitPercent;

        KeyWriteQuery query;
        long[] keys;
        int position;
        final KeyWriteAnswers answers = new KeyWriteAnswers(BATCH);
        final KeyWriteAnswer answer = new KeyWriteAnswer();

        /**
         * @param store the shared store.
         */
        @Setup(Level.Trial)
        public void prepare(final Store store)
        {
            query = new KeyWriteQuery(store.store.buffer(), 8);
            keys = store.store.queryKeys(KEYS, hitPercent, Thread.currentThread().threadId());
        }

        int next()
        {
            final int from = position;
            position = (position + BATCH) & (KEYS - 1);
            return from;
        }
    }

    /**
     * @param s  the thread's lookups.
     * @param bh sink.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void batch(final Lookups s, final Blackhole bh)
    {
        s.query.lookup(s.keys, s.next(), BATCH, s.redundancy, false, s.answers);
        for (int i = 0; i < BATCH; i++)
        {
            bh.consume(s.answers.get(i).agreeing());
        }
    }

    /**
     * @param s  the thread's lookups.
     * @param bh sink.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void single(final Lookups s, final Blackhole bh)
    {
        final int from = s.next();
        for (int i = 0; i < BATCH; i++)
        {
            s.query.lookup(s.keys[from + i], s.redundancy, false, s.answer);
            bh.consume(s.answer.agreeing());
        }
    }
}
