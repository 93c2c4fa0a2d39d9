package io.dta.appliance.engine;

import io.dta.codec.Icrc;
import io.dta.codec.Ipv4Address;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * In-memory frames for engine tests: DTA reports (Ethernet/IPv4/UDP/DTA base header/sub-header), collector
 * responses with a valid ICRC, and a parser of the engine's RoCEv2 requests. Deliberately written from the
 * specification with plain byte arithmetic, not with the engine's flyweights, so a shared bug does not hide.
 */
public final class TestFrames
{
    /** Appliance (translator) IPv4 address of {@link #config}. */
    public static final int APPLIANCE_IP = Ipv4Address.parse("10.0.0.101");
    /** Collector A IPv4 address. */
    public static final int COLLECTOR_A = Ipv4Address.parse("10.0.0.51");
    /** Collector B IPv4 address. */
    public static final int COLLECTOR_B = Ipv4Address.parse("10.0.0.52");
    /** A reporter. */
    public static final int REPORTER_1 = Ipv4Address.parse("10.1.0.1");
    /** Another reporter. */
    public static final int REPORTER_2 = Ipv4Address.parse("10.1.0.2");

    /** Local QPNs of the test configuration. */
    public static final int KW_QPN = 0x539;
    /** Key-Increment local QPN. */
    public static final int KI_QPN = 0x53a;
    /** Postcard local QPN. */
    public static final int PC_QPN = 0x53b;
    /** List 0 (reference layout) local QPN. */
    public static final int L0_QPN = 0x53c;
    /** List 1 (sequenced) local QPN. */
    public static final int L1_QPN = 0x53d;
    /** Collector B Key-Write local QPN. */
    public static final int KWB_QPN = 0x540;

    /** Remote QPNs (collector side). */
    public static final int KW_REMOTE = 0x456;
    /** Key-Increment remote QPN. */
    public static final int KI_REMOTE = 0x457;
    /** Postcard remote QPN. */
    public static final int PC_REMOTE = 0x458;
    /** List 0 remote QPN. */
    public static final int L0_REMOTE = 0x459;
    /** List 1 remote QPN. */
    public static final int L1_REMOTE = 0x45a;
    /** Collector B Key-Write remote QPN. */
    public static final int KWB_REMOTE = 0x460;

    /** Region addresses. */
    public static final long KW_BASE = 0x7f0000000000L;
    /** Key-Increment base. */
    public static final long KI_BASE = 0x7f0000100000L;
    /** Postcard base. */
    public static final long PC_BASE = 0x7f0000200000L;
    /** List 0 base. */
    public static final long L0_BASE = 0x7f0000300000L;
    /** List 1 base. */
    public static final long L1_BASE = 0x7f0000400000L;
    /** Collector B Key-Write base. */
    public static final long KWB_BASE = 0x7f0000500000L;

    private TestFrames()
    {
    }

    /**
     * Tunables of the test configuration; everything else is fixed.
     */
    public static final class Cfg
    {
        int slotSize = 8;
        long kwLength = 2048;
        int batchSize = 4;
        long idleFlushMicros = 1000;
        long postcardIdleMicros = 1000;
        int hops = 5;
        int requestInterval = 64;
        long timeoutMicros = 500;
        long graceMicros = 1000;
        long gracePackets = 0;
        long maxRnrWaitMicros = 10_000;
        int window = 256;
        int maxAtomics = 4;
        int atomicQueue = 8;
        long list0Length = 64;
        long list1Length = 4096;
        long postcardLength = 8192;
        int startPsn = 0x100;
        String baseHeader = "3";
        int backlog = 1024;
        int redundancyMax = 4;

        /**
         * @return the YAML text.
         */
        public String yaml()
        {
            return """
                translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101, dscp: 26, ecn: 0, ttl: 64, pKey: 0xffff}
                reports: {udpPort: 40040, baseHeader: "%s"}
                redundancy: {max: %d}
                append: {batchSize: %d, idleFlushMicros: %d}
                postcards: {hops: %d, idleFlushMicros: %d}
                acks: {requestInterval: %d, timeoutMicros: %d, window: %d}
                resync: {graceMicros: %d, gracePackets: %d, maxRnrWaitMicros: %d}
                essential: {backlog: %d}
                collectors:
                  - name: a
                    mac: "02:00:0a:00:00:33"
                    ip: 10.0.0.51
                    keyWrite: {localQpn: 0x539, qpn: 0x456, rkey: 0x1234, address: 0x7f0000000000, length: %d,
                               slotSize: %d, startPsn: %d}
                    keyIncrement: {localQpn: 0x53a, qpn: 0x457, rkey: 0x1235, address: 0x7f0000100000,
                                   length: 2048, startPsn: %d, maxOutstandingAtomics: %d, atomicQueueSize: %d}
                    postcards: {localQpn: 0x53b, qpn: 0x458, rkey: 0x1236, address: 0x7f0000200000,
                                length: %d, startPsn: %d}
                    lists:
                      - {id: 0, localQpn: 0x53c, qpn: 0x459, rkey: 0x1237, address: 0x7f0000300000, length: %d,
                         startPsn: %d, layout: reference}
                      - {id: 1, localQpn: 0x53d, qpn: 0x45a, rkey: 0x1238, address: 0x7f0000400000, length: %d,
                         startPsn: %d}
                  - name: b
                    mac: "02:00:0a:00:00:34"
                    ip: 10.0.0.52
                    keyWrite: {localQpn: 0x540, qpn: 0x460, rkey: 0x2234, address: 0x7f0000500000, length: %d,
                               slotSize: %d, startPsn: %d}
                """.formatted(baseHeader, redundancyMax, batchSize, idleFlushMicros, hops, postcardIdleMicros,
                requestInterval, timeoutMicros, window, graceMicros, gracePackets, maxRnrWaitMicros, backlog,
                kwLength, slotSize, startPsn, startPsn, maxAtomics, atomicQueue, postcardLength, startPsn,
                list0Length, startPsn, list1Length, startPsn, kwLength, slotSize, startPsn);
        }
    }

    // ---------------------------------------------------------------- reports

    /**
     * A DTA report frame.
     *
     * @param srcIp     reporter IPv4.
     * @param dstIp     collector IPv4.
     * @param form      3 or 2 (base header form).
     * @param opcode    DTA opcode.
     * @param seqnum    seqnum (3-byte form only).
     * @param flags     flags byte.
     * @param subHeader primitive sub-header bytes.
     * @return the frame.
     */
    public static byte[] report(
        final int srcIp, final int dstIp, final int form, final int opcode, final int seqnum, final int flags,
        final byte[] subHeader)
    {
        final int dtaLength = form + subHeader.length;
        final int udpLength = 8 + dtaLength;
        final int ipLength = 20 + udpLength;
        final ByteBuffer b = ByteBuffer.allocate(Math.max(60, 14 + ipLength)).order(ByteOrder.BIG_ENDIAN);
        b.put(new byte[] {2, 0, 10, 0, 0, 0x33});
        b.put(new byte[] {2, 0, 10, 1, 0, 1});
        b.putShort((short)0x0800);
        final int ip = b.position();
        b.put((byte)0x45).put((byte)0).putShort((short)ipLength).putShort((short)7).putShort((short)0x4000);
        b.put((byte)64).put((byte)17).putShort((short)0).putInt(srcIp).putInt(dstIp);
        b.putShort(ip + 10, (short)ipChecksum(b.array(), ip));
        b.putShort((short)12345).putShort((short)40040).putShort((short)udpLength).putShort((short)0);
        b.put((byte)opcode);
        if (3 == form)
        {
            b.put((byte)seqnum);
        }
        b.put((byte)flags);
        b.put(subHeader);
        return b.array();
    }

    /**
     * The same frame with VLAN tags inserted after the MACs, outermost first; the Ethernet padding of the plain
     * frame is kept (trailing bytes the IP total length does not cover).
     *
     * @param plain       an untagged frame.
     * @param tpidAndTcis pairs of TPID and TCI, outermost first.
     * @return the tagged frame.
     */
    public static byte[] tagged(final byte[] plain, final int... tpidAndTcis)
    {
        final ByteBuffer b = ByteBuffer.allocate(plain.length + 2 * tpidAndTcis.length).order(ByteOrder.BIG_ENDIAN);
        b.put(plain, 0, 12);
        for (final int field : tpidAndTcis)
        {
            b.putShort((short)field);
        }
        b.put(plain, 12, plain.length - 12);
        return b.array();
    }

    /**
     * A 3-byte-form report from {@link #REPORTER_1} to collector A with no flags.
     *
     * @param opcode    DTA opcode.
     * @param subHeader sub-header.
     * @return the frame.
     */
    public static byte[] report(final int opcode, final byte[] subHeader)
    {
        return report(REPORTER_1, COLLECTOR_A, 3, opcode, 0, 0, subHeader);
    }

    /**
     * @param n    redundancy.
     * @param key  key.
     * @param data data bytes.
     * @return Key-Write sub-header.
     */
    public static byte[] keyWrite(final int n, final int key, final byte[] data)
    {
        return ByteBuffer.allocate(5 + data.length).put((byte)n).putInt(key).put(data).array();
    }

    /**
     * @param n       redundancy.
     * @param key     key.
     * @param counter addend.
     * @return Key-Increment sub-header.
     */
    public static byte[] keyIncrement(final int n, final int key, final long counter)
    {
        return ByteBuffer.allocate(13).put((byte)n).putInt(key).putLong(counter).array();
    }

    /**
     * @param listId list id.
     * @param data   entry.
     * @return Append sub-header.
     */
    public static byte[] append(final int listId, final int data)
    {
        return ByteBuffer.allocate(8).putInt(listId).putInt(data).array();
    }

    /**
     * @param key  flow key.
     * @param hop  hop number.
     * @param data hop data.
     * @return Postcard sub-header.
     */
    public static byte[] postcard(final int key, final int hop, final int data)
    {
        return ByteBuffer.allocate(9).putInt(key).put((byte)hop).putInt(data).array();
    }

    static int ipChecksum(final byte[] b, final int off)
    {
        int sum = 0;
        for (int i = 0; i < 20; i += 2)
        {
            sum += ((b[off + i] & 0xFF) << 8) | (b[off + i + 1] & 0xFF);
        }
        while ((sum >>> 16) != 0)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }

    // ---------------------------------------------------------------- requests

    /** The appliance's MAC in the test configurations. */
    public static final long APPLIANCE_MAC = 0x02000a000065L;
    /** The collectors' MAC in the test configurations. */
    public static final long COLLECTOR_MAC = 0x02000a000033L;

    /**
     * A WRITE request from the appliance to collector A as translation.md §4 and rocev2-reference.md lay it out,
     * from plain arithmetic: Ethernet, IPv4 (the given TOS, identification = the PSN's low 16 bits,
     * DF, TTL 64), UDP (source 0xC000 | local QPN & 0x3FFF, destination 4791, checksum 0), BTH (M = 1, PadCnt,
     * P_Key 0xFFFF, DestQP, AckReq, PSN), a RETH on WRITE First and Only alone, the payload, zero pad, and the ICRC:
     * CRC32 over 8 bytes of 0xFF and the IP datagram with the variant fields masked to 1s, sent little-endian.
     *
     * @param tos       the IPv4 TOS byte: DSCP 26 and the configured ECN, 0x68 or 0x6A.
     * @param localQpn  the appliance's QPN.
     * @param remoteQpn the collector's QPN (DestQP).
     * @param rkey      the region's R_Key.
     * @param opcode    0x06 First, 0x07 Middle, 0x08 Last or 0x0A Only.
     * @param psn       PSN.
     * @param ackReq    the AckReq bit.
     * @param va        the RETH's virtual address.
     * @param dmaLength the RETH's DMA length.
     * @param data      the payload.
     * @return the frame.
     */
    public static byte[] write(
        final int tos,
        final int localQpn,
        final int remoteQpn,
        final int rkey,
        final int opcode,
        final int psn,
        final boolean ackReq,
        final long va,
        final int dmaLength,
        final byte[] data)
    {
        final boolean reth = 0x06 == opcode || 0x0A == opcode;
        final int pad = -data.length & 3;
        final int length = 14 + 20 + 8 + 12 + (reth ? 16 : 0) + data.length + pad + 4;
        final ByteBuffer e = ByteBuffer.allocate(length).order(ByteOrder.BIG_ENDIAN);
        e.putShort((short)(COLLECTOR_MAC >>> 32)).putInt((int)COLLECTOR_MAC);
        e.putShort((short)(APPLIANCE_MAC >>> 32)).putInt((int)APPLIANCE_MAC).putShort((short)0x0800);
        e.put((byte)0x45).put((byte)tos).putShort((short)(length - 14)).putShort((short)(psn & 0xFFFF))
            .putShort((short)0x4000).put((byte)64).put((byte)17).putShort((short)0).putInt(APPLIANCE_IP)
            .putInt(COLLECTOR_A);
        e.putShort(24, (short)ipChecksum(e.array(), 14));
        e.putShort((short)(0xC000 | (localQpn & 0x3FFF))).putShort((short)4791).putShort((short)(length - 34))
            .putShort((short)0);
        e.put((byte)opcode).put((byte)(0x40 | pad << 4)).putShort((short)0xFFFF).putInt(remoteQpn)
            .putInt((ackReq ? 0x8000_0000 : 0) | psn);
        if (reth)
        {
            e.putLong(va).putInt(rkey).putInt(dmaLength);
        }
        e.put(data).put(new byte[pad]);
        putIcrc(e);
        return e.array();
    }

    /**
     * Appends the ICRC as rocev2-reference.md §2 defines it, independently of the codec: CRC32 over eight 0xFF bytes
     * and the frame from its IPv4 header (at 14, untagged) to the buffer's position, with TOS, TTL, IPv4 checksum,
     * UDP checksum and the BTH's FECN/BECN/reserved byte masked to 0xFF, sent little-endian.
     *
     * @param e the frame so far, its position where the ICRC goes.
     */
    public static void putIcrc(final ByteBuffer e)
    {
        final byte[] covered = new byte[8 + e.position() - 14];
        Arrays.fill(covered, 0, 8, (byte)0xFF);
        System.arraycopy(e.array(), 14, covered, 8, covered.length - 8);
        for (final int masked : new int[] {1, 8, 10, 11, 26, 27, 32})
        {
            covered[8 + masked] = (byte)0xFF;
        }
        final CRC32 crc = new CRC32();
        crc.update(covered);
        e.putInt(Integer.reverseBytes((int)crc.getValue()));
    }

    // ---------------------------------------------------------------- responses

    /**
     * A collector response with a valid ICRC.
     *
     * @param srcIp    responder IPv4.
     * @param destQp   the appliance's local QPN.
     * @param opcode   0x11 or 0x12.
     * @param syndrome AETH syndrome (0x1F ACK, 0x60 NAK sequence error, 0x62 remote access error ...).
     * @param psn      PSN.
     * @return the frame.
     */
    public static byte[] response(final int srcIp, final int destQp, final int opcode, final int syndrome, final int psn)
    {
        return response(srcIp, APPLIANCE_IP, destQp, opcode, syndrome, psn);
    }

    /**
     * A collector response with a valid ICRC, to any host.
     *
     * @param srcIp    responder IPv4.
     * @param dstIp    requester IPv4 (the appliance's is {@link #APPLIANCE_IP}).
     * @param destQp   the requester's local QPN.
     * @param opcode   0x11 or 0x12.
     * @param syndrome AETH syndrome.
     * @param psn      PSN.
     * @return the frame.
     */
    public static byte[] response(
        final int srcIp, final int dstIp, final int destQp, final int opcode, final int syndrome, final int psn)
    {
        return response(srcIp, dstIp, destQp, opcode, syndrome, psn, 0xFFFF);
    }

    /**
     * A collector response with a valid ICRC, to any host, in any partition.
     *
     * @param srcIp    responder IPv4.
     * @param dstIp    requester IPv4 (the appliance's is {@link #APPLIANCE_IP}).
     * @param destQp   the requester's local QPN.
     * @param opcode   0x11 or 0x12.
     * @param syndrome AETH syndrome.
     * @param psn      PSN.
     * @param pKey     BTH P_Key (the appliance's default is 0xFFFF).
     * @return the frame.
     */
    public static byte[] response(
        final int srcIp,
        final int dstIp,
        final int destQp,
        final int opcode,
        final int syndrome,
        final int psn,
        final int pKey)
    {
        final RoceFrameEncoder enc = new RoceFrameEncoder()
            .srcMac(0x02000a000033L).dstMac(0x02000a000065L).srcIp(srcIp).dstIp(dstIp).srcPort(50000)
            .dstPort(4791).opcode(opcode).destQp(destQp).psn(psn).syndrome(syndrome).msn(1).pKey(pKey)
            .noPayload();
        if (RoceOpcode.RC_ATOMIC_ACKNOWLEDGE == opcode)
        {
            enc.originalValue(0);
        }
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[256]);
        final int len = enc.encode(buf, 0);
        return Arrays.copyOf(buf.byteArray(), len);
    }

    /**
     * @param qpn local QPN.
     * @param psn PSN acknowledged.
     * @return an ACK from collector A.
     */
    public static byte[] ack(final int qpn, final int psn)
    {
        return response(COLLECTOR_A, qpn, RoceOpcode.RC_ACKNOWLEDGE, 0x1F, psn);
    }

    /**
     * @param qpn local QPN.
     * @param psn PSN acknowledged.
     * @return an ATOMIC ACK from collector A.
     */
    public static byte[] atomicAck(final int qpn, final int psn)
    {
        return response(COLLECTOR_A, qpn, RoceOpcode.RC_ATOMIC_ACKNOWLEDGE, 0x1F, psn);
    }

    /**
     * @param qpn      local QPN.
     * @param syndrome NAK syndrome.
     * @param psn      PSN (expected PSN for 0x60).
     * @return a NAK from collector A.
     */
    public static byte[] nak(final int qpn, final int syndrome, final int psn)
    {
        return response(COLLECTOR_A, qpn, RoceOpcode.RC_ACKNOWLEDGE, syndrome, psn);
    }

    // ---------------------------------------------------------------- parsing the engine's output

    /**
     * A parsed RoCEv2 request of the engine.
     *
     * @param bytes     the frame.
     * @param opcode    BTH opcode.
     * @param ackReq    AckReq bit.
     * @param destQp    DestQP.
     * @param psn       PSN.
     * @param va        RETH/AtomicETH virtual address.
     * @param rkey      R_Key.
     * @param dmaLength RETH DMA length (WRITE only).
     * @param payload   WRITE payload (DMA length bytes).
     * @param addend    FETCH_ADD add data.
     * @param compare   FETCH_ADD compare data.
     * @param dstIp     IPv4 destination.
     */
    public record Request(
        byte[] bytes, int opcode, boolean ackReq, int destQp, int psn, long va, long rkey, int dmaLength,
        byte[] payload, long addend, long compare, int dstIp)
    {
        /**
         * @return true for a WRITE Only.
         */
        public boolean isWrite()
        {
            return RoceOpcode.RC_RDMA_WRITE_ONLY == opcode;
        }

        /**
         * @return true for a FETCH_ADD.
         */
        public boolean isFetchAdd()
        {
            return RoceOpcode.RC_FETCH_ADD == opcode;
        }
    }

    /**
     * Parses one request frame, checking the framing the spec fixes (lengths, UDP port, ICRC).
     *
     * @param f frame bytes.
     * @return the request.
     */
    public static Request parseRequest(final byte[] f)
    {
        final ByteBuffer b = ByteBuffer.wrap(f).order(ByteOrder.BIG_ENDIAN);
        check(0x0800 == (b.getShort(12) & 0xFFFF), "ethertype");
        check(f.length - 14 == (b.getShort(16) & 0xFFFF), "IPv4 total length");
        check(0 == ipChecksum(f, 14), "IPv4 checksum");
        check(4791 == (b.getShort(36) & 0xFFFF), "UDP dst port");
        check(f.length - 34 == (b.getShort(38) & 0xFFFF), "UDP length");
        check(new Icrc().verify(new UnsafeBuffer(f), 14, f.length), "ICRC");
        final int opcode = f[42] & 0xFF;
        final boolean ackReq = (f[50] & 0x80) != 0;
        final int destQp = b.getInt(46) & 0xFFFFFF;
        final int psn = b.getInt(50) & 0xFFFFFF;
        final long va = b.getLong(54);
        final long rkey = b.getInt(62) & 0xFFFFFFFFL;
        final int dstIp = b.getInt(30);
        if (RoceOpcode.RC_FETCH_ADD == opcode)
        {
            check(86 == f.length, "FETCH_ADD frame length " + f.length);
            return new Request(f, opcode, ackReq, destQp, psn, va, rkey, 0, new byte[0], b.getLong(66),
                b.getLong(74), dstIp);
        }
        final int dmaLength = b.getInt(66);
        final int pad = (f[43] >> 4) & 3;
        check(70 + dmaLength + pad + 4 == f.length, "WRITE frame length");
        return new Request(f, opcode, ackReq, destQp, psn, va, rkey, dmaLength,
            Arrays.copyOfRange(f, 70, 70 + dmaLength), 0, 0, dstIp);
    }

    private static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new AssertionError("malformed request frame: " + what);
        }
    }

    // ---------------------------------------------------------------- independent arithmetic

    /**
     * @param key key as on the wire.
     * @return CRC32(LE(key)).
     */
    public static long checksum(final int key)
    {
        final CRC32 crc = new CRC32();
        crc.update(new byte[] {(byte)key, (byte)(key >>> 8), (byte)(key >>> 16), (byte)(key >>> 24)});
        return crc.getValue();
    }

    /**
     * @param key key as on the wire.
     * @param n   copy number.
     * @return CRC32(LE(key) ‖ n).
     */
    public static long slotHash(final int key, final int n)
    {
        final CRC32 crc = new CRC32();
        crc.update(new byte[] {(byte)key, (byte)(key >>> 8), (byte)(key >>> 16), (byte)(key >>> 24), (byte)n});
        return crc.getValue();
    }

    /**
     * @param v value.
     * @return 4 bytes little-endian.
     */
    public static byte[] le32(final int v)
    {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
    }
}
