package io.dta.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CM MADs (REQ, REP, RTU, REJ) in UD SEND frames to QP1, and the RC SEND Only and ACK of the metadata exchange.
 */
class CmMadTest
{
    /** dta-reference.md §4.3: the reference's REQ for port 1337, ICRC left zero. */
    private static final String REFERENCE_REQ =
        "b8cef6d212c7b8cef6d213260800450001342c7040004011f8b10a0000650a000033271012b70120f3656440ffff00000001" +
        "0000006480010000000005390107020300000000000000067c313d63001000003000000000000539000015b3000000000106" +
        "0539b8cef60300d2132600000000000000000005390000000003000000b0e6fb20b3ffff30f0ffffffff0000000000000000" +
        "0000ffff0a00006500000000000000000000ffff0a000033943e000700400098" + "00".repeat(44) + "0040d079" +
        "000000000000000000000000" + "0a000065" + "000000000000000000000000" + "0a000033" + "00".repeat(56) +
        "00000000";

    private static final long SEED = 0xC0FFEE_0004L;

    private final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
    private final FrameDecoder decoder = new FrameDecoder();
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();

    @Test
    void shouldMatchTheReferenceReqExceptForTheFieldsWeFix()
    {
        final byte[] reference = TestFrames.hex(REFERENCE_REQ);
        assertEquals(322, reference.length);

        final CmFrameEncoder cm = new CmFrameEncoder();
        cm.encoder().dstMac(0xb8cef6d212c7L).srcMac(0xb8cef6d21326L).tos(0).identification(0x2c70).ttl(64)
            .srcIp(0x0a000065).dstIp(0x0a000033).srcPort(10000).psn(100);
        cm.begin(frame, 0, MadHeaderFlyweight.ATTRIBUTE_REQ, 0x000000067C313D63L, 0x30000000L);
        cm.req().localCommId(1337).vendorId(0x15B3).serviceId(CmReqFlyweight.rdmaCmServiceId(1337))
            .localCaGuid(CmReqFlyweight.caGuidOf(0xb8cef6d21326L)).localQKey(0).localQpn(1337)
            .responderResources(0).initiatorDepth(3).remoteCmResponseTimeout(22)
            .transportServiceType(CmReqFlyweight.TRANSPORT_RC).startingPsn(0xE6FB20).localCmResponseTimeout(22)
            .retryCount(3).pKey(0xFFFF).pathMtu(3).rnrRetryCount(0).maxCmRetries(15).primaryLocalLid(0xFFFF)
            .primaryRemoteLid(0xFFFF).primaryLocalGidIpv4(0x0a000065).primaryRemoteGidIpv4(0x0a000033)
            .primaryFlowLabelAndRate(0x943E0, 7).primaryTrafficClass(0).primaryHopLimit(64)
            .primaryLocalAckTimeout(19);
        new RdmaCmHeaderFlyweight().wrap(frame, cm.req().privateDataOffset()).ipv4(0xD079, 0x0a000065, 0x0a000033);
        final int length = cm.finish(frame, 0);
        assertEquals(reference.length, length);

        final byte[] ours = new byte[length];
        frame.getBytes(0, ours);
        for (int i = 0; i < length; i++)
        {
            final boolean udpChecksum = i == 40 || i == 41;   // scapy filled it; RoCE sends 0
            final boolean srcQp = i >= 59 && i <= 61;         // the reference put the port there; GSI is QP 1
            final boolean icrc = i >= length - 4;             // the reference never computed it
            if (!udpChecksum && !srcQp && !icrc)
            {
                assertEquals(reference[i], ours[i], "byte " + i);
            }
        }
        assertEquals(0, frame.getShort(40));
        assertEquals(1, frame.getInt(58, ByteOrder.BIG_ENDIAN) & 0xFFFFFF);

        assertEquals(FrameKind.ROCE, decoder.decode(frame, 0, length));
        assertTrue(decoder.icrcValid());
        assertEquals(RoceOpcode.UD_SEND_ONLY, decoder.roceOpcode());
        assertEquals(DethFlyweight.GSI_Q_KEY, decoder.deth().qKey());
        assertEquals(1, decoder.deth().srcQp());
        assertEquals(MadHeaderFlyweight.MAD_LENGTH, decoder.payloadLength());
        mad.wrap(frame, decoder.payloadOffset());
        assertTrue(mad.isCmSend());
        assertEquals(MadHeaderFlyweight.ATTRIBUTE_REQ, mad.attributeId());
        final CmReqFlyweight req = new CmReqFlyweight().wrap(frame, mad.dataOffset());
        assertEquals(1337, CmReqFlyweight.rdmaCmServicePort(req.serviceId()));
        assertEquals(0xE6FB20, req.startingPsn());
        assertEquals(22, req.remoteCmResponseTimeout());
        assertEquals(15, req.maxCmRetries());
        assertEquals(19, req.primaryLocalAckTimeout());
        assertTrue(req.primaryLocalGidIsIpv4());
        assertEquals(0x0a000033, req.primaryRemoteGidIpv4());
        final RdmaCmHeaderFlyweight cma = new RdmaCmHeaderFlyweight().wrap(frame, req.privateDataOffset());
        assertEquals(4, cma.ipVersion());
        assertEquals(0xD079, cma.srcPort());
        assertEquals(0x0a000065, cma.srcIpv4());
        assertEquals(0x0a000033, cma.dstIpv4());

        // The reference frame itself decodes to the same fields, with its zero ICRC refused.
        final UnsafeBuffer ref = new UnsafeBuffer(reference);
        assertEquals(FrameKind.ROCE, decoder.decode(ref, 0, reference.length));
        assertFalse(decoder.icrcValid());
        assertEquals(1337, decoder.deth().srcQp());
    }

    @Test
    void shouldRoundTripEveryCmFieldAtRandom()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final CmFrameEncoder cm = new CmFrameEncoder();
        final CmReqFlyweight req = new CmReqFlyweight();
        final CmRepFlyweight rep = new CmRepFlyweight();
        final CmRtuFlyweight rtu = new CmRtuFlyweight();
        final CmRejFlyweight rej = new CmRejFlyweight();
        for (int i = 0; i < 5000; i++)
        {
            final String where = "case " + i + " (seed " + SEED + ")";
            final long tid = random.nextLong();
            final long local = random.nextLong() & 0xFFFF_FFFFL;
            final long remote = random.nextLong() & 0xFFFF_FFFFL;
            final int qpn = random.nextInt(1 << 24);
            final int psn = random.nextInt(1 << 24);
            final int t1 = random.nextInt(32);
            final int t2 = random.nextInt(32);
            final int retries = random.nextInt(16);
            final int retry = random.nextInt(8);
            final int ackTimeout = random.nextInt(32);
            final int mtu = 1 + random.nextInt(5);
            final int reason = random.nextInt(1 << 16);
            cm.encoder().srcIp(random.nextInt()).dstIp(random.nextInt()).psn(random.nextInt(1 << 24));
            final int attribute = switch (i % 4)
            {
                case 0 -> MadHeaderFlyweight.ATTRIBUTE_REQ;
                case 1 -> MadHeaderFlyweight.ATTRIBUTE_REP;
                case 2 -> MadHeaderFlyweight.ATTRIBUTE_RTU;
                default -> MadHeaderFlyweight.ATTRIBUTE_REJ;
            };
            cm.begin(frame, 0, attribute, tid, 0);
            switch (attribute)
            {
                case MadHeaderFlyweight.ATTRIBUTE_REQ -> cm.req().localCommId(local).localQpn(qpn).startingPsn(psn)
                    .remoteCmResponseTimeout(t1).localCmResponseTimeout(t2).maxCmRetries(retries).retryCount(retry)
                    .primaryLocalAckTimeout(ackTimeout).pathMtu(mtu).transportServiceType(0).rnrRetryCount(retry)
                    .serviceId(CmReqFlyweight.rdmaCmServiceId(qpn & 0xFFFF));
                case MadHeaderFlyweight.ATTRIBUTE_REP -> cm.rep().localCommId(local).remoteCommId(remote)
                    .localQpn(qpn).startingPsn(psn).targetAckDelay(t1).rnrRetryCount(retry).responderResources(t2)
                    .initiatorDepth(retries);
                case MadHeaderFlyweight.ATTRIBUTE_RTU -> cm.rtu().localCommId(local).remoteCommId(remote);
                default -> cm.rej().localCommId(local).remoteCommId(remote).messageRejected(retry % 3)
                    .rejectInfoLength(t1).reason(reason);
            }
            final int length = cm.finish(frame, 0);
            assertEquals(CmFrameEncoder.FRAME_LENGTH, length, where);
            assertEquals(FrameKind.ROCE, decoder.decode(frame, 0, length), where);
            assertTrue(decoder.icrcValid(), where);
            mad.wrap(frame, decoder.payloadOffset());
            assertTrue(mad.isCmSend(), where);
            assertEquals(attribute, mad.attributeId(), where);
            assertEquals(tid, mad.transactionId(), where);
            final int body = mad.dataOffset();
            switch (attribute)
            {
                case MadHeaderFlyweight.ATTRIBUTE_REQ ->
                {
                    req.wrap(frame, body);
                    assertEquals(local, req.localCommId(), where);
                    assertEquals(qpn, req.localQpn(), where);
                    assertEquals(psn, req.startingPsn(), where);
                    assertEquals(t1, req.remoteCmResponseTimeout(), where);
                    assertEquals(t2, req.localCmResponseTimeout(), where);
                    assertEquals(retries, req.maxCmRetries(), where);
                    assertEquals(retry, req.retryCount(), where);
                    assertEquals(retry, req.rnrRetryCount(), where);
                    assertEquals(ackTimeout, req.primaryLocalAckTimeout(), where);
                    assertEquals(mtu, req.pathMtu(), where);
                    assertEquals(0, req.transportServiceType(), where);
                    assertEquals(qpn & 0xFFFF, CmReqFlyweight.rdmaCmServicePort(req.serviceId()), where);
                }
                case MadHeaderFlyweight.ATTRIBUTE_REP ->
                {
                    rep.wrap(frame, body);
                    assertEquals(local, rep.localCommId(), where);
                    assertEquals(remote, rep.remoteCommId(), where);
                    assertEquals(qpn, rep.localQpn(), where);
                    assertEquals(psn, rep.startingPsn(), where);
                    assertEquals(t1, rep.targetAckDelay(), where);
                    assertEquals(retry, rep.rnrRetryCount(), where);
                    assertEquals(t2, rep.responderResources(), where);
                    assertEquals(retries, rep.initiatorDepth(), where);
                    // The reference's fixed offsets: QPN at body 12, PSN at body 20.
                    assertEquals(qpn, frame.getInt(body + 11, ByteOrder.BIG_ENDIAN) & 0xFFFFFF, where);
                    assertEquals(psn, frame.getInt(body + 19, ByteOrder.BIG_ENDIAN) & 0xFFFFFF, where);
                }
                case MadHeaderFlyweight.ATTRIBUTE_RTU ->
                {
                    rtu.wrap(frame, body);
                    assertEquals(local, rtu.localCommId(), where);
                    assertEquals(remote, rtu.remoteCommId(), where);
                }
                default ->
                {
                    rej.wrap(frame, body);
                    assertEquals(local, rej.localCommId(), where);
                    assertEquals(remote, rej.remoteCommId(), where);
                    assertEquals(retry % 3, rej.messageRejected(), where);
                    assertEquals(t1, rej.rejectInfoLength(), where);
                    assertEquals(reason, rej.reason(), where);
                }
            }
        }
    }

    @Test
    void shouldEncodeTheMetadataSendAndItsAck()
    {
        final RoceFrameEncoder encoder = new RoceFrameEncoder();
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
        payload.putLong(0, 0x00007f0000100000L, ByteOrder.LITTLE_ENDIAN);
        payload.putInt(8, 4096, ByteOrder.LITTLE_ENDIAN);
        payload.putInt(12, 0x1234, ByteOrder.LITTLE_ENDIAN);
        encoder.dstMac(0x02000a000065L).srcMac(0x02000a000033L).srcIp(0x0a000033).dstIp(0x0a000065)
            .opcode(RoceOpcode.RC_SEND_ONLY).destQp(0x539).psn(0xABCDEF).ackReq(true).payload(payload, 0, 16);
        final int length = encoder.encode(frame, 0);
        assertEquals(14 + 20 + 8 + 12 + 16 + 4, length);
        assertEquals(FrameKind.ROCE, decoder.decode(frame, 0, length));
        assertTrue(decoder.icrcValid());
        assertEquals(RoceOpcode.RC_SEND_ONLY, decoder.roceOpcode());
        assertEquals(16, decoder.payloadLength());
        assertEquals(0x00007f0000100000L, frame.getLong(decoder.payloadOffset(), ByteOrder.LITTLE_ENDIAN));
        assertEquals(4096, frame.getInt(decoder.payloadOffset() + 8, ByteOrder.LITTLE_ENDIAN));
        assertEquals(0x1234, frame.getInt(decoder.payloadOffset() + 12, ByteOrder.LITTLE_ENDIAN));
        assertTrue(decoder.bth().ackReq());

        encoder.srcMac(0x02000a000065L).dstMac(0x02000a000033L).srcIp(0x0a000065).dstIp(0x0a000033)
            .opcode(RoceOpcode.RC_ACKNOWLEDGE).destQp(0x456).psn(0xABCDEF).ackReq(false)
            .syndrome(AethFlyweight.CREDIT_INVALID).msn(1).noPayload();
        final int ackLength = encoder.encode(frame, 0);
        assertEquals(62, ackLength);
        assertEquals(FrameKind.ROCE, decoder.decode(frame, 0, ackLength));
        assertTrue(decoder.icrcValid());
        assertEquals(0xABCDEF, decoder.bth().psn());
        assertEquals(1, decoder.aeth().msn());
        assertTrue(decoder.aeth().isAck());
    }

    @Test
    void shouldMapServiceIdsAndTimeouts()
    {
        assertEquals(0x0000000001060539L, CmReqFlyweight.rdmaCmServiceId(1337));
        assertEquals(1337, CmReqFlyweight.rdmaCmServicePort(0x0000000001060539L));
        assertEquals(-1, CmReqFlyweight.rdmaCmServicePort(0x0000000002060539L));
        assertEquals(4096L, CmReqFlyweight.timeoutNanos(0));
        assertEquals(4096L << 19, CmReqFlyweight.timeoutNanos(19));
        assertEquals(0xB8CEF60300D21326L, CmReqFlyweight.caGuidOf(0xb8cef6d21326L));
        assertEquals("invalid service ID", CmRejFlyweight.reasonName(CmRejFlyweight.REASON_INVALID_SERVICE_ID));
    }
}
