package io.dta.appliance.connect;

import io.dta.appliance.engine.QueuePairSender;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.config.ConnectionConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Reconnection of negotiated regions (translation.md §8): when the QP of a negotiated region goes to the error
 * state (the collector sent a fatal NAK 0x61, 0x62 or 0x63, and its own QP is in the error state with it; or the
 * collector left every probe unanswered for {@code connection.silenceTimeoutMillis}: its QP is gone), the
 * region is connected again through the {@link ConnectionManager} (new IDs, new starting PSN) and, once connected,
 * its {@link QueuePairSender} is re-armed with the new QPN, R_Key, address, starting PSN and, for the
 * Key-Increment region, the outstanding atomics the new REP granted ({@link TranslatorEngine#reconnect}), which
 * re-sends the essential operations the old QP never executed.
 * <p>
 * Bounded: {@code connection.reconnectAttempts} attempts in a row without progress, the first at once and each
 * further one after {@code connection.reconnectBackoffMillis × 2^(n-1)} (at most 64 times that). An attempt made
 * progress when the re-armed QP got an acknowledgement; an attempt whose set-up failed, or whose re-armed QP went
 * to the error state again before any acknowledgement (an operation the collector refuses every time, for
 * instance), did not. Then the region stays in the error state, as a static region does, and is counted under
 * {@link ConnectionCounter#RECONNECTS_EXHAUSTED}. Static regions are never reconnected: nobody could tell their
 * collector to accept a new connection.
 * <p>
 * The owner's loop keeps offering received frames to the connection manager first, calls its
 * {@link ConnectionManager#poll(long)} and then {@link #poll(long)} here. It may run on another thread than the
 * engine (with several workers, every worker's set-up runs on worker 0's): then it reads its QPs' state and last
 * acknowledged PSN with acquire loads, and hands stopping and re-arming a QP to the engine's thread
 * ({@link EngineThread}), waiting in a phase of its own until the engine re-armed it. Nothing is allocated while every
 * QP is running; a reconnection allocates (messages, a frame builder, the task).
 */
public final class Reconnector
{
    private static final int RUNNING = 0;
    private static final int WAITING = 1;
    private static final int CONNECTING = 2;
    private static final int GAVE_UP = 3;
    private static final int REARMING = 4;
    private static final int NOT_YET = -1;

    private final ConnectionManager connections;
    private final TranslatorEngine engine;
    private final EngineThread engineThread;
    private final ConnectionConfig policy;
    private final RegionConnection[] regions;
    private final QueuePairSender[] senders;
    private final int[] phase;
    private final int[] failuresInARow;
    private final long[] dueNanos;
    private final boolean[] armed;
    private final int[] armedLastAcked;
    private final boolean[] stopAsked;
    // Per region, written by the engine's thread once it re-armed the QP: the essential operations it sends again.
    private final AtomicIntegerArray rearmed;

    /**
     * A reconnector on the engine's own thread.
     *
     * @param connections the manager that connected the engine's negotiated regions.
     * @param engine      the engine built from {@link ConnectionManager#connectedConfig()}.
     */
    public Reconnector(final ConnectionManager connections, final TranslatorEngine engine)
    {
        this(connections, engine, EngineThread.SAME);
    }

    /**
     * @param connections  the manager that connected the engine's negotiated regions.
     * @param engine       the engine built from {@link ConnectionManager#connectedConfig()}.
     * @param engineThread where changes to the engine's QPs run.
     */
    public Reconnector(
        final ConnectionManager connections, final TranslatorEngine engine, final EngineThread engineThread)
    {
        this.connections = connections;
        this.engine = engine;
        this.engineThread = engineThread;
        this.policy = connections.timing();
        final List<RegionConnection> list = new ArrayList<>();
        final List<QueuePairSender> qps = new ArrayList<>();
        for (final RegionConnection c : connections.connections())
        {
            final QueuePairSender sender = engine.sender(c.region().localQpn());
            if (null != sender)
            {
                list.add(c);
                qps.add(sender);
            }
        }
        regions = list.toArray(new RegionConnection[0]);
        senders = qps.toArray(new QueuePairSender[0]);
        phase = new int[regions.length];
        failuresInARow = new int[regions.length];
        dueNanos = new long[regions.length];
        armed = new boolean[regions.length];
        armedLastAcked = new int[regions.length];
        stopAsked = new boolean[regions.length];
        rearmed = new AtomicIntegerArray(regions.length);
    }

    /**
     * Starts reconnections of QPs found in the error state (when due) and re-arms QPs whose set-up finished.
     *
     * @param nowNanos engine clock.
     * @return regions that changed phase.
     */
    public int poll(final long nowNanos)
    {
        int work = 0;
        for (int i = 0; i < regions.length; i++)
        {
            switch (phase[i])
            {
                case RUNNING -> work += running(i, nowNanos);
                case WAITING ->
                {
                    if (nowNanos - dueNanos[i] >= 0)
                    {
                        phase[i] = CONNECTING;
                        connections.reconnect(regions[i], nowNanos);
                        work++;
                    }
                }
                case CONNECTING -> work += connecting(i, nowNanos);
                case REARMING -> work += rearming(i);
                default ->
                {
                    // Gave up: the QP stays in the error state.
                }
            }
        }
        return work;
    }

    private int running(final int i, final long nowNanos)
    {
        final QueuePairSender sender = senders[i];
        if (armed[i] && sender.lastAckedPsnFromAnotherThread() != armedLastAcked[i])
        {
            // The re-armed QP was acknowledged: that attempt worked, the count starts afresh.
            armed[i] = false;
            failuresInARow[i] = 0;
        }
        if (regions[i].disconnectedByCollector() && !stopAsked[i] &&
            engineThread.offer(() -> sender.stopDisconnected(nowNanos)))
        {
            // The collector ended the connection (DREQ, answered): its QP executes nothing more.
            stopAsked[i] = true;
            armed[i] = false;
        }
        if (QueuePairSender.State.ERROR != sender.stateFromAnotherThread())
        {
            return 0;
        }
        armed[i] = false;
        if (failuresInARow[i] >= policy.reconnectAttempts())
        {
            giveUp(i);
            return 1;
        }
        phase[i] = WAITING;
        dueNanos[i] = nowNanos + policy.reconnectBackoffNanos(failuresInARow[i]);
        return 1;
    }

    private int connecting(final int i, final long nowNanos)
    {
        final RegionConnection c = regions[i];
        switch (c.state())
        {
            case CONNECTED ->
            {
                // The new REP's grant applies from now on (it may differ from the previous connection's).
                final var region = c.connectedRegion();
                final int atomics = c.atomicsLimit();
                rearmed.set(i, NOT_YET);
                if (!engineThread.offer(() -> rearmed.setRelease(i, engine.reconnect(region, atomics, nowNanos))))
                {
                    return 0;
                }
                phase[i] = REARMING;
                return 1 + rearming(i);
            }
            case FAILED ->
            {
                connections.count(ConnectionCounter.RECONNECT_FAILURES);
                failuresInARow[i]++;
                System.err.println("dta: reconnecting " + c.describe() + " failed (attempt " + failuresInARow[i] +
                    "): " + c.failure());
                if (failuresInARow[i] >= policy.reconnectAttempts())
                {
                    giveUp(i);
                    return 1;
                }
                phase[i] = WAITING;
                dueNanos[i] = nowNanos + policy.reconnectBackoffNanos(failuresInARow[i]);
                return 1;
            }
            default ->
            {
                return 0;
            }
        }
    }

    private int rearming(final int i)
    {
        final int resent = rearmed.getAcquire(i);
        if (NOT_YET == resent)
        {
            return 0;
        }
        final RegionConnection c = regions[i];
        connections.count(ConnectionCounter.RECONNECTS);
        failuresInARow[i]++;
        armed[i] = true;
        stopAsked[i] = false;
        armedLastAcked[i] = senders[i].lastAckedPsnFromAnotherThread();
        phase[i] = RUNNING;
        System.err.printf("dta: %s reconnected (attempt %d): QPN 0x%06x, R_Key 0x%08x, address 0x%x, " +
            "starting PSN 0x%06x%s; %d essential operation(s) sent again%n", c.describe(), failuresInARow[i],
            c.remoteQpn(), c.rkey(), c.address(), c.startPsn(),
            0 == c.atomicsLimit() ? "" : ", " + c.atomicsLimit() + " outstanding atomics", resent);
        return 1;
    }

    private void giveUp(final int i)
    {
        phase[i] = GAVE_UP;
        if (policy.reconnectAttempts() > 0)
        {
            connections.count(ConnectionCounter.RECONNECTS_EXHAUSTED);
            System.err.println("dta: " + regions[i].describe() + " stays in the error state: " +
                policy.reconnectAttempts() + " reconnection attempt(s) in a row without progress");
        }
    }

    /**
     * When {@link #poll(long)} next has work by time alone: the end of the earliest back-off before a reconnection
     * attempt. Everything else it does answers a change of state (a QP gone to the error state, a set-up finished),
     * which a loop sees by polling after each event that can cause one.
     *
     * @return that time, or {@link Long#MAX_VALUE} when no reconnection waits for its back-off.
     */
    public long nextDeadline()
    {
        long next = Long.MAX_VALUE;
        for (int i = 0; i < regions.length; i++)
        {
            if (WAITING == phase[i] && dueNanos[i] < next)
            {
                next = dueNanos[i];
            }
        }
        return next;
    }

    /**
     * @return regions whose reconnection is waiting for its back-off or its set-up.
     */
    public int inProgress()
    {
        int n = 0;
        for (final int p : phase)
        {
            n += WAITING == p || CONNECTING == p || REARMING == p ? 1 : 0;
        }
        return n;
    }

    /**
     * @return regions given up (they stay in the error state).
     */
    public int givenUp()
    {
        int n = 0;
        for (final int p : phase)
        {
            n += GAVE_UP == p ? 1 : 0;
        }
        return n;
    }
}
