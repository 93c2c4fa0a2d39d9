package io.dta.perf.ab;

import java.util.Arrays;

/**
 * Side-by-side comparison for a shared, noisy machine: the variants run in alternating short rounds in one JVM,
 * so that whatever else the machine does hits them alike, and each variant's best and median round are reported.
 * The best round is the estimate least disturbed by other processes.
 */
public final class AbRunner
{
    /**
     * One variant: runs its operation {@code iterations} times and returns something derived from the results so
     * that the JIT cannot drop the work.
     */
    public abstract static class Variant
    {
        private final String name;

        /**
         * @param name label in the report.
         */
        protected Variant(final String name)
        {
            this.name = name;
        }

        /**
         * @return label in the report.
         */
        public String name()
        {
            return name;
        }

        /**
         * @param iterations operations to run.
         * @return a value depending on every operation.
         */
        public abstract long run(int iterations);
    }

    private static volatile long sink;

    private AbRunner()
    {
    }

    /**
     * Runs the variants in alternating rounds and prints ns per operation (best and median round).
     *
     * @param title      heading.
     * @param iterations operations per round.
     * @param rounds     measured rounds per variant (after as many warm-up rounds).
     * @param variants   the variants.
     */
    public static void compare(final String title, final int iterations, final int rounds, final Variant... variants)
    {
        final double[][] nanos = new double[variants.length][rounds];
        for (int r = -rounds; r < rounds; r++)
        {
            for (int v = 0; v < variants.length; v++)
            {
                final long start = System.nanoTime();
                sink += variants[v].run(iterations);
                final long elapsed = System.nanoTime() - start;
                if (r >= 0)
                {
                    nanos[v][r] = (double)elapsed / iterations;
                }
            }
        }
        System.out.println(title);
        for (int v = 0; v < variants.length; v++)
        {
            Arrays.sort(nanos[v]);
            System.out.printf("  %-36s best %8.2f ns/op   median %8.2f ns/op%n",
                variants[v].name(), nanos[v][0], nanos[v][rounds / 2]);
        }
    }
}
