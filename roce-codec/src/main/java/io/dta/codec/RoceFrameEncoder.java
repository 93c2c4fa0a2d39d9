package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Writes complete RoCEv2 frames: Ethernet (no VLAN), IPv4 (IHL 5, correct checksum), UDP (checksum 0), BTH, the
 * opcode's extension headers, payload, zero pad and the ICRC.
 * <p>
 * Supported opcodes (RC or UC where the transport has them): SEND First/Middle/Last/Only, RDMA WRITE
 * First/Middle/Last/Only (RETH for First/Only), RDMA READ Request (RETH), FETCH_ADD and COMPARE_SWAP (AtomicETH),
 * ACKNOWLEDGE (AETH) and ATOMIC ACKNOWLEDGE (AETH + AtomicAckETH), and UD SEND Only (DETH), which carries the
 * connection management MADs to QP1.
 * <p>
 * All per-frame fields have fluent setters and keep their value between frames, so one encoder is reused for a
 * whole stream without allocation. The payload is either copied from a source buffer
 * ({@link #payload(DirectBuffer, int, int)}) or, with {@link #payloadInPlace(int)}, left as already written by
 * the caller at {@link #payloadOffset(int)}, which avoids a copy. Not thread-safe.
 */
public final class RoceFrameEncoder
{
    /** Length of Ethernet + IPv4 + UDP headers as written by this encoder. */
    public static final int ETH_IP_UDP_LENGTH = EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.MIN_HEADER_LENGTH +
        UdpFlyweight.HEADER_LENGTH;
    /** Default TTL. */
    public static final int DEFAULT_TTL = 64;

    private final EthernetFlyweight ethernet = new EthernetFlyweight();
    private final Ipv4Flyweight ipv4 = new Ipv4Flyweight();
    private final UdpFlyweight udp = new UdpFlyweight();
    private final BthFlyweight bth = new BthFlyweight();
    private final RethFlyweight reth = new RethFlyweight();
    private final AtomicEthFlyweight atomicEth = new AtomicEthFlyweight();
    private final AethFlyweight aeth = new AethFlyweight();
    private final AtomicAckEthFlyweight atomicAckEth = new AtomicAckEthFlyweight();
    private final DethFlyweight deth = new DethFlyweight();
    private final Icrc icrc = new Icrc();

    private long dstMac;
    private long srcMac;
    private int tos;
    private int identification;
    private boolean dontFragment = true;
    private int ttl = DEFAULT_TTL;
    private int srcIp;
    private int dstIp;
    private int srcPort = 0xC000;
    private int dstPort = UdpFlyweight.ROCEV2_PORT;

    private int opcode = RoceOpcode.RC_RDMA_WRITE_ONLY;
    private boolean solicitedEvent;
    private boolean migReq = true;
    private int pKey = BthFlyweight.DEFAULT_PKEY;
    private boolean becn;
    private int destQp;
    private boolean ackReq;
    private int psn;

    private long virtualAddress;
    private long rKey;
    private long dmaLength = -1;
    private long swapAddData;
    private long compareData;
    private int syndrome = AethFlyweight.CREDIT_INVALID;
    private int msn;
    private long originalValue;
    private long qKey = DethFlyweight.GSI_Q_KEY;
    private int srcQp = DethFlyweight.GSI_QPN;

    private DirectBuffer payloadBuffer;
    private int payloadBufferOffset;
    private int payloadLength;

    /**
     * @param mac destination MAC (low 48 bits).
     * @return this.
     */
    public RoceFrameEncoder dstMac(final long mac)
    {
        this.dstMac = mac;
        return this;
    }

    /**
     * @param mac source MAC (low 48 bits).
     * @return this.
     */
    public RoceFrameEncoder srcMac(final long mac)
    {
        this.srcMac = mac;
        return this;
    }

    /**
     * @param tos whole TOS byte (DSCP << 2 | ECN).
     * @return this.
     */
    public RoceFrameEncoder tos(final int tos)
    {
        this.tos = tos;
        return this;
    }

    /**
     * @param identification IPv4 identification.
     * @return this.
     */
    public RoceFrameEncoder identification(final int identification)
    {
        this.identification = identification;
        return this;
    }

    /**
     * @param dontFragment DF flag (default true; RoCE is never fragmented).
     * @return this.
     */
    public RoceFrameEncoder dontFragment(final boolean dontFragment)
    {
        this.dontFragment = dontFragment;
        return this;
    }

    /**
     * @param ttl IPv4 TTL (default 64).
     * @return this.
     */
    public RoceFrameEncoder ttl(final int ttl)
    {
        this.ttl = ttl;
        return this;
    }

    /**
     * @param address source IPv4 address.
     * @return this.
     */
    public RoceFrameEncoder srcIp(final int address)
    {
        this.srcIp = address;
        return this;
    }

    /**
     * @param address destination IPv4 address.
     * @return this.
     */
    public RoceFrameEncoder dstIp(final int address)
    {
        this.dstIp = address;
        return this;
    }

    /**
     * @param port UDP source port (constant per QP).
     * @return this.
     */
    public RoceFrameEncoder srcPort(final int port)
    {
        this.srcPort = port;
        return this;
    }

    /**
     * @param port UDP destination port (default 4791).
     * @return this.
     */
    public RoceFrameEncoder dstPort(final int port)
    {
        this.dstPort = port;
        return this;
    }

    /**
     * @param opcode BTH opcode (see {@link RoceOpcode}).
     * @return this.
     */
    public RoceFrameEncoder opcode(final int opcode)
    {
        this.opcode = opcode;
        return this;
    }

    /**
     * @param solicitedEvent BTH SE bit.
     * @return this.
     */
    public RoceFrameEncoder solicitedEvent(final boolean solicitedEvent)
    {
        this.solicitedEvent = solicitedEvent;
        return this;
    }

    /**
     * @param migReq BTH M bit (default true, as ConnectX sends).
     * @return this.
     */
    public RoceFrameEncoder migReq(final boolean migReq)
    {
        this.migReq = migReq;
        return this;
    }

    /**
     * @param pKey P_Key (default 0xFFFF).
     * @return this.
     */
    public RoceFrameEncoder pKey(final int pKey)
    {
        this.pKey = pKey;
        return this;
    }

    /**
     * @param becn BTH BECN bit (default false).
     * @return this.
     */
    public RoceFrameEncoder becn(final boolean becn)
    {
        this.becn = becn;
        return this;
    }

    /**
     * @param destQp destination QP number (24 bits).
     * @return this.
     */
    public RoceFrameEncoder destQp(final int destQp)
    {
        this.destQp = destQp;
        return this;
    }

    /**
     * @param ackReq BTH AckReq bit.
     * @return this.
     */
    public RoceFrameEncoder ackReq(final boolean ackReq)
    {
        this.ackReq = ackReq;
        return this;
    }

    /**
     * @param psn PSN (24 bits).
     * @return this.
     */
    public RoceFrameEncoder psn(final int psn)
    {
        this.psn = psn;
        return this;
    }

    /**
     * @param virtualAddress RETH / AtomicETH virtual address.
     * @return this.
     */
    public RoceFrameEncoder virtualAddress(final long virtualAddress)
    {
        this.virtualAddress = virtualAddress;
        return this;
    }

    /**
     * @param rKey RETH / AtomicETH R_Key.
     * @return this.
     */
    public RoceFrameEncoder rKey(final long rKey)
    {
        this.rKey = rKey;
        return this;
    }

    /**
     * RETH DMA length. A negative value (the default) means "this packet's payload length", right for WRITE
     * Only; WRITE First must carry the whole message length.
     *
     * @param dmaLength DMA length in bytes, or -1.
     * @return this.
     */
    public RoceFrameEncoder dmaLength(final long dmaLength)
    {
        this.dmaLength = dmaLength;
        return this;
    }

    /**
     * @param value AtomicETH add (FETCH_ADD) or swap (COMPARE_SWAP) operand.
     * @return this.
     */
    public RoceFrameEncoder swapAddData(final long value)
    {
        this.swapAddData = value;
        return this;
    }

    /**
     * @param value AtomicETH compare operand (COMPARE_SWAP; 0 for FETCH_ADD).
     * @return this.
     */
    public RoceFrameEncoder compareData(final long value)
    {
        this.compareData = value;
        return this;
    }

    /**
     * @param syndrome AETH syndrome (default 0x1F: ACK, no credit information).
     * @return this.
     */
    public RoceFrameEncoder syndrome(final int syndrome)
    {
        this.syndrome = syndrome;
        return this;
    }

    /**
     * @param msn AETH MSN (24 bits).
     * @return this.
     */
    public RoceFrameEncoder msn(final int msn)
    {
        this.msn = msn;
        return this;
    }

    /**
     * @param value AtomicAckETH original remote value.
     * @return this.
     */
    public RoceFrameEncoder originalValue(final long value)
    {
        this.originalValue = value;
        return this;
    }

    /**
     * @param qKey DETH Q_Key of UD packets (default {@link DethFlyweight#GSI_Q_KEY}).
     * @return this.
     */
    public RoceFrameEncoder qKey(final long qKey)
    {
        this.qKey = qKey;
        return this;
    }

    /**
     * @param srcQp DETH source QP of UD packets (default 1, the GSI QP that sends CM MADs).
     * @return this.
     */
    public RoceFrameEncoder srcQp(final int srcQp)
    {
        this.srcQp = srcQp;
        return this;
    }

    /**
     * Payload to copy into the frame (ignored by opcodes without payload).
     *
     * @param buffer source buffer.
     * @param offset source offset.
     * @param length payload length in bytes.
     * @return this.
     */
    public RoceFrameEncoder payload(final DirectBuffer buffer, final int offset, final int length)
    {
        this.payloadBuffer = buffer;
        this.payloadBufferOffset = offset;
        this.payloadLength = length;
        return this;
    }

    /**
     * Payload already written by the caller at {@link #payloadOffset(int)} of the destination buffer: the encoder
     * writes the headers, pad and ICRC around it without touching the payload bytes.
     *
     * @param length payload length in bytes.
     * @return this.
     */
    public RoceFrameEncoder payloadInPlace(final int length)
    {
        this.payloadBuffer = null;
        this.payloadBufferOffset = 0;
        this.payloadLength = length;
        return this;
    }

    /**
     * No payload.
     *
     * @return this.
     */
    public RoceFrameEncoder noPayload()
    {
        return payloadInPlace(0);
    }

    /**
     * @param frameOffset where the frame will start.
     * @return where the payload goes for the current opcode.
     * @throws IllegalStateException if the opcode is not supported.
     */
    public int payloadOffset(final int frameOffset)
    {
        return frameOffset + ETH_IP_UDP_LENGTH + checkedHeaderLength(opcode);
    }

    /**
     * @return frame length (no FCS) that {@link #encode(MutableDirectBuffer, int)} will produce.
     * @throws IllegalStateException if the opcode is not supported.
     */
    public int frameLength()
    {
        final int payload = RoceOpcode.carriesPayload(opcode) ? payloadLength : 0;
        return ETH_IP_UDP_LENGTH + checkedHeaderLength(opcode) + payload + padFor(payload) + Icrc.LENGTH;
    }

    /**
     * Write the frame.
     *
     * @param dst    destination buffer, with room for {@link #frameLength()} bytes.
     * @param offset where the frame starts.
     * @return the frame length in bytes (without FCS).
     * @throws IllegalStateException if the opcode is not supported (a programming error).
     */
    public int encode(final MutableDirectBuffer dst, final int offset)
    {
        final int headerLength = checkedHeaderLength(opcode);
        final boolean hasPayload = RoceOpcode.carriesPayload(opcode);
        final int payload = hasPayload ? payloadLength : 0;
        final int pad = padFor(payload);

        final int ipOffset = offset + EthernetFlyweight.HEADER_LENGTH;
        final int udpOffset = ipOffset + Ipv4Flyweight.MIN_HEADER_LENGTH;
        final int bthOffset = udpOffset + UdpFlyweight.HEADER_LENGTH;
        final int payloadOffset = bthOffset + headerLength;
        final int icrcOffset = payloadOffset + payload + pad;
        final int udpLength = icrcOffset + Icrc.LENGTH - udpOffset;

        ethernet.wrap(dst, offset).dstMac(dstMac).srcMac(srcMac).etherType(EthernetFlyweight.ETHER_TYPE_IPV4);

        ipv4.wrap(dst, ipOffset)
            .versionAndIhl(5)
            .tos(tos)
            .totalLength(udpLength + Ipv4Flyweight.MIN_HEADER_LENGTH)
            .identification(identification)
            .flagsAndFragmentOffset(dontFragment ? 0x4000 : 0)
            .ttl(ttl)
            .protocol(Ipv4Flyweight.PROTOCOL_UDP)
            .headerChecksum(0)
            .src(srcIp)
            .dst(dstIp)
            .updateChecksum();

        udp.wrap(dst, udpOffset).srcPort(srcPort).dstPort(dstPort).length(udpLength).checksum(0);

        bth.wrap(dst, bthOffset);
        dst.putByte(bthOffset + BthFlyweight.FLAGS_OFFSET,
            (byte)((solicitedEvent ? 0x80 : 0) | (migReq ? 0x40 : 0) | (pad << 4)));
        dst.putByte(bthOffset + BthFlyweight.FECN_BECN_OFFSET, (byte)(becn ? 0x40 : 0));
        bth.opcode(opcode).pKey(pKey).destQp(destQp).ackReq(ackReq).psn(psn);

        final int extOffset = bthOffset + BthFlyweight.LENGTH;
        if (RoceOpcode.hasReth(opcode))
        {
            reth.wrap(dst, extOffset)
                .virtualAddress(virtualAddress)
                .rKey(rKey)
                .dmaLength(dmaLength < 0 ? payload : dmaLength);
        }
        else if (RoceOpcode.hasAtomicEth(opcode))
        {
            atomicEth.wrap(dst, extOffset)
                .virtualAddress(virtualAddress)
                .rKey(rKey)
                .swapAddData(swapAddData)
                .compareData(compareData);
        }
        else if (RoceOpcode.hasDeth(opcode))
        {
            deth.wrap(dst, extOffset).qKey(qKey).srcQp(srcQp);
        }
        else if (RoceOpcode.hasAeth(opcode))
        {
            aeth.wrap(dst, extOffset).syndrome(syndrome).msn(msn);
            if (opcode == RoceOpcode.RC_ATOMIC_ACKNOWLEDGE)
            {
                atomicAckEth.wrap(dst, extOffset + AethFlyweight.LENGTH).originalValue(originalValue);
            }
        }

        if (payload > 0 && null != payloadBuffer)
        {
            dst.putBytes(payloadOffset, payloadBuffer, payloadBufferOffset, payload);
        }
        if (pad > 0)
        {
            dst.setMemory(payloadOffset + payload, pad, (byte)0);
        }

        icrc.writeInPlace(dst, ipOffset, icrcOffset);

        return icrcOffset + Icrc.LENGTH - offset;
    }

    private static int padFor(final int payloadLength)
    {
        return -payloadLength & 3;
    }

    private static int checkedHeaderLength(final int opcode)
    {
        if (!isSupported(opcode))
        {
            throw new IllegalStateException("opcode not supported by the encoder: " + opcode);
        }
        return RoceOpcode.headerLength(opcode);
    }

    /**
     * @param opcode a BTH opcode.
     * @return true if {@link #encode(MutableDirectBuffer, int)} can write it.
     */
    public static boolean isSupported(final int opcode)
    {
        if (RoceOpcode.UD_SEND_ONLY == opcode)
        {
            return true;
        }
        final int op = opcode >= RoceOpcode.UC_BASE && opcode < RoceOpcode.UC_BASE + 0x20 ?
            opcode - RoceOpcode.UC_BASE : opcode;
        final boolean uc = op != opcode;
        switch (op)
        {
            case RoceOpcode.RC_SEND_FIRST:
            case RoceOpcode.RC_SEND_MIDDLE:
            case RoceOpcode.RC_SEND_LAST:
            case RoceOpcode.RC_SEND_ONLY:
            case RoceOpcode.RC_RDMA_WRITE_FIRST:
            case RoceOpcode.RC_RDMA_WRITE_MIDDLE:
            case RoceOpcode.RC_RDMA_WRITE_LAST:
            case RoceOpcode.RC_RDMA_WRITE_ONLY:
                return true;
            case RoceOpcode.RC_RDMA_READ_REQUEST:
            case RoceOpcode.RC_ACKNOWLEDGE:
            case RoceOpcode.RC_ATOMIC_ACKNOWLEDGE:
            case RoceOpcode.RC_COMPARE_SWAP:
            case RoceOpcode.RC_FETCH_ADD:
                return !uc;
            default:
                return false;
        }
    }
}
