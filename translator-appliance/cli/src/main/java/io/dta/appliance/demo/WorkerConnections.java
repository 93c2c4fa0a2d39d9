package io.dta.appliance.demo;

import io.dta.appliance.connect.ConnectionManager;
import io.dta.appliance.connect.Reconnector;
import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.worker.EngineGroup;
import io.dta.config.ApplianceConfig;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * The translator's connection set-up spread over its workers: each worker connects its own QPs (local QPNs
 * {@code localQpn + (w << 16)}) with a {@link ConnectionManager} of its own, and once the engines exist reconnects
 * them with a {@link Reconnector} of its own. Without negotiated regions there is none of either.
 */
final class WorkerConnections
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
    static WorkerConnections none()
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
    static WorkerConnections of(
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
     * @return the first worker's manager, or null without negotiated regions.
     */
    ConnectionManager first()
    {
        return managers.length == 0 ? null : managers[0];
    }

    /**
     * @return the first worker's reconnector, or null (no negotiated region, or no engine yet).
     */
    Reconnector firstReconnector()
    {
        return reconnectors.length == 0 ? null : reconnectors[0];
    }

    /**
     * Gives each worker's engine a reconnector of its own.
     *
     * @param group the engines, one per worker.
     */
    void attach(final EngineGroup group)
    {
        if (managers.length == 0)
        {
            return;
        }
        reconnectors = new Reconnector[managers.length];
        for (int w = 0; w < managers.length; w++)
        {
            reconnectors[w] = new Reconnector(managers[w], group.engines()[w]);
        }
    }

    /**
     * @param now virtual time at which every worker starts its set-up.
     */
    void start(final long now)
    {
        for (final ConnectionManager manager : managers)
        {
            manager.start(now);
        }
    }

    /**
     * @return whether every worker's set-up ended, connected or failed.
     */
    boolean done()
    {
        for (final ConnectionManager manager : managers)
        {
            if (!manager.isDone())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return each worker's configuration with its regions connected, or null when a worker failed to connect some.
     */
    ApplianceConfig[] connected()
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
    List<String> failures()
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
    long nextDeadline(final long next)
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
    void poll(final long now)
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
    boolean onFrame(final DirectBuffer buffer, final int offset, final int length, final long now)
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
    int reconnectsInProgress()
    {
        int n = 0;
        for (final Reconnector r : reconnectors)
        {
            n += r.inProgress();
        }
        return n;
    }
}
