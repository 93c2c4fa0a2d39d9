package io.dta.appliance.engine;

import io.dta.codec.BthFlyweight;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.Icrc;
import io.dta.codec.Ipv4Flyweight;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.codec.UdpFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Builds the engine's outgoing RoCEv2 frames (translation.md §4) with the codec's encoder: the appliance's
 * addressing and QoS marking, then one QP's addressing, PSN and operation, ICRC always computed.
 * <p>
 * The IPv4 identification is the low 16 bits of the PSN: predictable for anyone checking our frames, varying
 * from frame to frame, and irrelevant to reassembly since DF is set.
 */
public final class RoceFrameBuilder
{
    private static final int BTH_OFFSET =
        EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.MIN_HEADER_LENGTH + UdpFlyweight.HEADER_LENGTH;
    private static final int ACK_REQ_OFFSET = BTH_OFFSET + 8;

    private final RoceFrameEncoder encoder = new RoceFrameEncoder();
    private final Icrc icrc = new Icrc();

    /**
     * @param sourceMac appliance MAC.
     * @param sourceIp  appliance IPv4 address.
     * @param tos       IPv4 TOS byte (DSCP and ECN).
     * @param ttl       IPv4 TTL.
     * @param pKey      BTH P_Key.
     */
    public RoceFrameBuilder(final long sourceMac, final int sourceIp, final int tos, final int ttl, final int pKey)
    {
        encoder.srcMac(sourceMac).srcIp(sourceIp).tos(tos).ttl(ttl).pKey(pKey).dontFragment(true).migReq(true)
            .dstPort(4791);
    }

    /**
     * Writes an RDMA WRITE Only frame.
     *
     * @param dst           destination buffer.
     * @param offset        where the frame starts.
     * @param path          the QP.
     * @param psn           the packet's PSN.
     * @param ackReq        AckReq bit.
     * @param address       remote virtual address.
     * @param payload       payload bytes.
     * @param payloadOffset payload offset.
     * @param payloadLength payload length (0 for a probe).
     * @return frame length.
     */
    public int writeOnly(
        final MutableDirectBuffer dst,
        final int offset,
        final QpPath path,
        final int psn,
        final boolean ackReq,
        final long address,
        final DirectBuffer payload,
        final int payloadOffset,
        final int payloadLength)
    {
        addressing(path, psn, ackReq).opcode(RoceOpcode.RC_RDMA_WRITE_ONLY)
            .virtualAddress(address).rKey(path.rkey() & 0xFFFFFFFFL).dmaLength(payloadLength);
        if (payloadLength > 0)
        {
            encoder.payload(payload, payloadOffset, payloadLength);
        }
        else
        {
            encoder.noPayload();
        }
        return encoder.encode(dst, offset);
    }

    /**
     * Writes a FETCH_ADD frame (compare data 0).
     *
     * @param dst     destination buffer.
     * @param offset  where the frame starts.
     * @param path    the QP.
     * @param psn     the packet's PSN.
     * @param ackReq  AckReq bit.
     * @param address remote virtual address (8-byte aligned).
     * @param addend  value to add.
     * @return frame length.
     */
    public int fetchAdd(
        final MutableDirectBuffer dst,
        final int offset,
        final QpPath path,
        final int psn,
        final boolean ackReq,
        final long address,
        final long addend)
    {
        addressing(path, psn, ackReq).opcode(RoceOpcode.RC_FETCH_ADD)
            .virtualAddress(address).rKey(path.rkey() & 0xFFFFFFFFL).swapAddData(addend).compareData(0).noPayload();
        return encoder.encode(dst, offset);
    }

    /**
     * Sets AckReq on a frame this builder wrote and refreshes its ICRC (AckReq is covered by it).
     *
     * @param frame  the frame.
     * @param offset where it starts.
     * @param length its length.
     */
    public void requestAck(final MutableDirectBuffer frame, final int offset, final int length)
    {
        final int at = offset + ACK_REQ_OFFSET;
        frame.putByte(at, (byte)(frame.getByte(at) | 0x80));
        icrc.write(frame, offset + EthernetFlyweight.HEADER_LENGTH, offset + length - Icrc.LENGTH);
    }

    private RoceFrameEncoder addressing(final QpPath path, final int psn, final boolean ackReq)
    {
        return encoder.dstMac(path.collectorMac()).dstIp(path.collectorIp()).srcPort(path.udpSourcePort())
            .destQp(path.remoteQpn()).psn(psn).ackReq(ackReq).identification(psn & 0xFFFF);
    }

    static int bthOffset()
    {
        return BTH_OFFSET;
    }
}
