package io.dta.perf.ab;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * {@code dta bench} of several builds side by side in one JVM: each {@code dta.jar} gets its own class loader and
 * its own {@code EngineBench}, and the builds take turns in short rounds, timed on the thread's CPU clock, so that
 * whatever else the shared machine does hits them alike and time spent descheduled is not counted.
 * <p>
 * Run: {@code java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp perf/target/dta-benchmarks.jar
 * io.dta.perf.ab.EngineAb keywrite 60 200000 old/dta.jar translator-appliance/cli/target/dta.jar}.
 */
public final class EngineAb
{
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private EngineAb()
    {
    }

    /**
     * @param args primitive, rounds, reports per round, then one or more dta.jar paths.
     * @throws Exception when a build cannot be loaded.
     */
    public static void main(final String[] args) throws Exception
    {
        final String primitive = args[0];
        final int rounds = Integer.parseInt(args[1]);
        final long perRound = Long.parseLong(args[2]);
        final int n = args.length - 3;
        final Object[] benches = new Object[n];
        final Method[] feeds = new Method[n];
        for (int i = 0; i < n; i++)
        {
            final URLClassLoader loader = new URLClassLoader(new URL[] { Path.of(args[3 + i]).toUri().toURL() },
                ClassLoader.getPlatformClassLoader());
            final Class<?> primitiveType = loader.loadClass("io.dta.appliance.bench.BenchPrimitive");
            final Object p = primitiveType.getMethod("valueOf", String.class).invoke(null, primitive.toUpperCase());
            final Object config = loader.loadClass("io.dta.config.ConfigDefaults").getMethod("load").invoke(null);
            final Class<?> bench = loader.loadClass("io.dta.appliance.bench.EngineBench");
            // By signature, not by declaration order: every build has this constructor, and some declare others
            // before it (BenchInput's).
            benches[i] = bench.getConstructor(primitiveType, loader.loadClass("io.dta.config.ApplianceConfig"),
                int.class, int.class, long.class).newInstance(p, config, 1, 16, 1L);
            feeds[i] = bench.getMethod("feed", long.class);
        }
        final double[][] rates = new double[n][rounds];
        for (int r = -rounds / 2; r < rounds; r++)
        {
            for (int k = 0; k < n; k++)
            {
                // Every other round in reverse order: with two builds run in both orders, whichever went first in
                // a round was measured up to 5 % faster, so no build may always be first.
                final int i = 0 == (r & 1) ? k : n - 1 - k;
                final long start = THREADS.getCurrentThreadCpuTime();
                feeds[i].invoke(benches[i], perRound);
                final long elapsed = THREADS.getCurrentThreadCpuTime() - start;
                if (r >= 0)
                {
                    rates[i][r] = perRound * 1e3 / elapsed;
                }
            }
        }
        for (int i = 0; i < n; i++)
        {
            Arrays.sort(rates[i]);
            System.out.printf("%-14s %-50s best %6.2f M/s  median %6.2f M/s (per CPU second)%n", primitive,
                args[3 + i], rates[i][rounds - 1], rates[i][rounds / 2]);
        }
    }
}
