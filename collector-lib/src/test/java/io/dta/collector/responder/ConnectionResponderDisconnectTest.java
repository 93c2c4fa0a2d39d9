package io.dta.collector.responder;

import io.dta.codec.CmDrepFlyweight;
import io.dta.codec.CmDreqFlyweight;
import io.dta.codec.CmFrameEncoder;
import io.dta.codec.CmRejFlyweight;
import io.dta.codec.CmRepFlyweight;
import io.dta.codec.CmReqFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.RoceOpcode;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import io.dta.config.RegionConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static io.dta.collector.responder.CmTestFrames.COLLECTOR_IP;
import static io.dta.collector.responder.CmTestFrames.COMM_ID;
import static io.dta.collector.responder.CmTestFrames.KEY_WRITE_YAML;
import static io.dta.collector.responder.CmTestFrames.PEER_QPN;
import static io.dta.collector.responder.CmTestFrames.TID;
import static io.dta.collector.responder.CmTestFrames.TRANSLATOR_IP;
import static io.dta.collector.responder.CmTestFrames.ack;
import static io.dta.collector.responder.CmTestFrames.drep;
import static io.dta.collector.responder.CmTestFrames.dreq;
import static io.dta.collector.responder.CmTestFrames.rtu;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The soft collector's side of disconnection (IB CM DREQ/DREP): a DREQ from the translator ends a connection and
 * the QP listens again; the collector's own DREQ with its retries; unmatched DREQs and DREPs counted and dropped.
 */
class ConnectionResponderDisconnectTest
{
    private static final int START_PSN = 0x100;
    private static final long DREQ_TID = 0x0DDD_0000_0000_0001L;
    private static final int CM_TIMEOUT = 8;
    private static final int CM_RETRIES = 3;
    private static final long SEED = 0x71AE_3A17L;

    private final ApplianceConfig config = NegotiatedRegions.assign(ConfigLoader.load(KEY_WRITE_YAML));
    private final RegionConfig keyWrite = config.collectors().get(0).keyWrite().region();
    private final UnsafeBuffer memory = new UnsafeBuffer(new byte[4096]);
    private final SoftResponder responder = new SoftResponder(config, (c, r) -> memory);
    private final ConnectionResponderTest.Frames out = new ConnectionResponderTest.Frames();
    private final FrameDecoder decoder = new FrameDecoder();
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();
    private long collectorCommId;

    @BeforeEach
    void connect()
    {
        offer(req(COMM_ID, TID));
        decode(out.last());
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        collectorCommId = new CmRepFlyweight().wrap(decoder.buffer(), mad.dataOffset()).localCommId();
        offer(rtu(COMM_ID, collectorCommId, TID));
        offer(ack(keyWrite.qpn(), qp().sendPsn()));
        assertEquals(ResponderQp.Connection.ESTABLISHED, qp().connection());
        offer(Requests.writeOnlyTo(keyWrite.qpn(), START_PSN, keyWrite.address(), keyWrite.rkey()));
        assertEquals(0x0807060504030201L, memory.getLong(0, ByteOrder.LITTLE_ENDIAN));
        out.frames.clear();
    }

    @Test
    void shouldAnswerTheTranslatorsDreqWithADrepAndListenAgain()
    {
        offer(dreq(COMM_ID, collectorCommId, PEER_QPN + 1, DREQ_TID));       // not its QPN: dropped
        assertEquals(1, responder.counter(ResponderCounter.CM_UNMATCHED_DISCONNECTS));
        offer(dreq(COMM_ID + 1, collectorCommId, keyWrite.qpn(), DREQ_TID)); // not the connection: dropped
        offer(dreq(COMM_ID, collectorCommId + 1, keyWrite.qpn(), DREQ_TID));
        assertEquals(3, responder.counter(ResponderCounter.CM_UNMATCHED_DISCONNECTS));
        assertEquals(0, out.frames.size());
        assertEquals(ResponderQp.Connection.ESTABLISHED, qp().connection());

        offer(dreq(COMM_ID, collectorCommId, keyWrite.qpn(), DREQ_TID));
        assertEquals(1, out.frames.size());
        assertDrep(out.last(), DREQ_TID);
        assertEquals(ResponderQp.Connection.LISTEN, qp().connection());
        assertEquals(ResponderQp.State.IDLE, qp().state());
        assertTrue(qp().disconnected());
        assertEquals(1, responder.counter(ResponderCounter.CM_DREQS_IN));

        // Traffic to the disconnected QP is dropped as to any QP without a connection; memory is kept.
        offer(Requests.writeOnlyTo(keyWrite.qpn(), START_PSN + 1, keyWrite.address() + 8, keyWrite.rkey()));
        assertEquals(1, responder.counter(ResponderCounter.NOT_CONNECTED));
        assertEquals(1, out.frames.size());
        assertEquals(0, memory.getLong(8));
        assertEquals(0x0807060504030201L, memory.getLong(0, ByteOrder.LITTLE_ENDIAN));

        // Our DREP was lost: the repeated DREQ gets it again.
        offer(dreq(COMM_ID, collectorCommId, keyWrite.qpn(), DREQ_TID));
        assertEquals(2, out.frames.size());
        assertDrep(out.last(), DREQ_TID);
        assertEquals(1, responder.counter(ResponderCounter.CM_DUPLICATE_DREQS));
        assertEquals(2, responder.counter(ResponderCounter.CM_DREPS_SENT));

        // A new REQ connects the QP again.
        offer(req(COMM_ID + 7, TID + 7));
        assertEquals(ResponderQp.Connection.REP_SENT, qp().connection());
        assertFalse(qp().disconnected());
        assertEquals(2, responder.counter(ResponderCounter.CM_REQS_ACCEPTED));
        // ... after which the old connection's DREQ names nothing.
        offer(dreq(COMM_ID, collectorCommId, keyWrite.qpn(), DREQ_TID));
        assertEquals(4, responder.counter(ResponderCounter.CM_UNMATCHED_DISCONNECTS));
    }

    @Test
    void shouldNotAnswerADreqForAConnectionThatEndedOtherwise()
    {
        // A REJ-ended or timed-out attempt keeps its IDs but was never disconnected: its DREQ matches nothing.
        offer(req(COMM_ID + 1, TID + 1));
        final long timeout = CmReqFlyweight.timeoutNanos(CM_TIMEOUT);
        for (int i = 0; i <= CM_RETRIES + 1; i++)
        {
            responder.poll((i + 1) * timeout, out);
        }
        assertEquals(ResponderQp.Connection.LISTEN, qp().connection());
        out.frames.clear();
        offer(dreq(COMM_ID + 1, qp().localCommId(), keyWrite.qpn(), DREQ_TID));
        assertEquals(0, out.frames.size());
        assertEquals(1, responder.counter(ResponderCounter.CM_UNMATCHED_DISCONNECTS));
    }

    @Test
    void shouldSendItsOwnDreqRetryItAndListenOnTheDrep()
    {
        assertFalse(responder.disconnect(COLLECTOR_IP, keyWrite.qpn() + 1, 0, out));
        assertTrue(responder.disconnect(COLLECTOR_IP, keyWrite.qpn(), 0, out));
        assertFalse(responder.disconnect(COLLECTOR_IP, keyWrite.qpn(), 0, out), "already disconnecting");
        assertEquals(ResponderQp.Connection.DREQ_SENT, qp().connection());
        assertEquals(ResponderQp.State.IDLE, qp().state());
        final long tid = assertDreq(out.last());

        offer(Requests.writeOnlyTo(keyWrite.qpn(), START_PSN + 1, keyWrite.address() + 8, keyWrite.rkey()));
        assertEquals(1, responder.counter(ResponderCounter.NOT_CONNECTED), "nothing executes after the DREQ");

        final long timeout = CmReqFlyweight.timeoutNanos(CM_TIMEOUT);
        responder.poll(timeout - 1, out);
        assertEquals(1, out.frames.size());
        responder.poll(timeout, out);
        assertEquals(2, out.frames.size());
        assertEquals(tid, assertDreq(out.last()), "a re-sent DREQ keeps its transaction ID");
        assertEquals(1, responder.counter(ResponderCounter.CM_DREQ_TIMEOUTS));

        offer(drep(COMM_ID, collectorCommId, tid + 1));                     // another transaction
        offer(drep(COMM_ID + 1, collectorCommId, tid));                     // another connection
        assertEquals(2, responder.counter(ResponderCounter.CM_UNMATCHED_DISCONNECTS));
        assertEquals(ResponderQp.Connection.DREQ_SENT, qp().connection());
        offer(drep(COMM_ID, collectorCommId, tid));
        assertEquals(ResponderQp.Connection.LISTEN, qp().connection());
        assertTrue(qp().disconnected());
        assertEquals(1, responder.counter(ResponderCounter.CM_DREPS_IN));
        offer(drep(COMM_ID, collectorCommId, tid));
        assertEquals(3, responder.counter(ResponderCounter.CM_UNMATCHED_DISCONNECTS), "a late DREP is dropped");
        responder.poll(Long.MAX_VALUE / 2, out);
        assertEquals(2, out.frames.size(), "nothing re-sent after the DREP");

        offer(req(COMM_ID + 2, TID + 2));
        assertEquals(ResponderQp.Connection.REP_SENT, qp().connection());
    }

    @Test
    void shouldGiveUpItsDreqAfterTheRetriesAndListenAllTheSame()
    {
        assertTrue(responder.disconnect(COLLECTOR_IP, keyWrite.qpn(), 0, out));
        final long timeout = CmReqFlyweight.timeoutNanos(CM_TIMEOUT);
        for (int i = 1; i <= CM_RETRIES + 1; i++)
        {
            responder.poll(i * timeout, out);
        }
        assertEquals(1 + CM_RETRIES, out.frames.size());
        assertEquals(1 + CM_RETRIES, responder.counter(ResponderCounter.CM_DREQS_SENT));
        assertEquals(1, responder.counter(ResponderCounter.CM_DISCONNECT_TIMEOUTS));
        assertEquals(ResponderQp.Connection.LISTEN, qp().connection());
    }

    @Test
    void shouldDisconnectEveryConnectedQpAtOnceAndReportWhileItWaits()
    {
        assertFalse(responder.disconnecting());
        assertEquals(1, responder.disconnectAll(0, out), "the one connected QP");
        assertTrue(responder.disconnecting());
        final long tid = assertDreq(out.last());
        assertEquals(0, responder.disconnectAll(0, out), "nothing left to disconnect");
        offer(drep(COMM_ID, collectorCommId, tid));
        assertFalse(responder.disconnecting());
        assertEquals(ResponderQp.Connection.LISTEN, qp().connection());

        // Without a DREP the wait ends with the last CM timeout.
        offer(req(COMM_ID + 3, TID + 3));
        decode(out.last());
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        final long secondCommId = new CmRepFlyweight().wrap(decoder.buffer(), mad.dataOffset()).localCommId();
        offer(rtu(COMM_ID + 3, secondCommId, TID + 3));
        assertEquals(1, responder.disconnectAll(0, out));
        final long timeout = CmReqFlyweight.timeoutNanos(CM_TIMEOUT);
        for (int i = 1; i <= CM_RETRIES; i++)
        {
            responder.poll(i * timeout, out);
            assertTrue(responder.disconnecting(), "retry " + i);
        }
        responder.poll((CM_RETRIES + 1) * timeout, out);
        assertFalse(responder.disconnecting());
    }

    @Test
    void shouldRejectEveryReqOnceItStoppedListeningButStillHearTheDreps()
    {
        responder.stopListening();
        assertEquals(1, responder.disconnectAll(0, out));
        final long tid = assertDreq(out.last());
        // The translator answers the DREQ and reconnects at once: a new REQ, refused as by a host with no listener.
        offer(req(COMM_ID + 5, TID + 5));
        decode(out.last());
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_REJ, mad.attributeId());
        assertEquals(TID + 5, mad.transactionId());
        final CmRejFlyweight rej = new CmRejFlyweight().wrap(decoder.buffer(), mad.dataOffset());
        assertEquals(CmRejFlyweight.REASON_INVALID_SERVICE_ID, rej.reason());
        assertEquals(COMM_ID + 5, rej.remoteCommId());
        assertEquals(1, responder.counter(ResponderCounter.CM_REQS_REJECTED));
        assertEquals(0, responder.counter(ResponderCounter.CM_REQS_ACCEPTED) - 1, "only the first REQ accepted");
        assertEquals(ResponderQp.Connection.DREQ_SENT, qp().connection());
        offer(drep(COMM_ID, collectorCommId, tid));
        assertFalse(responder.disconnecting());
        assertEquals(1, responder.counter(ResponderCounter.CM_DREPS_IN));
        offer(req(COMM_ID + 6, TID + 6));
        assertEquals(2, responder.counter(ResponderCounter.CM_REQS_REJECTED));
        assertEquals(ResponderQp.Connection.LISTEN, qp().connection());
    }

    /**
     * The hazard time-wait closes: the translator reconnects with a starting PSN that happens to be the one a late
     * request of the old connection carries. Were the QPN reused, that request would pass every check of the new
     * connection (DestQP, addresses, P_Key, ePSN, R_Key) and be executed, and the new connection's own request at
     * that PSN taken for a duplicate. With a fresh QPN per connection it is dropped under {@code time-wait-drops}.
     */
    @Test
    void shouldDropALateRequestOfTheOldConnectionAfterAReconnectionInsteadOfExecutingIt()
    {
        final int oldQpn = qp().qpn();
        assertEquals(keyWrite.qpn(), oldQpn, "the first connection has the configured QPN");
        offer(dreq(COMM_ID, collectorCommId, oldQpn, DREQ_TID));
        assertEquals(ResponderQp.Connection.LISTEN, qp().connection());
        final long now = 1_000;
        offerAt(req(COMM_ID + 9, TID + 9, START_PSN + 1), now);
        final int newQpn = qp().qpn();
        assertEquals(newQpn, repQpn(out.last()), "the REP advertises the new QPN");
        assertTrue(newQpn != oldQpn && newQpn >= 2 && newQpn <= 0xFFFFFE, Integer.toHexString(newQpn));
        assertEquals(START_PSN + 1, qp().expectedPsn());
        out.frames.clear();

        // Late frames of the old connection: its WRITE at exactly the new ePSN, a FETCH_ADD, the SEND's ACK.
        offerAt(Requests.writeOnlyTo(oldQpn, START_PSN + 1, keyWrite.address() + 8, keyWrite.rkey()), now + 1);
        offerAt(Requests.frame(Requests.encoder().destQp(oldQpn).opcode(RoceOpcode.RC_FETCH_ADD)
            .psn(START_PSN + 1).ackReq(true).virtualAddress(keyWrite.address()).rKey(keyWrite.rkey()).swapAddData(5)
            .compareData(0).noPayload()), now + 2);
        offerAt(ack(oldQpn, qp().sendPsn()), now + 3);
        assertEquals(3, responder.counter(ResponderCounter.TIME_WAIT_DROPS));
        assertEquals(0, responder.counter(ResponderCounter.UNKNOWN_QPN));
        assertEquals(0, out.frames.size(), "dropped without an answer");
        assertEquals(0, memory.getLong(8), "the old connection's WRITE was not executed");
        assertEquals(0x0807060504030201L, memory.getLong(0, ByteOrder.LITTLE_ENDIAN), "nor its FETCH_ADD");
        assertEquals(START_PSN + 1, qp().expectedPsn(), "the new connection's ePSN is untouched");
        assertEquals(0, qp().msn());

        // The new connection's own request at that PSN is executed (not taken for a duplicate).
        offerAt(Requests.writeOnlyTo(newQpn, START_PSN + 1, keyWrite.address() + 16, keyWrite.rkey()), now + 4);
        assertEquals(0x0807060504030201L, memory.getLong(16, ByteOrder.LITTLE_ENDIAN));
        assertEquals(1, qp().msn());

        // Time-wait lasts the old connection's local ACK timeout (its REQ's, exponent 9: 2.097 ms); then the old
        // number is just unknown, and still not handed out again.
        final long timeWait = CmReqFlyweight.timeoutNanos(9);
        offerAt(Requests.writeOnlyTo(oldQpn, START_PSN + 2, keyWrite.address() + 8, keyWrite.rkey()),
            now + timeWait - 1);
        assertEquals(4, responder.counter(ResponderCounter.TIME_WAIT_DROPS));
        offerAt(Requests.writeOnlyTo(oldQpn, START_PSN + 2, keyWrite.address() + 8, keyWrite.rkey()), now + timeWait);
        assertEquals(4, responder.counter(ResponderCounter.TIME_WAIT_DROPS));
        assertEquals(1, responder.counter(ResponderCounter.UNKNOWN_QPN));
        assertEquals(0, memory.getLong(8));
        assertTrue(qp() == responder.qp(COLLECTOR_IP, newQpn) && qp() == responder.qp(COLLECTOR_IP, oldQpn),
            "found by its current and its configured QPN");
    }

    /**
     * Seeded property: over thousands of reconnections at random intervals (some within a time-wait, some after),
     * no connection's QPN is in use by another QP, configured for the collector, or in time-wait; every number a
     * REP gave out stays refused (time-wait, then unknown) for at least its connection's local ACK timeout.
     */
    @Test
    void shouldNeverHandOutAQpnInTimeWaitOrInUseOverManyReconnections()
    {
        final long seed = SEED;
        final SplittableRandom random = new SplittableRandom(seed);
        final long timeWait = CmReqFlyweight.timeoutNanos(9);
        final int static0 = 0x45A;
        final ApplianceConfig two = NegotiatedRegions.assign(ConfigLoader.load(KEY_WRITE_YAML + """
                keyIncrement:
                  localQpn: 0x53a
                  qpn: 0x101
                  rkey: 0x99
                  address: 0x7f0000400000
                  length: 2048
                lists:
                  - id: 0
                    localQpn: 0x53c
                    qpn: 0x45a
                    rkey: 0x98
                    address: 0x7f0000500000
                    length: 2048
            """));
        final SoftResponder r = new SoftResponder(two, (c, region) -> new UnsafeBuffer(new byte[4096]));
        final ConnectionResponderTest.Frames sink = new ConnectionResponderTest.Frames();
        final RegionConfig region = two.collectors().get(0).keyWrite().region();
        final ResponderQp qp = r.qp(COLLECTOR_IP, region.qpn());
        final Map<Integer, Long> retiredAt = new HashMap<>();
        final List<Integer> retired = new ArrayList<>();
        long now = 0;
        r.onFrame(new UnsafeBuffer(req(COMM_ID, TID, START_PSN)), 0, CmFrameEncoder.FRAME_LENGTH, now, sink);
        assertEquals(region.qpn(), qp.qpn(), "the first connection has the configured QPN");
        int previous = qp.qpn();
        for (int i = 1; i <= 5_000; i++)
        {
            now += random.nextBoolean() ? random.nextLong(timeWait / 64) : random.nextLong(2 * timeWait);
            r.onFrame(new UnsafeBuffer(req(COMM_ID + i, TID + i, START_PSN)), 0, CmFrameEncoder.FRAME_LENGTH, now,
                sink);
            final int qpn = qp.qpn();
            final String why = "reconnection " + i + ", seed " + seed;
            assertEquals(qpn, repQpn(sink.last()), why);
            assertTrue(qpn >= 2 && qpn <= 0xFFFFFE && qpn != previous, why);
            assertTrue(qpn != 0x101 && qpn != static0 && qpn != region.qpn(), why + ": configured " + qpn);
            final Long at = retiredAt.get(qpn);
            final long sinceRetired = null == at ? Long.MAX_VALUE : now - at;
            assertTrue(sinceRetired >= timeWait, why + ": 0x" + Integer.toHexString(qpn) + " reused " + sinceRetired +
                " ns after its retirement");
            retiredAt.put(previous, now);
            retired.add(previous);
            // The number just retired is in time-wait; any earlier one is refused too (in time-wait, or unknown once
            // its time-wait ended or its entry gave way), never executed on the new connection.
            final long timeWaitDrops = r.counter(ResponderCounter.TIME_WAIT_DROPS);
            final long unknown = r.counter(ResponderCounter.UNKNOWN_QPN);
            lateWrite(r, previous, region, now, sink);
            assertEquals(timeWaitDrops + 1, r.counter(ResponderCounter.TIME_WAIT_DROPS), why);
            final int earlier = retired.get(random.nextInt(retired.size()));
            lateWrite(r, earlier, region, now, sink);
            assertEquals(timeWaitDrops + 2 + unknown, r.counter(ResponderCounter.TIME_WAIT_DROPS) +
                r.counter(ResponderCounter.UNKNOWN_QPN), why);
            if (now - retiredAt.get(earlier) >= timeWait)
            {
                assertEquals(unknown + 1, r.counter(ResponderCounter.UNKNOWN_QPN), why + ": time-wait over");
            }
            assertEquals(START_PSN, qp.expectedPsn(), why);
            assertEquals(0, qp.msn(), why);
            previous = qpn;
        }
    }

    @Test
    void shouldAnswerTheTranslatorsDreqWhileItsOwnIsOut()
    {
        assertTrue(responder.disconnect(COLLECTOR_IP, keyWrite.qpn(), 0, out));
        offer(dreq(COMM_ID, collectorCommId, keyWrite.qpn(), DREQ_TID));
        assertDrep(out.last(), DREQ_TID);
        assertEquals(ResponderQp.Connection.LISTEN, qp().connection());
        responder.poll(Long.MAX_VALUE / 2, out);
        assertEquals(2, out.frames.size(), "its own DREQ is not re-sent any more");
    }

    private long assertDreq(final byte[] frame)
    {
        decode(frame);
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        assertTrue(mad.isCmSend());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_DREQ, mad.attributeId());
        assertEquals(1, decoder.bth().destQp());
        final CmDreqFlyweight body = new CmDreqFlyweight().wrap(decoder.buffer(), mad.dataOffset());
        assertEquals(collectorCommId, body.localCommId());
        assertEquals(COMM_ID, body.remoteCommId());
        assertEquals(PEER_QPN, body.remoteQpn());
        return mad.transactionId();
    }

    private void assertDrep(final byte[] frame, final long tid)
    {
        decode(frame);
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_DREP, mad.attributeId());
        assertEquals(tid, mad.transactionId());
        final CmDrepFlyweight body = new CmDrepFlyweight().wrap(decoder.buffer(), mad.dataOffset());
        assertEquals(collectorCommId, body.localCommId());
        assertEquals(COMM_ID, body.remoteCommId());
    }

    private ResponderQp qp()
    {
        return responder.qp(COLLECTOR_IP, keyWrite.qpn());
    }

    private static void lateWrite(
        final SoftResponder r, final int qpn, final RegionConfig region, final long now,
        final ConnectionResponderTest.Frames sink)
    {
        final byte[] frame = Requests.writeOnlyTo(qpn, START_PSN, region.address(), region.rkey());
        r.onFrame(new UnsafeBuffer(frame), 0, frame.length, now, sink);
    }

    private void offer(final byte[] frame)
    {
        offerAt(frame, 0);
    }

    private void offerAt(final byte[] frame, final long nowNanos)
    {
        responder.onFrame(new UnsafeBuffer(frame), 0, frame.length, nowNanos, out);
    }

    private int repQpn(final byte[] frame)
    {
        decode(frame);
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_REP, mad.attributeId());
        return new CmRepFlyweight().wrap(decoder.buffer(), mad.dataOffset()).localQpn();
    }

    private void decode(final byte[] frame)
    {
        assertEquals(FrameKind.ROCE, decoder.decode(new UnsafeBuffer(frame), 0, frame.length));
        assertTrue(decoder.icrcValid());
        assertEquals(COLLECTOR_IP, decoder.ipv4().src());
        assertEquals(TRANSLATOR_IP, decoder.ipv4().dst());
    }

    private static byte[] req(final long commId, final long tid)
    {
        return req(commId, tid, START_PSN);
    }

    private static byte[] req(final long commId, final long tid, final int startPsn)
    {
        return CmTestFrames.req(1337, commId, tid, startPsn, CM_TIMEOUT, 9, CM_RETRIES, 2, TRANSLATOR_IP);
    }
}
