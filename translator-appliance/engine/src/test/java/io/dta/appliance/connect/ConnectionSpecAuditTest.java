package io.dta.appliance.connect;

import io.dta.appliance.engine.FrameCollector;
import io.dta.codec.CmFrameEncoder;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Audit of the requester side of connection set-up against the specification text (translation.md §8,
 * rocev2-reference.md §5.2, dta-reference.md §4.3 to §4.6): the frames the {@link ConnectionManager} sends are
 * compared byte by byte with frames computed here by plain byte arithmetic from the spec, never with the production
 * flyweights. Frames the collector would send are made with the codec's encoder (the codec has its own audit).
 */
class ConnectionSpecAuditTest
{
    private static final String YAML = """
        translator:
          mac: "02:11:22:33:44:55"
          ip: 10.1.2.3
          dscp: 26
          ecn: 2
          ttl: 32
          pKey: 0x7fff
        connection:
          cmResponseTimeout: 9
          maxCmRetries: 5
          localAckTimeout: 11
          retryCount: 6
        collectors:
          - name: c
            mac: "02:66:77:88:99:aa"
            ip: 10.9.8.7
            pathMtu: 4096
            keyWrite:
              localQpn: 0x539
              servicePort: 1337
              length: 2048
              startPsn: 0x0abcde
            keyIncrement:
              localQpn: 0x123456
              servicePort: 4791
              length: 2048
              startPsn: 0xfedcba
              udpSourcePort: 0xd00d
              maxOutstandingAtomics: 8
        """;

    private final ApplianceConfig config = ConfigLoader.load(YAML);

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

    private static void ipv4Mapped(final byte[] b, final int at, final long ip)
    {
        b[at + 10] = (byte)0xFF;
        b[at + 11] = (byte)0xFF;
        put32(b, at + 12, ip);
    }

    /** The expected 256-byte REQ MAD of the key-increment region, from the spec text. */
    private static byte[] expectedReqMad(final long tid, final long commId)
    {
        final byte[] m = new byte[256];
        // MAD header (rocev2-reference.md §5.2): base version 1, class CM 0x07, class version 2, method Send 0x03,
        // status 0, class-specific 0, transaction ID, attribute ID REQ 0x0010, reserved, attribute modifier 0.
        m[0] = 1;
        m[1] = 7;
        m[2] = 2;
        m[3] = 3;
        put64(m, 8, tid);
        put16(m, 16, 0x0010);
        final int b = 24;
        put32(m, b, commId);                                    // local communication ID
        put64(m, b + 8, 0x0000000001060000L | 4791);            // RDMA-CM IP service ID, TCP port space
        put64(m, b + 16, 0x0211220300334455L);                  // CA GUID: MAC with 03:00 inserted (as Mellanox)
        put32(m, b + 32, (0x123456L << 8) | 0);                 // local QPN, responder resources 0
        put32(m, b + 36, 8);                                    // local EECN 0, initiator depth = maxOutstanding
        m[b + 43] = (byte)((9 << 3) | (0 << 1) | 0);            // remote CM response timeout, RC, no E2E credits
        put32(m, b + 44, (0xfedcbaL << 8) | (9 << 3) | 6);      // starting PSN, local CM timeout, retry count
        put16(m, b + 48, 0x7fff);                               // P_Key
        m[b + 50] = (byte)((5 << 4) | 7);                       // path MTU 4096 (code 5), RDC 0, RNR retry 7
        m[b + 51] = (byte)(5 << 4);                             // max CM retries, SRQ 0, extended transport 0
        put32(m, b + 52, 0xFFFFFFFFL);                          // LIDs 0xFFFF (RoCE)
        ipv4Mapped(m, b + 56, 0x0a010203L);                     // GIDs ::ffff:a.b.c.d
        ipv4Mapped(m, b + 72, 0x0a090807L);
        m[b + 92] = (byte)((26 << 2) | 2);                      // traffic class = IPv4 TOS
        m[b + 93] = 32;                                         // hop limit = TTL
        m[b + 95] = (byte)(11 << 3);                            // local ACK timeout
        final int p = b + 140;                                  // private data: RDMA-CM IP header (cma_hdr)
        m[p] = 0;                                               // CMA version
        m[p + 1] = 0x40;                                        // IP version 4 in bits 7..4
        put16(m, p + 2, 0xd00d);                                // source port
        put32(m, p + 4 + 12, 0x0a010203L);                      // source address, 12 zero bytes in front
        put32(m, p + 20 + 12, 0x0a090807L);                     // destination address
        return m;
    }

    /** Ethernet, IPv4, UDP, BTH and DETH of a MAD to QP1 from the translator, from the spec text. */
    private static void assertQp1Headers(final byte[] f, final int udpSourcePort)
    {
        assertEquals(CmFrameEncoder.FRAME_LENGTH, f.length);
        final byte[] h = new byte[62];
        put32(h, 0, 0x02667788L);
        put16(h, 4, 0x99aa);
        put32(h, 6, 0x02112233L);
        put16(h, 10, 0x4455);
        put16(h, 12, 0x0800);
        h[14] = 0x45;
        h[15] = (byte)((26 << 2) | 2);
        put16(h, 16, f.length - 14);
        put16(h, 18, 0);                                        // identification 0
        put16(h, 20, 0x4000);                                   // DF
        h[22] = 32;
        h[23] = 17;
        put16(h, 24, ipChecksum(f));
        put32(h, 26, 0x0a010203L);
        put32(h, 30, 0x0a090807L);
        put16(h, 34, udpSourcePort);
        put16(h, 36, 4791);
        put16(h, 38, f.length - 34);
        put16(h, 40, 0);                                        // UDP checksum 0
        h[42] = 0x64;                                           // UD SEND Only
        h[43] = 0x40;                                           // M = 1, PadCnt 0, TVer 0
        put16(h, 44, 0x7fff);                                   // P_Key
        put32(h, 46, 1);                                        // DestQP 1 (GSI)
        h[50] = 0;                                              // AckReq 0, reserved
        System.arraycopy(f, 51, h, 51, 3);                      // PSN: any (UD, not checked by the receiver)
        put32(h, 54, 0x80010000L);                              // DETH Q_Key of the GSI
        put32(h, 58, 1);                                        // source QP 1
        final byte[] actual = new byte[62];
        System.arraycopy(f, 0, actual, 0, 62);
        assertArrayEquals(h, actual);
        assertIcrc(f);
    }

    private static int ipChecksum(final byte[] f)
    {
        long sum = 0;
        for (int i = 14; i < 34; i += 2)
        {
            sum += i == 24 ? 0 : ((f[i] & 0xFF) << 8) | (f[i + 1] & 0xFF);
        }
        while (sum > 0xFFFF)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int)(~sum & 0xFFFF);
    }

    /** rocev2-reference.md §2.1: CRC32 over 8 × 0xFF and the masked IP/UDP/BTH and the rest, sent LE. */
    private static void assertIcrc(final byte[] f)
    {
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

    private static byte[] mad(final byte[] f)
    {
        final byte[] m = new byte[256];
        System.arraycopy(f, CmFrameEncoder.MAD_OFFSET, m, 0, 256);
        return m;
    }

    @Test
    void shouldSendTheReqTheSpecDescribesByteByByte()
    {
        final FrameCollector out = new FrameCollector();
        final ConnectionManager manager = new ConnectionManager(config, out, 99);
        manager.start(0);
        assertEquals(2, out.size());
        final RegionConnection ki = manager.connections().get(1);
        assertEquals(8, ki.atomics());
        final byte[] f = out.frames().get(1).bytes();
        assertQp1Headers(f, 0xd00d);
        assertArrayEquals(expectedReqMad(ki.transactionId(), ki.localCommId()), mad(f));

        // The key-write region issues no atomics: initiator depth 0; the rest differs only where its config does.
        final RegionConnection kw = manager.connections().get(0);
        final byte[] w = mad(out.frames().get(0).bytes());
        assertEquals(0, w[24 + 39]);
        assertEquals(0x0000000001060539L, new UnsafeBuffer(w).getLong(24 + 8, ByteOrder.BIG_ENDIAN));
        assertEquals(kw.localCommId(), new UnsafeBuffer(w).getInt(24, ByteOrder.BIG_ENDIAN) & 0xFFFFFFFFL);
        assertEquals(0x0abcde, new UnsafeBuffer(w).getInt(24 + 44, ByteOrder.BIG_ENDIAN) >>> 8);

        // A re-sent REQ is the same REQ (same IDs), only its UD PSN moves on.
        manager.poll(4096L << 9);
        final byte[] again = out.frames().get(3).bytes();
        assertArrayEquals(expectedReqMad(ki.transactionId(), ki.localCommId()), mad(again));
    }

    @Test
    void shouldRefuseARepGrantingNoAtomicsToTheKeyIncrementRegionWithARej()
    {
        final FrameCollector out = new FrameCollector();
        final ConnectionManager manager = new ConnectionManager(config, out, 5);
        manager.start(0);
        final RegionConnection ki = manager.connections().get(1);
        assertTrue(offer(manager, rep(ki.transactionId(), ki.localCommId(), 0x400, 0x1000, 0, 2)));
        assertEquals(RegionConnection.State.FAILED, ki.state());
        assertEquals("REP grants 0 outstanding atomics (responder resources), keyIncrement.maxOutstandingAtomics is " +
            "8: set it to at most 0 (the collector accepts no atomics: give its QP responder resources)", ki.failure());
        assertEquals(1, manager.counter(ConnectionCounter.INVALID_REPS));
        assertEquals(1, manager.counter(ConnectionCounter.REJS_SENT));
        assertEquals(0, manager.counter(ConnectionCounter.RTUS_SENT));
        assertEquals(0, manager.counter(ConnectionCounter.ATOMICS_REDUCED));
        assertEquals(0, ki.atomicsLimit());

        // The REJ: message rejected REP (1 in bits 7..6), reason 27 insufficient responder resources, the
        // attempt's transaction ID, our communication ID as local, the collector's as remote.
        final byte[] f = out.frames().get(2).bytes();
        assertQp1Headers(f, 0xd00d);
        final byte[] m = new byte[256];
        m[0] = 1;
        m[1] = 7;
        m[2] = 2;
        m[3] = 3;
        put64(m, 8, ki.transactionId());
        put16(m, 16, 0x0012);
        put32(m, 24, ki.localCommId());
        put32(m, 28, 0xC0110001L);
        m[32] = 0x40;
        put16(m, 34, 27);
        assertArrayEquals(m, mad(f));
    }

    @Test
    void shouldAcceptARepGrantingFewerAtomicsAndRunTheRegionWithTheGrant()
    {
        // As rdma-core clamps to the peer's grant: 1..7 of the 8 asked for is accepted (RTU, no REJ), the region
        // runs with the grant; more than asked (IBA forbids it) is clamped to what was asked.
        final int[][] cases = { { 1, 1 }, { 4, 4 }, { 7, 7 }, { 8, 8 }, { 200, 8 } };
        for (final int[] c : cases)
        {
            final int granted = c[0];
            final String why = "granted " + granted;
            final FrameCollector out = new FrameCollector();
            final ConnectionManager manager = new ConnectionManager(config, out, 5);
            manager.start(0);
            final RegionConnection ki = manager.connections().get(1);
            final java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            final java.io.PrintStream saved = System.err;
            System.setErr(new java.io.PrintStream(err, true));
            try
            {
                assertTrue(offer(manager, rep(ki.transactionId(), ki.localCommId(), 0x400, 0x1000, granted, 2)));
            }
            finally
            {
                System.setErr(saved);
            }
            assertEquals(RegionConnection.State.RTU_SENT, ki.state(), why);
            assertEquals(c[1], ki.atomicsLimit(), why);
            assertEquals(8, ki.atomics(), why);
            assertEquals(0, manager.counter(ConnectionCounter.INVALID_REPS), why);
            assertEquals(0, manager.counter(ConnectionCounter.REJS_SENT), why);
            assertEquals(1, manager.counter(ConnectionCounter.RTUS_SENT), why);
            final boolean reduced = c[1] < 8;
            assertEquals(reduced ? 1 : 0, manager.counter(ConnectionCounter.ATOMICS_REDUCED), why);
            assertEquals(reduced ? "dta: collectors[0].keyIncrement: collector grants " + granted + " outstanding " +
                "atomics, fewer than maxOutstandingAtomics 8: using " + granted + System.lineSeparator() : "",
                err.toString(), why);

            final byte[] m = mad(out.frames().get(2).bytes());
            final byte[] rtu = new byte[256];
            rtu[0] = 1;
            rtu[1] = 7;
            rtu[2] = 2;
            rtu[3] = 3;
            put64(rtu, 8, ki.transactionId());
            put16(rtu, 16, 0x0014);
            put32(rtu, 24, ki.localCommId());
            put32(rtu, 28, 0xC0110001L);
            assertArrayEquals(rtu, m, why);

            // The metadata SENDs of both regions: connected, and the engine's configuration carries the grant.
            final RegionConnection kw = manager.connections().get(0);
            assertTrue(offer(manager, rep(kw.transactionId(), kw.localCommId(), 0x401, 0x2000, 0, 2)));
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
            payload.putLong(0, 0x00007f0000100000L, ByteOrder.LITTLE_ENDIAN);
            payload.putInt(8, 4096, ByteOrder.LITTLE_ENDIAN);
            assertTrue(offer(manager, frame(collector().opcode(RoceOpcode.RC_SEND_ONLY).destQp(0x123456).psn(0x1000)
                .ackReq(true).payload(payload, 0, 16))));
            assertTrue(offer(manager, frame(collector().opcode(RoceOpcode.RC_SEND_ONLY).destQp(0x539).psn(0x2000)
                .ackReq(true).payload(payload, 0, 16))));
            assertTrue(manager.allConnected(), why);
            final ApplianceConfig connected = manager.connectedConfig();
            assertEquals(c[1], connected.collectors().get(0).keyIncrement().maxOutstandingAtomics(), why);
            assertEquals(0x400, connected.collectors().get(0).keyIncrement().region().qpn(), why);
            assertEquals(0x401, connected.collectors().get(0).keyWrite().region().qpn(), why);
            assertEquals(reduced, manager.summary().endsWith("ACKs sent; fewer atomics granted: " +
                "collectors[0].keyIncrement " + granted + " of 8)"), why + ": " + manager.summary());
        }
    }

    @Test
    void shouldDropAMadOfAnotherClassVersionAsBad()
    {
        final FrameCollector out = new FrameCollector();
        final ConnectionManager manager = new ConnectionManager(config, out, 6);
        manager.start(0);
        final RegionConnection kw = manager.connections().get(0);
        for (final int classVersion : new int[] { 1, 3 })
        {
            assertTrue(offer(manager, rep(kw.transactionId(), kw.localCommId(), 0x400, 0x1000, 0, classVersion)));
        }
        assertEquals(2, manager.counter(ConnectionCounter.BAD_MADS));
        assertEquals(RegionConnection.State.REQ_SENT, kw.state());
        assertTrue(offer(manager, rep(kw.transactionId(), kw.localCommId(), 0x400, 0x1000, 0, 2)));
        assertEquals(RegionConnection.State.RTU_SENT, kw.state());
    }

    @Test
    void shouldDropSetUpFramesWithABadIcrcOrAnotherQKeyAndCountThem()
    {
        final FrameCollector out = new FrameCollector();
        final ConnectionManager manager = new ConnectionManager(config, out, 8);
        manager.start(0);
        final RegionConnection kw = manager.connections().get(0);

        final byte[] badIcrc = rep(kw.transactionId(), kw.localCommId(), 0x400, 0x1000, 0, 2);
        badIcrc[CmFrameEncoder.MAD_OFFSET + 40] ^= 0x10;
        assertTrue(offer(manager, badIcrc));
        assertEquals(1, manager.counter(ConnectionCounter.BAD_ICRC));

        // DETH Q_Key 0x80010001: not the GSI's (the ICRC is recomputed, so only the Q_Key is wrong).
        final byte[] qKey = rep(kw.transactionId(), kw.localCommId(), 0x400, 0x1000, 0, 2);
        qKey[57] = 1;
        new io.dta.codec.Icrc().write(new UnsafeBuffer(qKey), 14, qKey.length - 4);
        assertTrue(offer(manager, qKey));
        assertEquals(1, manager.counter(ConnectionCounter.BAD_MADS));
        assertEquals(RegionConnection.State.REQ_SENT, kw.state());
        assertEquals(2, out.size(), "nothing answered");

        assertTrue(offer(manager, rep(kw.transactionId(), kw.localCommId(), 0x400, 0x1000, 0, 2)));
        assertEquals(RegionConnection.State.RTU_SENT, kw.state());
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
        payload.putInt(8, 4096, ByteOrder.LITTLE_ENDIAN);
        final byte[] send = frame(collector().opcode(RoceOpcode.RC_SEND_ONLY).destQp(0x539).psn(0x1000)
            .ackReq(true).payload(payload, 0, 16));
        send[send.length - 1] ^= 1;
        assertTrue(offer(manager, send));
        assertEquals(2, manager.counter(ConnectionCounter.BAD_ICRC));
        assertEquals(RegionConnection.State.RTU_SENT, kw.state());
        assertEquals(3, out.size(), "the RTU, and no ACK for the SEND with a bad ICRC");
    }

    @Test
    void shouldAcknowledgeTheMetadataSendWithItsOwnPsnAndMsn1ByteByByte()
    {
        final FrameCollector out = new FrameCollector();
        final ConnectionManager manager = new ConnectionManager(config, out, 7);
        manager.start(0);
        final RegionConnection kw = manager.connections().get(0);
        offer(manager, rep(kw.transactionId(), kw.localCommId(), 0x400, 0xFFFFFF, 0, 2));
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
        payload.putLong(0, 0x00007f0000100000L, ByteOrder.LITTLE_ENDIAN);
        payload.putInt(8, 4096, ByteOrder.LITTLE_ENDIAN);
        payload.putInt(12, 0xD7A00539, ByteOrder.LITTLE_ENDIAN);
        assertTrue(offer(manager, frame(collector().opcode(RoceOpcode.RC_SEND_ONLY).destQp(0x539).psn(0xFFFFFF)
            .ackReq(true).payload(payload, 0, 16))));
        assertEquals(RegionConnection.State.CONNECTED, kw.state());
        assertEquals(0x00007f0000100000L, kw.address());
        assertEquals(4096, kw.advertisedLength());
        assertEquals(0xD7A00539L, kw.rkey());
        // The appliance's first PSN is the REQ's starting PSN, not the REP's (dta-reference.md §4.8).
        assertEquals(0x0abcde, kw.connectedRegion().startPsn());

        final byte[] f = out.frames().get(3).bytes();
        assertEquals(62, f.length);
        final byte[] t = new byte[16];
        t[0] = 0x11;                                            // RC ACKNOWLEDGE
        t[1] = 0x40;
        put16(t, 2, 0x7fff);
        put32(t, 4, 0x400);                                     // DestQP = the REP's QPN
        put32(t, 8, 0xFFFFFF);                                  // AckReq 0, PSN = the SEND's PSN
        put32(t, 12, (0x1FL << 24) | 1);                        // AETH: ACK, credits invalid; MSN 1
        final byte[] actual = new byte[16];
        System.arraycopy(f, 42, actual, 0, 16);
        assertArrayEquals(t, actual);
        assertEquals(0, f[40]);
        assertEquals(0, f[41]);
        assertIcrc(f);
    }

    // ---------------------------------------------------------------------------------------------------------

    private static RoceFrameEncoder collector()
    {
        return new RoceFrameEncoder().srcMac(0x0266778899aaL).dstMac(0x021122334455L).srcIp(0x0a090807)
            .dstIp(0x0a010203).srcPort(0xD001);
    }

    private static byte[] frame(final RoceFrameEncoder encoder)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[encoder.frameLength()]);
        encoder.encode(buffer, 0);
        return buffer.byteArray();
    }

    private static byte[] rep(
        final long tid, final long echoedCommId, final int qpn, final int psn, final int responderResources,
        final int classVersion)
    {
        final CmFrameEncoder cm = new CmFrameEncoder();
        cm.encoder().srcMac(0x0266778899aaL).dstMac(0x021122334455L).srcIp(0x0a090807).dstIp(0x0a010203).psn(5);
        final UnsafeBuffer f = new UnsafeBuffer(new byte[CmFrameEncoder.FRAME_LENGTH]);
        cm.begin(f, 0, MadHeaderFlyweight.ATTRIBUTE_REP, tid, 0).classVersion(classVersion);
        cm.rep().localCommId(0xC0110001L).remoteCommId(echoedCommId).localQpn(qpn).startingPsn(psn)
            .responderResources(responderResources);
        cm.finish(f, 0);
        return f.byteArray();
    }

    private static boolean offer(final ConnectionManager manager, final byte[] f)
    {
        return manager.onFrame(new UnsafeBuffer(f), 0, f.length, 0);
    }
}
