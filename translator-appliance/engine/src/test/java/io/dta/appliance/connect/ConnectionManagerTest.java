package io.dta.appliance.connect;

import io.dta.appliance.engine.FrameCollector;
import io.dta.codec.AethFlyweight;
import io.dta.codec.CmFrameEncoder;
import io.dta.codec.CmRejFlyweight;
import io.dta.codec.CmReqFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.RdmaCmHeaderFlyweight;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.collector.responder.ResponderCounter;
import io.dta.collector.responder.ResponderQp;
import io.dta.collector.responder.SoftResponder;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ConfigLoader;
import io.dta.config.RegionConfig;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The requester side of connection set-up, byte by byte against hand-made collector frames, and closed loop against
 * the soft collector through a seeded link that loses, duplicates and reorders.
 */
class ConnectionManagerTest
{
    static final String YAML = """
        translator:
          mac: "02:00:0a:00:00:65"
          ip: 10.0.0.101
          dscp: 26
        connection:
          cmResponseTimeout: 8
          maxCmRetries: 7
          localAckTimeout: 8
          retryCount: 7
        collectors:
          - name: c
            mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            keyWrite:
              localQpn: 0x539
              servicePort: 1337
              length: 2048
              startPsn: 0xfffff0
            keyIncrement:
              localQpn: 0x53a
              servicePort: 1339
              length: 2048
              startPsn: 0x200
            postcards:
              localQpn: 0x53b
              servicePort: 1336
              length: 8192
            lists:
              - id: 0
                localQpn: 0x53c
                servicePort: 1338
                length: 1024
                layout: reference
              - id: 1
                localQpn: 0x53d
                qpn: 0x45a
                rkey: 0x1238
                address: 0x7f0000400000
                length: 4096
        """;
    private static final int COLLECTOR_IP = 0x0A000033;
    private static final int TRANSLATOR_IP = 0x0A000065;
    private static final long COLLECTOR_MAC = 0x02000a000033L;
    private static final long TRANSLATOR_MAC = 0x02000a000065L;
    private static final long STEP_NANOS = 20_000;
    private static final long LIMIT_NANOS = 2_000_000_000L;

    private final ApplianceConfig config = ConfigLoader.load(YAML);
    private final ApplianceConfig collectorConfig = NegotiatedRegions.assign(config);
    private final FrameDecoder decoder = new FrameDecoder();
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();

    @Test
    void shouldSendAReqThatAdvertisesItsOwnQpnAndStartingPsn()
    {
        final FrameCollector out = new FrameCollector();
        final ConnectionManager manager = new ConnectionManager(config, out, 42);
        assertEquals(4, manager.connections().size());
        manager.start(1000);
        assertEquals(4, out.size());
        final RegionConnection kw = manager.connections().get(0);
        assertEquals(RegionConnection.State.REQ_SENT, kw.state());

        decode(out.frames().get(0).bytes());
        assertEquals(RoceOpcode.UD_SEND_ONLY, decoder.roceOpcode());
        assertEquals(1, decoder.bth().destQp());
        assertEquals(0x80010000L, decoder.deth().qKey());
        assertEquals(1, decoder.deth().srcQp());
        assertEquals(COLLECTOR_IP, decoder.ipv4().dst());
        assertEquals(TRANSLATOR_IP, decoder.ipv4().src());
        assertEquals(0xC000 | 0x539, decoder.udp().srcPort());
        assertEquals(0, decoder.udp().checksum());
        assertEquals(26 << 2, decoder.ipv4().tos());
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        assertTrue(mad.isCmSend());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_REQ, mad.attributeId());
        assertEquals(kw.transactionId(), mad.transactionId());
        final CmReqFlyweight req = new CmReqFlyweight().wrap(decoder.buffer(), mad.dataOffset());
        assertEquals(kw.localCommId(), req.localCommId());
        assertEquals(0x0000000001060539L, req.serviceId());
        assertEquals(0x539, req.localQpn());
        assertEquals(0xfffff0, req.startingPsn());
        assertEquals(CmReqFlyweight.TRANSPORT_RC, req.transportServiceType());
        assertEquals(8, req.remoteCmResponseTimeout());
        assertEquals(8, req.localCmResponseTimeout());
        assertEquals(7, req.maxCmRetries());
        assertEquals(7, req.retryCount());
        assertEquals(8, req.primaryLocalAckTimeout());
        assertEquals(3, req.pathMtu());
        assertEquals(0xFFFF, req.pKey());
        assertEquals(0xFFFF, req.primaryLocalLid());
        assertEquals(TRANSLATOR_IP, req.primaryLocalGidIpv4());
        assertEquals(COLLECTOR_IP, req.primaryRemoteGidIpv4());
        assertEquals(64, req.primaryHopLimit());
        final RdmaCmHeaderFlyweight cma = new RdmaCmHeaderFlyweight().wrap(decoder.buffer(), req.privateDataOffset());
        assertEquals(4, cma.ipVersion());
        assertEquals(TRANSLATOR_IP, cma.srcIpv4());
        assertEquals(COLLECTOR_IP, cma.dstIpv4());

        // Every region has its own IDs; the reference reused the port as comm ID and one constant TID.
        final RegionConnection list0 = manager.connections().get(3);
        assertNotEquals(kw.transactionId(), list0.transactionId());
        assertNotEquals(kw.localCommId(), list0.localCommId());
        assertEquals(1000 + 4096L * 256, manager.nextDeadline());
    }

    @Test
    void shouldCompleteTheExchangeByteByByteWithTheSoftCollector()
    {
        final FrameCollector toCollector = new FrameCollector();
        final Frames toTranslator = new Frames();
        final Map<RegionConfig, UnsafeBuffer> memory = new HashMap<>();
        final SoftResponder responder = new SoftResponder(collectorConfig,
            (c, r) -> memory.computeIfAbsent(r, k -> new UnsafeBuffer(new byte[(int)k.length()])));
        final ConnectionManager manager = new ConnectionManager(config, toCollector, 7);
        manager.start(0);
        final RegionConfig kwCollector = collectorConfig.collectors().get(0).keyWrite().region();
        final ResponderQp qp = responder.qp(COLLECTOR_IP, kwCollector.qpn());

        // REQ → REP
        offer(responder, toCollector.frames().get(0).bytes(), toTranslator);
        assertEquals(1, toTranslator.frames.size());
        assertEquals(0xfffff0, qp.expectedPsn());
        assertEquals(0x539, qp.peerQpn());
        assertTrue(manager.onFrame(buffer(toTranslator.last()), 0, toTranslator.last().length, 10));
        final RegionConnection kw = manager.connections().get(0);
        assertEquals(RegionConnection.State.RTU_SENT, kw.state());
        assertEquals(kwCollector.qpn(), kw.remoteQpn());
        assertEquals(qp.sendPsn(), kw.remoteStartPsn());
        assertEquals(qp.localCommId(), kw.remoteCommId());

        // RTU → metadata SEND
        final byte[] rtu = toCollector.frames().get(4).bytes();
        decode(rtu);
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_RTU, mad.attributeId());
        assertEquals(kw.transactionId(), mad.transactionId());
        offer(responder, rtu, toTranslator);
        assertEquals(2, toTranslator.frames.size());
        assertEquals(ResponderQp.Connection.SEND_PENDING, qp.connection());

        // SEND → ACK with the SEND's own PSN and MSN 1 (the reference sent PSN 100, MSN 2)
        assertTrue(manager.onFrame(buffer(toTranslator.last()), 0, toTranslator.last().length, 20));
        assertEquals(RegionConnection.State.CONNECTED, kw.state());
        final byte[] ack = toCollector.frames().get(5).bytes();
        decode(ack);
        assertEquals(RoceOpcode.RC_ACKNOWLEDGE, decoder.roceOpcode());
        assertEquals(qp.sendPsn(), decoder.bth().psn());
        assertEquals(kwCollector.qpn(), decoder.bth().destQp());
        assertEquals(1, decoder.aeth().msn());
        assertTrue(decoder.aeth().isAck());
        assertEquals(62, ack.length);
        offer(responder, ack, toTranslator);
        assertEquals(ResponderQp.Connection.ESTABLISHED, qp.connection());

        assertEquals(kwCollector.address(), kw.address());
        assertEquals(2048, kw.advertisedLength());
        assertEquals(kwCollector.rkey(), kw.rkey());
        final RegionConfig connected = kw.connectedRegion();
        assertEquals(kwCollector, connected);
        assertEquals(0xfffff0, connected.startPsn());

        // A duplicate SEND (our ACK lost) is acknowledged again; a duplicate REP gets the RTU again.
        assertTrue(manager.onFrame(buffer(toTranslator.frames.get(1)), 0, toTranslator.frames.get(1).length, 30));
        assertEquals(7, toCollector.size());
        assertTrue(manager.onFrame(buffer(toTranslator.frames.get(0)), 0, toTranslator.frames.get(0).length, 40));
        assertEquals(8, toCollector.size());
        decode(toCollector.frames().get(7).bytes());
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_RTU, mad.attributeId());
        assertEquals(1, manager.counter(ConnectionCounter.DUPLICATE_SENDS));
        assertEquals(1, manager.counter(ConnectionCounter.DUPLICATE_REPS));
        assertFalse(manager.isDone());
        assertThrows(IllegalStateException.class, manager::connectedConfig);

        // Frames for the engine are left alone.
        final byte[] engineAck = ack(0x539, 0xfffff0);
        assertFalse(manager.onFrame(buffer(engineAck), 0, engineAck.length, 50));
    }

    @Test
    void shouldConnectEveryRegionThroughALossyDuplicatingLinkAndThenLandData()
    {
        final long[] recoveries = new long[6];
        for (long seed = 1; seed <= 150; seed++)
        {
            final Loop loop = new Loop(seed, 0.12, 0.12);
            loop.run();
            recoveries[0] += loop.manager.counter(ConnectionCounter.REQ_TIMEOUTS);
            recoveries[1] += loop.manager.counter(ConnectionCounter.DUPLICATE_REPS);
            recoveries[2] += loop.manager.counter(ConnectionCounter.DUPLICATE_SENDS);
            recoveries[3] += loop.responder.counter(ResponderCounter.CM_DUPLICATE_REQS);
            recoveries[4] += loop.responder.counter(ResponderCounter.METADATA_SEND_TIMEOUTS);
            recoveries[5] += loop.responder.counter(ResponderCounter.CM_REP_TIMEOUTS);
            final String where = "seed " + seed;
            assertTrue(loop.manager.allConnected(), where + ": " + loop.manager.failures());
            assertTrue(loop.settled(), where);
            final ApplianceConfig connected = loop.manager.connectedConfig();
            assertFalse(connected.hasUnconnectedRegions(), where);
            assertEquals(collectorConfig.collectors(), connected.collectors(), where);
            for (final ResponderQp qp : loop.responder.qps())
            {
                if (qp.negotiated())
                {
                    assertEquals(ResponderQp.Connection.ESTABLISHED, qp.connection(), where);
                }
            }
            // Data at each region's advertised PSN lands: the collector expects exactly that PSN.
            final Frames acks = new Frames();
            final CollectorConfig c = connected.collectors().get(0);
            for (final RegionConfig region : c.regions())
            {
                final byte[] write = writeOnly(region, region.startPsn(), 0x1122334455667788L);
                loop.responder.onFrame(buffer(write), 0, write.length, loop.now, acks);
                decode(acks.last());
                assertTrue(decoder.aeth().isAck(), where + " " + region.path());
                assertEquals(region.startPsn(), decoder.bth().psn(), where + " " + region.path());
                assertEquals(region.localQpn(), decoder.bth().destQp(), where);
                assertEquals(0x1122334455667788L, loop.memory.get(region.path()).getLong(0, ByteOrder.BIG_ENDIAN),
                    where + " " + region.path());
            }
            assertEquals(0, loop.responder.counter(ResponderCounter.OUT_OF_SEQUENCE_NAKED), where);
        }
        // The seeds exercise every recovery path: lost and duplicated REQs, REPs, RTUs, SENDs and ACKs.
        for (int i = 0; i < recoveries.length; i++)
        {
            assertTrue(recoveries[i] > 10, "recovery path " + i + " taken " + recoveries[i] + " times");
        }
    }

    @Test
    void shouldRetryTheReqAndThenFailWhenNoRepComes()
    {
        final FrameCollector out = new FrameCollector();
        final ConnectionManager manager = new ConnectionManager(config, out, 3);
        manager.start(0);
        final long timeout = 4096L << 8;
        long now = 0;
        while (!manager.isDone())
        {
            now = manager.nextDeadline();
            manager.poll(now);
        }
        assertEquals(8 * 4, manager.counter(ConnectionCounter.REQS_SENT));
        assertEquals(7 * 4, manager.counter(ConnectionCounter.REQ_TIMEOUTS));
        assertEquals(8 * timeout, now);
        assertEquals(4, manager.failures().size());
        assertEquals("collectors[0].keyWrite (10.0.0.51 service port 1337): no REP after 8 REQs, 1.049 ms apart",
            manager.failures().get(0));
        // Every re-sent REQ is the same request: same transaction and communication IDs.
        final long tid = tid(out.frames().get(0).bytes());
        assertEquals(tid, tid(out.frames().get(4).bytes()));
        final IllegalStateException ex = assertThrows(IllegalStateException.class, manager::connectedConfig);
        assertTrue(ex.getMessage().contains("no REP after 8 REQs"), ex.getMessage());
    }

    @Test
    void shouldFailARegionTheCollectorRejects()
    {
        // The collector listens on 1337 only.
        final ApplianceConfig onlyKeyWrite = ConfigLoader.load(YAML.replace("servicePort: 1339", "servicePort: 9"));
        final ApplianceConfig collectorSide = NegotiatedRegions.assign(ConfigLoader.load(YAML));
        final Loop loop = new Loop(onlyKeyWrite, collectorSide, 5, 0, 0);
        loop.run();
        final RegionConnection ki = loop.manager.connections().get(1);
        assertEquals(RegionConnection.State.FAILED, ki.state());
        assertEquals("rejected by the collector: invalid service ID (REJ reason 8)", ki.failure());
        assertEquals(RegionConnection.State.CONNECTED, loop.manager.connections().get(0).state());
        assertEquals(1, loop.manager.counter(ConnectionCounter.REJS));
        assertEquals(1, loop.responder.counter(ResponderCounter.CM_REJS_SENT));
    }

    @Test
    void shouldMatchRepliesByIdsNotByArrivalOrder()
    {
        final FrameCollector out = new FrameCollector();
        final ConnectionManager manager = new ConnectionManager(config, out, 11);
        manager.start(0);
        final RegionConnection kw = manager.connections().get(0);

        // A REP with another transaction ID, or echoing another communication ID, is not ours.
        assertTrue(offerTo(manager, rep(kw.transactionId() + 1, kw.localCommId(), 0x400, 0x1000)));
        assertTrue(offerTo(manager, rep(kw.transactionId(), kw.localCommId() + 1, 0x400, 0x1000)));
        assertEquals(2, manager.counter(ConnectionCounter.UNMATCHED_MADS));
        assertEquals(RegionConnection.State.REQ_SENT, kw.state());
        // A SEND before the REP is dropped.
        assertTrue(offerTo(manager, send(0x539, 0x1000, 0x7f0000000000L, 2048, 0x77)));
        assertEquals(1, manager.counter(ConnectionCounter.SENDS_DROPPED));
        // A REJ for another attempt changes nothing; an unknown collector's MAD is dropped.
        assertTrue(offerTo(manager, rej(kw.transactionId(), kw.localCommId() ^ 1)));
        assertEquals(3, manager.counter(ConnectionCounter.UNMATCHED_MADS));
        final byte[] foreign = rep(kw.transactionId(), kw.localCommId(), 0x400, 0x1000);
        foreign[26 + 3] = 0x34;    // IPv4 source 10.0.0.52
        assertTrue(offerTo(manager, fixChecksums(foreign)));
        assertEquals(1, manager.counter(ConnectionCounter.UNKNOWN_SOURCE));
        assertEquals(4, out.size());

        // The matching REP is accepted and answered with an RTU.
        assertTrue(offerTo(manager, rep(kw.transactionId(), kw.localCommId(), 0x400, 0x1000)));
        assertEquals(RegionConnection.State.RTU_SENT, kw.state());
        assertEquals(5, out.size());
        // A REP contradicting it is refused, not answered.
        assertTrue(offerTo(manager, rep(kw.transactionId(), kw.localCommId(), 0x401, 0x1000)));
        assertEquals(1, manager.counter(ConnectionCounter.INVALID_REPS));
        assertEquals(5, out.size());
    }

    @Test
    void shouldDropASendWithTheWrongPsnAndSayWhyWhenTimingOut()
    {
        final FrameCollector out = new FrameCollector();
        final ConnectionManager manager = new ConnectionManager(config, out, 12);
        manager.start(0);
        final RegionConnection kw = manager.connections().get(0);
        offerTo(manager, rep(kw.transactionId(), kw.localCommId(), 0x400, 0x1000));
        final int before = out.size();
        assertTrue(offerTo(manager, send(0x539, 0x1001, 0x7f0000000000L, 2048, 0x77)));
        assertTrue(offerTo(manager, send(0x539, 0x0FFF, 0x7f0000000000L, 2048, 0x77)));
        assertEquals(before, out.size(), "no ACK for a SEND at the wrong PSN");
        assertEquals(2, manager.counter(ConnectionCounter.SENDS_DROPPED));
        assertEquals(RegionConnection.State.RTU_SENT, kw.state());
        final long wait = 8 * (4096L << 8) + 8 * (4096L << 8);
        manager.poll(wait - 1);
        assertEquals(RegionConnection.State.RTU_SENT, kw.state());
        manager.poll(wait);
        assertEquals(RegionConnection.State.FAILED, kw.state());
        assertEquals("no valid metadata SEND within 16.777 ms of the REP (2 SEND(s) dropped, last: SEND with PSN " +
            "0x000fff, the REP's starting PSN is 0x001000)", kw.failure());
    }

    @Test
    void shouldRefuseMetadataThatDoesNotFitTheConfiguration()
    {
        final Object[][] cases = {
            { 0x7f0000000000L, 1024L, "the collector advertised 1024 bytes at 0x7f0000000000, the configuration " +
                "needs 2048" },
            { 0x7f0000000004L, 4096L, "the collector advertised address 0x7f0000000004, not 8-byte aligned" },
            { 0xFFFFFFFFFFFFF800L + 8, 4096L, "the collector advertised address 0xfffffffffffff808: 2048 bytes " +
                "from there run past the end of the 64-bit address space" },
        };
        for (final Object[] c : cases)
        {
            final FrameCollector out = new FrameCollector();
            final ConnectionManager manager = new ConnectionManager(config, out, 13);
            manager.start(0);
            final RegionConnection kw = manager.connections().get(0);
            offerTo(manager, rep(kw.transactionId(), kw.localCommId(), 0x400, 0x1000));
            final int before = out.size();
            assertTrue(offerTo(manager, send(0x539, 0x1000, (long)c[0], (long)c[1], 0x77)));
            assertEquals(RegionConnection.State.FAILED, kw.state());
            assertEquals(c[2], kw.failure());
            assertEquals(before + 1, out.size(), "the SEND itself is acknowledged");
            assertEquals(1, manager.counter(ConnectionCounter.SENDS_INVALID));
        }
        // A SEND of another size is refused too.
        final FrameCollector out = new FrameCollector();
        final ConnectionManager manager = new ConnectionManager(config, out, 14);
        manager.start(0);
        final RegionConnection kw = manager.connections().get(0);
        offerTo(manager, rep(kw.transactionId(), kw.localCommId(), 0x400, 0x1000));
        final byte[] longer = Frames.frame(collectorEncoder().opcode(RoceOpcode.RC_SEND_ONLY).destQp(0x539)
            .psn(0x1000).ackReq(true).payload(new UnsafeBuffer(new byte[20]), 0, 20));
        assertTrue(offerTo(manager, longer));
        assertEquals("metadata SEND of 20 bytes, expected 16", kw.failure());
    }

    // ---------------------------------------------------------------------------------------------------------

    private final class Loop
    {
        final ConnectionManager manager;
        final SoftResponder responder;
        final SimLink toCollector;
        final SimLink toTranslator;
        final Map<String, UnsafeBuffer> memory = new HashMap<>();
        long now;

        Loop(final long seed, final double loss, final double duplication)
        {
            this(config, collectorConfig, seed, loss, duplication);
        }

        Loop(final ApplianceConfig translatorSide, final ApplianceConfig collectorSide, final long seed,
            final double loss, final double duplication)
        {
            toCollector = new SimLink(seed, loss, duplication, 2_000, 3_000);
            toTranslator = new SimLink(~seed, loss, duplication, 2_000, 3_000);
            manager = new ConnectionManager(translatorSide, toCollector, seed);
            responder = new SoftResponder(collectorSide,
                (c, r) -> memory.computeIfAbsent(r.path(), k -> new UnsafeBuffer(new byte[(int)r.length()])))
                .connectionSeed(seed * 31);
        }

        void run()
        {
            manager.start(0);
            while (now < LIMIT_NANOS && !(manager.isDone() && toCollector.isEmpty() && toTranslator.isEmpty() &&
                settled()))
            {
                now = Math.min(Math.min(toCollector.nextArrival(), toTranslator.nextArrival()), now + STEP_NANOS);
                toTranslator.now(now);
                while (toCollector.nextArrival() <= now)
                {
                    final byte[] f = toCollector.poll().bytes();
                    responder.onFrame(buffer(f), 0, f.length, now, toTranslator);
                }
                while (toTranslator.nextArrival() <= now)
                {
                    final byte[] f = toTranslator.poll().bytes();
                    assertTrue(manager.onFrame(buffer(f), 0, f.length, now), "only set-up frames flow");
                }
                manager.poll(now);
                responder.poll(now, toTranslator);
            }
        }

        boolean settled()
        {
            for (final ResponderQp qp : responder.qps())
            {
                if (ResponderQp.Connection.REP_SENT == qp.connection() ||
                    ResponderQp.Connection.SEND_PENDING == qp.connection())
                {
                    return false;
                }
            }
            return true;
        }
    }

    private static RoceFrameEncoder collectorEncoder()
    {
        return new RoceFrameEncoder().srcMac(COLLECTOR_MAC).dstMac(TRANSLATOR_MAC).srcIp(COLLECTOR_IP)
            .dstIp(TRANSLATOR_IP).srcPort(0xD001);
    }

    private static byte[] writeOnly(final RegionConfig region, final int psn, final long value)
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[8]);
        payload.putLong(0, value, ByteOrder.BIG_ENDIAN);
        return Frames.frame(new RoceFrameEncoder().srcMac(TRANSLATOR_MAC).dstMac(COLLECTOR_MAC).srcIp(TRANSLATOR_IP)
            .dstIp(COLLECTOR_IP).opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).destQp(region.qpn()).psn(psn).ackReq(true)
            .virtualAddress(region.address()).rKey(region.rkey()).dmaLength(-1).payload(payload, 0, 8));
    }

    private static byte[] ack(final int destQp, final int psn)
    {
        return Frames.frame(collectorEncoder().opcode(RoceOpcode.RC_ACKNOWLEDGE).destQp(destQp).psn(psn)
            .syndrome(AethFlyweight.CREDIT_INVALID).msn(1).noPayload());
    }

    private static byte[] send(final int destQp, final int psn, final long address, final long length,
        final long key)
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
        payload.putLong(0, address, ByteOrder.LITTLE_ENDIAN);
        payload.putInt(8, (int)length, ByteOrder.LITTLE_ENDIAN);
        payload.putInt(12, (int)key, ByteOrder.LITTLE_ENDIAN);
        return Frames.frame(collectorEncoder().opcode(RoceOpcode.RC_SEND_ONLY).destQp(destQp).psn(psn).ackReq(true)
            .payload(payload, 0, 16));
    }

    private static CmFrameEncoder cm()
    {
        final CmFrameEncoder cm = new CmFrameEncoder();
        cm.encoder().srcMac(COLLECTOR_MAC).dstMac(TRANSLATOR_MAC).srcIp(COLLECTOR_IP).dstIp(TRANSLATOR_IP).psn(5);
        return cm;
    }

    private static byte[] rep(final long tid, final long echoedCommId, final int qpn, final int psn)
    {
        final CmFrameEncoder cm = cm();
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[CmFrameEncoder.FRAME_LENGTH]);
        cm.begin(frame, 0, MadHeaderFlyweight.ATTRIBUTE_REP, tid, 0);
        cm.rep().localCommId(0xC0110001L).remoteCommId(echoedCommId).localQpn(qpn).startingPsn(psn);
        cm.finish(frame, 0);
        return frame.byteArray();
    }

    private static byte[] rej(final long tid, final long echoedCommId)
    {
        final CmFrameEncoder cm = cm();
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[CmFrameEncoder.FRAME_LENGTH]);
        cm.begin(frame, 0, MadHeaderFlyweight.ATTRIBUTE_REJ, tid, 0);
        cm.rej().remoteCommId(echoedCommId).reason(CmRejFlyweight.REASON_NO_RESOURCES);
        cm.finish(frame, 0);
        return frame.byteArray();
    }

    private static byte[] fixChecksums(final byte[] frame)
    {
        final UnsafeBuffer b = new UnsafeBuffer(frame);
        new io.dta.codec.Ipv4Flyweight().wrap(b, 14).updateChecksum();
        new io.dta.codec.Icrc().write(b, 14, frame.length - 4);
        return frame;
    }

    private long tid(final byte[] frame)
    {
        decode(frame);
        return mad.wrap(decoder.buffer(), decoder.payloadOffset()).transactionId();
    }

    private static boolean offerTo(final ConnectionManager manager, final byte[] frame)
    {
        return manager.onFrame(buffer(frame), 0, frame.length, 0);
    }

    private static void offer(final SoftResponder responder, final byte[] frame, final Frames out)
    {
        responder.onFrame(buffer(frame), 0, frame.length, 0, out);
    }

    private static UnsafeBuffer buffer(final byte[] frame)
    {
        return new UnsafeBuffer(frame);
    }

    private void decode(final byte[] frame)
    {
        assertEquals(FrameKind.ROCE, decoder.decode(buffer(frame), 0, frame.length));
        assertTrue(decoder.icrcValid());
    }

    /** Keeps a copy of every frame the responder sends. */
    static final class Frames implements io.dta.collector.responder.ResponseSink
    {
        final List<byte[]> frames = new ArrayList<>();

        @Override
        public void onResponse(final DirectBuffer buffer, final int offset, final int length)
        {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            frames.add(bytes);
        }

        byte[] last()
        {
            return frames.get(frames.size() - 1);
        }

        static byte[] frame(final RoceFrameEncoder encoder)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[encoder.frameLength()]);
            encoder.encode(buffer, 0);
            return buffer.byteArray();
        }
    }
}
