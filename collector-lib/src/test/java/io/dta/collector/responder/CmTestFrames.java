package io.dta.collector.responder;

import io.dta.codec.CmFrameEncoder;
import io.dta.codec.CmRepFlyweight;
import io.dta.codec.CmReqFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.RdmaCmHeaderFlyweight;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The translator's side of connection set-up and tear-down as the connection-responder tests send it: one
 * translator, one collector, and IB CM frames (REQ, RTU, REJ, DREQ, DREP) and RC ACKs built with the codec's
 * encoders. Each test keeps its own starting PSN, timeouts and retries and passes them in, so that every test sends
 * exactly the frames it always did. {@code ConnectionSpecAuditTest} deliberately does not use this: it builds its
 * frames byte by byte as an independent oracle.
 */
final class CmTestFrames
{
    static final long TRANSLATOR_MAC = 0x020000000001L;
    static final int TRANSLATOR_IP = 0x0A000001;
    static final long COLLECTOR_MAC = 0x020000000002L;
    static final int COLLECTOR_IP = 0x0A000002;
    /** The translator's QP, named in every REQ. */
    static final int PEER_QPN = 0x539;
    static final long TID = 0x1122334455667788L;
    static final long COMM_ID = 0xCAFE0001L;

    /** A collector with one negotiated key-write region on service port 1337. */
    static final String KEY_WRITE_YAML = """
        translator:
          mac: "02:00:00:00:00:01"
          ip: 10.0.0.1
        collectors:
          - name: cm
            mac: "02:00:00:00:00:02"
            ip: 10.0.0.2
            keyWrite:
              localQpn: 0x539
              servicePort: 1337
              length: 2048
        """;

    /** {@link #KEY_WRITE_YAML} plus a negotiated list on port 1338 and a static list (QPN 0x100). */
    static final String YAML = KEY_WRITE_YAML + """
            lists:
              - id: 0
                localQpn: 0x53a
                servicePort: 1338
                length: 1024
              - id: 1
                localQpn: 0x53b
                qpn: 0x100
                rkey: 0x55
                address: 0x7f0000000000
                length: 4096
        """;

    private CmTestFrames()
    {
    }

    /**
     * A REQ from the translator's QP {@link #PEER_QPN} for the RDMA CM service on {@code port}.
     *
     * @param port        the RDMA CM service port (the region's {@code servicePort}).
     * @param commId      the translator's local communication ID.
     * @param tid         the MAD transaction ID.
     * @param startPsn    the starting PSN of the translator's requests.
     * @param cmTimeout   the remote and local CM response timeout exponent.
     * @param ackTimeout  the primary path's local ACK timeout exponent.
     * @param cmRetries   max CM retries.
     * @param sendRetries the RC retry count.
     * @param srcIp       the IPv4 source address, in the IP header, the GID and the RDMA CM private data.
     * @return the frame.
     */
    static byte[] req(
        final int port,
        final long commId,
        final long tid,
        final int startPsn,
        final int cmTimeout,
        final int ackTimeout,
        final int cmRetries,
        final int sendRetries,
        final int srcIp)
    {
        return req(port, commId, tid, startPsn, cmTimeout, ackTimeout, cmRetries, sendRetries, srcIp, PEER_QPN);
    }

    /**
     * A REQ as {@link #req(int, long, long, int, int, int, int, int, int)} from the translator's QP {@code localQpn}
     * (one of several translator QPs writing one region).
     */
    static byte[] req(
        final int port,
        final long commId,
        final long tid,
        final int startPsn,
        final int cmTimeout,
        final int ackTimeout,
        final int cmRetries,
        final int sendRetries,
        final int srcIp,
        final int localQpn)
    {
        final CmFrameEncoder cm = cm(srcIp);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[CmFrameEncoder.FRAME_LENGTH]);
        cm.begin(frame, 0, MadHeaderFlyweight.ATTRIBUTE_REQ, tid, 0);
        cm.req().localCommId(commId).serviceId(CmReqFlyweight.rdmaCmServiceId(port)).localQpn(localQpn)
            .transportServiceType(CmReqFlyweight.TRANSPORT_RC).startingPsn(startPsn)
            .remoteCmResponseTimeout(cmTimeout).localCmResponseTimeout(cmTimeout).maxCmRetries(cmRetries)
            .retryCount(sendRetries).primaryLocalAckTimeout(ackTimeout).pathMtu(3).pKey(0xFFFF)
            .primaryLocalGidIpv4(srcIp).primaryRemoteGidIpv4(COLLECTOR_IP);
        new RdmaCmHeaderFlyweight().wrap(frame, cm.req().privateDataOffset()).ipv4(0xC000, srcIp, COLLECTOR_IP);
        cm.finish(frame, 0);
        return frame.byteArray();
    }

    static byte[] rtu(final long commId, final long remoteCommId, final long tid)
    {
        return cmFrame(MadHeaderFlyweight.ATTRIBUTE_RTU, tid,
            cm -> cm.rtu().localCommId(commId).remoteCommId(remoteCommId));
    }

    /** A REJ of the collector's REP (reason 28, consumer reject). */
    static byte[] rej(final long commId, final long remoteCommId, final long tid)
    {
        return cmFrame(MadHeaderFlyweight.ATTRIBUTE_REJ, tid,
            cm -> cm.rej().localCommId(commId).remoteCommId(remoteCommId).reason(28));
    }

    static byte[] dreq(final long commId, final long remoteCommId, final int remoteQpn, final long tid)
    {
        return cmFrame(MadHeaderFlyweight.ATTRIBUTE_DREQ, tid,
            cm -> cm.dreq().localCommId(commId).remoteCommId(remoteCommId).remoteQpn(remoteQpn));
    }

    static byte[] drep(final long commId, final long remoteCommId, final long tid)
    {
        return cmFrame(MadHeaderFlyweight.ATTRIBUTE_DREP, tid,
            cm -> cm.drep().localCommId(commId).remoteCommId(remoteCommId));
    }

    /** The translator's RC ACK of the collector's request at {@code psn} on the collector's QP {@code destQp}. */
    static byte[] ack(final int destQp, final int psn)
    {
        return Requests.frame(new RoceFrameEncoder().srcMac(TRANSLATOR_MAC).dstMac(COLLECTOR_MAC)
            .srcIp(TRANSLATOR_IP).dstIp(COLLECTOR_IP).opcode(RoceOpcode.RC_ACKNOWLEDGE).destQp(destQp)
            .psn(psn & 0xFFFFFF).syndrome(0x1F).msn(1).noPayload());
    }

    /** Decodes a frame the collector sent to the translator: RoCEv2, a valid ICRC, between the two addresses. */
    static void decode(final FrameDecoder decoder, final byte[] frame)
    {
        assertEquals(FrameKind.ROCE, decoder.decode(new UnsafeBuffer(frame), 0, frame.length));
        assertTrue(decoder.icrcValid());
        assertEquals(COLLECTOR_IP, decoder.ipv4().src());
        assertEquals(TRANSLATOR_IP, decoder.ipv4().dst());
    }

    /** The REP the collector sent in {@code frame}, its MAD header left in {@code mad}. */
    static CmRepFlyweight rep(final FrameDecoder decoder, final MadHeaderFlyweight mad, final byte[] frame)
    {
        decode(decoder, frame);
        assertEquals(RoceOpcode.UD_SEND_ONLY, decoder.roceOpcode());
        mad.wrap(decoder.buffer(), decoder.payloadOffset());
        assertTrue(mad.isCmSend());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_REP, mad.attributeId(), "REP expected");
        return new CmRepFlyweight().wrap(decoder.buffer(), mad.dataOffset());
    }

    /** A CM MAD from the translator with the given attribute, its body written by {@code body}. */
    private static byte[] cmFrame(final int attributeId, final long tid, final Consumer<CmFrameEncoder> body)
    {
        final CmFrameEncoder cm = cm(TRANSLATOR_IP);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[CmFrameEncoder.FRAME_LENGTH]);
        cm.begin(frame, 0, attributeId, tid, 0);
        body.accept(cm);
        cm.finish(frame, 0);
        return frame.byteArray();
    }

    private static CmFrameEncoder cm(final int srcIp)
    {
        final CmFrameEncoder cm = new CmFrameEncoder();
        cm.encoder().srcMac(TRANSLATOR_MAC).dstMac(COLLECTOR_MAC).srcIp(srcIp).dstIp(COLLECTOR_IP).psn(7);
        return cm;
    }
}
