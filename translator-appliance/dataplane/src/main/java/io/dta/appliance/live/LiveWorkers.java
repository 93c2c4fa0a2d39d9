package io.dta.appliance.live;

import io.dta.appliance.dpdk.WorkerAgent;
import io.dta.appliance.engine.worker.HandOffQueues;
import io.dta.dpdk.Eal;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.util.function.Consumer;

/**
 * Workers 1..W-1 of a live translator, each a {@link WorkerAgent} on an EAL worker lcore of its own, over its own
 * queue of every port. They start without an engine (worker 0 gives each its engine once connection set-up is over,
 * {@link WorkerAgent#start}); their ARP and set-up frames, and what comes before their engine, go to worker 0 over
 * the control hand-off queues.
 */
final class LiveWorkers
{
    private final Eal eal;
    private final WorkerAgent[] agents;
    private final int[] lcores;

    private LiveWorkers(final Eal eal, final WorkerAgent[] agents, final int[] lcores)
    {
        this.eal = eal;
        this.agents = agents;
        this.lcores = lcores;
    }

    /**
     * Launches workers 1..count-1, one per EAL worker lcore.
     *
     * @param eal     the running EAL, whose core list has an lcore per worker.
     * @param count   the workers, worker 0 (the caller's thread) included.
     * @param ports   the process's ports.
     * @param control the queues to worker 0.
     * @return the workers, running.
     */
    static LiveWorkers start(final Eal eal, final int count, final LivePorts ports, final HandOffQueues control)
    {
        final int[] workerLcores = eal.workerLcores();
        if (workerLcores.length < count - 1)
        {
            throw new IllegalStateException("--workers " + count + " needs " + count + " lcores in the EAL core list " +
                "(-l), one per worker: it has " + (workerLcores.length + 1));
        }
        final WorkerAgent[] agents = new WorkerAgent[count];
        final int[] lcores = new int[count];
        for (int w = 1; w < count; w++)
        {
            final int from = w;
            agents[w] = ports.newWorker(w, (role, frame, offset, length) ->
                control.offer(from, 0, 1 + role, frame, offset, length));
            lcores[w] = workerLcores[w - 1];
            final WorkerAgent worker = agents[w];
            eal.launch(lcores[w], () -> worker.run(new BackoffIdleStrategy()));
        }
        return new LiveWorkers(eal, agents, lcores);
    }

    /**
     * @return the workers at their indexes, index 0 empty (worker 0 is the caller's).
     */
    WorkerAgent[] agents()
    {
        return agents;
    }

    /**
     * Ends every worker's loop and waits for its lcore.
     *
     * @param failures told of a worker whose loop ended with an exception.
     */
    void stop(final Consumer<RuntimeException> failures)
    {
        for (int w = 1; w < agents.length; w++)
        {
            agents[w].stop();
        }
        for (int w = 1; w < agents.length; w++)
        {
            try
            {
                eal.join(lcores[w]);
            }
            catch (final RuntimeException ex)
            {
                failures.accept(ex);
            }
        }
    }
}
