package io.dta.codec;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

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
 */
public final class FrameDecoder
{
    /** Default UDP destination port of DTA reports. */
    public static final int DEFAULT_DTA_PORT = 40040;

    private static final int UNKNOWN = 0;
    private static final int VALID = 1;
    private static final int INVALID = 2;

    private final EthernetFlyweight ethernet = new EthernetFlyweight();
    private final Ipv4Flyweight ipv4 = new Ipv4Flyweight();
    private final UdpFlyweight udp = new UdpFlyweight();
    private final DtaBaseHeaderFlyweight dtaBase = new DtaBaseHeaderFlyweight();
    private final KeyWriteFlyweight keyWrite = new KeyWriteFlyweight();
    private final KeyIncrementFlyweight keyIncrement = new KeyIncrementFlyweight();
    private final AppendFlyweight append = new AppendFlyweight();
    private final PostcardFlyweight postcard = new PostcardFlyweight();
    private final SketchColumnFlyweight sketchColumn = new SketchColumnFlyweight();
    private final BthFlyweight bth = new BthFlyweight();
    private final RethFlyweight reth = new RethFlyweight();
    private final AtomicEthFlyweight atomicEth = new AtomicEthFlyweight();
    private final AethFlyweight aeth = new AethFlyweight();
    private final AtomicAckEthFlyweight atomicAckEth = new AtomicAckEthFlyweight();
    private final DethFlyweight deth = new DethFlyweight();
    private final Icrc icrc = new Icrc();

    private int dtaPort = DEFAULT_DTA_PORT;
    private DtaBaseHeaderForm baseHeaderForm = DtaBaseHeaderForm.THREE;
    private int keyWriteDataLength = DtaOpcode.DEFAULT_KEY_WRITE_DATA_LENGTH;
    private boolean verifyUdpChecksum;

    private DirectBuffer buffer;
    private FrameKind kind = FrameKind.MALFORMED;
    private MalformedReason reason = MalformedReason.NONE;
    private int frameOffset;
    private int frameLength;
    private int vlanTagCount;
    private int etherType;
    private int ipOffset;
    private int ipEnd;
    private int udpOffset;
    private int udpLength;
    private int dtaOffset;
    private int dtaOpcode;
    private DtaBaseHeaderForm dtaForm;
    private int bthOffset;
    private int roceOpcode;
    private int payloadOffset;
    private int payloadLength;
    private int padCount;
    private int icrcOffset;
    private int ipChecksumState;
    private int udpChecksumState;
    private int icrcState;

    /**
     * @param port UDP destination port of DTA reports (default 40040).
     * @return this.
     */
    public FrameDecoder dtaPort(final int port)
    {
        this.dtaPort = port;
        return this;
    }

    /**
     * @return UDP destination port of DTA reports.
     */
    public int dtaPort()
    {
        return dtaPort;
    }

    /**
     * @param form base-header form, THREE (default), TWO or AUTO.
     * @return this.
     */
    public FrameDecoder baseHeaderForm(final DtaBaseHeaderForm form)
    {
        this.baseHeaderForm = form;
        return this;
    }

    /**
     * @return configured base-header form.
     */
    public DtaBaseHeaderForm baseHeaderForm()
    {
        return baseHeaderForm;
    }

    /**
     * @param length Key-Write data bytes, slotSize - 4 (default 4).
     * @return this.
     */
    public FrameDecoder keyWriteDataLength(final int length)
    {
        this.keyWriteDataLength = length;
        return this;
    }

    /**
     * @return configured Key-Write data length.
     */
    public int keyWriteDataLength()
    {
        return keyWriteDataLength;
    }

    /**
     * @param verify when true, a DTA or RoCEv2 datagram with a non-zero wrong UDP checksum is
     *               {@link MalformedReason#BAD_UDP_CHECKSUM} (default false: the reference generators send
     *               stale checksums).
     * @return this.
     */
    public FrameDecoder verifyUdpChecksum(final boolean verify)
    {
        this.verifyUdpChecksum = verify;
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
        vlanTagCount = 0;
        etherType = -1;
        ipOffset = -1;
        ipEnd = -1;
        udpOffset = -1;
        udpLength = -1;
        dtaOffset = -1;
        dtaOpcode = -1;
        bthOffset = -1;
        roceOpcode = -1;
        payloadOffset = -1;
        payloadLength = 0;
        padCount = 0;
        icrcOffset = -1;
        ipChecksumState = UNKNOWN;
        udpChecksumState = UNKNOWN;
        icrcState = UNKNOWN;
    }

    private FrameKind malformed(final MalformedReason reason)
    {
        this.reason = reason;
        return FrameKind.MALFORMED;
    }

    /*
     * The decode path is split into methods of under 325 bytecodes (C2's FreqInlineSize), so that the JIT inlines it
     * whole into the engine's frame handler instead of calling two large methods per frame, and header fields are
     * read straight from the buffer at their constant offsets rather than through the flyweights (the flyweights
     * are still wrapped for the caller). Together about 5 ns per report (docs/performance.md).
     */
    private FrameKind decodeFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        if (null == buffer || offset < 0 || length < 0 || offset > buffer.capacity() - length)
        {
            return malformed(MalformedReason.FRAME_OUT_OF_BUFFER);
        }
        if (length < EthernetFlyweight.HEADER_LENGTH)
        {
            return malformed(MalformedReason.TRUNCATED_ETHERNET);
        }
        ethernet.wrap(buffer, offset);
        final int end = offset + length;
        int typeOffset = offset + EthernetFlyweight.ETHER_TYPE_OFFSET;
        int type = buffer.getShort(typeOffset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        if (EthernetFlyweight.isVlanTpid(type))
        {
            typeOffset = vlanTypeOffset(buffer, typeOffset, end);
            if (typeOffset < 0)
            {
                return malformed(MalformedReason.TRUNCATED_ETHERNET);
            }
            type = buffer.getShort(typeOffset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        etherType = type;
        if (EthernetFlyweight.isVlanTpid(type) || type != EthernetFlyweight.ETHER_TYPE_IPV4)
        {
            return FrameKind.OTHER;
        }
        return decodeIpv4(buffer, typeOffset + 2, end);
    }

    /**
     * Walks up to {@link EthernetFlyweight#MAX_VLAN_TAGS} tags from the first one, counting them.
     *
     * @return the offset of the EtherType after the last tag walked, or -1 when the frame ends inside the tags.
     */
    private int vlanTypeOffset(final DirectBuffer buffer, final int firstTypeOffset, final int end)
    {
        int typeOffset = firstTypeOffset;
        int type = buffer.getShort(typeOffset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        int tags = 0;
        while (EthernetFlyweight.isVlanTpid(type) && tags < EthernetFlyweight.MAX_VLAN_TAGS)
        {
            typeOffset += EthernetFlyweight.VLAN_TAG_LENGTH;
            if (typeOffset + 2 > end)
            {
                return -1;
            }
            type = buffer.getShort(typeOffset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            tags++;
        }
        vlanTagCount = tags;
        return typeOffset;
    }

    private FrameKind decodeIpv4(final DirectBuffer buffer, final int ip, final int end)
    {
        if (end - ip < Ipv4Flyweight.MIN_HEADER_LENGTH)
        {
            return malformed(MalformedReason.TRUNCATED_IPV4);
        }
        ipv4.wrap(buffer, ip);
        final int versionAndIhl = buffer.getByte(ip + Ipv4Flyweight.VERSION_IHL_OFFSET) & 0xFF;
        if (versionAndIhl >>> 4 != 4)
        {
            return malformed(MalformedReason.BAD_IP_VERSION);
        }
        final int headerLength = (versionAndIhl & 0x0F) * 4;
        if (headerLength < Ipv4Flyweight.MIN_HEADER_LENGTH)
        {
            return malformed(MalformedReason.BAD_IHL);
        }
        if (end - ip < headerLength)
        {
            return malformed(MalformedReason.TRUNCATED_IPV4);
        }
        ipOffset = ip;
        final int totalLength = buffer.getShort(ip + Ipv4Flyweight.TOTAL_LENGTH_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        if (totalLength < headerLength)
        {
            return malformed(MalformedReason.BAD_IP_TOTAL_LENGTH);
        }
        if (totalLength > end - ip)
        {
            return truncatedDatagram(buffer, ip, headerLength, end);
        }
        ipEnd = ip + totalLength;
        if ((buffer.getByte(ip + Ipv4Flyweight.PROTOCOL_OFFSET) & 0xFF) != Ipv4Flyweight.PROTOCOL_UDP)
        {
            return FrameKind.OTHER;
        }
        final int fragment = buffer.getShort(ip + Ipv4Flyweight.FLAGS_FRAGMENT_OFFSET, ByteOrder.BIG_ENDIAN) &
            Ipv4Flyweight.FRAGMENT_MASK;
        if (0 != fragment)
        {
            return fragmented(buffer, fragment, ip + headerLength);
        }
        return decodeUdp(buffer, ip + headerLength);
    }

    /**
     * An IP datagram longer than the frame (a capture cut at its snap length, a lying total length) is classified as
     * it would be whole where the frame still tells: a protocol other than UDP, or a datagram or first fragment whose
     * UDP header names a port not served here, is someone else's ({@link FrameKind#OTHER}); a fragment that is ours
     * or whose port was cut away is {@link MalformedReason#FRAGMENTED}; an unfragmented datagram to a served port is
     * {@link MalformedReason#TRUNCATED_IPV4} with its UDP header wrapped ({@link #udpOffset()}), so the caller can
     * tell a report cut short from other damage, and so is an unfragmented one cut before its UDP header.
     */
    private FrameKind truncatedDatagram(final DirectBuffer buffer, final int ip, final int headerLength, final int end)
    {
        final int udpStart = ip + headerLength;
        if ((buffer.getByte(ip + Ipv4Flyweight.PROTOCOL_OFFSET) & 0xFF) != Ipv4Flyweight.PROTOCOL_UDP)
        {
            // The whole IPv4 header names another protocol: someone else's traffic, however much of it was captured.
            return FrameKind.OTHER;
        }
        final int fragment = buffer.getShort(ip + Ipv4Flyweight.FLAGS_FRAGMENT_OFFSET, ByteOrder.BIG_ENDIAN) &
            Ipv4Flyweight.FRAGMENT_MASK;
        if (0 != (fragment & Ipv4Flyweight.FRAGMENT_OFFSET_MASK))
        {
            // A later fragment is dropped as fragmented whole or cut: it carries no port to tell whose it is.
            return malformed(MalformedReason.FRAGMENTED);
        }
        if (end - udpStart >= UdpFlyweight.HEADER_LENGTH)
        {
            if (!served(buffer.getShort(udpStart + UdpFlyweight.DST_PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF))
            {
                return FrameKind.OTHER;
            }
            if (0 != fragment)
            {
                return malformed(MalformedReason.FRAGMENTED);
            }
            udp.wrap(buffer, udpStart);
            udpOffset = udpStart;
        }
        else if (0 != fragment)
        {
            // A first fragment cut inside its UDP header: a fragment whatever its port, dropped as one.
            return malformed(MalformedReason.FRAGMENTED);
        }
        return malformed(MalformedReason.TRUNCATED_IPV4);
    }

    /**
     * A first fragment carries the UDP header, so one to a port this decoder does not serve is someone else's
     * traffic ({@link FrameKind#OTHER}); later fragments carry no port, and are {@link MalformedReason#FRAGMENTED}
     * like first fragments to the DTA or RoCEv2 port.
     */
    private FrameKind fragmented(final DirectBuffer buffer, final int fragment, final int udpStart)
    {
        if (0 == (fragment & Ipv4Flyweight.FRAGMENT_OFFSET_MASK) && ipEnd - udpStart >= UdpFlyweight.HEADER_LENGTH &&
            !served(buffer.getShort(udpStart + UdpFlyweight.DST_PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF))
        {
            return FrameKind.OTHER;
        }
        return malformed(MalformedReason.FRAGMENTED);
    }

    private boolean served(final int dstPort)
    {
        return dstPort == dtaPort || dstPort == UdpFlyweight.ROCEV2_PORT;
    }

    private FrameKind decodeUdp(final DirectBuffer buffer, final int udpStart)
    {
        if (ipEnd - udpStart < UdpFlyweight.HEADER_LENGTH)
        {
            return malformed(MalformedReason.TRUNCATED_UDP);
        }
        udp.wrap(buffer, udpStart);
        udpOffset = udpStart;
        final int udpLen = buffer.getShort(udpStart + UdpFlyweight.LENGTH_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        final boolean lengthValid = udpLen >= UdpFlyweight.HEADER_LENGTH && udpLen <= ipEnd - udpStart;
        if (lengthValid)
        {
            udpLength = udpLen;
        }
        // The port before the length's verdict: a datagram to a port not served here is someone else's, whatever
        // its length says (its length is still given when valid).
        final int dstPort = buffer.getShort(udpStart + UdpFlyweight.DST_PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        final boolean isDta = dstPort == dtaPort;
        if (!isDta && dstPort != UdpFlyweight.ROCEV2_PORT)
        {
            return FrameKind.OTHER;
        }
        if (!lengthValid)
        {
            return malformed(MalformedReason.BAD_UDP_LENGTH);
        }

        if (verifyUdpChecksum && !udpChecksumValid())
        {
            return malformed(MalformedReason.BAD_UDP_CHECKSUM);
        }

        return isDta ? decodeDta(buffer) : decodeRoce(buffer);
    }

    private FrameKind decodeDta(final DirectBuffer buffer)
    {
        final int start = udpOffset + UdpFlyweight.HEADER_LENGTH;
        final int available = udpLength - UdpFlyweight.HEADER_LENGTH;
        if (available < 1)
        {
            return malformed(MalformedReason.TRUNCATED_DTA);
        }
        dtaOffset = start;
        final int opcode = buffer.getByte(start) & 0xFF;
        dtaOpcode = opcode;
        if (!DtaOpcode.isKnown(opcode))
        {
            return malformed(MalformedReason.UNKNOWN_DTA_OPCODE);
        }

        final int subLength = DtaOpcode.SKETCH_MERGE == opcode ?
            sketchSubHeaderLength(buffer, start, available) : DtaOpcode.subHeaderLength(opcode, keyWriteDataLength);
        if (subLength < 0)
        {
            return malformed(MalformedReason.TRUNCATED_DTA);
        }
        final DtaBaseHeaderForm form = DtaBaseHeaderForm.AUTO == baseHeaderForm ?
            formByLength(available, subLength) : baseHeaderForm;
        if (null == form)
        {
            return malformed(available < DtaBaseHeaderForm.TWO.length() + subLength ?
                MalformedReason.TRUNCATED_DTA : MalformedReason.BAD_DTA_LENGTH);
        }
        final int baseLength = form.length();
        if (available < baseLength + subLength)
        {
            return malformed(MalformedReason.TRUNCATED_DTA);
        }
        if (available > baseLength + subLength && DtaOpcode.KEY_WRITE != opcode)
        {
            // Every primitive has a fixed size (translation.md §1), and the UDP length, not the frame, says where the
            // report ends (Ethernet padding is outside it): more bytes than the size is a report of another shape,
            // for example the three-byte form under a configured two-byte form, whose fields would be misread. A
            // Sketch-Merge column's size is fixed by its rows byte: counters beyond its rows are no column of it.
            return malformed(MalformedReason.BAD_DTA_LENGTH);
        }

        if (dtaForm != form)
        {
            dtaForm = form;
        }
        dtaBase.wrap(buffer, start, form);
        final int sub = start + baseLength;
        payloadOffset = sub;
        payloadLength = start + available - sub;
        wrapPrimitive(buffer, opcode, sub);
        return FrameKind.DTA;
    }

    /**
     * Under {@code baseHeader: auto}: the form whose length, with the primitive's, is the payload's.
     *
     * @return the form, or null when neither fits.
     */
    private static DtaBaseHeaderForm formByLength(final int available, final int subLength)
    {
        if (available == DtaBaseHeaderForm.THREE.length() + subLength)
        {
            return DtaBaseHeaderForm.THREE;
        }
        if (available == DtaBaseHeaderForm.TWO.length() + subLength)
        {
            return DtaBaseHeaderForm.TWO;
        }
        return null;
    }

    private void wrapPrimitive(final DirectBuffer buffer, final int opcode, final int sub)
    {
        switch (opcode)
        {
            case DtaOpcode.KEY_WRITE -> keyWrite.wrap(buffer, sub, keyWriteDataLength);
            case DtaOpcode.APPEND -> append.wrap(buffer, sub);
            case DtaOpcode.KEY_INCREMENT -> keyIncrement.wrap(buffer, sub);
            case DtaOpcode.POSTCARD -> postcard.wrap(buffer, sub);
            case DtaOpcode.SKETCH_MERGE -> sketchColumn.wrap(buffer, sub);
            default ->
            {
            }
        }
    }

    /**
     * The Sketch-Merge sub-header's length depends on its rows byte, whose position depends on the base-header
     * form. Under a fixed form the rows byte is read there; under AUTO the three-byte form is preferred when its
     * reading is consistent with the payload length, as for the fixed-length primitives.
     *
     * @return the sub-header length, or -1 when even its fixed part is missing.
     */
    private int sketchSubHeaderLength(final DirectBuffer buffer, final int start, final int available)
    {
        if (baseHeaderForm != DtaBaseHeaderForm.AUTO)
        {
            final int base = baseHeaderForm.length();
            if (available < base + SketchColumnFlyweight.FIXED_LENGTH)
            {
                return -1;
            }
            return SketchColumnFlyweight.length(
                buffer.getByte(start + base + SketchColumnFlyweight.ROWS_OFFSET) & 0xFF);
        }

        final int three = DtaBaseHeaderForm.THREE.length();
        if (available >= three + SketchColumnFlyweight.FIXED_LENGTH)
        {
            final int length = SketchColumnFlyweight.length(
                buffer.getByte(start + three + SketchColumnFlyweight.ROWS_OFFSET) & 0xFF);
            if (available == three + length)
            {
                return length;
            }
        }
        final int two = DtaBaseHeaderForm.TWO.length();
        if (available >= two + SketchColumnFlyweight.FIXED_LENGTH)
        {
            return SketchColumnFlyweight.length(
                buffer.getByte(start + two + SketchColumnFlyweight.ROWS_OFFSET) & 0xFF);
        }
        return -1;
    }

    private void wrapExtensions(final DirectBuffer buffer, final int opcode, final int ext)
    {
        if (RoceOpcode.hasReth(opcode))
        {
            reth.wrap(buffer, ext);
        }
        else if (RoceOpcode.hasAtomicEth(opcode))
        {
            atomicEth.wrap(buffer, ext);
        }
        else if (RoceOpcode.hasDeth(opcode))
        {
            deth.wrap(buffer, ext);
        }
        else if (RoceOpcode.hasAeth(opcode))
        {
            aeth.wrap(buffer, ext);
            if (opcode == RoceOpcode.RC_ATOMIC_ACKNOWLEDGE)
            {
                atomicAckEth.wrap(buffer, ext + AethFlyweight.LENGTH);
            }
        }
    }

    private FrameKind decodeRoce(final DirectBuffer buffer)
    {
        final int start = udpOffset + UdpFlyweight.HEADER_LENGTH;
        final int end = udpOffset + udpLength;
        if (end - start < BthFlyweight.LENGTH + Icrc.LENGTH)
        {
            return malformed(MalformedReason.TRUNCATED_BTH);
        }
        bthOffset = start;
        bth.wrap(buffer, start);
        final int opcode = buffer.getByte(start + BthFlyweight.OPCODE_OFFSET) & 0xFF;
        final int flags = buffer.getByte(start + BthFlyweight.FLAGS_OFFSET) & 0xFF;
        roceOpcode = opcode;
        if ((flags & 0x0F) != 0) // TVer
        {
            return malformed(MalformedReason.BAD_TVER);
        }
        final int extLength = RoceOpcode.headerLengthAfterBth(opcode);
        if (extLength < 0)
        {
            return malformed(MalformedReason.UNKNOWN_ROCE_OPCODE);
        }
        final int payloadStart = start + BthFlyweight.LENGTH + extLength;
        final int icrcStart = end - Icrc.LENGTH;
        if (payloadStart > icrcStart)
        {
            return malformed(MalformedReason.TRUNCATED_ROCE_HEADERS);
        }

        final int pad = (flags >>> 4) & 0x3;
        final int raw = icrcStart - payloadStart;
        if (RoceOpcode.carriesPayload(opcode))
        {
            if (pad > raw)
            {
                return malformed(MalformedReason.BAD_PAD);
            }
        }
        else
        {
            if (pad != 0)
            {
                return malformed(MalformedReason.BAD_PAD);
            }
            if (raw != 0)
            {
                return malformed(MalformedReason.UNEXPECTED_ROCE_PAYLOAD);
            }
        }

        padCount = pad;
        payloadOffset = payloadStart;
        payloadLength = raw - pad;
        icrcOffset = icrcStart;

        wrapExtensions(buffer, opcode, start + BthFlyweight.LENGTH);
        return FrameKind.ROCE;
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
        if (ipChecksumState == UNKNOWN)
        {
            ipChecksumState = ipOffset >= 0 && ipv4.isChecksumValid() ? VALID : INVALID;
        }

        return ipChecksumState == VALID;
    }

    /**
     * UDP checksum verdict (a zero checksum means "none" and is valid), computed on first call after a decode.
     *
     * @return true if a complete UDP datagram was found and its checksum is absent or correct.
     */
    public boolean udpChecksumValid()
    {
        if (udpChecksumState == UNKNOWN)
        {
            udpChecksumState = udpLength >= UdpFlyweight.HEADER_LENGTH &&
                UdpFlyweight.isIpv4ChecksumValid(buffer, ipOffset, udpOffset, udpLength) ? VALID : INVALID;
        }

        return udpChecksumState == VALID;
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
            icrcState = kind == FrameKind.ROCE && icrc.verify(buffer, ipOffset, udpOffset + udpLength) ?
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
            icrcState = kind == FrameKind.ROCE && stream.verify(buffer, ipOffset, udpOffset + udpLength) ?
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
        return vlanTagCount;
    }

    /**
     * @return the EtherType after the VLAN tags, or -1 if not reached.
     */
    public int etherType()
    {
        return etherType;
    }

    /**
     * @return offset of the IPv4 header, or -1.
     */
    public int ipOffset()
    {
        return ipOffset;
    }

    /**
     * @return end of the IP datagram (exclusive; Ethernet padding excluded), or -1.
     */
    public int ipEnd()
    {
        return ipEnd;
    }

    /**
     * @return offset of the UDP header, or -1.
     */
    public int udpOffset()
    {
        return udpOffset;
    }

    /**
     * @return UDP length (validated), or -1.
     */
    public int udpLength()
    {
        return udpLength;
    }

    /**
     * @return offset of the DTA base header, or -1.
     */
    public int dtaOffset()
    {
        return dtaOffset;
    }

    /**
     * @return the DTA opcode (also set for {@link MalformedReason#UNKNOWN_DTA_OPCODE}), or -1.
     */
    public int dtaOpcode()
    {
        return dtaOpcode;
    }

    /**
     * @return the base-header form used for the last DTA report (resolved when AUTO), or null.
     */
    public DtaBaseHeaderForm dtaBaseHeaderForm()
    {
        return FrameKind.DTA == kind ? dtaForm : null;
    }

    /**
     * @return offset of the BTH, or -1.
     */
    public int bthOffset()
    {
        return bthOffset;
    }

    /**
     * @return the BTH opcode (also set for unknown opcodes), or -1.
     */
    public int roceOpcode()
    {
        return roceOpcode;
    }

    /**
     * For RoCE: start of the payload after the extension headers. For DTA: start of the primitive's sub-header.
     *
     * @return the offset, or -1.
     */
    public int payloadOffset()
    {
        return payloadOffset;
    }

    /**
     * For RoCE: payload bytes excluding pad and ICRC. For DTA: bytes from the sub-header to the end of the UDP
     * datagram.
     *
     * @return the length.
     */
    public int payloadLength()
    {
        return payloadLength;
    }

    /**
     * @return RoCE PadCnt.
     */
    public int padCount()
    {
        return padCount;
    }

    /**
     * @return offset of the RoCE ICRC, or -1.
     */
    public int icrcOffset()
    {
        return icrcOffset;
    }

    /**
     * @return Ethernet flyweight (wrapped once the frame had 14 bytes).
     */
    public EthernetFlyweight ethernet()
    {
        return ethernet;
    }

    /**
     * @return IPv4 flyweight (valid when {@link #ipOffset()} is not -1).
     */
    public Ipv4Flyweight ipv4()
    {
        return ipv4;
    }

    /**
     * @return UDP flyweight (valid when {@link #udpOffset()} is not -1).
     */
    public UdpFlyweight udp()
    {
        return udp;
    }

    /**
     * @return DTA base header flyweight (valid for {@link FrameKind#DTA}).
     */
    public DtaBaseHeaderFlyweight dtaBase()
    {
        return dtaBase;
    }

    /**
     * @return Key-Write flyweight (valid for a DTA Key-Write).
     */
    public KeyWriteFlyweight keyWrite()
    {
        return keyWrite;
    }

    /**
     * @return Key-Increment flyweight (valid for a DTA Key-Increment).
     */
    public KeyIncrementFlyweight keyIncrement()
    {
        return keyIncrement;
    }

    /**
     * @return Append flyweight (valid for a DTA Append).
     */
    public AppendFlyweight append()
    {
        return append;
    }

    /**
     * @return Postcard flyweight (valid for a DTA Postcard).
     */
    public PostcardFlyweight postcard()
    {
        return postcard;
    }

    /**
     * @return Sketch-Merge column flyweight (valid for a DTA Sketch-Merge report; all its counters are present).
     */
    public SketchColumnFlyweight sketchColumn()
    {
        return sketchColumn;
    }

    /**
     * @return BTH flyweight (valid for {@link FrameKind#ROCE}).
     */
    public BthFlyweight bth()
    {
        return bth;
    }

    /**
     * @return RETH flyweight (valid when {@link RoceOpcode#hasReth(int)}).
     */
    public RethFlyweight reth()
    {
        return reth;
    }

    /**
     * @return AtomicETH flyweight (valid for FETCH_ADD / COMPARE_SWAP).
     */
    public AtomicEthFlyweight atomicEth()
    {
        return atomicEth;
    }

    /**
     * @return DETH flyweight (valid when {@link RoceOpcode#hasDeth(int)}: UD SEND to QP1 carrying a CM MAD).
     */
    public DethFlyweight deth()
    {
        return deth;
    }

    /**
     * @return AETH flyweight (valid when {@link RoceOpcode#hasAeth(int)}).
     */
    public AethFlyweight aeth()
    {
        return aeth;
    }

    /**
     * @return AtomicAckETH flyweight (valid for ATOMIC ACKNOWLEDGE).
     */
    public AtomicAckEthFlyweight atomicAckEth()
    {
        return atomicAckEth;
    }
}
