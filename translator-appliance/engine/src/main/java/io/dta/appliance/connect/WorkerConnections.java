package io.dta.appliance.connect;

import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.config.ApplianceConfig;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The translator's connection set-up for all its workers, in one place (one thread, one sink): each worker's QPs
 * (local QPNs {@code localQpn + (w << 16)}) are connected by a {@link ConnectionManager} of their own, and once the
 * engines exist reconnected by a {@link Reconnector} of their own, which hands its changes to each engine's thread
 * ({@link EngineThread}). A CM message reaches every manager; the one that sent the REQ it answers takes it. Without
 * negotiated regions there is none of either.
 */
public final class WorkerConnections
{
    /** Rounds of the reconnector at one time: a QP found in error, its back-off of 0 ending, its set-up starting. */
    private static final int RECONNECTOR_ROUNDS = 4;

    private final ConnectionManager[] managers;
    private Reconnector[] reconnectors = new Reconnector[0];

    private WorkerConnections(final ConnectionManager[] managers)
    {
        this.managers = managers;
    }

    /**
     * @return no set-up at all: every region is static.
     */
    public static WorkerConnections none()
    {
        return new WorkerConnections(new ConnectionManager[0]);
    }

    /**
     * @param translatorSide the translator's configuration.
     * @param workers        its workers.
     * @param link           the link towards the collector.
     * @param seed           the seed of the connection IDs; the first worker's is the single worker's, so one worker
     *                       connects exactly as before.
     * @return a manager per worker.
     */
    public static WorkerConnections of(
        final ApplianceConfig translatorSide, final int workers, final FrameSink link, final long seed)
    {
        final ConnectionManager[] managers = new ConnectionManager[workers];
        for (int w = 0; w < workers; w++)
        {
            managers[w] = new ConnectionManager(translatorSide.forWorker(w), link, seed * 13 + 5 + w * 7919L);
        }
        return new WorkerConnections(managers);
    }

    /**
     * @return whether there is any negotiated region to connect.
     */
    public boolean any()
    {
        return managers.length > 0;
    }

    /**
     * @return every worker's manager, worker 0's first (none without negotiated regions).
     */
    public List<ConnectionManager> managers()
    {
        return List.of(managers);
    }

    /**
     * @return the first worker's manager, or null without negotiated regions.
     */
    public ConnectionManager first()
    {
        return managers.length == 0 ? null : managers[0];
    }

    /**
     * @return the first worker's reconnector, or null (no negotiated region, or no engine yet).
     */
    public Reconnector firstReconnector()
    {
        return reconnectors.length == 0 ? null : reconnectors[0];
    }

    /**
     * Gives each worker's engine a reconnector of its own, on the caller's thread as the engines are.
     *
     * @param engines the engines, one per worker.
     */
    public void attach(final TranslatorEngine[] engines)
    {
        final EngineThread[] same = new EngineThread[engines.length];
        Arrays.fill(same, EngineThread.SAME);
        attach(engines, same);
    }

    /**
     * Gives each worker's engine a reconnector of its own.
     *
     * @param engines the engines, one per worker.
     * @param threads where each engine's QPs are changed.
     */
    public void attach(final TranslatorEngine[] engines, final EngineThread[] threads)
    {
        if (managers.length == 0)
        {
            return;
        }
        reconnectors = new Reconnector[managers.length];
        for (int w = 0; w < managers.length; w++)
        {
            reconnectors[w] = new Reconnector(managers[w], engines[w], threads[w]);
        }
    }

    /**
     * @param now virtual time at which every worker starts its set-up.
     */
    public void start(final long now)
    {
        for (final ConnectionManager manager : managers)
        {
            manager.start(now);
        }
    }

    /**
     * @return whether every worker's set-up ended, connected or failed.
     */
    public boolean done()
    {
        return every(ConnectionManager::isDone);
    }

    /**
     * @return each worker's configuration with its regions connected, or null when a worker failed to connect some.
     */
    public ApplianceConfig[] connected()
    {
        final ApplianceConfig[] connected = new ApplianceConfig[managers.length];
        for (int w = 0; w < managers.length; w++)
        {
            if (!managers[w].allConnected())
            {
                return null;
            }
            connected[w] = managers[w].connectedConfig();
        }
        return connected;
    }

    /**
     * @return why set-up failed, every worker's failures (named by worker when there are several).
     */
    public List<String> failures()
    {
        final List<String> failures = new ArrayList<>();
        for (int w = 0; w < managers.length; w++)
        {
            for (final String failure : managers[w].failures())
            {
                failures.add(managers.length > 1 ? "worker " + w + ": " + failure : failure);
            }
        }
        return failures;
    }

    /**
     * @param next a deadline.
     * @return the earliest of it and every manager's and reconnector's.
     */
    public long nextDeadline(final long next)
    {
        long earliest = next;
        for (final ConnectionManager manager : managers)
        {
            earliest = Math.min(earliest, manager.nextDeadline());
        }
        for (final Reconnector r : reconnectors)
        {
            earliest = Math.min(earliest, r.nextDeadline());
        }
        return earliest;
    }

    /**
     * Polls every manager, then every reconnector, at {@code now}.
     *
     * @param now virtual time.
     */
    public void poll(final long now)
    {
        for (final ConnectionManager manager : managers)
        {
            manager.poll(now);
        }
        for (final Reconnector r : reconnectors)
        {
            // As a live loop polling continuously would: a QP found in error starts its back-off, one of 0 ends at
            // once and the set-up starts, all at this time.
            for (int round = 0; round < RECONNECTOR_ROUNDS; round++)
            {
                if (0 == r.poll(now) || r.nextDeadline() > now)
                {
                    break;
                }
            }
        }
    }

    /**
     * A CM message names its connection by communication ID, which only the worker that sent the REQ knows: every
     * worker's manager sees it, the others count it unmatched.
     *
     * @return whether it was a set-up frame.
     */
    public boolean onFrame(final DirectBuffer buffer, final int offset, final int length, final long now)
    {
        boolean setUp = false;
        for (final ConnectionManager manager : managers)
        {
            setUp |= manager.onFrame(buffer, offset, length, now);
        }
        return setUp;
    }

    /**
     * @return reconnections under way, over every worker.
     */
    public int reconnectsInProgress()
    {
        int n = 0;
        for (final Reconnector r : reconnectors)
        {
            n += r.inProgress();
        }
        return n;
    }

    /**
     * Polls every manager, then every reconnector, once: a live loop, which polls continuously.
     *
     * @param now engine clock.
     * @return work done.
     */
    public int pollOnce(final long now)
    {
        int work = pollManagers(now);
        for (final Reconnector r : reconnectors)
        {
            work += r.poll(now);
        }
        return work;
    }

    /**
     * Polls the managers only (while stopping: nothing is connected again).
     *
     * @param now engine clock.
     * @return work done.
     */
    public int pollManagers(final long now)
    {
        int work = 0;
        for (final ConnectionManager manager : managers)
        {
            work += manager.poll(now);
        }
        return work;
    }

    /**
     * @return whether every region of every worker is connected.
     */
    public boolean allConnected()
    {
        return every(ConnectionManager::allConnected);
    }

    /**
     * Disconnects every connected region of every worker ({@link ConnectionManager#disconnect(long)}).
     *
     * @param now engine clock.
     * @return regions being disconnected.
     */
    public int disconnect(final long now)
    {
        int n = 0;
        for (final ConnectionManager manager : managers)
        {
            n += manager.disconnect(now);
        }
        return n;
    }

    /**
     * @return whether every worker's disconnection ended.
     */
    public boolean disconnectDone()
    {
        return every(ConnectionManager::disconnectDone);
    }

    private boolean every(final Predicate<ConnectionManager> condition)
    {
        for (final ConnectionManager manager : managers)
        {
            if (!condition.test(manager))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the longest a disconnection waits.
     */
    public long disconnectTimeoutNanos()
    {
        long longest = 0;
        for (final ConnectionManager manager : managers)
        {
            longest = Math.max(longest, manager.disconnectTimeoutNanos());
        }
        return longest;
    }

    /**
     * @param counter a connection counter.
     * @return its sum over every worker's manager.
     */
    public long counter(final ConnectionCounter counter)
    {
        long sum = 0;
        for (final ConnectionManager manager : managers)
        {
            sum += manager.counter(counter);
        }
        return sum;
    }

    /**
     * @return the set-up's one-line summary: the single worker's, or each worker's after its number.
     */
    public String summary()
    {
        return joined(ConnectionManager::summary);
    }

    /**
     * @return the disconnection's one-line summary, likewise.
     */
    public String disconnectSummary()
    {
        return joined(ConnectionManager::disconnectSummary);
    }

    private String joined(final Function<ConnectionManager, String> line)
    {
        if (1 == managers.length)
        {
            return line.apply(managers[0]);
        }
        final StringBuilder all = new StringBuilder();
        for (int w = 0; w < managers.length; w++)
        {
            all.append(0 == w ? "" : "; ").append("worker ").append(w).append(": ").append(line.apply(managers[w]));
        }
        return all.toString();
    }
}
