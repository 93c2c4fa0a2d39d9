package io.dta.appliance.live;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Runs a {@link LiveAgent} on a thread of its own with an Agrona {@link AgentRunner} until SIGINT or SIGTERM: the
 * signal handler only sets the agent's stop flag; the agent drains (flushes partial batches, waits for the last
 * acknowledgements up to its drain time), closes its ports and EAL on its own thread, and the caller then prints
 * the final counters and closes the counters file, and the process exits normally (status 0).
 * <p>
 * The handlers are installed with {@code sun.misc.Signal} (module {@code jdk.unsupported}) rather than a shutdown
 * hook: a hook runs once the JVM has already begun to exit, when printing a summary and returning an exit status
 * is no longer orderly.
 */
public final class LiveRunner
{
    private LiveRunner()
    {
    }

    /**
     * Runs the agent to the end.
     *
     * @param agent the data plane.
     * @param idle  its idle strategy.
     * @return the agent's first failure, or null after a clean stop.
     * @throws InterruptedException if the calling thread is interrupted while waiting.
     */
    public static Throwable run(final LiveAgent agent, final IdleStrategy idle) throws InterruptedException
    {
        final SignalHandler handler = signal -> agent.requestStop();
        final SignalHandler oldInt = Signal.handle(new Signal("INT"), handler);
        final SignalHandler oldTerm = Signal.handle(new Signal("TERM"), handler);
        try
        {
            final AgentRunner runner = new AgentRunner(idle, agent::fail, null, agent);
            final Thread thread = AgentRunner.startOnThread(runner);
            thread.join();
            runner.close();
            return agent.failure();
        }
        finally
        {
            Signal.handle(new Signal("INT"), oldInt);
            Signal.handle(new Signal("TERM"), oldTerm);
        }
    }
}
