package io.dta.appliance.connect;

import io.dta.appliance.engine.QueuePairSender;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.collector.responder.ResponderQp;
import io.dta.collector.responder.SoftResponder;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@link Reconnector}'s phases against a soft collector on a simulated link.
 * <p>
 * {@link Reconnector#nextDeadline()}: the end of a reconnection back-off, the time at which {@link Reconnector#poll}
 * starts the next attempt (what the demo's virtual clock jumps to). The collector disconnects a negotiated region
 * (its DREQ, answered), then hears nothing more, so that every reconnection's set-up fails: the first attempt starts
 * at once (back-off 0), the second {@code reconnectBackoffMillis} after the first failed, the third twice that after
 * the second failed, and after {@code reconnectAttempts} failures there is no deadline any more.
 * <p>
 * On another thread than the engine's (worker 0's set-up reconnecting another worker's QP): the stop of a QP the
 * collector disconnected and the re-arm of a reconnected one run only when the engine's thread takes them
 * ({@link EngineThread}); until then the QP is untouched and the reconnection waits, counted in progress; a full
 * queue is offered again at the next poll.
 */
class ReconnectorDeadlineTest
{
    private static final long NONE = Long.MAX_VALUE;
    private static final long MS = 1_000_000L;
    private static final long BACKOFF_NANOS = 2 * MS;
    private static final int ATTEMPTS = 3;
    private static final long CM_TIMEOUT_NANOS = 4096L << 8;
    private static final int MAX_CM_RETRIES = 1;

    private static final String YAML = """
        translator:
          mac: "02:00:0a:00:00:65"
          ip: 10.0.0.101
        connection:
          cmResponseTimeout: 8
          maxCmRetries: 1
          localAckTimeout: 8
          retryCount: 2
          reconnectAttempts: 3
          reconnectBackoffMillis: 2
        collectors:
          - name: c
            mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            keyWrite:
              localQpn: 0x539
              servicePort: 1337
              length: 2048
        """;

    private final ApplianceConfig config = ConfigLoader.load(YAML);
    private final SimLink toCollector = new SimLink(1, 0, 0, 2_000, 0);
    private final SimLink toTranslator = new SimLink(2, 0, 0, 2_000, 0);
    private final ConnectionManager manager = new ConnectionManager(config, toCollector, 17);
    private final SoftResponder responder = new SoftResponder(NegotiatedRegions.assign(config),
        (c, r) -> new UnsafeBuffer(new byte[(int)r.length()])).connectionSeed(23);
    private boolean deaf;
    private long now = 1_000_000_000L;

    @Test
    void shouldEndEachBackOffAtItsDeadlineAndHaveNoneWhileRunningConnectingOrGivenUp()
    {
        manager.start(now);
        runUntil(manager::isDone);
        assertTrue(manager.allConnected(), String.join("; ", manager.failures()));
        final TranslatorEngine engine = new TranslatorEngine(manager.connectedConfig(), toCollector, true);
        final Reconnector reconnector = new Reconnector(manager, engine);
        final RegionConnection region = manager.connections().get(0);
        final QueuePairSender sender = engine.sender(region.region().localQpn());
        assertEquals(0, reconnector.poll(now));
        assertEquals(NONE, reconnector.nextDeadline(), "a running QP waits for no back-off");

        // The collector ends the connection, then goes deaf: every reconnection's set-up fails.
        ResponderQp qp = null;
        for (final ResponderQp candidate : responder.qps())
        {
            qp = candidate.negotiated() ? candidate : qp;
        }
        assertTrue(responder.disconnect(qp.collector().ip(), qp.qpn(), now, toTranslator));
        runUntil(region::disconnectedByCollector);
        deaf = true;

        // Found in error: the first attempt is due at once, and starts at that very time.
        assertEquals(1, reconnector.poll(now));
        assertEquals(QueuePairSender.State.ERROR, sender.state());
        assertEquals(now, reconnector.nextDeadline(), "back-off 0 before the first attempt");
        assertEquals(1, reconnector.inProgress());
        long reqs = manager.counter(ConnectionCounter.REQS_SENT);
        assertEquals(1, reconnector.poll(now));
        assertEquals(reqs + 1, manager.counter(ConnectionCounter.REQS_SENT), "the first attempt's REQ");
        assertEquals(NONE, reconnector.nextDeadline(), "connecting: the set-up's timers are the manager's");

        long backoff = BACKOFF_NANOS;
        for (int failed = 1; failed < ATTEMPTS; failed++)
        {
            final String why = "after failed attempt " + failed;
            final long started = now;
            runUntil(() -> RegionConnection.State.FAILED == region.state());
            assertEquals(started + (MAX_CM_RETRIES + 1) * CM_TIMEOUT_NANOS, now, why + ": the set-up's own timeout");
            assertEquals(1, reconnector.poll(now), why);
            final long due = now + backoff;
            assertEquals(due, reconnector.nextDeadline(), why);

            reqs = manager.counter(ConnectionCounter.REQS_SENT);
            assertEquals(0, reconnector.poll(due - 1), why + ": 1 ns before the back-off ends");
            assertEquals(reqs, manager.counter(ConnectionCounter.REQS_SENT), why);
            assertEquals(due, reconnector.nextDeadline(), why + ": a poll before it does not move it");
            assertEquals(1, reconnector.inProgress(), why);

            now = due;
            toCollector.now(now);
            assertEquals(1, reconnector.poll(now), why + ": at the end of the back-off");
            assertEquals(reqs + 1, manager.counter(ConnectionCounter.REQS_SENT), why + ": the next attempt's REQ");
            assertEquals(NONE, reconnector.nextDeadline(), why + ": connecting again");
            backoff *= 2;
        }

        runUntil(() -> RegionConnection.State.FAILED == region.state());
        assertEquals(1, reconnector.poll(now));
        assertEquals(1, reconnector.givenUp(), "the last attempt failed: no more back-off");
        assertEquals(0, reconnector.inProgress());
        assertEquals(NONE, reconnector.nextDeadline());
        assertEquals(ATTEMPTS, manager.counter(ConnectionCounter.RECONNECT_FAILURES));
        assertEquals(0, reconnector.poll(Long.MAX_VALUE / 2));
    }

    @Test
    void shouldHandStopAndReArmToTheEnginesThreadWhenRunningOnAnother()
    {
        manager.start(now);
        runUntil(manager::isDone);
        assertTrue(manager.allConnected(), String.join("; ", manager.failures()));
        final TranslatorEngine engine = new TranslatorEngine(manager.connectedConfig(), toCollector, true);
        final ArrayDeque<Runnable> engineThread = new ArrayDeque<>();
        final boolean[] full = { false };
        final Reconnector reconnector = new Reconnector(manager, engine, task -> !full[0] && engineThread.add(task));
        final RegionConnection region = manager.connections().get(0);
        final QueuePairSender sender = engine.sender(region.region().localQpn());
        final int firstQpn = region.remoteQpn();

        ResponderQp qp = null;
        for (final ResponderQp candidate : responder.qps())
        {
            qp = candidate.negotiated() ? candidate : qp;
        }
        assertTrue(responder.disconnect(qp.collector().ip(), qp.qpn(), now, toTranslator));
        runUntil(region::disconnectedByCollector);

        full[0] = true;
        assertEquals(0, reconnector.poll(now), "a full queue: nothing asked yet");
        full[0] = false;
        reconnector.poll(now);
        assertEquals(1, engineThread.size(), "the stop, handed to the engine's thread");
        assertEquals(QueuePairSender.State.ACTIVE, sender.state(), "untouched until the engine's thread runs it");
        reconnector.poll(now);
        assertEquals(1, engineThread.size(), "asked once");
        engineThread.poll().run();
        assertEquals(QueuePairSender.State.ERROR, sender.state());
        assertEquals(QueuePairSender.State.ERROR, sender.stateFromAnotherThread());

        // Found in error: the reconnection starts, and its set-up succeeds.
        assertEquals(1, reconnector.poll(now));
        assertEquals(1, reconnector.poll(now));
        runUntil(() -> RegionConnection.State.CONNECTED == region.state());
        assertEquals(1, reconnector.poll(now), "connected: the re-arm handed over");
        assertEquals(1, engineThread.size());
        assertEquals(1, reconnector.inProgress(), "waiting for the engine's thread");
        assertEquals(0, manager.counter(ConnectionCounter.RECONNECTS));
        assertEquals(QueuePairSender.State.ERROR, sender.state());
        assertEquals(0, reconnector.poll(now), "nothing to do while the engine has not re-armed it");

        engineThread.poll().run();
        assertEquals(QueuePairSender.State.ACTIVE, sender.state(), "re-armed on the engine's thread");
        assertEquals(1, reconnector.poll(now));
        assertEquals(0, reconnector.inProgress());
        assertEquals(1, manager.counter(ConnectionCounter.RECONNECTS));
        assertTrue(firstQpn != region.remoteQpn(), "a new collector QP");
        assertEquals(0, reconnector.poll(now), "running again, nothing more to hand over");
        assertTrue(engineThread.isEmpty());
    }

    /**
     * Runs the link, the manager and the collector from event to event (an arrival or a timer's deadline) until
     * {@code done}; a deaf collector drops everything that reaches it.
     */
    private void runUntil(final BooleanSupplier done)
    {
        final long limit = now + 10_000 * MS;
        while (!done.getAsBoolean())
        {
            final long next = Math.min(Math.min(toCollector.nextArrival(), toTranslator.nextArrival()),
                Math.min(manager.nextDeadline(), responder.nextDeadline()));
            assertTrue(next < limit, "nothing more happens");
            now = Math.max(now, next);
            toCollector.now(now);
            toTranslator.now(now);
            while (toCollector.nextArrival() <= now)
            {
                final byte[] f = toCollector.poll().bytes();
                if (!deaf)
                {
                    responder.onFrame(new UnsafeBuffer(f), 0, f.length, now, toTranslator);
                }
            }
            while (toTranslator.nextArrival() <= now)
            {
                final byte[] f = toTranslator.poll().bytes();
                manager.onFrame(new UnsafeBuffer(f), 0, f.length, now);
            }
            manager.poll(now);
            responder.poll(now, toTranslator);
        }
    }
}
