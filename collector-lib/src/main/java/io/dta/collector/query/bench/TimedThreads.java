package io.dta.collector.query.bench;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CyclicBarrier;
import java.util.function.IntFunction;

/**
 * Runs T workers side by side: each repeats rounds through a warm-up, then all start measuring together and each
 * counts the operations of the rounds it finished within the measured time and the bytes its thread allocated
 * meanwhile. A thread's rate is over its own CPU time, so that on a shared machine the time the thread spent
 * waiting for a core does not count (the caches the other processes share still do).
 */
public final class TimedThreads
{
    /**
     * One thread's work.
     */
    @FunctionalInterface
    public interface Worker
    {
        /**
         * @return operations done in one round (a few milliseconds of work).
         */
        long round();
    }

    /**
     * What T threads did.
     *
     * @param threads        threads.
     * @param operations     operations in all.
     * @param perThreadRate  mean over threads of each thread's operations per second of its CPU time.
     * @param allocatedBytes bytes the threads allocated while measured.
     */
    public record Result(int threads, long operations, double perThreadRate, long allocatedBytes)
    {
        /**
         * @return operations per second of all threads together.
         */
        public double totalRate()
        {
            return perThreadRate * threads;
        }

        /**
         * @return bytes allocated per operation.
         */
        public double bytesPerOperation()
        {
            return operations == 0 ? 0 : (double)allocatedBytes / operations;
        }
    }

    private TimedThreads()
    {
    }

    /**
     * @param threads       threads, ≥ 1.
     * @param workers       builds thread i's worker (called on that thread).
     * @param warmupNanos   warm-up per thread.
     * @param measureNanos  measured time per thread.
     * @return the result.
     * @throws InterruptedException if interrupted.
     */
    public static Result run(final int threads, final IntFunction<Worker> workers, final long warmupNanos,
        final long measureNanos) throws InterruptedException
    {
        final long[] operations = new long[threads];
        final long[] nanos = new long[threads];
        final long[] allocated = new long[threads];
        final CyclicBarrier start = new CyclicBarrier(threads);
        final Throwable[] failure = new Throwable[1];
        final Thread[] running = new Thread[threads];
        for (int t = 0; t < threads; t++)
        {
            final int index = t;
            running[t] = new Thread(() ->
            {
                try
                {
                    final Worker worker = workers.apply(index);
                    repeat(worker, warmupNanos);
                    start.await();
                    final com.sun.management.ThreadMXBean bean =
                        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
                    final long bytes = bean.getCurrentThreadAllocatedBytes();
                    final long began = bean.getCurrentThreadCpuTime();
                    operations[index] = repeat(worker, measureNanos);
                    nanos[index] = bean.getCurrentThreadCpuTime() - began;
                    allocated[index] = bean.getCurrentThreadAllocatedBytes() - bytes;
                }
                catch (final Throwable ex)
                {
                    synchronized (failure)
                    {
                        failure[0] = ex;
                    }
                    start.reset();
                }
            }, "query-bench-" + t);
            running[t].start();
        }
        for (final Thread thread : running)
        {
            thread.join();
        }
        if (null != failure[0])
        {
            throw new IllegalStateException("a benchmark thread failed: " + failure[0], failure[0]);
        }
        long total = 0;
        long bytes = 0;
        double rate = 0;
        for (int t = 0; t < threads; t++)
        {
            total += operations[t];
            bytes += allocated[t];
            rate += operations[t] * 1e9 / Math.max(1, nanos[t]);
        }
        return new Result(threads, total, rate / threads, bytes);
    }

    private static long repeat(final Worker worker, final long forNanos)
    {
        final long end = System.nanoTime() + forNanos;
        long done = 0;
        do
        {
            done += worker.round();
        }
        while (System.nanoTime() < end);
        return done;
    }
}
