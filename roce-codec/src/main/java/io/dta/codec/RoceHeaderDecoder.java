package io.dta.codec;

import org.agrona.DirectBuffer;

/**
 * The RoCEv2 headers in a UDP datagram to port 4791: BTH (TVer, known opcode), the opcode's extension headers, pad
 * and payload against the ICRC, and the flyweights of those headers. Part of {@link FrameDecoder}, which reads the
 * fields below after a decode; allocates nothing.
 */
final class RoceHeaderDecoder
{
    final BthFlyweight bth = new BthFlyweight();
    final RethFlyweight reth = new RethFlyweight();
    final AtomicEthFlyweight atomicEth = new AtomicEthFlyweight();
    final AethFlyweight aeth = new AethFlyweight();
    final AtomicAckEthFlyweight atomicAckEth = new AtomicAckEthFlyweight();
    final DethFlyweight deth = new DethFlyweight();

    /** Offset of the BTH, or -1 when the datagram had none. */
    int bthOffset;
    /** The BTH opcode (also of an unknown one), or -1. */
    int roceOpcode;
    /** PadCnt, with the three fields after it set for a packet decoded whole. */
    int padCount;
    /** Start of the payload after the extension headers. */
    int payloadOffset;
    /** Payload bytes excluding pad and ICRC. */
    int payloadLength;
    /** Offset of the ICRC. */
    int icrcOffset;

    /**
     * Forget the previous frame's headers.
     */
    void reset()
    {
        bthOffset = -1;
        roceOpcode = -1;
    }

    /**
     * Decode the RoCEv2 headers in a UDP datagram to port 4791 and wrap their flyweights.
     *
     * @param buffer    holding the frame.
     * @param udpOffset offset of the UDP header.
     * @param udpLength the datagram's UDP length, already checked against the IP datagram.
     * @return {@link MalformedReason#NONE} for a RoCEv2 packet, else why it is malformed.
     */
    MalformedReason decode(final DirectBuffer buffer, final int udpOffset, final int udpLength)
    {
        final int start = udpOffset + UdpFlyweight.HEADER_LENGTH;
        final int end = udpOffset + udpLength;
        if (end - start < BthFlyweight.LENGTH + Icrc.LENGTH)
        {
            return MalformedReason.TRUNCATED_BTH;
        }
        bthOffset = start;
        bth.wrap(buffer, start);
        final int opcode = buffer.getByte(start + BthFlyweight.OPCODE_OFFSET) & 0xFF;
        final int flags = buffer.getByte(start + BthFlyweight.FLAGS_OFFSET) & 0xFF;
        roceOpcode = opcode;
        if ((flags & 0x0F) != 0) // TVer
        {
            return MalformedReason.BAD_TVER;
        }
        final int extLength = RoceOpcode.headerLengthAfterBth(opcode);
        if (extLength < 0)
        {
            return MalformedReason.UNKNOWN_ROCE_OPCODE;
        }
        final int payloadStart = start + BthFlyweight.LENGTH + extLength;
        final int icrcStart = end - Icrc.LENGTH;
        if (payloadStart > icrcStart)
        {
            return MalformedReason.TRUNCATED_ROCE_HEADERS;
        }

        final int pad = (flags >>> 4) & 0x3;
        final int raw = icrcStart - payloadStart;
        if (RoceOpcode.carriesPayload(opcode))
        {
            if (pad > raw)
            {
                return MalformedReason.BAD_PAD;
            }
        }
        else
        {
            if (pad != 0)
            {
                return MalformedReason.BAD_PAD;
            }
            if (raw != 0)
            {
                return MalformedReason.UNEXPECTED_ROCE_PAYLOAD;
            }
        }

        padCount = pad;
        payloadOffset = payloadStart;
        payloadLength = raw - pad;
        icrcOffset = icrcStart;

        wrapExtensions(buffer, opcode, start + BthFlyweight.LENGTH);
        return MalformedReason.NONE;
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
}
