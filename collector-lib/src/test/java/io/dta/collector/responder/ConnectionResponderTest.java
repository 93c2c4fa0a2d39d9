package io.dta.collector.responder;

import io.dta.codec.CmRejFlyweight;
import io.dta.codec.CmRepFlyweight;
import io.dta.codec.CmReqFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.RoceOpcode;
import io.dta.codec.pcap.PcapWriter;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import io.dta.config.RegionConfig;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.dta.collector.responder.CmTestFrames.COLLECTOR_IP;
import static io.dta.collector.responder.CmTestFrames.COMM_ID;
import static io.dta.collector.responder.CmTestFrames.PEER_QPN;
import static io.dta.collector.responder.CmTestFrames.TID;
import static io.dta.collector.responder.CmTestFrames.TRANSLATOR_IP;
import static io.dta.collector.responder.CmTestFrames.YAML;
import static io.dta.collector.responder.CmTestFrames.ack;
import static io.dta.collector.responder.CmTestFrames.rtu;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The soft collector's side of connection set-up: REQ → REP, RTU → metadata SEND, its ACK, with retries, REJ and
 * every drop counted.
 */
class ConnectionResponderTest
{
    private static final int START_PSN = 0xFFFFFE;
    private static final int CM_TIMEOUT = 8;
    private static final int ACK_TIMEOUT = 9;
    private static final int CM_RETRIES = 3;
    private static final int SEND_RETRIES = 2;

    private final ApplianceConfig config = NegotiatedRegions.assign(ConfigLoader.load(YAML));
    private final RegionConfig keyWrite = config.collectors().get(0).keyWrite().region();
    private final UnsafeBuffer memory = new UnsafeBuffer(new byte[4096]);
    private final SoftResponder responder = new SoftResponder(config, (c, r) -> memory);
    private final Frames out = new Frames();
    private final FrameDecoder decoder = new FrameDecoder();
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();

    @Test
    void shouldAssignQpParametersAfterTheStaticRegions()
    {
        assertEquals(0x101, keyWrite.qpn());
        assertEquals(NegotiatedRegions.RKEY_BASE | 1337, keyWrite.rkey());
        assertEquals(0x7f0000100000L, keyWrite.address());
        final RegionConfig list0 = config.collectors().get(0).lists().get(0).region();
        assertEquals(0x102, list0.qpn());
        assertEquals(0x7f0000200000L, list0.address());
        assertEquals(config, NegotiatedRegions.assign(config));

        // A negotiated region already placed keeps its place and blocks its QPN and extent.
        final ApplianceConfig partly = config.withRegions((c, r) -> r.path().endsWith("lists[0]") ? r :
            r.negotiated() ? r.connected(0, 0, 0) : r);
        final ApplianceConfig again = NegotiatedRegions.assign(partly.withRegions((c, r) ->
            r.path().endsWith("lists[0]") ? r.connected(0x101, 0x9, 0x7f0000100000L) : r));
        assertEquals(0x101, again.collectors().get(0).lists().get(0).region().qpn());
        assertEquals(0x102, again.collectors().get(0).keyWrite().region().qpn());
        assertEquals(0x7f0000200000L, again.collectors().get(0).keyWrite().region().address());
    }

    @Test
    void shouldConnectThroughReqRepRtuAndTheAcknowledgedMetadataSend()
    {
        final ResponderQp qp = qp();
        assertEquals(ResponderQp.State.IDLE, qp.state());
        offer(Requests.writeOnlyTo(keyWrite.qpn(), START_PSN, keyWrite.address(), keyWrite.rkey()));
        assertEquals(1, responder.counter(ResponderCounter.NOT_CONNECTED));

        offer(req(1337, COMM_ID, TID));
        assertEquals(1, out.frames.size());
        final CmRepFlyweight rep = rep(out.last());
        assertEquals(TID, mad.transactionId());
        assertEquals(COMM_ID, rep.remoteCommId());
        assertEquals(qp.localCommId(), rep.localCommId());
        assertNotEquals(0, rep.localCommId());
        assertEquals(keyWrite.qpn(), rep.localQpn());
        assertEquals(qp.sendPsn(), rep.startingPsn());
        assertEquals(1, decoder.deth().srcQp());
        assertEquals(1, decoder.bth().destQp());
        assertEquals(TRANSLATOR_IP, decoder.ipv4().dst());
        assertEquals(ResponderQp.State.RTR, qp.state());
        assertEquals(ResponderQp.Connection.REP_SENT, qp.connection());
        assertEquals(START_PSN, qp.expectedPsn());
        assertEquals(PEER_QPN, qp.peerQpn());

        offer(rtu(COMM_ID, rep.localCommId(), TID));
        assertEquals(2, out.frames.size());
        decode(out.last());
        assertEquals(RoceOpcode.RC_SEND_ONLY, decoder.roceOpcode());
        assertEquals(PEER_QPN, decoder.bth().destQp());
        assertEquals(qp.sendPsn(), decoder.bth().psn());
        assertTrue(decoder.bth().ackReq());
        assertEquals(16, decoder.payloadLength());
        final int p = decoder.payloadOffset();
        assertEquals(keyWrite.address(), decoder.buffer().getLong(p, ByteOrder.LITTLE_ENDIAN));
        assertEquals(2048, decoder.buffer().getInt(p + 8, ByteOrder.LITTLE_ENDIAN));
        assertEquals(keyWrite.rkey(), decoder.buffer().getInt(p + 12, ByteOrder.LITTLE_ENDIAN) & 0xFFFFFFFFL);
        assertEquals(ResponderQp.State.READY, qp.state());
        assertEquals(ResponderQp.Connection.SEND_PENDING, qp.connection());

        offer(ack(keyWrite.qpn(), qp.sendPsn() + 1));
        assertEquals(1, responder.counter(ResponderCounter.STALE_ACKS));
        offer(ack(keyWrite.qpn(), qp.sendPsn()));
        assertEquals(ResponderQp.Connection.ESTABLISHED, qp.connection());
        assertEquals(1, responder.counter(ResponderCounter.METADATA_ACKED));
        responder.poll(Long.MAX_VALUE / 2, out);
        assertEquals(2, out.frames.size(), "nothing is re-sent once acknowledged");

        // Data at the REQ's starting PSN lands and is acknowledged to the REQ's QPN; the PSN wraps.
        offer(Requests.writeOnlyTo(keyWrite.qpn(), START_PSN, keyWrite.address() + 8, keyWrite.rkey()));
        offer(Requests.writeOnlyTo(keyWrite.qpn(), START_PSN + 1, keyWrite.address() + 16, keyWrite.rkey()));
        offer(Requests.writeOnlyTo(keyWrite.qpn(), 0, keyWrite.address() + 24, keyWrite.rkey()));
        assertEquals(5, out.frames.size());
        decode(out.last());
        assertTrue(decoder.aeth().isAck());
        assertEquals(0, decoder.bth().psn());
        assertEquals(PEER_QPN, decoder.bth().destQp());
        assertEquals(3, decoder.aeth().msn());
        assertEquals(0x0807060504030201L, memory.getLong(24, ByteOrder.LITTLE_ENDIAN));
        assertEquals(1, responder.counter(ResponderCounter.CM_REQS_ACCEPTED));
        assertEquals(1, responder.counter(ResponderCounter.CM_RTUS));
    }

    @Test
    void shouldResendTheRepOnADuplicateReqAndOnTimeoutThenGiveUp()
    {
        offer(req(1337, COMM_ID, TID));
        offer(req(1337, COMM_ID, TID));
        assertEquals(2, out.frames.size());
        assertEquals(1, responder.counter(ResponderCounter.CM_DUPLICATE_REQS));
        final long timeout = CmReqFlyweight.timeoutNanos(CM_TIMEOUT);
        responder.poll(timeout - 1, out);
        assertEquals(2, out.frames.size());
        long now = timeout;
        for (int i = 0; i < CM_RETRIES; i++)
        {
            responder.poll(now, out);
            assertEquals(3 + i, out.frames.size());
            rep(out.last());
            now += timeout;
        }
        responder.poll(now, out);
        assertEquals(2 + CM_RETRIES, out.frames.size());
        assertEquals(1, responder.counter(ResponderCounter.CM_CONNECT_TIMEOUTS));
        assertEquals(CM_RETRIES, responder.counter(ResponderCounter.CM_REP_TIMEOUTS));
        assertEquals(ResponderQp.State.IDLE, qp().state());
        offer(rtu(COMM_ID, qp().localCommId(), TID));
        assertEquals(1, responder.counter(ResponderCounter.CM_UNMATCHED));
        assertEquals(2 + CM_RETRIES, out.frames.size());
    }

    @Test
    void shouldTakeTheFirstValidRequestForALostRtu()
    {
        offer(req(1337, COMM_ID, TID));
        offer(Requests.writeOnlyTo(keyWrite.qpn(), START_PSN, keyWrite.address(), keyWrite.rkey()));
        assertEquals(3, out.frames.size());
        decode(out.frames.get(1));
        assertEquals(RoceOpcode.RC_SEND_ONLY, decoder.roceOpcode());
        decode(out.frames.get(2));
        assertTrue(decoder.aeth().isAck());
        assertEquals(START_PSN, decoder.bth().psn());
        assertEquals(ResponderQp.State.READY, qp().state());
        // The RTU arriving late changes nothing.
        offer(rtu(COMM_ID, qp().localCommId(), TID));
        assertEquals(3, out.frames.size());
        assertEquals(1, responder.counter(ResponderCounter.CM_UNMATCHED));
    }

    @Test
    void shouldRetransmitTheMetadataSendUntilAcknowledgedThenFailTheQp()
    {
        offer(req(1337, COMM_ID, TID));
        offer(rtu(COMM_ID, qp().localCommId(), TID));
        final int psn = qp().sendPsn();
        final long timeout = CmReqFlyweight.timeoutNanos(ACK_TIMEOUT);
        long now = timeout;
        for (int i = 0; i < SEND_RETRIES; i++)
        {
            responder.poll(now, out);
            decode(out.last());
            assertEquals(RoceOpcode.RC_SEND_ONLY, decoder.roceOpcode());
            assertEquals(psn, decoder.bth().psn());
            now += timeout;
        }
        assertEquals(2 + SEND_RETRIES, out.frames.size());
        responder.poll(now, out);
        assertEquals(2 + SEND_RETRIES, out.frames.size());
        assertEquals(1, responder.counter(ResponderCounter.METADATA_SEND_FAILED));
        assertEquals(1 + SEND_RETRIES, responder.counter(ResponderCounter.METADATA_SENDS));
        assertEquals(ResponderQp.State.ERROR, qp().state());
        assertEquals(ResponderQp.Connection.FAILED, qp().connection());

        // A new REQ (new communication ID) reconnects the QP.
        offer(req(1337, COMM_ID + 1, TID + 1));
        assertEquals(ResponderQp.State.RTR, qp().state());
        assertEquals(2, responder.counter(ResponderCounter.CM_REQS_ACCEPTED));
    }

    @Test
    void shouldRejectAnUnknownServicePortAndDropBadMads()
    {
        offer(req(4242, COMM_ID, TID));
        assertEquals(1, out.frames.size());
        decode(out.last());
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_REJ, mad.attributeId());
        assertEquals(TID, mad.transactionId());
        final CmRejFlyweight rej = new CmRejFlyweight().wrap(decoder.buffer(), mad.dataOffset());
        assertEquals(CmRejFlyweight.REASON_INVALID_SERVICE_ID, rej.reason());
        assertEquals(COMM_ID, rej.remoteCommId());
        assertEquals(CmRejFlyweight.REJECTED_REQ, rej.messageRejected());

        // The static list's QP is not a service either.
        offer(req(0, COMM_ID, TID));
        assertEquals(2, responder.counter(ResponderCounter.CM_REJS_SENT));

        final byte[] badIcrc = req(1337, COMM_ID, TID);
        badIcrc[100] ^= 1;
        offer(badIcrc);
        final byte[] foreign = req(1337, COMM_ID, TID, 0x0A000009);
        offer(foreign);
        assertEquals(2, out.frames.size());
        assertEquals(1, responder.counter(ResponderCounter.BAD_ICRC));
        assertEquals(1, responder.counter(ResponderCounter.BAD_IP_SRC));
        assertEquals(ResponderQp.State.IDLE, qp().state());
    }

    @Test
    void shouldLeaveStaticQpsAlone()
    {
        final ResponderQp list1 = responder.qp(COLLECTOR_IP, 0x100);
        assertFalse(list1.negotiated());
        assertEquals(ResponderQp.State.READY, list1.state());
        offer(Requests.writeOnlyTo(0x100, 0, 0x7f0000000000L, 0x55));
        assertEquals(1, out.frames.size());
        decode(out.last());
        assertTrue(decoder.aeth().isAck());
    }

    @Test
    void shouldSendSetUpFramesWhoseIcrcScapyAccepts() throws Exception
    {
        final Path python = Path.of("/usr/bin/python3");
        assumeTrue(Files.isExecutable(python), "no python3");
        final Process probe = new ProcessBuilder(python.toString(), "-c", "import scapy.contrib.roce")
            .redirectErrorStream(true).start();
        assumeTrue(probe.waitFor(60, TimeUnit.SECONDS) &&
            0 == probe.exitValue(), "python3-scapy missing");

        offer(req(4242, COMM_ID, TID));                                       // REJ
        offer(req(1337, COMM_ID, TID));                                       // REP
        offer(rtu(COMM_ID, qp().localCommId(), TID));                         // metadata SEND
        responder.poll(CmReqFlyweight.timeoutNanos(ACK_TIMEOUT), out);       // SEND again
        offer(Requests.writeOnlyTo(keyWrite.qpn(), START_PSN, keyWrite.address(), keyWrite.rkey()));  // ACK
        assertEquals(5, out.frames.size());
        final Path file = Files.createTempFile("cm-responses", ".pcap");
        try
        {
            try (PcapWriter writer = new PcapWriter(file))
            {
                long t = 1_700_000_000_000_000_000L;
                for (final byte[] frame : out.frames)
                {
                    writer.write(t += 1000, new UnsafeBuffer(frame), 0, frame.length);
                }
            }
            final Process p = new ProcessBuilder(python.toString(),
                "../roce-codec/src/test/resources/oracle/scapy_roce.py", "check", file.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            final List<String> verdicts = new String(p.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8).lines().toList();
            assertEquals(0, p.waitFor());
            assertEquals(List.of("1 ok", "2 ok", "3 ok", "4 ok", "5 ok"), verdicts);
        }
        finally
        {
            Files.deleteIfExists(file);
        }
    }

    private ResponderQp qp()
    {
        return responder.qp(COLLECTOR_IP, keyWrite.qpn());
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

    private static byte[] req(final int port, final long commId, final long tid)
    {
        return req(port, commId, tid, TRANSLATOR_IP);
    }

    private static byte[] req(final int port, final long commId, final long tid, final int srcIp)
    {
        return CmTestFrames.req(
            port, commId, tid, START_PSN, CM_TIMEOUT, ACK_TIMEOUT, CM_RETRIES, SEND_RETRIES, srcIp);
    }

    /** Keeps a copy of every frame sent. */
    static final class Frames implements ResponseSink
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
    }
}
