package io.dta.appliance.demo;

import io.dta.appliance.connect.ConnectionCounter;
import io.dta.appliance.connect.RegionConnection;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.gen.ReportGenerator;
import io.dta.appliance.io.FrameSource;
import io.dta.collector.responder.ResponderCounter;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigLoader;
import io.dta.config.RegionConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reconnection closed loop: the soft collector refuses one request (NAK 0x62, its QP in the error state), the
 * appliance connects the negotiated region again and re-arms its QP, and every essential operation lands: the
 * stores equal those of a run without the error. A static region stays in the error state.
 */
class ReconnectionTest
{
    private static final int REPORTS = 20_000;

    @TempDir
    Path dir;

    @Test
    void shouldReconnectANegotiatedRegionAndLandEveryEssentialOperation() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        for (final long inject : new long[] { 1, 777, 5_000 })
        {
            final Run clean = run(config, true, 0, 11, "clean-" + inject);
            final Run faulty = run(config, true, inject, 11, "faulty-" + inject);
            final String why = "inject at request " + inject;
            assertEquals(1, faulty.demo.injectedErrors(), why);
            assertEquals(1, faulty.demo.responder().counter(ResponderCounter.REMOTE_ACCESS_ERRORS), why);
            assertEquals(1, faulty.demo.engine().counters().get(EngineCounter.NAK_FATAL_IN), why);
            assertEquals(1, faulty.demo.connections().counter(ConnectionCounter.RECONNECT_ATTEMPTS), why);
            assertEquals(1, faulty.demo.connections().counter(ConnectionCounter.RECONNECTS), why);
            assertEquals(0, faulty.demo.connections().counter(ConnectionCounter.RECONNECT_FAILURES), why);
            assertTrue(faulty.demo.quiescent(), why);
            assertEquals(0, faulty.demo.essentialOutstanding(), why);
            long reconnects = 0;
            for (final QueuePairSender s : faulty.demo.engine().senders())
            {
                assertEquals(QueuePairSender.State.ACTIVE, s.state(), why + " " + s.path().name());
                reconnects += s.reconnects();
            }
            assertEquals(1, reconnects, why);
            final RegionConnection again = faulty.demo.connections().connections().stream()
                .filter(c -> c.attempts() == 2).findFirst().orElseThrow();
            assertEquals(RegionConnection.State.CONNECTED, again.state());
            final QueuePairSender rearmed = faulty.demo.engine().sender(again.region().localQpn());
            assertEquals(again.startPsn(), rearmed.path().startPsn(), "the re-armed QP starts at the new REQ's PSN");
            assertEquals(again.remoteQpn(), rearmed.path().remoteQpn());
            assertEquals(again.rkey(), rearmed.path().rkey() & 0xFFFF_FFFFL);
            assertEquals(clean.memory.keySet(), faulty.memory.keySet());
            for (final Map.Entry<String, byte[]> e : clean.memory.entrySet())
            {
                assertArrayEquals(e.getValue(), faulty.memory.get(e.getKey()), why + ": " + e.getKey());
            }
            clean.close();
            faulty.close();
        }
    }

    @Test
    void shouldLeaveAStaticRegionInTheErrorState() throws Exception
    {
        final Run faulty = run(ConfigDefaults.load(), false, 100, 5, "static");
        assertEquals(1, faulty.demo.injectedErrors());
        assertEquals(null, faulty.demo.reconnector());
        int inError = 0;
        for (final QueuePairSender s : faulty.demo.engine().senders())
        {
            inError += QueuePairSender.State.ERROR == s.state() ? 1 : 0;
            assertEquals(0, s.reconnects());
        }
        assertEquals(1, inError);
        // Essential operations of the QP wait in its ring for good; none is lost silently.
        assertTrue(faulty.demo.essentialOutstanding() > 0);
        faulty.close();
    }

    @Test
    void shouldLeaveANegotiatedRegionInErrorWithoutReconnectAttempts() throws Exception
    {
        final ApplianceConfig config = ConfigLoader.load(ConfigDefaults.yaml().replace("retryCount: 7",
            "retryCount: 7\n  reconnectAttempts: 0"));
        assertEquals(0, config.connection().reconnectAttempts());
        final Run faulty = run(config, true, 100, 5, "no-reconnect");
        assertEquals(0, faulty.demo.connections().counter(ConnectionCounter.RECONNECT_ATTEMPTS));
        assertEquals(0, faulty.demo.connections().counter(ConnectionCounter.RECONNECTS_EXHAUSTED));
        assertEquals(1, faulty.demo.reconnector().givenUp());
        faulty.close();
    }

    @Test
    void shouldTakeASilentCollectorQpForDeadReconnectAndLandEveryEssentialOperation() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final long silence = config.connection().silenceTimeoutNanos();
        for (final long lose : new long[] { 1, 3_000 })
        {
            final String why = "QP lost at request " + lose;
            final Run clean = run(config, true, 0, 7, "clean-lost-" + lose);
            final Run lost = run(config, true, 7, "lost-" + lose, d -> d.loseQpSilently(lose));
            final var engine = lost.demo.engine();
            assertTrue(lost.demo.silentlyDropped() > 0, why);
            assertEquals(1, engine.counters().get(EngineCounter.SILENT_QP_STOPS), why);
            assertEquals(0, engine.counters().get(EngineCounter.NAK_FATAL_IN), why);
            // Probes every acks.timeoutMicros until the silence timeout, and not one after it.
            final long probes = engine.counters().get(EngineCounter.PROBES_OUT);
            final long timeout = config.acks().timeoutMicros() * 1000;
            assertTrue(probes >= silence / timeout - 1 && probes <= silence / timeout + 1, why + ": " + probes);
            assertEquals(1, lost.demo.connections().counter(ConnectionCounter.RECONNECTS), why);
            assertEquals(0, lost.demo.connections().counter(ConnectionCounter.RECONNECT_FAILURES), why);
            assertTrue(lost.demo.quiescent(), why);
            assertEquals(0, lost.demo.essentialOutstanding(), why);
            for (final QueuePairSender s : engine.senders())
            {
                assertEquals(QueuePairSender.State.ACTIVE, s.state(), why + " " + s.path().name());
            }
            assertEquals(clean.memory.keySet(), lost.memory.keySet());
            for (final Map.Entry<String, byte[]> e : clean.memory.entrySet())
            {
                assertArrayEquals(e.getValue(), lost.memory.get(e.getKey()), why + ": " + e.getKey());
            }
            clean.close();
            lost.close();
        }
    }

    @Test
    void shouldAnswerACollectorDreqStopTheQpReconnectAndLandEveryEssentialOperation() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        for (final long at : new long[] { 1, 4_000 })
        {
            final String why = "collector DREQ at request " + at;
            final Run clean = run(config, true, 0, 9, "clean-dreq-" + at);
            final Run dreq = run(config, true, 9, "dreq-" + at, d -> d.collectorDisconnectsAt(at));
            final var connections = dreq.demo.connections();
            assertEquals(1, dreq.demo.collectorDisconnects(), why);
            assertEquals(1, dreq.demo.responder().counter(ResponderCounter.CM_DREPS_IN), why);
            assertEquals(1, connections.counter(ConnectionCounter.DREQS_IN), why);
            assertEquals(1, connections.counter(ConnectionCounter.DREPS_SENT), why);
            assertEquals(1, connections.counter(ConnectionCounter.RECONNECT_ATTEMPTS), why);
            assertEquals(1, connections.counter(ConnectionCounter.RECONNECTS), why);
            assertEquals(0, dreq.demo.engine().counters().get(EngineCounter.NAK_FATAL_IN), why);
            assertEquals(0, dreq.demo.engine().counters().get(EngineCounter.SILENT_QP_STOPS), why);
            assertTrue(dreq.demo.quiescent(), why);
            assertEquals(0, dreq.demo.essentialOutstanding(), why);
            for (final QueuePairSender s : dreq.demo.engine().senders())
            {
                assertEquals(QueuePairSender.State.ACTIVE, s.state(), why + " " + s.path().name());
            }
            for (final RegionConnection c : connections.connections())
            {
                assertEquals(RegionConnection.State.CONNECTED, c.state(), why + " " + c.describe());
            }
            for (final Map.Entry<String, byte[]> e : clean.memory.entrySet())
            {
                assertArrayEquals(e.getValue(), dreq.memory.get(e.getKey()), why + ": " + e.getKey());
            }
            clean.close();
            dreq.close();
        }
    }

    @Test
    void shouldGiveUpAfterTheConfiguredAttemptsWhenEveryReconnectionSetUpFails() throws Exception
    {
        final ApplianceConfig config = ConfigLoader.load(ConfigDefaults.yaml().replace("retryCount: 7",
            "retryCount: 7\n  reconnectAttempts: 3\n  reconnectBackoffMillis: 2"));
        final Run deaf = run(config, true, 5, "deaf", d -> d.injectRemoteAccessError(100).ignoreSetUpAfterError(true));
        final var connections = deaf.demo.connections();
        assertEquals(1, deaf.demo.injectedErrors());
        assertEquals(3, connections.counter(ConnectionCounter.RECONNECT_ATTEMPTS));
        assertEquals(3, connections.counter(ConnectionCounter.RECONNECT_FAILURES));
        assertEquals(0, connections.counter(ConnectionCounter.RECONNECTS));
        assertEquals(1, connections.counter(ConnectionCounter.RECONNECTS_EXHAUSTED));
        assertEquals(1, deaf.demo.reconnector().givenUp());
        assertEquals(0, deaf.demo.reconnector().inProgress());
        int inError = 0;
        for (final QueuePairSender s : deaf.demo.engine().senders())
        {
            inError += QueuePairSender.State.ERROR == s.state() ? 1 : 0;
            assertEquals(0, s.reconnects(), s.path().name());
        }
        assertEquals(1, inError);
        // The operations the collector never executed wait in the ring; none is dropped silently.
        assertTrue(deaf.demo.essentialOutstanding() > 0);

        // Each attempt: a REQ and its 7 retries (maxCmRetries), one CM response timeout (4.096 us << 8) apart.
        // The first attempt starts at once, the second 2 ms after the first failed, the third 4 ms after that.
        final long[] reqs = deaf.demo.ignoredSetUpNanos();
        assertEquals(3 * 8, reqs.length);
        final long timeout = 4096L << 8;
        final long tolerance = 50_000;
        final long[] backoff = { 2_000_000, 4_000_000 };
        for (int attempt = 0; attempt < 3; attempt++)
        {
            final long first = reqs[attempt * 8];
            for (int k = 1; k < 8; k++)
            {
                assertNear(k * timeout, reqs[attempt * 8 + k] - first, tolerance, "attempt " + attempt + " REQ " + k);
            }
            if (attempt < 2)
            {
                assertNear(8 * timeout + backoff[attempt], reqs[(attempt + 1) * 8] - first, tolerance,
                    "start of attempt " + (attempt + 1));
            }
        }
        deaf.close();
    }

    private static void assertNear(final long expected, final long actual, final long tolerance, final String what)
    {
        assertTrue(Math.abs(actual - expected) <= tolerance, what + ": expected " + expected + " ns +- " +
            tolerance + ", was " + actual);
    }

    private record Run(ClosedLoopDemo demo, List<CollectorStore> stores, Map<String, byte[]> memory)
    {
        void close()
        {
            stores.forEach(CollectorStore::close);
        }
    }

    private Run run(
        final ApplianceConfig config, final boolean negotiate, final long inject, final long seed, final String name)
        throws Exception
    {
        return run(config, negotiate, seed, name, d -> d.injectRemoteAccessError(inject));
    }

    private Run run(
        final ApplianceConfig config, final boolean negotiate, final long seed, final String name,
        final UnaryOperator<ClosedLoopDemo> fault)
        throws Exception
    {
        final ApplianceConfig collectorSide = negotiate ?
            DemoNegotiation.collectorSide(NegotiatedRegions.assign(config)) : NegotiatedRegions.assign(config);
        final ApplianceConfig translatorSide = DemoNegotiation.translatorSide(collectorSide);
        final Path storeDir = Files.createDirectories(dir.resolve(name));
        final List<CollectorStore> stores = new ArrayList<>();
        for (final CollectorConfig collector : collectorSide.collectors())
        {
            stores.add(CollectorStore.create(storeDir, collectorSide, collector));
        }
        final ClosedLoopDemo demo = fault.apply(new ClosedLoopDemo(translatorSide, collectorSide, stores, 0.0, seed));
        assertTrue(demo.connect());
        // Every report essential: whatever the error cost must be sent again, so the stores equal a clean run's.
        final ReportGenerator generator = new ReportGenerator(collectorSide,
            new GeneratorSettings().seed(seed).essentialFraction(1.0));
        demo.run(source(generator));
        final Map<String, byte[]> memory = new LinkedHashMap<>();
        for (int i = 0; i < stores.size(); i++)
        {
            for (final RegionConfig region : collectorSide.collectors().get(i).regions())
            {
                final UnsafeBuffer m = stores.get(i).memory(region);
                final byte[] bytes = new byte[(int)region.length()];
                m.getBytes(0, bytes);
                memory.put(region.path(), bytes);
            }
        }
        assertNotEquals(0, memory.size());
        return new Run(demo, stores, memory);
    }

    private static FrameSource source(final ReportGenerator generator)
    {
        return new GeneratedReportSource(generator, REPORTS);
    }
}
