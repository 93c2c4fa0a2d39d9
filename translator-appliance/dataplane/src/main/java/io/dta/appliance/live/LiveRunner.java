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
     * A stop signal the process inherited as ignored stays ignored: the JVM installs no handler over {@code SIG_IGN}
     * (a shell script's background jobs, {@code cmd &}, start with SIGINT ignored), so {@code kill -INT} or Ctrl-C
     * would do nothing at all. The operator is told at start which signal still works.
     *
     * @param role       the process's name for messages, e.g. {@code dta-translator}.
     * @param intIgnored SIGINT was ignored when the process started.
     * @param termIgnored SIGTERM was ignored when the process started.
     * @param pid        this process.
     * @return the warning, or null when both signals stop the process.
     */
    static String ignoredSignalsWarning(
        final String role, final boolean intIgnored, final boolean termIgnored, final long pid)
    {
        if (!intIgnored && !termIgnored)
        {
            return null;
        }
        if (intIgnored && termIgnored)
        {
            return role + ": warning: SIGINT and SIGTERM are ignored in this process (inherited from its parent), so " +
                "no signal stops it cleanly; kill -KILL " + pid + " ends it without the drain and the final counters";
        }
        final String lost = intIgnored ? "SIGINT" : "SIGTERM";
        final String works = intIgnored ? "SIGTERM" : "SIGINT";
        return role + ": warning: " + lost + " is ignored in this process (inherited from its parent" +
            (intIgnored ? ", as a shell script's background jobs inherit it" : "") + "), so " +
            (intIgnored ? "kill -INT and Ctrl-C do" : "kill's default signal does") + " nothing; stop it with " +
            works + ": kill -" + works.substring(3) + " " + pid;
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
        final String ignored = ignoredSignalsWarning(agent.messagePrefix(), SignalHandler.SIG_IGN == oldInt,
            SignalHandler.SIG_IGN == oldTerm, ProcessHandle.current().pid());
        if (null != ignored)
        {
            // Once, at start-up.
            System.err.println(ignored);
        }
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
