package io.dta.codec;

import org.agrona.DirectBuffer;

/**
 * Classifies a received Ethernet frame as a DTA report, a RoCEv2 packet, something else, or malformed, and leaves
 * the matching flyweights wrapped over it.
 * <p>
 * The decoder never throws: every read is preceded by a length check, and a last-resort catch maps an unexpected
 * runtime exception to {@link MalformedReason#INTERNAL_ERROR}. It allocates nothing per decode. Trailing bytes
 * after the IP datagram (Ethernet padding of short frames) are ignored; the IP total length and then the UDP
 * length are authoritative.
 * <p>
 * Classification rules:
 * <ul>
 *     <li>Non-IPv4 EtherTypes (ARP, IPv6, ...), more than two VLAN tags, IPv4 protocols other than UDP and UDP to
 *     other ports (whatever their UDP length, and first fragments included) are {@link FrameKind#OTHER}.</li>
 *     <li>A fragmented IPv4 UDP datagram is {@link FrameKind#MALFORMED} with {@link MalformedReason#FRAGMENTED},
 *     unless it is a first fragment to a port not served here (non-first fragments carry no UDP header, so the
 *     port cannot be checked; neither reports nor RoCEv2 are ever fragmented, and the translator drops and counts
 *     them).</li>
 *     <li>UDP to the DTA port is {@link FrameKind#DTA} if the opcode is known and the length fits the base-header
 *     form; UDP to 4791 is {@link FrameKind#ROCE} if the BTH opcode is known and the lengths are consistent.</li>
 * </ul>
 * Checksums and the ICRC do not affect the classification (except the UDP checksum when
 * {@link #verifyUdpChecksum(boolean)} is on); they are evaluated lazily by {@link #ipChecksumValid()} and
 * {@link #icrcValid()}.
 * <p>
 * In {@link DtaBaseHeaderForm#AUTO} mode a Sketch-Merge report (variable length) is read with the 3-byte form.
 * In a fixed form, a report longer than its primitive (within the UDP length) is {@link MalformedReason#BAD_DTA_LENGTH}
 * (the reference parsed fixed offsets of the frame and ignored what followed, since it could not tell Ethernet
 * padding from report bytes; the UDP length can), except that a Key-Write may carry more data than
 * {@link #keyWriteDataLength(int)} (collectors may have different slot sizes: the engine checks the data length
 * against the store the report is routed to) and a Sketch-Merge column may be followed by bytes it ignores. Not
 * thread-safe: one decoder per thread.
 * <p>
 * The work is done by three parts, each with the flyweights it wraps: {@code HeaderWalk} (Ethernet, VLAN, IPv4,
 * UDP, and the checksum verdicts), {@code DtaReportDecoder} (a report) and {@code RoceHeaderDecoder} (RoCEv2
 * headers); this class configures them, runs them in turn and answers for the last frame.
 */
public final class FrameDecoder
{
    /** Default UDP destination port of DTA reports. */
    public static final int DEFAULT_DTA_PORT = 40040;

    private static final int UNKNOWN = 0;
    private static final int VALID = 1;
    private static final int INVALID = 2;

    private final HeaderWalk walk = new HeaderWalk();
    private final DtaReportDecoder dta = new DtaReportDecoder();
    private final RoceHeaderDecoder roce = new RoceHeaderDecoder();
    private final Icrc icrc = new Icrc();

    private DirectBuffer buffer;
    private FrameKind kind = FrameKind.MALFORMED;
    private MalformedReason reason = MalformedReason.NONE;
    private int frameOffset;
    private int frameLength;
    private int icrcState;

    /**
     * @param port UDP destination port of DTA reports (default 40040).
     * @return this.
     */
    public FrameDecoder dtaPort(final int port)
    {
        walk.dtaPort = port;
        return this;
    }

    /**
     * @return UDP destination port of DTA reports.
     */
    public int dtaPort()
    {
        return walk.dtaPort;
    }

    /**
     * @param form base-header form, THREE (default), TWO or AUTO.
     * @return this.
     */
    public FrameDecoder baseHeaderForm(final DtaBaseHeaderForm form)
    {
        dta.baseHeaderForm = form;
        return this;
    }

    /**
     * @return configured base-header form.
     */
    public DtaBaseHeaderForm baseHeaderForm()
    {
        return dta.baseHeaderForm;
    }

    /**
     * @param length Key-Write data bytes, slotSize - 4 (default 4).
     * @return this.
     */
    public FrameDecoder keyWriteDataLength(final int length)
    {
        dta.keyWriteDataLength = length;
        return this;
    }

    /**
     * @return configured Key-Write data length.
     */
    public int keyWriteDataLength()
    {
        return dta.keyWriteDataLength;
    }

    /**
     * @param verify when true, a DTA or RoCEv2 datagram with a non-zero wrong UDP checksum is
     *               {@link MalformedReason#BAD_UDP_CHECKSUM} (default false: the reference generators send
     *               stale checksums).
     * @return this.
     */
    public FrameDecoder verifyUdpChecksum(final boolean verify)
    {
        walk.verifyUdpChecksum = verify;
        return this;
    }

    /**
     * Decode one frame. Never throws.
     *
     * @param buffer the buffer holding the frame.
     * @param offset frame start (Ethernet destination MAC).
     * @param length frame length (FCS excluded; trailing padding allowed).
     * @return the classification, also available from {@link #kind()}.
     */
    public FrameKind decode(final DirectBuffer buffer, final int offset, final int length)
    {
        reset(buffer, offset, length);
        FrameKind decoded;
        try
        {
            decoded = decodeFrame(buffer, offset, length);
        }
        catch (final RuntimeException ex)
        {
            // Last resort only: malformed input is caught by the length checks; this marks a decoder bug.
            decoded = FrameKind.MALFORMED;
            reason = MalformedReason.INTERNAL_ERROR;
        }
        if (kind != decoded)
        {
            kind = decoded;
        }

        return decoded;
    }

    /**
     * Forgets the previous frame. The reference fields (buffer, kind, reason, form) are written only when their
     * value changes, and the form is not cleared but hidden behind the kind: under G1 a reference store into this
     * long-lived decoder can cost a StoreLoad fence in the write barrier, which at one per field per frame measured
     * as the difference between 7.4 and 4.1 M reports/s (docs/performance.md).
     */
    private void reset(final DirectBuffer buffer, final int offset, final int length)
    {
        if (this.buffer != buffer)
        {
            this.buffer = buffer;
        }
        if (MalformedReason.NONE != reason)
        {
            reason = MalformedReason.NONE;
        }
        frameOffset = offset;
        frameLength = length;
        icrcState = UNKNOWN;
        walk.reset();
        dta.reset();
        roce.reset();
    }

    private FrameKind malformed(final MalformedReason reason)
    {
        this.reason = reason;
        return FrameKind.MALFORMED;
    }

    /*
     * The walk, then the report or the RoCEv2 headers, each in methods of under 325 bytecodes (C2's FreqInlineSize),
     * so that the JIT inlines the decode path whole into the engine's frame handler (docs/performance.md).
     */
    private FrameKind decodeFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        final FrameKind walked = walk.decode(buffer, offset, length);
        if (FrameKind.DTA == walked)
        {
            return outcome(dta.decode(buffer, walk.udpOffset, walk.udpLength), FrameKind.DTA);
        }
        if (FrameKind.ROCE == walked)
        {
            return outcome(roce.decode(buffer, walk.udpOffset, walk.udpLength), FrameKind.ROCE);
        }
        if (FrameKind.MALFORMED == walked)
        {
            return malformed(walk.reason);
        }
        return walked;
    }

    private FrameKind outcome(final MalformedReason malformedReason, final FrameKind decoded)
    {
        return MalformedReason.NONE == malformedReason ? decoded : malformed(malformedReason);
    }

    /**
     * @return the last classification.
     */
    public FrameKind kind()
    {
        return kind;
    }

    /**
     * @return why the last frame was malformed, or {@link MalformedReason#NONE}.
     */
    public MalformedReason malformedReason()
    {
        return reason;
    }

    /**
     * IPv4 header checksum verdict, computed on first call after a decode.
     *
     * @return true if an IPv4 header was found complete in the frame and its checksum is correct.
     */
    public boolean ipChecksumValid()
    {
        return walk.ipChecksumValid();
    }

    /**
     * UDP checksum verdict (a zero checksum means "none" and is valid), computed on first call after a decode.
     *
     * @return true if a complete UDP datagram was found and its checksum is absent or correct.
     */
    public boolean udpChecksumValid()
    {
        return walk.udpChecksumValid(buffer);
    }

    /**
     * RoCEv2 ICRC verdict, computed on first call after a decode.
     *
     * @return true if the frame is {@link FrameKind#ROCE}, the IPv4 header has IHL 5 and the ICRC is correct.
     */
    public boolean icrcValid()
    {
        if (icrcState == UNKNOWN)
        {
            icrcState = kind == FrameKind.ROCE && icrc.verify(buffer, walk.ipOffset, walk.udpOffset + walk.udpLength) ?
                VALID : INVALID;
        }

        return icrcState == VALID;
    }

    /**
     * The same answer as {@link #icrcValid()}, computed with the kept header of the stream the frame belongs to
     * (for example, the responses of one queue pair), which costs less when the headers repeat.
     *
     * @param stream the stream's verifier.
     * @return whether the frame is RoCEv2 and its ICRC is correct.
     */
    public boolean icrcValid(final RepeatedHeaderIcrc stream)
    {
        if (icrcState == UNKNOWN)
        {
            icrcState = kind == FrameKind.ROCE && stream.verify(buffer, walk.ipOffset, walk.udpOffset + walk.udpLength) ?
                VALID : INVALID;
        }

        return icrcState == VALID;
    }

    /**
     * @return the buffer of the last frame.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the last frame.
     */
    public int frameOffset()
    {
        return frameOffset;
    }

    /**
     * @return length of the last frame as given.
     */
    public int frameLength()
    {
        return frameLength;
    }

    /**
     * @return number of VLAN tags (0..2).
     */
    public int vlanTagCount()
    {
        return walk.vlanTagCount;
    }

    /**
     * @return the EtherType after the VLAN tags, or -1 if not reached.
     */
    public int etherType()
    {
        return walk.etherType;
    }

    /**
     * @return offset of the IPv4 header, or -1.
     */
    public int ipOffset()
    {
        return walk.ipOffset;
    }

    /**
     * @return end of the IP datagram (exclusive; Ethernet padding excluded), or -1.
     */
    public int ipEnd()
    {
        return walk.ipEnd;
    }

    /**
     * @return offset of the UDP header, or -1.
     */
    public int udpOffset()
    {
        return walk.udpOffset;
    }

    /**
     * @return UDP length (validated), or -1.
     */
    public int udpLength()
    {
        return walk.udpLength;
    }

    /**
     * @return offset of the DTA base header, or -1.
     */
    public int dtaOffset()
    {
        return dta.offset;
    }

    /**
     * @return the DTA opcode (also set for {@link MalformedReason#UNKNOWN_DTA_OPCODE}), or -1.
     */
    public int dtaOpcode()
    {
        return dta.opcode;
    }

    /**
     * @return the base-header form used for the last DTA report (resolved when AUTO), or null.
     */
    public DtaBaseHeaderForm dtaBaseHeaderForm()
    {
        return FrameKind.DTA == kind ? dta.form : null;
    }

    /**
     * @return offset of the BTH, or -1.
     */
    public int bthOffset()
    {
        return roce.bthOffset;
    }

    /**
     * @return the BTH opcode (also set for unknown opcodes), or -1.
     */
    public int roceOpcode()
    {
        return roce.roceOpcode;
    }

    /**
     * For RoCE: start of the payload after the extension headers. For DTA: start of the primitive's sub-header.
     *
     * @return the offset, or -1.
     */
    public int payloadOffset()
    {
        return FrameKind.DTA == kind ? dta.payloadOffset : FrameKind.ROCE == kind ? roce.payloadOffset : -1;
    }

    /**
     * For RoCE: payload bytes excluding pad and ICRC. For DTA: bytes from the sub-header to the end of the UDP
     * datagram.
     *
     * @return the length.
     */
    public int payloadLength()
    {
        return FrameKind.DTA == kind ? dta.payloadLength : FrameKind.ROCE == kind ? roce.payloadLength : 0;
    }

    /**
     * @return RoCE PadCnt.
     */
    public int padCount()
    {
        return FrameKind.ROCE == kind ? roce.padCount : 0;
    }

    /**
     * @return offset of the RoCE ICRC, or -1.
     */
    public int icrcOffset()
    {
        return FrameKind.ROCE == kind ? roce.icrcOffset : -1;
    }

    /**
     * @return Ethernet flyweight (wrapped once the frame had 14 bytes).
     */
    public EthernetFlyweight ethernet()
    {
        return walk.ethernet;
    }

    /**
     * @return IPv4 flyweight (valid when {@link #ipOffset()} is not -1).
     */
    public Ipv4Flyweight ipv4()
    {
        return walk.ipv4;
    }

    /**
     * @return UDP flyweight (valid when {@link #udpOffset()} is not -1).
     */
    public UdpFlyweight udp()
    {
        return walk.udp;
    }

    /**
     * @return DTA base header flyweight (valid for {@link FrameKind#DTA}).
     */
    public DtaBaseHeaderFlyweight dtaBase()
    {
        return dta.dtaBase;
    }

    /**
     * @return Key-Write flyweight (valid for a DTA Key-Write).
     */
    public KeyWriteFlyweight keyWrite()
    {
        return dta.keyWrite;
    }

    /**
     * @return Key-Increment flyweight (valid for a DTA Key-Increment).
     */
    public KeyIncrementFlyweight keyIncrement()
    {
        return dta.keyIncrement;
    }

    /**
     * @return Append flyweight (valid for a DTA Append).
     */
    public AppendFlyweight append()
    {
        return dta.append;
    }

    /**
     * @return Postcard flyweight (valid for a DTA Postcard).
     */
    public PostcardFlyweight postcard()
    {
        return dta.postcard;
    }

    /**
     * @return Sketch-Merge column flyweight (valid for a DTA Sketch-Merge report; all its counters are present).
     */
    public SketchColumnFlyweight sketchColumn()
    {
        return dta.sketchColumn;
    }

    /**
     * @return BTH flyweight (valid for {@link FrameKind#ROCE}).
     */
    public BthFlyweight bth()
    {
        return roce.bth;
    }

    /**
     * @return RETH flyweight (valid when {@link RoceOpcode#hasReth(int)}).
     */
    public RethFlyweight reth()
    {
        return roce.reth;
    }

    /**
     * @return AtomicETH flyweight (valid for FETCH_ADD / COMPARE_SWAP).
     */
    public AtomicEthFlyweight atomicEth()
    {
        return roce.atomicEth;
    }

    /**
     * @return DETH flyweight (valid when {@link RoceOpcode#hasDeth(int)}: UD SEND to QP1 carrying a CM MAD).
     */
    public DethFlyweight deth()
    {
        return roce.deth;
    }

    /**
     * @return AETH flyweight (valid when {@link RoceOpcode#hasAeth(int)}).
     */
    public AethFlyweight aeth()
    {
        return roce.aeth;
    }

    /**
     * @return AtomicAckETH flyweight (valid for ATOMIC ACKNOWLEDGE).
     */
    public AtomicAckEthFlyweight atomicAckEth()
    {
        return roce.atomicAckEth;
    }
}
