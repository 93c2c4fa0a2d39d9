package io.dta.appliance.bench;

import io.dta.config.ApplianceConfig;
import io.dta.dpdk.Eal;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.Mempool;
import io.dta.dpdk.RingFeeder;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code dta bench --io dpdk --workers W --compare-c}: the C reference loop ({@link CReference}) on the W workers'
 * lcores, each context with the QPs of its worker, reading the rx queue and ring of that worker and sending on its tx
 * queue, so that it meets the very input the Java workers meet. The C loop has no hand-offs: Key-Write and
 * Key-Increment, which need none, are the primitives it compares. The contexts start together (each lcore waits for
 * all to be ready); the rate is every context's reports over the longest context's time.
 */
final class CWorkers implements AutoCloseable
{
    private final CReference[] contexts;
    private final CReference.RunResult[] results;

    /**
     * @param configs each worker's configuration (its QPs).
     */
    CWorkers(final ApplianceConfig[] configs)
    {
        contexts = new CReference[configs.length];
        results = new CReference.RunResult[configs.length];
        try
        {
            for (int w = 0; w < configs.length; w++)
            {
                contexts[w] = new CReference(configs[w], 0);
            }
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    /**
     * Runs every context once until it received {@code frames} frames.
     *
     * @param eal     the EAL (lcores 1.. of the workers).
     * @param lcores  the workers' lcores, worker 1's first (worker 0 runs on the caller's thread, the main lcore).
     * @param in      the input port, rx queue {@code w} worker {@code w}'s.
     * @param out     the output port, tx queue {@code w} worker {@code w}'s.
     * @param pool    where frame mbufs come from.
     * @param feeders each worker's ring feeder.
     * @param frames  frames each context receives.
     * @return all contexts' reports per second.
     */
    double round(
        final Eal eal,
        final int[] lcores,
        final EthPort in,
        final EthPort out,
        final Mempool pool,
        final List<RingFeeder> feeders,
        final long frames)
    {
        final int workers = contexts.length;
        final AtomicInteger ready = new AtomicInteger();
        final long[] reportsBefore = new long[workers];
        for (int w = 0; w < workers; w++)
        {
            reportsBefore[w] = contexts[w].counter(CReference.REPORTS_IN);
        }
        for (int w = 1; w < workers; w++)
        {
            final int worker = w;
            eal.launch(lcores[w - 1], () -> runOne(worker, ready, in, out, pool, feeders, frames));
        }
        runOne(0, ready, in, out, pool, feeders, frames);
        for (int w = 1; w < workers; w++)
        {
            eal.join(lcores[w - 1]);
        }
        long reports = 0;
        long longest = 1;
        for (int w = 0; w < workers; w++)
        {
            reports += contexts[w].counter(CReference.REPORTS_IN) - reportsBefore[w];
            longest = Math.max(longest, results[w].nanos());
        }
        return reports * 1e9 / longest;
    }

    private void runOne(
        final int w,
        final AtomicInteger ready,
        final EthPort in,
        final EthPort out,
        final Mempool pool,
        final List<RingFeeder> feeders,
        final long frames)
    {
        ready.incrementAndGet();
        while (ready.get() < contexts.length)
        {
            Thread.onSpinWait();
        }
        results[w] = contexts[w].run(in.portId(), w, out.portId(), w, pool, frames, feeders.get(w));
    }

    /**
     * @return the checksum implementation the contexts use.
     */
    String crcName()
    {
        return contexts[0].crcName();
    }

    @Override
    public void close()
    {
        for (final CReference context : contexts)
        {
            if (null != context)
            {
                context.close();
            }
        }
    }
}
