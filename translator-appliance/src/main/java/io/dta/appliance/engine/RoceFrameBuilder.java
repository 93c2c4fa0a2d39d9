package io.dta.appliance.engine;

import io.dta.codec.AtomicEthFlyweight;
import io.dta.codec.BthFlyweight;
import io.dta.codec.Checksums;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.Icrc;
import io.dta.codec.Ipv4Flyweight;
import io.dta.codec.RethFlyweight;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.codec.UdpFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Builds one QP's outgoing RoCEv2 frames (translation.md §4). Everything constant for the QP — the appliance's
 * and the collector's addressing, QoS marking, UDP ports, DestQP, P_Key, R_Key — is encoded once by the codec's
 * {@link RoceFrameEncoder} into a template per operation; a frame is then the template copied in one move and
 * patched: lengths, IPv4 identification and checksum (incrementally from the template's partial sum), PSN and
 * AckReq, address, payload and pad, and finally the ICRC, always computed. One builder per QP also keeps the ICRC
 * calculator's view of the QP's frame buffer cached.
 * <p>
 * The IPv4 identification is the low 16 bits of the PSN: predictable for anyone checking our frames, varying
 * from frame to frame, and irrelevant to reassembly since DF is set.
 */
public final class RoceFrameBuilder
{
    private static final int IP_OFFSET = EthernetFlyweight.HEADER_LENGTH;
    private static final int UDP_OFFSET = IP_OFFSET + Ipv4Flyweight.MIN_HEADER_LENGTH;
    private static final int BTH_OFFSET = UDP_OFFSET + UdpFlyweight.HEADER_LENGTH;
    private static final int EXT_OFFSET = BTH_OFFSET + BthFlyweight.LENGTH;
    private static final int WRITE_HEADERS = EXT_OFFSET + RethFlyweight.LENGTH;
    private static final int FETCH_ADD_HEADERS = EXT_OFFSET + AtomicEthFlyweight.LENGTH;
    private static final int ACK_REQ_OFFSET = BTH_OFFSET + BthFlyweight.ACK_REQ_OFFSET;

    private final Icrc icrc = new Icrc();
    private final QpPath path;
    private final UnsafeBuffer writeTemplate = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private final UnsafeBuffer fetchAddTemplate = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private final long writeIpSum;
    private final long fetchAddIpSum;
    private final int fetchAddTotalLength;
    private final byte migReqFlags;

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
        final RoceFrameEncoder encoder = new RoceFrameEncoder()
            .srcMac(sourceMac).srcIp(sourceIp).tos(tos).ttl(ttl).pKey(pKey).dontFragment(true).migReq(true)
            .dstPort(4791).dstMac(path.collectorMac()).dstIp(path.collectorIp()).srcPort(path.udpSourcePort())
            .destQp(path.remoteQpn()).rKey(path.rkey() & 0xFFFFFFFFL).psn(0).ackReq(false).identification(0)
            .virtualAddress(0);
        encoder.opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).dmaLength(0).noPayload().encode(writeTemplate, 0);
        fetchAddTotalLength = encoder.opcode(RoceOpcode.RC_FETCH_ADD).swapAddData(0).compareData(0).noPayload()
            .encode(fetchAddTemplate, 0) - IP_OFFSET;
        writeIpSum = partialIpSum(writeTemplate);
        fetchAddIpSum = partialIpSum(fetchAddTemplate);
        migReqFlags = writeTemplate.getByte(BTH_OFFSET + BthFlyweight.FLAGS_OFFSET);
    }

    /**
     * The ones'-complement sum of a template's IPv4 header without its length, identification and checksum, so
     * that a frame's checksum costs two additions and a fold.
     */
    private static long partialIpSum(final UnsafeBuffer template)
    {
        template.putShort(IP_OFFSET + Ipv4Flyweight.TOTAL_LENGTH_OFFSET, (short)0);
        template.putShort(IP_OFFSET + Ipv4Flyweight.CHECKSUM_OFFSET, (short)0);
        return Checksums.sum(template, IP_OFFSET, Ipv4Flyweight.MIN_HEADER_LENGTH, 0);
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
        final int pad = -payloadLength & 3;
        final int icrcOffset = WRITE_HEADERS + payloadLength + pad;
        dst.putBytes(offset, writeTemplate, 0, WRITE_HEADERS);
        ipAndUdp(dst, offset, icrcOffset + Icrc.LENGTH - IP_OFFSET, psn, writeIpSum);
        dst.putByte(offset + BTH_OFFSET + BthFlyweight.FLAGS_OFFSET, (byte)(migReqFlags | (pad << 4)));
        dst.putInt(offset + ACK_REQ_OFFSET, (ackReq ? 0x8000_0000 : 0) | psn, ByteOrder.BIG_ENDIAN);
        dst.putLong(offset + EXT_OFFSET + RethFlyweight.VIRTUAL_ADDRESS_OFFSET, address, ByteOrder.BIG_ENDIAN);
        dst.putInt(offset + EXT_OFFSET + RethFlyweight.DMA_LENGTH_OFFSET, payloadLength, ByteOrder.BIG_ENDIAN);
        if (payloadLength > 0)
        {
            dst.putBytes(offset + WRITE_HEADERS, payload, payloadOffset, payloadLength);
            if (pad > 0)
            {
                dst.setMemory(offset + WRITE_HEADERS + payloadLength, pad, (byte)0);
            }
        }
        icrc.writeInPlace(dst, offset + IP_OFFSET, offset + icrcOffset);
        return icrcOffset + Icrc.LENGTH;
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
        dst.putBytes(offset, fetchAddTemplate, 0, FETCH_ADD_HEADERS);
        ipAndUdp(dst, offset, fetchAddTotalLength, psn, fetchAddIpSum);
        dst.putInt(offset + ACK_REQ_OFFSET, (ackReq ? 0x8000_0000 : 0) | psn, ByteOrder.BIG_ENDIAN);
        dst.putLong(offset + EXT_OFFSET + AtomicEthFlyweight.VIRTUAL_ADDRESS_OFFSET, address, ByteOrder.BIG_ENDIAN);
        dst.putLong(offset + EXT_OFFSET + AtomicEthFlyweight.SWAP_ADD_DATA_OFFSET, addend, ByteOrder.BIG_ENDIAN);
        icrc.writeInPlace(dst, offset + IP_OFFSET, offset + FETCH_ADD_HEADERS);
        return FETCH_ADD_HEADERS + Icrc.LENGTH;
    }

    private static void ipAndUdp(
        final MutableDirectBuffer dst, final int offset, final int totalLength, final int psn, final long partialSum)
    {
        final int identification = psn & 0xFFFF;
        dst.putShort(offset + IP_OFFSET + Ipv4Flyweight.TOTAL_LENGTH_OFFSET, (short)totalLength, ByteOrder.BIG_ENDIAN);
        dst.putShort(offset + IP_OFFSET + Ipv4Flyweight.IDENTIFICATION_OFFSET, (short)identification,
            ByteOrder.BIG_ENDIAN);
        final int checksum = ~Checksums.fold(partialSum + totalLength + identification) & 0xFFFF;
        dst.putShort(offset + IP_OFFSET + Ipv4Flyweight.CHECKSUM_OFFSET, (short)checksum, ByteOrder.BIG_ENDIAN);
        dst.putShort(offset + UDP_OFFSET + UdpFlyweight.LENGTH_OFFSET,
            (short)(totalLength - Ipv4Flyweight.MIN_HEADER_LENGTH), ByteOrder.BIG_ENDIAN);
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
        icrc.writeInPlace(frame, offset + IP_OFFSET, offset + length - Icrc.LENGTH);
    }
}
