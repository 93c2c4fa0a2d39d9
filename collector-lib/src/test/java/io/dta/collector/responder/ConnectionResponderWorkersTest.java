package io.dta.collector.responder;

import io.dta.codec.CmRejFlyweight;
import io.dta.codec.CmRepFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.RoceOpcode;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import io.dta.config.RegionConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.dta.collector.responder.CmTestFrames.COLLECTOR_IP;
import static io.dta.collector.responder.CmTestFrames.TRANSLATOR_IP;
import static io.dta.collector.responder.CmTestFrames.YAML;
import static io.dta.collector.responder.CmTestFrames.ack;
import static io.dta.collector.responder.CmTestFrames.dreq;
import static io.dta.collector.responder.CmTestFrames.rtu;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A negotiated region written by several translator QPs (an appliance's workers, local QPN + (w &lt;&lt; 16)): each
 * REQ to the service port gets a connection of its own, a responder QP with its own collector QPN over the region's
 * one memory; each connection ends and reconnects by itself; beyond the limit a REJ "no QP available".
 */
class ConnectionResponderWorkersTest
{
    private static final int PORT = 1337;
    private static final int CM_TIMEOUT = 8;
    private static final int ACK_TIMEOUT = 9;
    private static final int WORKERS = 3;

    private final ApplianceConfig config = NegotiatedRegions.assign(ConfigLoader.load(YAML));
    private final RegionConfig keyWrite = config.collectors().get(0).keyWrite().region();
    private final UnsafeBuffer memory = new UnsafeBuffer(new byte[4096]);
    private final SoftResponder responder = new SoftResponder(config, (c, r) -> memory);
    private final ConnectionResponderTest.Frames out = new ConnectionResponderTest.Frames();
    private final FrameDecoder decoder = new FrameDecoder();
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();
    /** Per worker: the collector's QPN and communication ID from its REP. */
    private final int[] qpn = new int[WORKERS + 1];
    private final long[] collectorCommId = new long[WORKERS + 1];
    private final int[] psn = new int[WORKERS + 1];

    @Test
    void shouldGiveEachTranslatorQpAConnectionOfItsOwnOverTheOneMemory()
    {
        for (int w = 0; w < WORKERS; w++)
        {
            connect(w);
        }
        assertEquals(keyWrite.qpn(), qpn[0], "the first connection keeps the region's QPN");
        final Set<Integer> distinct = new HashSet<>();
        for (int w = 0; w < WORKERS; w++)
        {
            assertTrue(distinct.add(qpn[w]), "QPN 0x" + Integer.toHexString(qpn[w]) + " twice");
            for (final RegionConfig other : config.collectors().get(0).regions())
            {
                assertTrue(other == keyWrite || other.qpn() != qpn[w], "another region's QPN");
            }
        }
        final List<ResponderQp> qps = responder.qps(keyWrite);
        assertEquals(WORKERS, qps.size());
        for (int w = 0; w < WORKERS; w++)
        {
            assertEquals(w, qps.get(w).index());
            assertEquals(qpn[w], qps.get(w).qpn());
            assertEquals(peer(w), qps.get(w).peerQpn());
            assertEquals(ResponderQp.Connection.ESTABLISHED, qps.get(w).connection());
        }
        assertEquals(WORKERS, responder.counter(ResponderCounter.CM_REQS_ACCEPTED));
        assertEquals(WORKERS, responder.counter(ResponderCounter.METADATA_ACKED));

        // WRITEs through the three connections, interleaved, land in the one memory and are acknowledged to their QP.
        for (int round = 0; round < 4; round++)
        {
            for (int w = WORKERS - 1; w >= 0; w--)
            {
                writeAndExpectAck(w, 8 * (round * WORKERS + w));
            }
        }
        for (int round = 0; round < 4; round++)
        {
            for (int w = 0; w < WORKERS; w++)
            {
                assertEquals(value(w, 8 * (round * WORKERS + w)), memory.getLong(8 * (round * WORKERS + w),
                    ByteOrder.LITTLE_ENDIAN));
            }
        }
        for (int w = 0; w < WORKERS; w++)
        {
            assertEquals(4, qps.get(w).msn());
        }
    }

    @Test
    void shouldEndAndReconnectOneConnectionWithoutDisturbingTheOthers()
    {
        for (int w = 0; w < WORKERS; w++)
        {
            connect(w);
        }
        final ResponderQp second = responder.qps(keyWrite).get(1);
        final int oldQpn = qpn[1];
        offer(dreq(comm(1), collectorCommId[1], oldQpn, 0xD0));
        assertEquals(1, responder.counter(ResponderCounter.CM_DREPS_SENT));
        assertEquals(ResponderQp.Connection.LISTEN, second.connection());
        writeAndExpectAck(0, 0);
        writeAndExpectAck(2, 8);

        // Worker 1 connects again: its own QP, a fresh QPN; the old one in time-wait; the others keep theirs.
        connect(1);
        assertEquals(WORKERS, responder.qps(keyWrite).size());
        assertEquals(qpn[1], second.qpn());
        assertNotEquals(oldQpn, qpn[1]);
        assertEquals(keyWrite.qpn(), qpn[0]);
        final int frames = out.frames.size();
        offer(Requests.writeOnlyTo(oldQpn, psn[1] - 1, keyWrite.address() + 64, keyWrite.rkey()));
        assertEquals(1, responder.counter(ResponderCounter.TIME_WAIT_DROPS));
        assertEquals(frames, out.frames.size());
        writeAndExpectAck(1, 16);
        writeAndExpectAck(0, 24);
        writeAndExpectAck(2, 32);
        assertEquals(0, memory.getLong(64));

        // The collector's own DREQ ends one connection; that QP alone stops executing.
        assertTrue(responder.disconnect(COLLECTOR_IP, qpn[2], 0, out));
        assertEquals(ResponderQp.Connection.DREQ_SENT, responder.qps(keyWrite).get(2).connection());
        assertEquals(ResponderQp.Connection.ESTABLISHED, responder.qps(keyWrite).get(0).connection());
        writeAndExpectAck(0, 40);
    }

    @Test
    void shouldRefuseAConnectionBeyondTheLimitWithARejAndServeItOnceAQpListens()
    {
        responder.maxConnectionsPerRegion(WORKERS);
        for (int w = 0; w < WORKERS; w++)
        {
            connect(w);
        }
        offer(req(WORKERS));
        assertReject(out.last(), CmRejFlyweight.REASON_NO_QP, comm(WORKERS));
        assertEquals(1, responder.counter(ResponderCounter.CM_CONNECTION_LIMIT_REJECTS));
        assertEquals(1, responder.counter(ResponderCounter.CM_REQS_REJECTED));
        assertEquals(WORKERS, responder.qps(keyWrite).size());
        assertEquals(WORKERS, responder.qps().size() - 2, "besides the two lists' QPs");

        // A connection ends: its QP serves the waiting translator QP, with a fresh QPN.
        offer(dreq(comm(2), collectorCommId[2], qpn[2], 0xD2));
        final int retired = qpn[2];
        connect(WORKERS);
        assertEquals(WORKERS, responder.qps(keyWrite).size());
        final ResponderQp reused = responder.qps(keyWrite).get(2);
        assertEquals(peer(WORKERS), reused.peerQpn());
        assertNotEquals(retired, qpn[WORKERS]);
        writeAndExpectAck(WORKERS, 0);
        writeAndExpectAck(0, 8);

        assertThrows(IllegalArgumentException.class, () -> responder.maxConnectionsPerRegion(0));
    }

    @Test
    void shouldServeSixtyFourConnectionsPerRegionByDefault()
    {
        final Set<Integer> qpns = new HashSet<>();
        for (int w = 0; w < SoftResponder.DEFAULT_CONNECTIONS_PER_REGION; w++)
        {
            offer(req(w));
            final CmRepFlyweight rep = rep(out.last());
            assertEquals(comm(w), rep.remoteCommId());
            assertTrue(qpns.add(rep.localQpn()), "QPN 0x" + Integer.toHexString(rep.localQpn()) + " twice");
            assertTrue(rep.localQpn() >= 2 && rep.localQpn() <= 0xFFFFFE);
        }
        offer(req(SoftResponder.DEFAULT_CONNECTIONS_PER_REGION));
        assertReject(out.last(), CmRejFlyweight.REASON_NO_QP, comm(SoftResponder.DEFAULT_CONNECTIONS_PER_REGION));
        assertEquals(SoftResponder.DEFAULT_CONNECTIONS_PER_REGION, responder.qps(keyWrite).size());
        // Another region's service is not limited by this one's connections.
        offer(CmTestFrames.req(1338, 0xE1, 0xE1, 0, CM_TIMEOUT, ACK_TIMEOUT, 3, 2, TRANSLATOR_IP, 0x53a));
        rep(out.last());
    }

    /** Worker {@code w}'s QP connects: REQ, REP, RTU, metadata SEND, its ACK. */
    private void connect(final int w)
    {
        psn[w] = 0x10_0000 * (w + 1) + 7;
        offer(req(w));
        final CmRepFlyweight rep = rep(out.last());
        assertEquals(comm(w), rep.remoteCommId());
        qpn[w] = rep.localQpn();
        collectorCommId[w] = rep.localCommId();
        final int sendPsn = rep.startingPsn();
        offer(rtu(comm(w), collectorCommId[w], tid(w)));
        decode(out.last());
        assertEquals(RoceOpcode.RC_SEND_ONLY, decoder.roceOpcode());
        assertEquals(peer(w), decoder.bth().destQp());
        assertEquals(keyWrite.address(), decoder.buffer().getLong(decoder.payloadOffset(), ByteOrder.LITTLE_ENDIAN));
        assertEquals(keyWrite.rkey(),
            decoder.buffer().getInt(decoder.payloadOffset() + 12, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL);
        offer(ack(qpn[w], sendPsn));
    }

    private void writeAndExpectAck(final int w, final int offset)
    {
        final byte[] payload = new byte[8];
        new UnsafeBuffer(payload).putLong(0, value(w, offset), ByteOrder.LITTLE_ENDIAN);
        offer(Requests.frame(Requests.encoder().destQp(qpn[w]).opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).psn(psn[w])
            .ackReq(true).virtualAddress(keyWrite.address() + offset).rKey(keyWrite.rkey()).dmaLength(-1)
            .payload(new UnsafeBuffer(payload), 0, 8)));
        decode(out.last());
        assertEquals(RoceOpcode.RC_ACKNOWLEDGE, decoder.roceOpcode());
        assertTrue(decoder.aeth().isAck());
        assertEquals(peer(w), decoder.bth().destQp());
        assertEquals(psn[w], decoder.bth().psn());
        assertEquals(value(w, offset), memory.getLong(offset, ByteOrder.LITTLE_ENDIAN));
        psn[w]++;
    }

    private static long value(final int w, final int offset)
    {
        return 0x5EED_0000_0000_0000L | ((long)w << 32) | offset;
    }

    private static int peer(final int w)
    {
        return RegionConfig.workerLocalQpn(0x539, w);
    }

    private static long comm(final int w)
    {
        return 0xC0_0000L + w;
    }

    private static long tid(final int w)
    {
        return 0x7100_0000L + w;
    }

    private byte[] req(final int w)
    {
        return CmTestFrames.req(PORT, comm(w), tid(w), psn[Math.min(w, WORKERS)], CM_TIMEOUT, ACK_TIMEOUT, 3, 2,
            TRANSLATOR_IP, peer(w));
    }

    private void offer(final byte[] frame)
    {
        responder.onFrame(new UnsafeBuffer(frame), 0, frame.length, 0, out);
    }

    private void decode(final byte[] frame)
    {
        CmTestFrames.decode(decoder, frame);
    }

    private CmRepFlyweight rep(final byte[] frame)
    {
        return CmTestFrames.rep(decoder, mad, frame);
    }

    private void assertReject(final byte[] frame, final int reason, final long peerCommId)
    {
        decode(frame);
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_REJ, mad.attributeId(), "REJ expected");
        final CmRejFlyweight rej = new CmRejFlyweight().wrap(decoder.buffer(), mad.dataOffset());
        assertEquals(reason, rej.reason());
        assertEquals(peerCommId, rej.remoteCommId());
        assertFalse(rej.reason() == CmRejFlyweight.REASON_INVALID_SERVICE_ID);
    }
}
