package io.dta.perf;

import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.EngineBench;
import io.dta.config.ConfigDefaults;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The translation engine per primitive, one burst of 32 reports per invocation (so the score is per report),
 * on the embedded configuration: Key-Write N = 1, Key-Increment N = 1, Append with batches of 16, postcards of
 * five hops, Sketch-Merge columns of the Count-Min sketch from 8 switches (epochs rolling over); the collector's
 * answers modelled ({@code openLoop=false}, as {@code dta bench --closed-loop}) or nobody answering
 * ({@code openLoop=true}, as {@code dta bench}). Run with {@code -prof gc} for the allocation per report.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {
    "--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED" })
@State(Scope.Thread)
public class EngineBenchmark
{
    @Param({ "KEYWRITE", "KEYINCREMENT", "APPEND", "POSTCARD", "SKETCH" })
    private BenchPrimitive primitive;

    @Param({ "false", "true" })
    private boolean openLoop;

    private EngineBench bench;

    /**
     * Builds the engine and its reports.
     */
    @Setup
    public void setUp()
    {
        bench = new EngineBench(
            primitive, ConfigDefaults.load(), 1, 16, EngineBench.DEFAULT_SKETCH_SWITCHES, openLoop, 1);
    }

    /**
     * One burst of reports through the engine.
     */
    @Benchmark
    @OperationsPerInvocation(EngineBench.BURST)
    public void burst()
    {
        bench.feed(EngineBench.BURST);
    }
}
