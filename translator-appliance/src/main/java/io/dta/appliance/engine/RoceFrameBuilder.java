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
 * Builds one QP's outgoing RoCEv2 frames (translation.md §4) with the codec's encoder: the appliance's and the
 * QP's addressing are set once, each frame then only sets PSN, AckReq and the operation; ICRC always computed.
 * One builder per QP also keeps the ICRC calculator's view of the QP's frame buffer cached.
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
    private final QpPath path;

    /**
     * @param sourceMac appliance MAC.
     * @param sourceIp  appliance IPv4 address.
     * @param tos       IPv4 TOS byte (DSCP and ECN).
     * @param ttl       IPv4 TTL.
     * @param pKey      BTH P_Key.
     * @param path      the QP.
     */
    public RoceFrameBuilder(
        final long sourceMac, final int sourceIp, final int tos, final int ttl, final int pKey, final QpPath path)
    {
        this.path = path;
        encoder.srcMac(sourceMac).srcIp(sourceIp).tos(tos).ttl(ttl).pKey(pKey).dontFragment(true).migReq(true)
            .dstPort(4791).dstMac(path.collectorMac()).dstIp(path.collectorIp()).srcPort(path.udpSourcePort())
            .destQp(path.remoteQpn()).rKey(path.rkey() & 0xFFFFFFFFL);
    }

    /**
     * @return the QP this builder writes for.
     */
    public QpPath path()
    {
        return path;
    }

    /**
     * Writes an RDMA WRITE Only frame.
     *
     * @param dst           destination buffer.
     * @param offset        where the frame starts.
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
        final int psn,
        final boolean ackReq,
        final long address,
        final DirectBuffer payload,
        final int payloadOffset,
        final int payloadLength)
    {
        encoder.psn(psn).ackReq(ackReq).identification(psn & 0xFFFF).opcode(RoceOpcode.RC_RDMA_WRITE_ONLY)
            .virtualAddress(address).dmaLength(payloadLength);
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
     * @param psn     the packet's PSN.
     * @param ackReq  AckReq bit.
     * @param address remote virtual address (8-byte aligned).
     * @param addend  value to add.
     * @return frame length.
     */
    public int fetchAdd(
        final MutableDirectBuffer dst,
        final int offset,
        final int psn,
        final boolean ackReq,
        final long address,
        final long addend)
    {
        encoder.psn(psn).ackReq(ackReq).identification(psn & 0xFFFF).opcode(RoceOpcode.RC_FETCH_ADD)
            .virtualAddress(address).swapAddData(addend).compareData(0).noPayload();
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

    static int bthOffset()
    {
        return BTH_OFFSET;
    }
}
