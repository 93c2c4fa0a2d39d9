package io.dta.appliance.connect;

/**
 * Where work on an engine's QPs runs: the engine's own thread. A {@link Reconnector} that runs on another thread than
 * the engine it re-arms (the connection set-up of all workers runs on worker 0's) hands its changes to the QPs (stop a
 * QP the collector disconnected, re-arm a reconnected one) to the engine's thread through one of these; on the
 * engine's own thread they run at once ({@link #SAME}).
 */
@FunctionalInterface
public interface EngineThread
{
    /** The caller is the engine's thread: tasks run at once. */
    EngineThread SAME = task ->
    {
        task.run();
        return true;
    };

    /**
     * @param task work on the engine's QPs.
     * @return false when it cannot be taken now (a full queue): the caller offers it again later.
     */
    boolean offer(Runnable task);
}
