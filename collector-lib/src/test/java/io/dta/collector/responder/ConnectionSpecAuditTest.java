package io.dta.collector.responder;

import io.dta.codec.CmFrameEncoder;
import io.dta.codec.CmReqFlyweight;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.RdmaCmHeaderFlyweight;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import io.dta.config.RegionConfig;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Audit of the soft collector's side of connection set-up (translation.md §8, §9; rocev2-reference.md §5.2;
 * dta-reference.md §4.4, §4.6): the REP, REJ and metadata SEND it answers with are compared byte by byte with
 * frames computed here by plain byte arithmetic from the spec, never with the production flyweights. The requests
 * offered to it are made with the codec's encoder (the codec has its own audit).
 */
class ConnectionSpecAuditTest
{
    private static final long TRANSLATOR_MAC = 0x020000000001L;
    private static final int TRANSLATOR_IP = 0x0A000001;
    private static final long COLLECTOR_MAC = 0x02AABBCCDDEEL;
    private static final int COLLECTOR_IP = 0x0A000002;
    private static final int PEER_QPN = 0x654321;
    private static final int START_PSN = 0x00ABCD;
    private static final long TID = 0x8877665544332211L;
    private static final long COMM_ID = 0xDEADBEEFL;

    private static final String YAML = """
        translator:
          mac: "02:00:00:00:00:01"
          ip: 10.0.0.1
        collectors:
          - name: cm
            mac: "02:aa:bb:cc:dd:ee"
            ip: 10.0.0.2
            keyWrite:
              localQpn: 0x539
              servicePort: 1337
              length: 2048
        """;

    private final ApplianceConfig config = NegotiatedRegions.assign(ConfigLoader.load(YAML));
    private final RegionConfig keyWrite = config.collectors().get(0).keyWrite().region();
    private final UnsafeBuffer memory = new UnsafeBuffer(new byte[4096]);
    private final SoftResponder responder = new SoftResponder(config, (c, r) -> memory);
    private final List<byte[]> out = new ArrayList<>();
    private final ResponseSink sink = (buffer, offset, length) -> out.add(copy(buffer, offset, length));

    private static byte[] copy(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    private static void put16(final byte[] b, final int at, final int v)
    {
        b[at] = (byte)(v >>> 8);
        b[at + 1] = (byte)v;
    }

    private static void put32(final byte[] b, final int at, final long v)
    {
        b[at] = (byte)(v >>> 24);
        b[at + 1] = (byte)(v >>> 16);
        b[at + 2] = (byte)(v >>> 8);
        b[at + 3] = (byte)v;
    }

    private static void put64(final byte[] b, final int at, final long v)
    {
        put32(b, at, v >>> 32);
        put32(b, at + 4, v);
    }

    private static byte[] madHeader(final int attribute, final long tid)
    {
        final byte[] m = new byte[256];
        m[0] = 1;
        m[1] = 7;
        m[2] = 2;
        m[3] = 3;
        put64(m, 8, tid);
        put16(m, 16, attribute);
        return m;
    }

    private static byte[] mad(final byte[] f)
    {
        assertEquals(CmFrameEncoder.FRAME_LENGTH, f.length);
        final byte[] m = new byte[256];
        System.arraycopy(f, CmFrameEncoder.MAD_OFFSET, m, 0, 256);
        return m;
    }

    /** Headers of a collector frame to the translator up to the BTH's DestQP, and the ICRC. */
    private static void assertToTranslator(final byte[] f, final int opcode, final int destQp)
    {
        final byte[] h = new byte[50];
        put32(h, 0, TRANSLATOR_MAC >>> 16);
        put16(h, 4, (int)TRANSLATOR_MAC);
        put32(h, 6, COLLECTOR_MAC >>> 16);
        put16(h, 10, (int)COLLECTOR_MAC);
        put16(h, 12, 0x0800);
        h[14] = 0x45;
        put16(h, 16, f.length - 14);
        put16(h, 20, 0x4000);
        h[22] = 64;
        h[23] = 17;
        System.arraycopy(f, 24, h, 24, 2);                      // IPv4 checksum: checked by the decoder elsewhere
        put32(h, 26, COLLECTOR_IP);
        put32(h, 30, TRANSLATOR_IP);
        System.arraycopy(f, 34, h, 34, 2);                      // UDP source port: the collector's choice
        put16(h, 36, 4791);
        put16(h, 38, f.length - 34);
        h[42] = (byte)opcode;
        h[43] = 0x40;
        put16(h, 44, 0xFFFF);
        put32(h, 46, destQp);
        final byte[] actual = new byte[50];
        System.arraycopy(f, 0, actual, 0, 50);
        assertArrayEquals(h, actual);

        final byte[] masked = new byte[f.length - 4 - 14];
        System.arraycopy(f, 14, masked, 0, masked.length);
        masked[1] = (byte)0xFF;
        masked[8] = (byte)0xFF;
        masked[10] = (byte)0xFF;
        masked[11] = (byte)0xFF;
        masked[26] = (byte)0xFF;
        masked[27] = (byte)0xFF;
        masked[32] = (byte)0xFF;
        final CRC32 crc = new CRC32();
        crc.update(new byte[] { -1, -1, -1, -1, -1, -1, -1, -1 });
        crc.update(masked);
        assertEquals((int)crc.getValue(), new UnsafeBuffer(f).getInt(f.length - 4, ByteOrder.LITTLE_ENDIAN), "ICRC");
    }

    private static byte[] req(final int port, final int initiatorDepth, final int classVersion)
    {
        final CmFrameEncoder cm = new CmFrameEncoder();
        cm.encoder().srcMac(TRANSLATOR_MAC).dstMac(COLLECTOR_MAC).srcIp(TRANSLATOR_IP).dstIp(COLLECTOR_IP).psn(7);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[CmFrameEncoder.FRAME_LENGTH]);
        cm.begin(frame, 0, MadHeaderFlyweight.ATTRIBUTE_REQ, TID, 0).classVersion(classVersion);
        cm.req().localCommId(COMM_ID).serviceId(CmReqFlyweight.rdmaCmServiceId(port)).localQpn(PEER_QPN)
            .initiatorDepth(initiatorDepth).transportServiceType(CmReqFlyweight.TRANSPORT_RC).startingPsn(START_PSN)
            .remoteCmResponseTimeout(8).localCmResponseTimeout(8).maxCmRetries(3).retryCount(2)
            .primaryLocalAckTimeout(9).pathMtu(3).pKey(0xFFFF).primaryLocalGidIpv4(TRANSLATOR_IP)
            .primaryRemoteGidIpv4(COLLECTOR_IP);
        new RdmaCmHeaderFlyweight().wrap(frame, cm.req().privateDataOffset()).ipv4(0xC000, TRANSLATOR_IP, COLLECTOR_IP);
        cm.finish(frame, 0);
        return frame.byteArray();
    }

    private static byte[] cmFromTranslator(final int attribute, final long local, final long remote, final int msgRej)
    {
        final CmFrameEncoder cm = new CmFrameEncoder();
        cm.encoder().srcMac(TRANSLATOR_MAC).dstMac(COLLECTOR_MAC).srcIp(TRANSLATOR_IP).dstIp(COLLECTOR_IP).psn(8);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[CmFrameEncoder.FRAME_LENGTH]);
        cm.begin(frame, 0, attribute, TID, 0);
        if (MadHeaderFlyweight.ATTRIBUTE_RTU == attribute)
        {
            cm.rtu().localCommId(local).remoteCommId(remote);
        }
        else
        {
            cm.rej().localCommId(local).remoteCommId(remote).messageRejected(msgRej).reason(27);
        }
        cm.finish(frame, 0);
        return frame.byteArray();
    }

    private void offer(final byte[] frame)
    {
        responder.onFrame(new UnsafeBuffer(frame), 0, frame.length, 0, sink);
    }

    private ResponderQp qp()
    {
        return responder.qp(COLLECTOR_IP, keyWrite.qpn());
    }

    /** IBA REP layout; dta-reference.md §4.4 reads the QPN at body 12 and the starting PSN at body 20. */
    private byte[] expectedRep(final int responderResources)
    {
        final byte[] m = madHeader(0x0013, TID);
        final int b = 24;
        put32(m, b, qp().localCommId());
        put32(m, b + 4, COMM_ID);
        // The QP's current number: the configured one for its first connection, a fresh one for each later one.
        put32(m, b + 12, (long)qp().qpn() << 8);
        put32(m, b + 20, (long)qp().sendPsn() << 8);
        m[b + 24] = (byte)responderResources;
        m[b + 25] = 0;                                          // initiator depth: the collector sends no atomics
        m[b + 27] = (byte)(7 << 5);                             // RNR retry count 7
        put64(m, b + 28, 0x02AABB0300CCDDEEL);                  // CA GUID of the collector's MAC (03:00 inserted)
        return m;
    }

    @Test
    void shouldAnswerAReqWithTheRepTheSpecDescribesByteByByte()
    {
        offer(req(1337, 16, 2));
        assertEquals(1, out.size());
        final byte[] f = out.get(0);
        assertToTranslator(f, 0x64, 1);
        assertArrayEquals(expectedRep(16), mad(f));
        assertEquals(START_PSN, qp().expectedPsn(), "the REQ's starting PSN is the expected PSN");
        assertEquals(PEER_QPN, qp().peerQpn());
        final byte[] deth = new byte[8];
        System.arraycopy(f, 54, deth, 0, 8);
        assertArrayEquals(new byte[] { (byte)0x80, 1, 0, 0, 0, 0, 0, 1 }, deth);
    }

    @Test
    void shouldGrantAtMostTheReqsInitiatorDepthAsResponderResources()
    {
        // IBA: a REP's responder resources never exceed the REQ's initiator depth; a REQ asking for none gets none,
        // one asking for more than the QP can replay gets what it can replay.
        final int[][] cases = { { 0, 0 }, { 4, 4 }, { 16, 16 }, { 200, ResponderQp.SAVED_ATOMICS } };
        final Set<Integer> qpns = new HashSet<>();
        for (final int[] c : cases)
        {
            out.clear();
            offer(req(1337, c[0], 2));
            assertTrue(qpns.add(qp().qpn()), "each connection its own QPN (the previous in time-wait)");
            assertEquals(qpns.size() == 1, keyWrite.qpn() == qp().qpn(), "the configured QPN first");
            offer(cmFromTranslator(MadHeaderFlyweight.ATTRIBUTE_REJ, COMM_ID, qp().localCommId(), 1));
            assertEquals(ResponderQp.Connection.LISTEN, qp().connection(), "a REJ of the REP: listen again");
            assertArrayEquals(expectedRep(c[1]), mad(out.get(0)), "initiator depth " + c[0]);
        }
        assertEquals(cases.length, responder.counter(ResponderCounter.CM_REJS_IN));
    }

    @Test
    void shouldGrantNoMoreThanItWasToldToWhenLimited()
    {
        // A collector told to grant at most 4 (a NIC with fewer responder resources): min(initiator depth, 4).
        responder.maxResponderResources(4);
        final int[][] cases = { { 0, 0 }, { 3, 3 }, { 4, 4 }, { 16, 4 }, { 200, 4 } };
        for (final int[] c : cases)
        {
            out.clear();
            offer(req(1337, c[0], 2));
            offer(cmFromTranslator(MadHeaderFlyweight.ATTRIBUTE_REJ, COMM_ID, qp().localCommId(), 1));
            assertArrayEquals(expectedRep(c[1]), mad(out.get(0)), "initiator depth " + c[0]);
        }
        assertThrows(IllegalArgumentException.class, () -> responder.maxResponderResources(-1));
        assertThrows(IllegalArgumentException.class,
            () -> responder.maxResponderResources(ResponderQp.SAVED_ATOMICS + 1));
    }

    @Test
    void shouldRejectAnUnknownServiceWithReason8ByteByByte()
    {
        offer(req(4242, 16, 2));
        assertEquals(1, out.size());
        final byte[] f = out.get(0);
        assertToTranslator(f, 0x64, 1);
        final byte[] m = madHeader(0x0012, TID);
        put32(m, 24, 0);                                        // no local communication ID assigned
        put32(m, 28, COMM_ID);                                  // the REQ's echoed
        m[32] = 0;                                              // message rejected: REQ
        put16(m, 34, 8);                                        // invalid service ID
        assertArrayEquals(m, mad(f));
    }

    @Test
    void shouldRejectANonRcReqWithReason9AndABadQpnOrAddressWithReason5()
    {
        final byte[] uc = req(1337, 16, 2);
        uc[CmFrameEncoder.MAD_OFFSET + 24 + 43] |= 1 << 1;      // transport service type 1 (UC)
        final byte[] qpn0 = req(1337, 16, 2);
        qpn0[CmFrameEncoder.MAD_OFFSET + 24 + 32] = 0;          // local QPN 0x000000 (QP0 is no RC QP)
        qpn0[CmFrameEncoder.MAD_OFFSET + 24 + 33] = 0;
        qpn0[CmFrameEncoder.MAD_OFFSET + 24 + 34] = 0;
        final byte[] elsewhere = req(1337, 16, 2);
        elsewhere[CmFrameEncoder.MAD_OFFSET + 24 + 140 + 35] = 9; // RDMA-CM destination 10.0.0.9, not this collector
        final int[] reasons = { 9, 5, 5 };
        final byte[][] reqs = { uc, qpn0, elsewhere };
        for (int i = 0; i < reqs.length; i++)
        {
            new io.dta.codec.Icrc().write(new UnsafeBuffer(reqs[i]), 14, reqs[i].length - 4);
            out.clear();
            offer(reqs[i]);
            assertEquals(1, out.size(), "case " + i);
            final byte[] m = madHeader(0x0012, TID);
            put32(m, 28, COMM_ID);
            put16(m, 34, reasons[i]);
            assertArrayEquals(m, mad(out.get(0)), "case " + i);
            assertEquals(ResponderQp.Connection.LISTEN, qp().connection());
        }
    }

    @Test
    void shouldAnswerADuplicateReqWithTheSameRepAndDropItOnceConnected()
    {
        offer(req(1337, 16, 2));
        offer(req(1337, 16, 2));
        assertEquals(2, out.size());
        assertArrayEquals(mad(out.get(0)), mad(out.get(1)), "the same REP again");
        assertEquals(1, responder.counter(ResponderCounter.CM_DUPLICATE_REQS));
        assertEquals(1, responder.counter(ResponderCounter.CM_REQS_ACCEPTED));

        // An RTU with another communication ID is no RTU of this connection: counted, nothing sent.
        offer(cmFromTranslator(MadHeaderFlyweight.ATTRIBUTE_RTU, COMM_ID + 1, qp().localCommId(), 0));
        offer(cmFromTranslator(MadHeaderFlyweight.ATTRIBUTE_RTU, COMM_ID, qp().localCommId() ^ 1, 0));
        assertEquals(2, responder.counter(ResponderCounter.CM_UNMATCHED));
        assertEquals(2, out.size());

        offer(cmFromTranslator(MadHeaderFlyweight.ATTRIBUTE_RTU, COMM_ID, qp().localCommId(), 0));
        assertEquals(3, out.size());
        offer(req(1337, 16, 2));
        assertEquals(3, out.size(), "a stale REQ of the established connection is dropped");
        assertEquals(1, responder.counter(ResponderCounter.CM_STALE_REQS));
        assertEquals(ResponderQp.Connection.SEND_PENDING, qp().connection());
    }

    @Test
    void shouldDropAReqOfAnotherClassVersion()
    {
        offer(req(1337, 16, 1));
        offer(req(1337, 16, 3));
        assertEquals(0, out.size());
        assertEquals(2, responder.counter(ResponderCounter.CM_BAD_MADS));
        assertEquals(ResponderQp.Connection.LISTEN, qp().connection());
    }

    @Test
    void shouldSendTheMetadataSendTheReferenceParsedByteByByte()
    {
        offer(req(1337, 16, 2));
        offer(cmFromTranslator(MadHeaderFlyweight.ATTRIBUTE_RTU, COMM_ID, qp().localCommId(), 0));
        assertEquals(2, out.size());
        final byte[] f = out.get(1);
        assertEquals(14 + 20 + 8 + 12 + 16 + 4, f.length);
        assertToTranslator(f, 0x04, PEER_QPN);                  // RC SEND Only to the REQ's local QPN
        assertEquals(0x80, f[50] & 0x80, "AckReq");
        assertEquals(qp().sendPsn(), ((f[51] & 0xFF) << 16) | ((f[52] & 0xFF) << 8) | (f[53] & 0xFF),
            "PSN = the REP's starting PSN");
        // dta-reference.md §4.6: {address u64 LE, length u32 LE, key u32 LE}.
        final byte[] payload = new byte[16];
        for (int i = 0; i < 8; i++)
        {
            payload[i] = (byte)(keyWrite.address() >>> (8 * i));
        }
        for (int i = 0; i < 4; i++)
        {
            payload[8 + i] = (byte)(keyWrite.length() >>> (8 * i));
            payload[12 + i] = (byte)(keyWrite.rkey() >>> (8 * i));
        }
        final byte[] actual = new byte[16];
        System.arraycopy(f, 54, actual, 0, 16);
        assertArrayEquals(payload, actual);
    }
}
