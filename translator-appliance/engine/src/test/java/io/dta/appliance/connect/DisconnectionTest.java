package io.dta.appliance.connect;

import io.dta.codec.CmDreqFlyweight;
import io.dta.codec.CmFrameEncoder;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.collector.responder.ResponderCounter;
import io.dta.collector.responder.ResponderQp;
import io.dta.collector.responder.SoftResponder;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Disconnection (IB CM DREQ/DREP) between the connection manager and the soft collector: closed loop through a
 * seeded link that loses, duplicates and reorders, the DREQ's fields and retries, and every DREQ or DREP that
 * matches nothing counted and dropped.
 */
class DisconnectionTest
{
    private static final int COLLECTOR_IP = 0x0A000033;
    private static final int TRANSLATOR_IP = 0x0A000065;
    private static final long COLLECTOR_MAC = 0x02000a000033L;
    private static final long TRANSLATOR_MAC = 0x02000a000065L;
    private static final long STEP_NANOS = 20_000;
    private static final long LIMIT_NANOS = 2_000_000_000L;
    private static final long CM_TIMEOUT_NANOS = 4096L << 8;
    private static final int REGIONS = 4;

    private final ApplianceConfig config = ConfigLoader.load(ConnectionManagerTest.YAML);
    private final ApplianceConfig collectorConfig = NegotiatedRegions.assign(config);
    private final FrameDecoder decoder = new FrameDecoder();
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();

    @Test
    void shouldDisconnectEveryRegionThroughALossyDuplicatingLinkAndConnectAgain()
    {
        final long[] recoveries = new long[3];
        for (long seed = 1; seed <= 100; seed++)
        {
            final String where = "seed " + seed;
            final Loop loop = new Loop(seed, 0.12, 0.12);
            loop.connect();
            assertTrue(loop.manager.allConnected(), where + ": " + loop.manager.failures());

            final long start = loop.now;
            assertEquals(REGIONS, loop.manager.disconnect(start), where);
            assertFalse(loop.manager.disconnectDone(), where);
            assertEquals(0, loop.manager.disconnect(start), where + ": only connected regions are disconnected");
            loop.runUntil(() -> loop.manager.disconnectDone() && loop.quiet());
            assertTrue(loop.now - start <= loop.manager.disconnectTimeoutNanos() + STEP_NANOS, where);
            for (final RegionConnection c : loop.manager.connections())
            {
                assertEquals(RegionConnection.State.DISCONNECTED, c.state(), where + " " + c.describe());
                assertFalse(c.disconnectedByCollector(), where);
            }
            for (final ResponderQp qp : loop.responder.qps())
            {
                if (qp.negotiated())
                {
                    assertEquals(ResponderQp.Connection.LISTEN, qp.connection(), where + " " + qp.region().path());
                    assertEquals(ResponderQp.State.IDLE, qp.state(), where);
                    assertTrue(qp.disconnected(), where);
                }
            }
            assertEquals(REGIONS, loop.responder.counter(ResponderCounter.CM_DREQS_IN), where);
            assertEquals(REGIONS, loop.manager.counter(ConnectionCounter.DREPS) +
                loop.manager.counter(ConnectionCounter.DISCONNECT_TIMEOUTS), where);
            recoveries[0] += loop.manager.counter(ConnectionCounter.DREQ_TIMEOUTS);
            recoveries[1] += loop.responder.counter(ResponderCounter.CM_DUPLICATE_DREQS);
            recoveries[2] += loop.manager.counter(ConnectionCounter.UNMATCHED_DISCONNECTS);

            // The collector listens again: a new REQ connects each region.
            for (final RegionConnection c : loop.manager.connections())
            {
                loop.manager.reconnect(c, loop.now);
            }
            loop.runUntil(() -> loop.manager.isDone() && loop.quiet());
            assertTrue(loop.manager.allConnected(), where + ": " + loop.manager.failures());
            for (final ResponderQp qp : loop.responder.qps())
            {
                if (qp.negotiated())
                {
                    assertEquals(ResponderQp.Connection.ESTABLISHED, qp.connection(), where);
                    assertFalse(qp.disconnected(), where);
                }
            }
        }
        // Lost DREQs are re-sent, lost DREPs answered again, duplicated DREPs dropped as matching nothing.
        for (int i = 0; i < recoveries.length; i++)
        {
            assertTrue(recoveries[i] > 10, "recovery path " + i + " taken " + recoveries[i] + " times");
        }
    }

    @Test
    void shouldNameTheConnectionInTheDreqAndMatchTheDrepByIds()
    {
        final Loop loop = new Loop(5, 0, 0);
        loop.connect();
        final ConnectionManager manager = loop.manager;
        // The DREQs stay on the link: the test answers them by hand.
        assertEquals(REGIONS, manager.disconnect(loop.now));
        final RegionConnection kw = manager.connections().get(0);
        byte[] dreqFrame = null;
        while (!loop.toCollector.isEmpty())
        {
            final byte[] f = loop.toCollector.poll().bytes();
            decode(f);
            mad.wrap(decoder.buffer(), decoder.payloadOffset());
            if (new CmDreqFlyweight().wrap(decoder.buffer(), mad.dataOffset()).localCommId() == kw.localCommId())
            {
                dreqFrame = f;
            }
        }
        decode(dreqFrame);
        assertEquals(COLLECTOR_IP, decoder.ipv4().dst());
        assertEquals(1, decoder.bth().destQp());
        assertEquals(kw.region().udpSourcePort(), decoder.udp().srcPort());
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        assertTrue(mad.isCmSend());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_DREQ, mad.attributeId());
        final long tid = mad.transactionId();
        assertTrue(tid != kw.transactionId(), "a DREQ starts a transaction of its own");
        final CmDreqFlyweight dreq = new CmDreqFlyweight().wrap(decoder.buffer(), mad.dataOffset());
        assertEquals(kw.localCommId(), dreq.localCommId());
        assertEquals(kw.remoteCommId(), dreq.remoteCommId());
        assertEquals(kw.remoteQpn(), dreq.remoteQpn());
        assertEquals(RegionConnection.State.DISCONNECTING, kw.state());

        offer(manager, drep(tid + 1, kw.remoteCommId(), kw.localCommId()), loop.now);
        offer(manager, drep(tid, kw.remoteCommId() + 1, kw.localCommId()), loop.now);
        offer(manager, drep(tid, kw.remoteCommId(), kw.localCommId() + 1), loop.now);
        assertEquals(3, manager.counter(ConnectionCounter.UNMATCHED_DISCONNECTS));
        assertEquals(RegionConnection.State.DISCONNECTING, kw.state());
        offer(manager, drep(tid, kw.remoteCommId(), kw.localCommId()), loop.now);
        assertEquals(RegionConnection.State.DISCONNECTED, kw.state());
        assertEquals(1, manager.counter(ConnectionCounter.DREPS));
        offer(manager, drep(tid, kw.remoteCommId(), kw.localCommId()), loop.now);
        assertEquals(4, manager.counter(ConnectionCounter.UNMATCHED_DISCONNECTS), "a second DREP matches nothing");
        assertFalse(manager.disconnectDone(), "three regions still wait");
        assertTrue(loop.toCollector.isEmpty(), "a DREP is not answered");
    }

    @Test
    void shouldCountAndDropACollectorDreqThatNamesNoConnection()
    {
        final Loop loop = new Loop(6, 0, 0);
        loop.connect();
        final ConnectionManager manager = loop.manager;
        final RegionConnection kw = manager.connections().get(0);
        final long sentBefore = manager.counter(ConnectionCounter.DREPS_SENT);
        offer(manager, dreq(9, kw.remoteCommId(), kw.localCommId(), kw.region().localQpn() + 1), loop.now);
        offer(manager, dreq(9, kw.remoteCommId() + 1, kw.localCommId(), kw.region().localQpn()), loop.now);
        offer(manager, dreq(9, kw.remoteCommId(), kw.localCommId() + 1, kw.region().localQpn()), loop.now);
        assertEquals(3, manager.counter(ConnectionCounter.UNMATCHED_DISCONNECTS));
        assertEquals(sentBefore, manager.counter(ConnectionCounter.DREPS_SENT));
        for (final RegionConnection c : manager.connections())
        {
            assertEquals(RegionConnection.State.CONNECTED, c.state());
        }
        assertTrue(loop.toCollector.isEmpty());

        offer(manager, dreq(9, kw.remoteCommId(), kw.localCommId(), kw.region().localQpn()), loop.now);
        assertEquals(RegionConnection.State.DISCONNECTED, kw.state());
        assertTrue(kw.disconnectedByCollector());
        offer(manager, dreq(9, kw.remoteCommId(), kw.localCommId(), kw.region().localQpn()), loop.now);
        assertEquals(1, manager.counter(ConnectionCounter.DREQS_IN));
        assertEquals(1, manager.counter(ConnectionCounter.DUPLICATE_DREQS));
        assertEquals(2, manager.counter(ConnectionCounter.DREPS_SENT));
        for (int i = 0; i < 2; i++)
        {
            decode(loop.toCollector.poll().bytes());
            mad.wrap(decoder.buffer(), decoder.payloadOffset());
            assertEquals(MadHeaderFlyweight.ATTRIBUTE_DREP, mad.attributeId());
            assertEquals(9, mad.transactionId(), "the DREP echoes the DREQ's transaction ID");
        }
        // No SEND is taken for a connection that is over.
        assertEquals(0, manager.counter(ConnectionCounter.SENDS_DROPPED));
    }

    @Test
    void shouldRetryTheDreqOnTheCmTimeoutAndThenGiveUp()
    {
        final Loop loop = new Loop(7, 0, 0);
        loop.connect();
        final ConnectionManager manager = loop.manager;
        final long start = loop.now;
        final long reqsBefore = manager.counter(ConnectionCounter.REQS_SENT);
        manager.disconnect(start);
        long now = start;
        while (!manager.disconnectDone())
        {
            now = manager.nextDeadline();
            manager.poll(now);
        }
        assertEquals(start + manager.disconnectTimeoutNanos(), now);
        assertEquals(8 * CM_TIMEOUT_NANOS, manager.disconnectTimeoutNanos());
        assertEquals(8 * REGIONS, manager.counter(ConnectionCounter.DREQS_SENT));
        assertEquals(7 * REGIONS, manager.counter(ConnectionCounter.DREQ_TIMEOUTS));
        assertEquals(REGIONS, manager.counter(ConnectionCounter.DISCONNECT_TIMEOUTS));
        assertEquals(reqsBefore, manager.counter(ConnectionCounter.REQS_SENT));
        assertEquals(Long.MAX_VALUE, manager.nextDeadline());
        long tid = -1;
        int dreqs = 0;
        while (!loop.toCollector.isEmpty())
        {
            decode(loop.toCollector.poll().bytes());
            mad.wrap(decoder.buffer(), decoder.payloadOffset());
            assertEquals(MadHeaderFlyweight.ATTRIBUTE_DREQ, mad.attributeId());
            final CmDreqFlyweight dreq = new CmDreqFlyweight().wrap(decoder.buffer(), mad.dataOffset());
            if (dreq.localCommId() == manager.connections().get(0).localCommId())
            {
                assertTrue(-1 == tid || tid == mad.transactionId(), "a re-sent DREQ is the same request");
                tid = mad.transactionId();
                dreqs++;
            }
        }
        assertEquals(8, dreqs);
        assertEquals("4 negotiated region(s) disconnected: 0 by DREP, 4 without an answer (32 DREQs sent)",
            manager.disconnectSummary());
    }

    @Test
    void shouldAnswerTheCollectorsDreqThroughALossyLink()
    {
        long duplicates = 0;
        for (long seed = 1; seed <= 60; seed++)
        {
            final String where = "seed " + seed;
            final Loop loop = new Loop(seed, 0.12, 0.12);
            loop.connect();
            final RegionConnection victim = loop.manager.connections().get((int)(seed % REGIONS));
            assertTrue(loop.responder.disconnect(COLLECTOR_IP, victim.remoteQpn(), loop.now, loop.toTranslator),
                where);
            loop.runUntil(loop::quiet);
            for (final RegionConnection c : loop.manager.connections())
            {
                assertEquals(c == victim ? RegionConnection.State.DISCONNECTED : RegionConnection.State.CONNECTED,
                    c.state(), where + " " + c.describe());
            }
            assertTrue(victim.disconnectedByCollector(), where);
            assertEquals(1, loop.manager.counter(ConnectionCounter.DREQS_IN), where);
            final ResponderQp qp = loop.responder.qp(COLLECTOR_IP, victim.remoteQpn());
            assertEquals(ResponderQp.Connection.LISTEN, qp.connection(), where);
            assertEquals(1, loop.responder.counter(ResponderCounter.CM_DREPS_IN), where);
            duplicates += loop.manager.counter(ConnectionCounter.DUPLICATE_DREQS);

            loop.manager.reconnect(victim, loop.now);
            loop.runUntil(() -> loop.manager.isDone() && loop.quiet());
            assertEquals(RegionConnection.State.CONNECTED, victim.state(), where);
            assertFalse(victim.disconnectedByCollector(), where);
            assertEquals(ResponderQp.Connection.ESTABLISHED, qp.connection(), where);
        }
        assertTrue(duplicates > 0, "a lost DREP makes the collector repeat its DREQ: " + duplicates);
    }

    // ---------------------------------------------------------------------------------------------------------

    private final class Loop
    {
        final ConnectionManager manager;
        final SoftResponder responder;
        final SimLink toCollector;
        final SimLink toTranslator;
        long now;

        Loop(final long seed, final double loss, final double duplication)
        {
            toCollector = new SimLink(seed, loss, duplication, 2_000, 3_000);
            toTranslator = new SimLink(~seed, loss, duplication, 2_000, 3_000);
            manager = new ConnectionManager(config, toCollector, seed);
            responder = new SoftResponder(collectorConfig, (c, r) -> new UnsafeBuffer(new byte[(int)r.length()]))
                .connectionSeed(seed * 31);
        }

        void connect()
        {
            manager.start(now);
            runUntil(() -> manager.isDone() && quiet());
        }

        boolean quiet()
        {
            if (!toCollector.isEmpty() || !toTranslator.isEmpty())
            {
                return false;
            }
            for (final ResponderQp qp : responder.qps())
            {
                if (ResponderQp.Connection.REP_SENT == qp.connection() ||
                    ResponderQp.Connection.SEND_PENDING == qp.connection() ||
                    ResponderQp.Connection.DREQ_SENT == qp.connection())
                {
                    return false;
                }
            }
            return true;
        }

        void runUntil(final BooleanSupplier done)
        {
            final long limit = now + LIMIT_NANOS;
            while (!done.getAsBoolean())
            {
                assertTrue(now < limit, "no end in sight");
                now = Math.min(Math.min(toCollector.nextArrival(), toTranslator.nextArrival()), now + STEP_NANOS);
                toTranslator.now(now);
                while (toCollector.nextArrival() <= now)
                {
                    final byte[] f = toCollector.poll().bytes();
                    responder.onFrame(new UnsafeBuffer(f), 0, f.length, now, toTranslator);
                }
                while (toTranslator.nextArrival() <= now)
                {
                    final byte[] f = toTranslator.poll().bytes();
                    assertTrue(manager.onFrame(new UnsafeBuffer(f), 0, f.length, now), "only set-up frames flow");
                }
                manager.poll(now);
                responder.poll(now, toTranslator);
            }
        }
    }

    private static void offer(final ConnectionManager manager, final byte[] frame, final long now)
    {
        assertTrue(manager.onFrame(new UnsafeBuffer(frame), 0, frame.length, now));
    }

    private void decode(final byte[] frame)
    {
        assertEquals(FrameKind.ROCE, decoder.decode(new UnsafeBuffer(frame), 0, frame.length));
        assertTrue(decoder.icrcValid());
        assertEquals(TRANSLATOR_IP, decoder.ipv4().src());
    }

    private static CmFrameEncoder cm()
    {
        final CmFrameEncoder cm = new CmFrameEncoder();
        cm.encoder().srcMac(COLLECTOR_MAC).dstMac(TRANSLATOR_MAC).srcIp(COLLECTOR_IP).dstIp(TRANSLATOR_IP).psn(5);
        return cm;
    }

    private static byte[] drep(final long tid, final long localCommId, final long remoteCommId)
    {
        final CmFrameEncoder cm = cm();
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[CmFrameEncoder.FRAME_LENGTH]);
        cm.begin(frame, 0, MadHeaderFlyweight.ATTRIBUTE_DREP, tid, 0);
        cm.drep().localCommId(localCommId).remoteCommId(remoteCommId);
        cm.finish(frame, 0);
        return frame.byteArray();
    }

    private static byte[] dreq(final long tid, final long localCommId, final long remoteCommId, final int remoteQpn)
    {
        final CmFrameEncoder cm = cm();
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[CmFrameEncoder.FRAME_LENGTH]);
        cm.begin(frame, 0, MadHeaderFlyweight.ATTRIBUTE_DREQ, tid, 0);
        cm.dreq().localCommId(localCommId).remoteCommId(remoteCommId).remoteQpn(remoteQpn);
        cm.finish(frame, 0);
        return frame.byteArray();
    }
}
