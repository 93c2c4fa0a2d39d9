package io.dta.collector.responder;

import io.dta.codec.CmDreqFlyweight;
import io.dta.codec.CmRepFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.RoceOpcode;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import io.dta.config.RegionConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static io.dta.collector.responder.CmTestFrames.COLLECTOR_IP;
import static io.dta.collector.responder.CmTestFrames.COMM_ID;
import static io.dta.collector.responder.CmTestFrames.PEER_QPN;
import static io.dta.collector.responder.CmTestFrames.TID;
import static io.dta.collector.responder.CmTestFrames.TRANSLATOR_IP;
import static io.dta.collector.responder.CmTestFrames.YAML;
import static io.dta.collector.responder.CmTestFrames.ack;
import static io.dta.collector.responder.CmTestFrames.drep;
import static io.dta.collector.responder.CmTestFrames.dreq;
import static io.dta.collector.responder.CmTestFrames.rej;
import static io.dta.collector.responder.CmTestFrames.rtu;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SoftResponder#nextDeadline()} (through the package-private {@code ConnectionResponder.nextDeadline()}):
 * the time at which {@link SoftResponder#poll} next acts on a negotiated connection, which a virtual clock (the
 * demo) jumps to. Each case drives a QP into a state with a pending re-send (REP, metadata SEND, DREQ), checks the
 * deadline against the timeout computed from the REQ's fields ({@code 4.096 µs × 2^exponent}, written out here
 * rather than taken from the production helper), that a poll one nanosecond before it does nothing and a poll at it
 * does the re-send, and where the deadline goes next ({@link Long#MAX_VALUE} once nothing waits).
 */
class ConnectionResponderDeadlineTest
{
    private static final int START_PSN = 0x100;
    /** Distinct exponents, so that a REP timer taking the ACK timeout (or the other way round) shows. */
    private static final int CM_TIMEOUT = 12;
    private static final int ACK_TIMEOUT = 9;
    private static final int CM_RETRIES = 3;
    private static final int SEND_RETRIES = 2;
    private static final long CM_NANOS = 4096L << CM_TIMEOUT;
    private static final long ACK_NANOS = 4096L << ACK_TIMEOUT;
    private static final long NONE = Long.MAX_VALUE;
    /** Not 0: a deadline measured from 0 instead of from the event would show. */
    private static final long T0 = 1_234_567_890L;

    private final ApplianceConfig config = NegotiatedRegions.assign(ConfigLoader.load(YAML));
    private final RegionConfig keyWrite = config.collectors().get(0).keyWrite().region();
    private final RegionConfig list0 = config.collectors().get(0).lists().get(0).region();
    private final UnsafeBuffer memory = new UnsafeBuffer(new byte[4096]);
    private final SoftResponder responder = new SoftResponder(config, (c, r) -> memory);
    private final ConnectionResponderTest.Frames out = new ConnectionResponderTest.Frames();
    private final FrameDecoder decoder = new FrameDecoder();
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();

    @Test
    void shouldHaveNoDeadlineWhileNoNegotiatedConnectionWaits()
    {
        assertEquals(NONE, responder.nextDeadline(), "listening QPs wait for nothing");
        offerAt(Requests.writeOnlyTo(0x100, 0, 0x7f0000000000L, 0x55), T0);
        assertEquals(1, out.frames.size(), "the static QP's ACK");
        offerAt(req(4242, COMM_ID, TID, CM_TIMEOUT, ACK_TIMEOUT), T0);
        assertEquals(2, out.frames.size(), "the REJ");
        assertEquals(NONE, responder.nextDeadline(), "neither a static QP nor a REJ waits for an answer");
    }

    @Test
    void shouldResendTheRepAtEachCmResponseTimeoutAndGiveUpAtTheLast()
    {
        offerAt(req(1337, COMM_ID, TID, CM_TIMEOUT, ACK_TIMEOUT), T0);
        assertEquals(1, out.frames.size());
        final long localCommId = qp().localCommId();
        long deadline = T0 + CM_NANOS;
        for (int retry = 1; retry <= CM_RETRIES; retry++)
        {
            final String why = "REP re-send " + retry;
            assertEquals(deadline, responder.nextDeadline(), why);
            assertNothingAt(deadline - 1, why);
            responder.poll(deadline, out);
            assertEquals(1 + retry, out.frames.size(), why);
            final CmRepFlyweight rep = rep(out.last());
            assertEquals(TID, mad.transactionId(), why);
            assertEquals(localCommId, rep.localCommId(), why);
            assertEquals(COMM_ID, rep.remoteCommId(), why);
            assertEquals(ResponderQp.Connection.REP_SENT, qp().connection(), why);
            deadline += CM_NANOS;
        }
        // Out of retries: the last timeout abandons the attempt, with nothing sent.
        assertEquals(deadline, responder.nextDeadline());
        assertNothingAt(deadline - 1, "before the last timeout");
        responder.poll(deadline, out);
        assertEquals(1 + CM_RETRIES, out.frames.size());
        assertEquals(ResponderQp.Connection.LISTEN, qp().connection());
        assertEquals(1, responder.counter(ResponderCounter.CM_CONNECT_TIMEOUTS));
        assertEquals(NONE, responder.nextDeadline());
    }

    @Test
    void shouldMoveFromTheRepTimerToTheMetadataSendTimerOnTheRtuAndClearItOnTheAck()
    {
        offerAt(req(1337, COMM_ID, TID, CM_TIMEOUT, ACK_TIMEOUT), T0);
        // Late enough that the REP's deadline would come before the SEND's.
        final long rtuAt = T0 + CM_NANOS - ACK_NANOS / 2;
        offerAt(rtu(COMM_ID, qp().localCommId(), TID), rtuAt);
        assertEquals(2, out.frames.size(), "REP, metadata SEND");
        assertEquals(ResponderQp.Connection.SEND_PENDING, qp().connection());
        final int psn = qp().sendPsn();

        // The REP timer is gone: only the SEND's ACK timeout is left.
        assertEquals(rtuAt + ACK_NANOS, responder.nextDeadline());
        assertNothingAt(T0 + CM_NANOS, "the REP's old deadline means nothing any more");
        assertNothingAt(rtuAt + ACK_NANOS - 1, "before the ACK timeout");
        responder.poll(rtuAt + ACK_NANOS, out);
        assertEquals(3, out.frames.size());
        assertMetadataSend(out.last(), psn);
        assertEquals(rtuAt + 2 * ACK_NANOS, responder.nextDeadline());

        offerAt(ack(keyWrite.qpn(), psn), rtuAt + 2 * ACK_NANOS - 1);
        assertEquals(ResponderQp.Connection.ESTABLISHED, qp().connection());
        assertEquals(NONE, responder.nextDeadline());
        responder.poll(Long.MAX_VALUE / 2, out);
        assertEquals(3, out.frames.size(), "nothing is re-sent once acknowledged");
    }

    @Test
    void shouldResendTheMetadataSendAtEachAckTimeoutAndFailTheQpAtTheLast()
    {
        offerAt(req(1337, COMM_ID, TID, CM_TIMEOUT, ACK_TIMEOUT), T0);
        final long rtuAt = T0 + 77;
        offerAt(rtu(COMM_ID, qp().localCommId(), TID), rtuAt);
        final int psn = qp().sendPsn();
        long deadline = rtuAt + ACK_NANOS;
        for (int retry = 1; retry <= SEND_RETRIES; retry++)
        {
            final String why = "SEND re-send " + retry;
            assertEquals(deadline, responder.nextDeadline(), why);
            assertNothingAt(deadline - 1, why);
            responder.poll(deadline, out);
            assertEquals(2 + retry, out.frames.size(), why);
            assertMetadataSend(out.last(), psn);
            deadline += ACK_NANOS;
        }
        assertEquals(deadline, responder.nextDeadline());
        assertNothingAt(deadline - 1, "before the last ACK timeout");
        responder.poll(deadline, out);
        assertEquals(2 + SEND_RETRIES, out.frames.size());
        assertEquals(ResponderQp.Connection.FAILED, qp().connection());
        assertEquals(ResponderQp.State.ERROR, qp().state());
        assertEquals(NONE, responder.nextDeadline(), "a failed QP waits for nothing but a new REQ");
    }

    @Test
    void shouldStartTheMetadataSendTimerAtTheFirstRequestWhenTheRtuIsLost()
    {
        offerAt(req(1337, COMM_ID, TID, CM_TIMEOUT, ACK_TIMEOUT), T0);
        final long firstAt = T0 + 1000;
        offerAt(Requests.writeOnlyTo(keyWrite.qpn(), START_PSN, keyWrite.address(), keyWrite.rkey()), firstAt);
        assertEquals(3, out.frames.size(), "REP, metadata SEND, ACK of the write");
        assertEquals(ResponderQp.Connection.SEND_PENDING, qp().connection());
        assertEquals(firstAt + ACK_NANOS, responder.nextDeadline());
        assertNothingAt(firstAt + ACK_NANOS - 1, "before the ACK timeout");
        responder.poll(firstAt + ACK_NANOS, out);
        assertMetadataSend(out.last(), qp().sendPsn());
    }

    @Test
    void shouldRestartTheRepTimerWithTheNewReqsTimeoutOnAReconnection()
    {
        offerAt(req(1337, COMM_ID, TID, CM_TIMEOUT, ACK_TIMEOUT), T0);
        offerAt(rtu(COMM_ID, qp().localCommId(), TID), T0 + 10);
        assertEquals(T0 + 10 + ACK_NANOS, responder.nextDeadline());
        // A REQ with a new communication ID and a shorter CM response timeout takes the QP over.
        final int shorter = 7;
        final long reqAt = T0 + 20;
        offerAt(req(1337, COMM_ID + 1, TID + 1, shorter, ACK_TIMEOUT), reqAt);
        assertEquals(ResponderQp.Connection.REP_SENT, qpByPort(1337).connection());
        assertEquals(reqAt + (4096L << shorter), responder.nextDeadline());
        assertNothingAt(reqAt + (4096L << shorter) - 1, "before the new REQ's timeout");
        final int before = out.frames.size();
        responder.poll(reqAt + (4096L << shorter), out);
        assertEquals(before + 1, out.frames.size());
        assertEquals(COMM_ID + 1, rep(out.last()).remoteCommId());
    }

    @Test
    void shouldClearTheDeadlineWhenTheTranslatorRejectsOrDisconnectsWhileTheRepWaits()
    {
        offerAt(req(1337, COMM_ID, TID, CM_TIMEOUT, ACK_TIMEOUT), T0);
        offerAt(rej(COMM_ID, qp().localCommId(), TID), T0 + 5);
        assertEquals(ResponderQp.Connection.LISTEN, qp().connection());
        assertEquals(NONE, responder.nextDeadline());

        offerAt(req(1337, COMM_ID + 1, TID + 1, CM_TIMEOUT, ACK_TIMEOUT), T0 + 10);
        final ResponderQp qp = qpByPort(1337);
        assertEquals(T0 + 10 + CM_NANOS, responder.nextDeadline());
        offerAt(dreq(COMM_ID + 1, qp.localCommId(), qp.qpn(), 0xD1L), T0 + 20);
        assertEquals(ResponderQp.Connection.LISTEN, qp.connection());
        assertEquals(NONE, responder.nextDeadline());
        final int before = out.frames.size();
        responder.poll(Long.MAX_VALUE / 2, out);
        assertEquals(before, out.frames.size());
    }

    @Test
    void shouldResendItsOwnDreqAtEachCmResponseTimeoutAndClearTheDeadlineOnTheDrep()
    {
        connectKeyWrite(T0);
        final long at = T0 + 1_000_000;
        assertTrue(responder.disconnect(COLLECTOR_IP, keyWrite.qpn(), at, out));
        final long tid = dreqTid(out.last());
        long deadline = at + CM_NANOS;
        for (int retry = 1; retry <= 2; retry++)
        {
            final String why = "DREQ re-send " + retry;
            assertEquals(deadline, responder.nextDeadline(), why);
            assertNothingAt(deadline - 1, why);
            final int before = out.frames.size();
            responder.poll(deadline, out);
            assertEquals(before + 1, out.frames.size(), why);
            assertEquals(tid, dreqTid(out.last()), why);
            deadline += CM_NANOS;
        }
        assertEquals(deadline, responder.nextDeadline());
        offerAt(drep(COMM_ID, qp().localCommId(), tid), deadline - 1);
        assertEquals(ResponderQp.Connection.LISTEN, qp().connection());
        assertEquals(NONE, responder.nextDeadline());
    }

    @Test
    void shouldListenAtTheLastDreqTimeoutWithoutADrep()
    {
        connectKeyWrite(T0);
        final long at = T0 + 3;
        assertTrue(responder.disconnect(COLLECTOR_IP, keyWrite.qpn(), at, out));
        final long last = at + (CM_RETRIES + 1) * CM_NANOS;
        for (long deadline = at + CM_NANOS; deadline < last; deadline += CM_NANOS)
        {
            responder.poll(deadline, out);
        }
        assertEquals(CM_RETRIES + 1, responder.counter(ResponderCounter.CM_DREQS_SENT));
        assertEquals(last, responder.nextDeadline());
        assertNothingAt(last - 1, "before the last DREQ timeout");
        responder.poll(last, out);
        assertEquals(ResponderQp.Connection.LISTEN, qp().connection());
        assertEquals(1, responder.counter(ResponderCounter.CM_DISCONNECT_TIMEOUTS));
        assertEquals(NONE, responder.nextDeadline());
    }

    @Test
    void shouldGiveTheEarliestDeadlineOfSeveralQps()
    {
        final int shortCm = 10;
        offerAt(req(1337, COMM_ID, TID, CM_TIMEOUT, ACK_TIMEOUT), T0);
        offerAt(req(1338, COMM_ID + 1, TID + 1, shortCm, ACK_TIMEOUT), T0 + 1);
        final ResponderQp kw = qpByPort(1337);
        final ResponderQp l0 = qpByPort(1338);
        final long l0Rep = T0 + 1 + (4096L << shortCm);
        assertEquals(l0Rep, responder.nextDeadline(), "the later REQ with the shorter timeout comes first");
        assertNothingAt(l0Rep - 1, "before the list's REP timeout");
        responder.poll(l0Rep, out);
        assertEquals(1, responder.counter(ResponderCounter.CM_REP_TIMEOUTS), "only the list's REP again");
        assertEquals(l0Rep + (4096L << shortCm), responder.nextDeadline());

        // The list connects and is acknowledged: the key-write QP's REP timer is what is left.
        offerAt(rtu(COMM_ID + 1, l0.localCommId(), TID + 1), l0Rep + 1);
        assertEquals(l0Rep + 1 + ACK_NANOS, responder.nextDeadline());
        offerAt(ack(list0.qpn(), l0.sendPsn()), l0Rep + 2);
        assertEquals(T0 + CM_NANOS, responder.nextDeadline());
        assertEquals(ResponderQp.Connection.REP_SENT, kw.connection());
        offerAt(rtu(COMM_ID, kw.localCommId(), TID), T0 + 5);
        offerAt(ack(keyWrite.qpn(), kw.sendPsn()), T0 + 6);
        assertEquals(NONE, responder.nextDeadline());
    }

    /**
     * Seeded random histories of REQs (new, duplicate, with random timeouts), RTUs, first requests, ACKs, REJs,
     * DREQs and DREPs in both directions on two negotiated QPs, at random times, with polls at random times in
     * between: at every step, whatever the state, the deadline is the exact time poll next acts. A poll one
     * nanosecond before it changes nothing (no frame, no counter, no state); a poll at it does something (a
     * re-send, an abandoned attempt) and moves the deadline later.
     */
    @Test
    void shouldAlwaysGiveTheExactTimePollNextActsAt()
    {
        final long seed = new SplittableRandom().nextLong();
        final SplittableRandom random = new SplittableRandom(seed);
        final String seedText = "seed " + seed + "L";
        int acted = 0;
        for (int history = 0; history < 300; history++)
        {
            final SoftResponder r = new SoftResponder(config, (c, rg) -> new UnsafeBuffer(new byte[4096]))
                .connectionSeed(random.nextLong());
            final ConnectionResponderTest.Frames sink = new ConnectionResponderTest.Frames();
            long now = T0;
            final long[] commIds = { COMM_ID, COMM_ID + 100 };
            final long[] tids = { TID, TID + 100 };
            for (int step = 0; step < 60; step++)
            {
                final String why = seedText + ", history " + history + ", step " + step;
                final int q = random.nextInt(2);
                final int port = 1337 + q;
                final ResponderQp qp = qpByPort(r, port);
                now += random.nextLong(4096L << 11);
                final int event = random.nextInt(10);
                switch (event)
                {
                    case 0, 1 ->
                    {
                        if (random.nextBoolean())
                        {
                            commIds[q]++;
                            tids[q]++;
                        }
                        offer(r, req(port, commIds[q], tids[q], 8 + random.nextInt(5), 7 + random.nextInt(5),
                            random.nextInt(4), random.nextInt(3)), now, sink);
                    }
                    case 2 -> offer(r, rtu(commIds[q], qp.localCommId(), tids[q]), now, sink);
                    case 3 -> offer(r, ack(qp.qpn(), qp.sendPsn()), now, sink);
                    case 4 -> offer(r, Requests.writeOnlyTo(qp.qpn(), qp.expectedPsn(), qp.region().address(),
                        qp.region().rkey()), now, sink);
                    case 5 -> r.disconnect(COLLECTOR_IP, qp.qpn(), now, sink);
                    case 6 -> offer(r, dreq(commIds[q], qp.localCommId(), qp.qpn(), 0xD0L + step), now, sink);
                    case 7 -> offer(r, rej(commIds[q], qp.localCommId(), tids[q]), now, sink);
                    default ->
                    {
                        // Let time run to the deadline (or a little past it, as a loop polling late would).
                        final long deadline = r.nextDeadline();
                        if (NONE == deadline)
                        {
                            break;
                        }
                        if (deadline > now)
                        {
                            assertNothingAt(r, sink, deadline - 1, why);
                            now = deadline;
                        }
                        final Snapshot before = new Snapshot(r, sink);
                        r.poll(now, sink);
                        assertTrue(!before.equals(new Snapshot(r, sink)), why + ": poll at the deadline did nothing");
                        assertTrue(r.nextDeadline() > now, why + ": the deadline did not move on");
                        acted++;
                    }
                }
                final long deadline = r.nextDeadline();
                if (NONE != deadline && deadline > now)
                {
                    assertNothingAt(r, sink, deadline - 1, why + " (after event " + event + ")");
                }
            }
        }
        assertTrue(acted > 1000, seedText + ": only " + acted + " deadlines reached");
    }

    /** What a poll can change: frames sent, counters, each QP's connection state. */
    private record Snapshot(int frames, String counters, String connections)
    {
        Snapshot(final SoftResponder r, final ConnectionResponderTest.Frames sink)
        {
            this(sink.frames.size(), counters(r), connections(r));
        }

        private static String counters(final SoftResponder r)
        {
            final StringBuilder s = new StringBuilder();
            for (final ResponderCounter c : ResponderCounter.values())
            {
                s.append(r.counter(c)).append(',');
            }
            return s.toString();
        }

        private static String connections(final SoftResponder r)
        {
            final StringBuilder s = new StringBuilder();
            for (final ResponderQp qp : r.qps())
            {
                s.append(qp.connection()).append('/').append(qp.state()).append(',');
            }
            return s.toString();
        }
    }

    private void assertNothingAt(final long t, final String why)
    {
        assertNothingAt(responder, out, t, why);
    }

    private static void assertNothingAt(
        final SoftResponder r, final ConnectionResponderTest.Frames sink, final long t, final String why)
    {
        final Snapshot before = new Snapshot(r, sink);
        final long deadline = r.nextDeadline();
        r.poll(t, sink);
        assertEquals(before, new Snapshot(r, sink), why + ": poll at " + t + " acted before the deadline");
        assertEquals(deadline, r.nextDeadline(), why + ": poll at " + t + " moved the deadline");
    }

    private void connectKeyWrite(final long at)
    {
        offerAt(req(1337, COMM_ID, TID, CM_TIMEOUT, ACK_TIMEOUT), at);
        offerAt(rtu(COMM_ID, qp().localCommId(), TID), at);
        offerAt(ack(keyWrite.qpn(), qp().sendPsn()), at);
        assertEquals(ResponderQp.Connection.ESTABLISHED, qp().connection());
        assertEquals(NONE, responder.nextDeadline());
    }

    private ResponderQp qp()
    {
        return responder.qp(COLLECTOR_IP, keyWrite.qpn());
    }

    private ResponderQp qpByPort(final int port)
    {
        return qpByPort(responder, port);
    }

    private static ResponderQp qpByPort(final SoftResponder r, final int port)
    {
        for (final ResponderQp qp : r.qps())
        {
            if (qp.negotiated() && qp.region().servicePort() == port)
            {
                return qp;
            }
        }
        throw new AssertionError("no QP for port " + port);
    }

    private void offerAt(final byte[] frame, final long nowNanos)
    {
        offer(responder, frame, nowNanos, out);
    }

    private static void offer(
        final SoftResponder r, final byte[] frame, final long nowNanos, final ConnectionResponderTest.Frames sink)
    {
        r.onFrame(new UnsafeBuffer(frame), 0, frame.length, nowNanos, sink);
    }

    private void decode(final byte[] frame)
    {
        assertEquals(FrameKind.ROCE, decoder.decode(new UnsafeBuffer(frame), 0, frame.length));
        assertTrue(decoder.icrcValid());
        assertEquals(COLLECTOR_IP, decoder.ipv4().src());
    }

    private CmRepFlyweight rep(final byte[] frame)
    {
        decode(frame);
        assertEquals(RoceOpcode.UD_SEND_ONLY, decoder.roceOpcode());
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_REP, mad.attributeId());
        return new CmRepFlyweight().wrap(decoder.buffer(), mad.dataOffset());
    }

    private long dreqTid(final byte[] frame)
    {
        decode(frame);
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_DREQ, mad.attributeId());
        assertEquals(COMM_ID, new CmDreqFlyweight().wrap(decoder.buffer(), mad.dataOffset()).remoteCommId());
        return mad.transactionId();
    }

    private void assertMetadataSend(final byte[] frame, final int psn)
    {
        decode(frame);
        assertEquals(RoceOpcode.RC_SEND_ONLY, decoder.roceOpcode());
        assertEquals(psn, decoder.bth().psn());
        assertEquals(PEER_QPN, decoder.bth().destQp());
    }

    private static byte[] req(
        final int port, final long commId, final long tid, final int cmTimeout, final int ackTimeout)
    {
        return req(port, commId, tid, cmTimeout, ackTimeout, CM_RETRIES, SEND_RETRIES);
    }

    private static byte[] req(
        final int port,
        final long commId,
        final long tid,
        final int cmTimeout,
        final int ackTimeout,
        final int cmRetries,
        final int sendRetries)
    {
        return CmTestFrames.req(
            port, commId, tid, START_PSN, cmTimeout, ackTimeout, cmRetries, sendRetries, TRANSLATOR_IP);
    }
}
