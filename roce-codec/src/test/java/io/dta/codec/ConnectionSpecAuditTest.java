package io.dta.codec;

import io.dta.codec.pcap.PcapWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Audit of the CM wire formats against the specification text (rocev2-reference.md §5.2, dta-reference.md §4.3 to
 * §4.6, IBA vol. 1 chapter 12 layouts): every expected byte is computed here with plain byte arithmetic from the
 * spec, never with the production flyweights; Wireshark's InfiniBand CM dissector is a second, independent reader.
 */
class ConnectionSpecAuditTest
{
    private static final long SEED = 0xA0D1_7C00_0001L;

    @TempDir
    Path dir;

    private final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
    private final FrameDecoder decoder = new FrameDecoder();
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();

    private static CmFrameEncoder encoder()
    {
        final CmFrameEncoder cm = new CmFrameEncoder();
        cm.encoder().dstMac(0x02000a000033L).srcMac(0x02000a000065L).srcIp(0x0a000065).dstIp(0x0a000033)
            .srcPort(0xC539).tos(0).ttl(64).identification(0).migReq(true).pKey(0xFFFF).psn(0x123456);
        return cm;
    }

    private static void put32(final byte[] b, final int at, final long v)
    {
        b[at] = (byte)(v >>> 24);
        b[at + 1] = (byte)(v >>> 16);
        b[at + 2] = (byte)(v >>> 8);
        b[at + 3] = (byte)v;
    }

    /** The 24-byte CM Send MAD header as rocev2-reference.md §5.2 spells it: 01 07 02 03, status 0, TID, attr. */
    private static byte[] madHeader(final int attribute, final long tid)
    {
        final byte[] h = new byte[256];
        h[0] = 0x01;
        h[1] = 0x07;
        h[2] = 0x02;
        h[3] = 0x03;
        put32(h, 8, tid >>> 32);
        put32(h, 12, tid);
        h[16] = (byte)(attribute >>> 8);
        h[17] = (byte)attribute;
        return h;
    }

    private byte[] madOf(final int length)
    {
        assertEquals(CmFrameEncoder.FRAME_LENGTH, length);
        final byte[] actual = new byte[256];
        frame.getBytes(CmFrameEncoder.MAD_OFFSET, actual);
        return actual;
    }

    @Test
    void shouldCarryEveryMadInAUdSendOnlyToQp1WithTheGsiDethAndAComputedIcrc()
    {
        final CmFrameEncoder cm = encoder();
        cm.begin(frame, 0, MadHeaderFlyweight.ATTRIBUTE_RTU, 0x0102030405060708L, 0);
        final int length = cm.finish(frame, 0);
        assertEquals(14 + 20 + 8 + 12 + 8 + 256 + 4, length);
        // BTH (rocev2-reference.md §1.4, §5.2): opcode 0x64 UD SEND Only, P_Key 0xFFFF, DestQP 1, AckReq 0.
        assertEquals(0x64, frame.getByte(42) & 0xFF);
        assertEquals(0xFF, frame.getByte(44) & 0xFF);
        assertEquals(0xFF, frame.getByte(45) & 0xFF);
        assertEquals(0, frame.getByte(46));
        assertEquals(0, frame.getByte(47));
        assertEquals(0, frame.getByte(48));
        assertEquals(1, frame.getByte(49));
        assertEquals(0, frame.getByte(50) & 0x80, "AckReq");
        assertEquals(0x12, frame.getByte(51));
        assertEquals(0x34, frame.getByte(52));
        assertEquals(0x56, frame.getByte(53));
        // DETH: Q_Key 0x80010000, reserved 0, source QP 1 (the reference put its port here: dta-reference.md §9.4).
        final byte[] deth = new byte[8];
        frame.getBytes(54, deth);
        assertArrayEquals(new byte[] { (byte)0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01 }, deth);
        // UDP: destination 4791, checksum 0.
        assertEquals(0x12, frame.getByte(36));
        assertEquals((byte)0xB7, frame.getByte(37));
        assertEquals(0, frame.getByte(40));
        assertEquals(0, frame.getByte(41));
        // ICRC always computed (translation.md §4): the CRC32 of the masked pseudo-frame, sent LE.
        assertEquals(expectedIcrc(length), frame.getInt(length - 4, java.nio.ByteOrder.LITTLE_ENDIAN));
    }

    /**
     * rocev2-reference.md §2.1: CRC32 over 8 bytes of 0xFF, then IPv4 with TOS, TTL and checksum masked to 0xFF,
     * UDP with the checksum masked, BTH with its byte 4 (FECN, BECN, reserved) masked, and the rest.
     */
    private int expectedIcrc(final int length)
    {
        final byte[] bytes = new byte[length - 4 - 14];
        frame.getBytes(14, bytes);
        bytes[1] = (byte)0xFF;
        bytes[8] = (byte)0xFF;
        bytes[10] = (byte)0xFF;
        bytes[11] = (byte)0xFF;
        bytes[26] = (byte)0xFF;
        bytes[27] = (byte)0xFF;
        bytes[28 + 4] = (byte)0xFF;
        final java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(new byte[] { -1, -1, -1, -1, -1, -1, -1, -1 });
        crc.update(bytes);
        return (int)crc.getValue();
    }

    @Test
    void shouldWriteTheRepRtuAndRejBodiesWhereTheIbaLayoutPutsThem()
    {
        final CmFrameEncoder cm = encoder();
        final long tid = 0xFEDCBA9876543210L;

        // REP (attribute 0x0013): local comm 0, remote comm 4, Q_Key 8, QPN 12 (u24), EECN 16, starting PSN 20
        // (u24), responder resources 24, initiator depth 25, target ACK delay 26 bits 7..3, failover 2..1, E2E 0,
        // RNR retry 27 bits 7..5, SRQ 4, CA GUID 28, private data 36 (dta-reference.md §4.4: QPN at 12, PSN at 20).
        cm.begin(frame, 0, MadHeaderFlyweight.ATTRIBUTE_REP, tid, 0);
        cm.rep().localCommId(0xA1A2A3A4L).remoteCommId(0xB1B2B3B4L).localQKey(0).localQpn(0xABCDEF)
            .startingPsn(0x123456).responderResources(16).initiatorDepth(3).targetAckDelay(0x15).rnrRetryCount(6)
            .localCaGuid(0x0011223344556677L);
        final byte[] rep = madHeader(0x0013, tid);
        put32(rep, 24, 0xA1A2A3A4L);
        put32(rep, 28, 0xB1B2B3B4L);
        put32(rep, 36, 0xABCDEF00L);
        put32(rep, 44, 0x12345600L);
        rep[48] = 16;
        rep[49] = 3;
        rep[50] = (byte)(0x15 << 3);
        rep[51] = (byte)(6 << 5);
        put32(rep, 52, 0x00112233L);
        put32(rep, 56, 0x44556677L);
        assertArrayEquals(rep, madOf(cm.finish(frame, 0)), "REP");

        // RTU (0x0014): local comm 0, remote comm 4, 224 bytes of private data.
        cm.begin(frame, 0, MadHeaderFlyweight.ATTRIBUTE_RTU, tid, 0);
        cm.rtu().localCommId(0x01020304L).remoteCommId(0x05060708L);
        final byte[] rtu = madHeader(0x0014, tid);
        put32(rtu, 24, 0x01020304L);
        put32(rtu, 28, 0x05060708L);
        assertArrayEquals(rtu, madOf(cm.finish(frame, 0)), "RTU");

        // REJ (0x0012): local comm 0, remote comm 4, message rejected 8 bits 7..6, reject info length 9 bits 7..1,
        // reason 10 (u16), ARI 12, private data 84. Reason 8 = invalid service ID (Linux enum ib_cm_rej_reason).
        cm.begin(frame, 0, MadHeaderFlyweight.ATTRIBUTE_REJ, tid, 0);
        cm.rej().localCommId(0).remoteCommId(0x0A0B0C0DL).messageRejected(CmRejFlyweight.REJECTED_REP)
            .rejectInfoLength(5).reason(CmRejFlyweight.REASON_INVALID_SERVICE_ID);
        final byte[] rej = madHeader(0x0012, tid);
        put32(rej, 28, 0x0A0B0C0DL);
        rej[32] = (byte)(1 << 6);
        rej[33] = (byte)(5 << 1);
        rej[34] = 0;
        rej[35] = 8;
        assertArrayEquals(rej, madOf(cm.finish(frame, 0)), "REJ");
    }

    @Test
    void shouldNumberTheRejectReasonsAsIbaDoes()
    {
        // IBA vol. 1 table 112 / Linux enum ib_cm_rej_reason.
        assertEquals(1, CmRejFlyweight.REASON_NO_QP);
        assertEquals(3, CmRejFlyweight.REASON_NO_RESOURCES);
        assertEquals(4, CmRejFlyweight.REASON_TIMEOUT);
        assertEquals(5, CmRejFlyweight.REASON_UNSUPPORTED_REQUEST);
        assertEquals(6, CmRejFlyweight.REASON_INVALID_COMM_ID);
        assertEquals(8, CmRejFlyweight.REASON_INVALID_SERVICE_ID);
        assertEquals(9, CmRejFlyweight.REASON_INVALID_TRANSPORT_TYPE);
        assertEquals(10, CmRejFlyweight.REASON_STALE_CONNECTION);
        assertEquals(12, CmRejFlyweight.REASON_INVALID_GID);
        assertEquals(28, CmRejFlyweight.REASON_CONSUMER_REJECT);
        assertEquals(0x0010, MadHeaderFlyweight.ATTRIBUTE_REQ);
        assertEquals(0x0011, MadHeaderFlyweight.ATTRIBUTE_MRA);
        assertEquals(0x0012, MadHeaderFlyweight.ATTRIBUTE_REJ);
        assertEquals(0x0013, MadHeaderFlyweight.ATTRIBUTE_REP);
        assertEquals(0x0014, MadHeaderFlyweight.ATTRIBUTE_RTU);
        assertEquals(0x0015, MadHeaderFlyweight.ATTRIBUTE_DREQ);
        assertEquals(0x0016, MadHeaderFlyweight.ATTRIBUTE_DREP);
    }

    @Test
    void shouldAcceptOnlyCmSendMadsOfBaseVersion1AndClassVersion2()
    {
        final byte[] good = madHeader(0x0013, 1);
        assertTrue(mad.wrap(new UnsafeBuffer(good), 0).isCmSend());
        // Each of the four leading bytes changed on its own: base version, class, class version, method.
        final int[][] wrong = { { 0, 2 }, { 1, 0x81 }, { 2, 1 }, { 2, 3 }, { 3, 0x83 }, { 3, 0x01 } };
        for (final int[] w : wrong)
        {
            final byte[] bad = good.clone();
            bad[w[0]] = (byte)w[1];
            assertFalse(mad.wrap(new UnsafeBuffer(bad), 0).isCmSend(), "byte " + w[0] + " = " + w[1]);
        }
    }

    @Test
    void shouldBeDecodedByWiresharksCmDissectorForReqRepRtuAndRej() throws Exception
    {
        final boolean installed = Files.isExecutable(Path.of("/usr/bin/tshark")) ||
            Files.isExecutable(Path.of("/usr/local/bin/tshark"));
        Assumptions.assumeTrue(installed, "tshark not installed");

        final SplittableRandom random = new SplittableRandom(SEED);
        final int frames = 80;
        final long[][] expected = new long[frames][];
        final Path file = dir.resolve("cm.pcap");
        final CmFrameEncoder cm = encoder();
        try (PcapWriter writer = new PcapWriter(file))
        {
            for (int i = 0; i < frames; i++)
            {
                final long tid = random.nextLong() & Long.MAX_VALUE;
                final long local = random.nextLong() & 0xFFFF_FFFFL;
                final long remote = random.nextLong() & 0xFFFF_FFFFL;
                final int qpn = random.nextInt(1 << 24);
                final int psn = random.nextInt(1 << 24);
                final int port = 1 + random.nextInt(0xFFFF);
                final int small = random.nextInt(16);
                final int kind = i % 4;
                final int attribute = 0x10 + new int[] { 0, 3, 4, 2 }[kind];
                cm.begin(frame, 0, attribute, tid, 0);
                switch (kind)
                {
                    case 0 -> cm.req().localCommId(local).serviceId(CmReqFlyweight.rdmaCmServiceId(port))
                        .localQpn(qpn).startingPsn(psn).initiatorDepth(small).remoteCmResponseTimeout(small + 8)
                        .localCmResponseTimeout(small + 1).retryCount(small & 7).maxCmRetries(small).pathMtu(3)
                        .pKey(0xFFFF).primaryLocalAckTimeout(small + 2).primaryLocalGidIpv4(0x0a000065)
                        .primaryRemoteGidIpv4(0x0a000033).primaryHopLimit(64);
                    case 1 -> cm.rep().localCommId(local).remoteCommId(remote).localQpn(qpn).startingPsn(psn)
                        .responderResources(small);
                    case 2 -> cm.rtu().localCommId(local).remoteCommId(remote);
                    default -> cm.rej().localCommId(local).remoteCommId(remote).reason(small + 1);
                }
                if (0 == kind)
                {
                    new RdmaCmHeaderFlyweight().wrap(frame, cm.req().privateDataOffset())
                        .ipv4(0xC000 | small, 0x0a000065, 0x0a000033);
                }
                writer.write(i * 1000L, frame, 0, cm.finish(frame, 0));
                expected[i] = new long[] { attribute, tid, local, remote, qpn, psn, port, small };
            }
        }

        final List<String> lines = tshark(file, "infiniband.mad.baseversion", "infiniband.mad.mgmtclass",
            "infiniband.mad.classversion", "infiniband.mad.method", "infiniband.mad.attributeid",
            "infiniband.mad.transactionid", "infiniband.deth.q_key", "infiniband.deth.srcqp",
            "infiniband.cm.req.serviceid", "infiniband.cm.req.localqpn", "infiniband.cm.req.startpsn",
            "infiniband.cm.req.initdepth", "infiniband.cm.req.remoteresptout", "infiniband.cm.req.localresptout",
            "infiniband.cm.req.retrcount", "infiniband.cm.req.maxcmretr", "infiniband.cm.req.prim_localacktout",
            "infiniband.cm.req.ip_cm.sip4", "infiniband.cm.req.ip_cm.dip4", "infiniband.cm.req.ip_cm.sport",
            "infiniband.cm.rep.remotecommid", "infiniband.cm.rep.localqpn", "infiniband.cm.rep.startpsn",
            "infiniband.cm.rep.respres", "infiniband.cm.rtu.localcommid", "infiniband.cm.rtu.remotecommid",
            "infiniband.cm.rej.localcommid", "infiniband.cm.rej.remotecommid", "infiniband.cm.rej.reason",
            "infiniband.cm.req.prim_localgid_ipv4", "infiniband.cm.req.prim_remotegid_ipv4");
        assertEquals(frames, lines.size(), String.join("\n", lines));
        for (int i = 0; i < frames; i++)
        {
            final String[] f = lines.get(i).split("\t", -1);
            final String where = "frame " + i + " (seed " + SEED + "): " + lines.get(i);
            final long[] e = expected[i];
            assertEquals(1, Long.decode(f[0]), where);
            assertEquals(7, Long.decode(f[1]), where);
            assertEquals(2, Long.decode(f[2]), where);
            assertEquals(3, Long.decode(f[3]), where);
            assertEquals(e[0], Long.decode(f[4]), where);
            assertEquals(e[1], Long.decode(f[5]), where);
            assertEquals(0x80010000L, Long.decode(f[6]), where);
            assertEquals(1, Long.decode(f[7]), where);
            final int small = (int)e[7];
            switch ((int)e[0])
            {
                case 0x10 ->
                {
                    assertEquals(0x0000000001060000L | e[6], Long.decode(f[8]), where);
                    assertEquals(e[4], Long.decode(f[9]), where);
                    assertEquals(e[5], Long.decode(f[10]), where);
                    assertEquals(small, Long.decode(f[11]), where);
                    assertEquals(small + 8, Long.decode(f[12]), where);
                    assertEquals(small + 1, Long.decode(f[13]), where);
                    assertEquals(small & 7, Long.decode(f[14]), where);
                    assertEquals(small, Long.decode(f[15]), where);
                    assertEquals(small + 2, Long.decode(f[16]), where);
                    assertEquals("10.0.0.101", f[17], where);
                    assertEquals("10.0.0.51", f[18], where);
                    assertEquals(0xC000 | small, Long.decode(f[19]), where);
                    assertEquals("10.0.0.101", f[29], where);
                    assertEquals("10.0.0.51", f[30], where);
                }
                case 0x13 ->
                {
                    assertEquals(e[3], Long.decode(f[20]), where);
                    assertEquals(e[4], Long.decode(f[21]), where);
                    assertEquals(e[5], Long.decode(f[22]), where);
                    assertEquals(small, Long.decode(f[23]), where);
                }
                case 0x14 ->
                {
                    assertEquals(e[2], Long.decode(f[24]), where);
                    assertEquals(e[3], Long.decode(f[25]), where);
                }
                default ->
                {
                    assertEquals(e[2], Long.decode(f[26]), where);
                    assertEquals(e[3], Long.decode(f[27]), where);
                    assertEquals(small + 1, Long.decode(f[28]), where);
                }
            }
        }
    }

    private List<String> tshark(final Path file, final String... fields) throws Exception
    {
        return Tshark.fields(file, dir, fields);
    }
}
