package io.dta.appliance.demo;

import io.dta.appliance.connect.ConnectionCounter;
import io.dta.appliance.connect.RegionConnection;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.gen.ReportGenerator;
import io.dta.appliance.io.FrameSource;
import io.dta.codec.DethFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.Psn;
import io.dta.codec.RoceOpcode;
import io.dta.collector.responder.ResponderCounter;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.RegionConfig;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A collector that grants fewer outstanding atomics (REP responder resources) than
 * {@code keyIncrement.maxOutstandingAtomics}: the region connects and runs with the grant, which the frames on the
 * link show (never more FETCH_ADDs unanswered than granted), and the stores end as with a full grant. A grant of 0
 * still fails the region; a reconnection applies the new REP's grant, lower or higher.
 */
class AtomicsGrantTest
{
    private static final int REPORTS = 4_000;
    private static final int CONFIGURED = 16;

    @TempDir
    Path dir;

    @Test
    void shouldConnectWithFewerAtomicsGrantedAndNeverHaveMoreUnanswered() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        assertEquals(CONFIGURED, config.collectors().get(0).keyIncrement().maxOutstandingAtomics());

        final Run full = run(config, 5, "full", d -> d);
        // Control: with the full grant the same traffic has more than 4 FETCH_ADDs unanswered, so the watch can see
        // a limit being broken.
        assertEquals(CONFIGURED, full.keyIncrement().atomicsLimit());
        assertEquals(CONFIGURED, full.sender().maxOutstandingAtomics());
        assertTrue(full.watch.max > 4, "full grant: at most " + full.watch.max + " unanswered");
        assertEquals(0, full.demo.connections().counter(ConnectionCounter.ATOMICS_REDUCED));

        final Run reduced = run(config, 5, "reduced", d ->
        {
            d.responder().maxResponderResources(4);
            return d;
        });
        final RegionConnection ki = reduced.keyIncrement();
        assertEquals(RegionConnection.State.CONNECTED, ki.state());
        assertEquals(CONFIGURED, ki.atomics());
        assertEquals(4, ki.atomicsLimit());
        assertEquals(1, reduced.demo.connections().counter(ConnectionCounter.ATOMICS_REDUCED));
        assertEquals(0, reduced.demo.connections().counter(ConnectionCounter.REJS_SENT));
        assertEquals(0, reduced.demo.connections().counter(ConnectionCounter.INVALID_REPS));
        assertEquals(0, reduced.demo.responder().counter(ResponderCounter.CM_REJS_IN));
        assertTrue(reduced.demo.connections().summary().contains("fewer atomics granted: " +
            "collectors[0].keyIncrement 4 of 16"), reduced.demo.connections().summary());
        assertEquals(4, reduced.sender().maxOutstandingAtomics());
        assertEquals(4, reduced.watch.senderMax, "the sender's unanswered FETCH_ADDs: at most the grant, reached");
        assertTrue(reduced.watch.max <= 4 && reduced.watch.max >= 3, "unanswered FETCH_ADDs on the link: " +
            reduced.watch.max);
        assertTrue(reduced.watch.fetchAdds >= REPORTS, "FETCH_ADDs seen: " + reduced.watch.fetchAdds);
        assertTrue(reduced.demo.quiescent());
        assertEquals(0, reduced.demo.essentialOutstanding());
        assertEquals(0, reduced.demo.engine().counters().get(EngineCounter.DROP_BACKLOG_FULL));
        assertStoresEqual(full, reduced, "grant 4");
        full.close();
        reduced.close();
    }

    @Test
    void shouldStillFailARegionWhoseRepGrantsNoAtomics() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final ApplianceConfig collectorSide = DemoNegotiation.collectorSide(NegotiatedRegions.assign(config));
        final List<CollectorStore> stores = stores(collectorSide, "none");
        final ClosedLoopDemo demo = new ClosedLoopDemo(DemoNegotiation.translatorSide(collectorSide), collectorSide,
            stores, 0.0, 3);
        demo.responder().maxResponderResources(0);
        assertFalse(demo.connect());
        final List<String> failures = demo.connections().failures();
        assertEquals(1, failures.size(), failures.toString());
        assertTrue(failures.get(0).startsWith("collectors[0].keyIncrement (10.0.0.51 service port ") &&
            failures.get(0).endsWith("): REP grants 0 outstanding atomics (responder resources), " +
            "keyIncrement.maxOutstandingAtomics is 16: set it to at most 0 (the collector accepts no atomics: give " +
            "its QP responder resources)"), failures.get(0));
        assertEquals(1, demo.connections().counter(ConnectionCounter.REJS_SENT));
        assertEquals(1, demo.responder().counter(ResponderCounter.CM_REJS_IN), "the collector heard the REJ");
        assertEquals(0, demo.connections().counter(ConnectionCounter.ATOMICS_REDUCED));
        // WRITE-only regions ask for no atomics: a grant of 0 is what they need.
        for (final RegionConnection c : demo.connections().connections())
        {
            if (c != keyIncrement(demo))
            {
                assertEquals(RegionConnection.State.CONNECTED, c.state(), c.describe());
            }
        }
        stores.forEach(CollectorStore::close);
    }

    @Test
    void shouldApplyTheNewRepsGrantOnReconnection() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final Run full = run(config, 9, "full-again", d -> d);
        // First connection granted 4; the reconnection (after a NAK 0x62 on the 700th FETCH_ADD) 2, then 16.
        for (final int second : new int[] { 2, CONFIGURED })
        {
            final String why = "grant 4, then " + second;
            final Run again = run(config, 9, "again-" + second, d ->
            {
                d.responder().maxResponderResources(4);
                return d.injectRemoteAccessError(700);
            }, d ->
            {
                // The collector's NIC changed meanwhile: the reconnection's REP grants this.
                d.responder().maxResponderResources(second);
                return d;
            });
            final RegionConnection ki = again.keyIncrement();
            assertEquals(1, again.demo.injectedErrors(), why);
            assertEquals(1, again.demo.connections().counter(ConnectionCounter.RECONNECTS), why);
            assertEquals(2, ki.attempts(), why);
            assertEquals(second, ki.atomicsLimit(), why);
            assertEquals(second, again.sender().maxOutstandingAtomics(), why);
            assertEquals(1, again.sender().reconnects(), why);
            assertEquals(second < CONFIGURED ? 2 : 1,
                again.demo.connections().counter(ConnectionCounter.ATOMICS_REDUCED), why);
            assertEquals(4, again.watch.senderMaxBefore, why + ": before the reconnection");
            assertTrue(again.watch.maxBefore <= 4 && again.watch.maxBefore >= 3, why + ": " + again.watch.maxBefore);
            assertTrue(again.watch.max <= second, why + ": after the reconnection " + again.watch.max +
                " unanswered on the link");
            // Reached: the lower grant is the limit, the higher one is used.
            assertTrue(second < 4 ? again.watch.senderMax == second : again.watch.max > 4,
                why + ": " + again.watch.senderMax + " / " + again.watch.max);
            assertTrue(again.watch.senderMax <= second, why + ": " + again.watch.senderMax);
            assertTrue(again.demo.quiescent(), why);
            assertEquals(0, again.demo.essentialOutstanding(), why);
            assertEquals(QueuePairSender.State.ACTIVE, again.sender().state(), why);
            assertStoresEqual(full, again, why);
            again.close();
        }
        full.close();
    }

    // ---------------------------------------------------------------------------------------------------------

    /**
     * Unanswered FETCH_ADDs as the link shows them: a FETCH_ADD reaching the collector is unanswered until an ACK
     * or ATOMIC ACK covering its PSN reaches the translator (RC acknowledgements are cumulative). What reached the
     * collector is a part of what the translator sent, so this never counts more than the translator's own number.
     * A connection request (after data) starts a new connection: the old QP's FETCH_ADDs are void.
     */
    private static final class AtomicsWatch implements FrameTap
    {
        private final FrameDecoder decoder = new FrameDecoder();
        private final int localQpn;
        private final ArrayDeque<Integer> unanswered = new ArrayDeque<>();
        int max;
        int maxBefore;
        long fetchAdds;
        // The sender's own count, sampled at every frame: it holds its newest frame back (until the next or until
        // idle), so its count may run one ahead of what the link shows.
        QueuePairSender sender;
        int senderMax;
        int senderMaxBefore;

        AtomicsWatch(final int localQpn)
        {
            this.localQpn = localQpn;
        }

        @Override
        public void onFrame(
            final boolean toCollector, final DirectBuffer buffer, final int offset, final int length, final long now)
        {
            if (null != sender && QueuePairSender.State.ERROR != sender.state())
            {
                // (In the error state its count is the dead QP's, forgotten at the re-arm.)
                senderMax = Math.max(senderMax, sender.outstandingAtomics());
            }
            if (FrameKind.ROCE != decoder.decode(buffer, offset, length))
            {
                return;
            }
            final int opcode = decoder.roceOpcode();
            final int psn = decoder.bth().psn();
            if (toCollector)
            {
                if (RoceOpcode.UD_SEND_ONLY == opcode && DethFlyweight.GSI_QPN == decoder.bth().destQp() &&
                    fetchAdds > 0 && 0 == maxBefore)
                {
                    maxBefore = max;
                    max = 0;
                    senderMaxBefore = senderMax;
                    senderMax = 0;
                    unanswered.clear();
                }
                else if (RoceOpcode.RC_FETCH_ADD == opcode)
                {
                    fetchAdds++;
                    unanswered.addLast(psn);
                    max = Math.max(max, unanswered.size());
                }
                return;
            }
            if (decoder.bth().destQp() != localQpn ||
                (RoceOpcode.RC_ACKNOWLEDGE != opcode && RoceOpcode.RC_ATOMIC_ACKNOWLEDGE != opcode))
            {
                return;
            }
            if (decoder.aeth().isAck())
            {
                while (!unanswered.isEmpty() && Psn.compare(unanswered.peekFirst(), psn) <= 0)
                {
                    unanswered.removeFirst();
                }
            }
            else
            {
                // A NAK: the responder executes nothing from its PSN on, and the translator forgets those atomics.
                unanswered.clear();
            }
        }
    }

    private record Run(ClosedLoopDemo demo, List<CollectorStore> stores, Map<String, byte[]> memory,
        AtomicsWatch watch)
    {
        RegionConnection keyIncrement()
        {
            return AtomicsGrantTest.keyIncrement(demo);
        }

        QueuePairSender sender()
        {
            return demo.engine().sender(keyIncrement().region().localQpn());
        }

        void close()
        {
            stores.forEach(CollectorStore::close);
        }
    }

    private static RegionConnection keyIncrement(final ClosedLoopDemo demo)
    {
        return demo.connections().connections().stream()
            .filter(c -> c.region().path().endsWith("keyIncrement")).findFirst().orElseThrow();
    }

    private static void assertStoresEqual(final Run expected, final Run actual, final String why)
    {
        assertEquals(expected.memory.keySet(), actual.memory.keySet());
        boolean counted = false;
        for (final Map.Entry<String, byte[]> e : expected.memory.entrySet())
        {
            assertArrayEquals(e.getValue(), actual.memory.get(e.getKey()), why + ": " + e.getKey());
            if (e.getKey().endsWith("keyIncrement"))
            {
                for (final byte b : e.getValue())
                {
                    counted |= 0 != b;
                }
            }
        }
        assertTrue(counted, "the counters moved");
    }

    private List<CollectorStore> stores(final ApplianceConfig collectorSide, final String name) throws Exception
    {
        final Path storeDir = Files.createDirectories(dir.resolve(name));
        final List<CollectorStore> stores = new ArrayList<>();
        for (final CollectorConfig collector : collectorSide.collectors())
        {
            stores.add(CollectorStore.create(storeDir, collectorSide, collector));
        }
        return stores;
    }

    private Run run(
        final ApplianceConfig config, final long seed, final String name, final UnaryOperator<ClosedLoopDemo> before)
        throws Exception
    {
        return run(config, seed, name, before, d -> d);
    }

    /**
     * A closed loop of Key-Increment reports only, every one essential (so the stores do not depend on timing),
     * every region negotiated; {@code before} runs before the set-up, {@code afterSetUp} after it.
     */
    private Run run(
        final ApplianceConfig config, final long seed, final String name, final UnaryOperator<ClosedLoopDemo> before,
        final UnaryOperator<ClosedLoopDemo> afterSetUp)
        throws Exception
    {
        final ApplianceConfig collectorSide = DemoNegotiation.collectorSide(NegotiatedRegions.assign(config));
        final ApplianceConfig translatorSide = DemoNegotiation.translatorSide(collectorSide);
        final List<CollectorStore> stores = stores(collectorSide, name);
        final AtomicsWatch watch =
            new AtomicsWatch(collectorSide.collectors().get(0).keyIncrement().region().localQpn());
        final ClosedLoopDemo demo =
            before.apply(new ClosedLoopDemo(translatorSide, collectorSide, stores, 0.0, seed).frameTap(watch));
        assertTrue(demo.connect(), name + ": " + demo.connections().failures());
        watch.sender = demo.engine().sender(watch.localQpn);
        afterSetUp.apply(demo);
        final ReportGenerator generator = new ReportGenerator(collectorSide,
            new GeneratorSettings().seed(seed).mix("keyincrement=1").essentialFraction(1.0));
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
        return new Run(demo, stores, memory, watch);
    }

    private static FrameSource source(final ReportGenerator generator)
    {
        return new GeneratedReportSource(generator, REPORTS);
    }
}
