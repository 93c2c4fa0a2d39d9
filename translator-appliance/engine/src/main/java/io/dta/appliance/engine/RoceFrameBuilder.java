package io.dta.appliance.engine;

import io.dta.codec.AtomicEthFlyweight;
import io.dta.codec.BthFlyweight;
import io.dta.codec.Checksums;
import io.dta.codec.Crc32Register;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.Icrc;
import io.dta.codec.Ipv4Flyweight;
import io.dta.codec.RethFlyweight;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.codec.ShortCopy;
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
 * AckReq, address, payload and pad, and finally the ICRC, always computed.
 * <p>
 * The ICRC is not computed over the frame's bytes either. CRC-32 without its initial value and final inversion is
 * linear, so the CRC register after the first 64 covered bytes (pseudo-LRH to the end of the RETH, or to the
 * middle of the AtomicETH) is the register of the template with the variant fields zeroed — precomputed, per
 * payload length for WRITEs — XOR one table entry per variant byte (IPv4 identification, AckReq and PSN, remote
 * address): fourteen independent loads instead of a dependent chain over 64 bytes. Only the payload (and the
 * atomic operands) are then fed through {@link Crc32Register}, from registers or from the payload's own buffer,
 * never read back from the frame just written. Setting AckReq on a built frame is likewise one XOR of a
 * per-length constant into its ICRC.
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

    /**
     * The covered bytes start 8 bytes (the pseudo-LRH) before the IPv4 header; the precomputed register stands
     * after covered byte 64, the end of a WRITE's RETH.
     */
    private static final int COVERED_BEFORE_IP = 8;
    private static final int BASE_END = 64;
    private static final int BASE_END_OFFSET = BASE_END - COVERED_BEFORE_IP + IP_OFFSET;
    private static final int ID_AT = COVERED_BEFORE_IP + Ipv4Flyweight.IDENTIFICATION_OFFSET;
    private static final int PSN_WORD_AT = COVERED_BEFORE_IP + Ipv4Flyweight.MIN_HEADER_LENGTH +
        UdpFlyweight.HEADER_LENGTH + BthFlyweight.ACK_REQ_OFFSET;
    private static final int ADDRESS_AT = PSN_WORD_AT + 4;

    // Identification is the PSN's low 16 bits, so the PSN's two low bytes each move two covered bytes: one table
    // for both. The PSN word's top byte only carries AckReq (0x80 or 0): one constant.
    private static final int[] PSN_HIGH = table(PSN_WORD_AT + 1);
    private static final int[] PSN_MID = merged(table(PSN_WORD_AT + 2), table(ID_AT));
    private static final int[] PSN_LOW = merged(table(PSN_WORD_AT + 3), table(ID_AT + 1));
    private static final int ACK_REQ_VARIANT = table(PSN_WORD_AT)[0x80];
    private static final int[] VA_0 = table(ADDRESS_AT);
    private static final int[] VA_1 = table(ADDRESS_AT + 1);
    private static final int[] VA_2 = table(ADDRESS_AT + 2);
    private static final int[] VA_3 = table(ADDRESS_AT + 3);
    private static final int[] VA_4 = table(ADDRESS_AT + 4);
    private static final int[] VA_5 = table(ADDRESS_AT + 5);
    private static final int[] VA_6 = table(ADDRESS_AT + 6);
    private static final int[] VA_7 = table(ADDRESS_AT + 7);
    private static final int ACK_REQ_REGISTER = Crc32Register.updateByte(0, 0x80);

    private final QpPath path;
    private final UnsafeBuffer writeTemplate = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private final UnsafeBuffer fetchAddTemplate = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private final long writeIpSum;
    private final long fetchAddIpSum;
    private final int fetchAddTotalLength;
    private final byte migReqFlags;
    private final int fetchAddBase;
    private final int fetchAddAckDelta;
    private final UnsafeBuffer scratch = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
    private int cachedAddressHigh;
    private int cachedAddressHighVariant;
    private int writeBasePayloadLength = -1;
    private int writeBase;
    private int ackDeltaFrameLength = -1;
    private int ackDelta;

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
        scratch.putBytes(0, fetchAddTemplate, 0, FETCH_ADD_HEADERS);
        ipAndUdp(scratch, 0, fetchAddTotalLength, 0, fetchAddIpSum);
        fetchAddBase = Icrc.register(scratch, IP_OFFSET, BASE_END_OFFSET);
        fetchAddAckDelta = ackDeltaFor(FETCH_ADD_HEADERS + Icrc.LENGTH);
    }

    private static int[] table(final int coveredIndex)
    {
        return Crc32Register.distanceTable(BASE_END - 1 - coveredIndex);
    }

    private static int[] merged(final int[] a, final int[] b)
    {
        final int[] table = new int[a.length];
        for (int i = 0; i < table.length; i++)
        {
            table[i] = a[i] ^ b[i];
        }
        return table;
    }

    /**
     * What setting AckReq changes in the ICRC of a frame of the given length: the AckReq bit's contribution,
     * carried to the end of the covered bytes.
     */
    private static int ackDeltaFor(final int frameLength)
    {
        final int covered = frameLength - Icrc.LENGTH - IP_OFFSET + COVERED_BEFORE_IP;
        return Crc32Register.zeros(ACK_REQ_REGISTER, covered - PSN_WORD_AT - 1);
    }

    /**
     * The register after covered byte 64 of a WRITE with this payload length and zero identification, PSN
     * word and address; recomputed only when the length changes.
     */
    private void writeBaseFor(final int payloadLength)
    {
        final int pad = -payloadLength & 3;
        scratch.putBytes(0, writeTemplate, 0, WRITE_HEADERS);
        ipAndUdp(scratch, 0, WRITE_HEADERS + payloadLength + pad + Icrc.LENGTH - IP_OFFSET, 0, writeIpSum);
        scratch.putByte(BTH_OFFSET + BthFlyweight.FLAGS_OFFSET, (byte)(migReqFlags | (pad << 4)));
        scratch.putInt(EXT_OFFSET + RethFlyweight.DMA_LENGTH_OFFSET, payloadLength, ByteOrder.BIG_ENDIAN);
        writeBase = Icrc.register(scratch, IP_OFFSET, BASE_END_OFFSET);
        writeBasePayloadLength = payloadLength;
    }

    /**
     * The contribution of identification (the PSN's low 16 bits), PSN word and address to the register after
     * covered byte 64: one table entry per byte, all independent. A region's addresses share their high half, so
     * its contribution is kept from the previous frame.
     */
    private int variantRegister(final int psnWord, final long address)
    {
        final int hi = (int)(address >>> 32);
        final int lo = (int)address;
        if (hi != cachedAddressHigh)
        {
            cachedAddressHigh = hi;
            cachedAddressHighVariant =
                VA_0[hi >>> 24] ^ VA_1[(hi >>> 16) & 0xFF] ^ VA_2[(hi >>> 8) & 0xFF] ^ VA_3[hi & 0xFF];
        }
        return (psnWord < 0 ? ACK_REQ_VARIANT : 0) ^
            PSN_HIGH[(psnWord >>> 16) & 0xFF] ^ PSN_MID[(psnWord >>> 8) & 0xFF] ^ PSN_LOW[psnWord & 0xFF] ^
            cachedAddressHighVariant ^
            VA_4[lo >>> 24] ^ VA_5[(lo >>> 16) & 0xFF] ^ VA_6[(lo >>> 8) & 0xFF] ^ VA_7[lo & 0xFF];
    }

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
        final int psnWord = (ackReq ? 0x8000_0000 : 0) | psn;
        ShortCopy.copy(dst, offset, writeTemplate, 0, WRITE_HEADERS);
        ipAndUdp(dst, offset, icrcOffset + Icrc.LENGTH - IP_OFFSET, psn, writeIpSum);
        dst.putByte(offset + BTH_OFFSET + BthFlyweight.FLAGS_OFFSET, (byte)(migReqFlags | (pad << 4)));
        dst.putInt(offset + ACK_REQ_OFFSET, psnWord, ByteOrder.BIG_ENDIAN);
        dst.putLong(offset + EXT_OFFSET + RethFlyweight.VIRTUAL_ADDRESS_OFFSET, address, ByteOrder.BIG_ENDIAN);
        dst.putInt(offset + EXT_OFFSET + RethFlyweight.DMA_LENGTH_OFFSET, payloadLength, ByteOrder.BIG_ENDIAN);
        if (payloadLength > 0)
        {
            ShortCopy.copy(dst, offset + WRITE_HEADERS, payload, payloadOffset, payloadLength);
            if (pad > 0)
            {
                dst.setMemory(offset + WRITE_HEADERS + payloadLength, pad, (byte)0);
            }
        }
        if (payloadLength != writeBasePayloadLength)
        {
            writeBaseFor(payloadLength);
        }
        int crc = writeBase ^ variantRegister(psnWord, address);
        crc = Crc32Register.update(crc, payload, payloadOffset, payloadLength);
        for (int i = 0; i < pad; i++)
        {
            crc = Crc32Register.updateByte(crc, 0);
        }
        dst.putInt(offset + icrcOffset, Crc32Register.value(crc), ByteOrder.LITTLE_ENDIAN);
        return icrcOffset + Icrc.LENGTH;
    }

    /**
     * Writes one packet of an RDMA WRITE longer than the path MTU (rocev2-reference.md §4): WRITE First (RETH with
     * the message's start address and whole length, exactly one path MTU of payload), WRITE Middle (no RETH, exactly
     * one path MTU) or WRITE Last (no RETH, the rest, padded). Rare (no fixed-size primitive comes near the smallest
     * path MTU), so its ICRC is computed over the frame, not from precomputed registers.
     *
     * @param dst           destination buffer.
     * @param offset        where the frame starts.
     * @param opcode        {@link RoceOpcode#RC_RDMA_WRITE_FIRST}, {@link RoceOpcode#RC_RDMA_WRITE_MIDDLE} or
     *                      {@link RoceOpcode#RC_RDMA_WRITE_LAST}.
     * @param psn           the packet's PSN.
     * @param ackReq        AckReq bit.
     * @param address       the message's remote virtual address (First only).
     * @param messageLength the message's whole length, the RETH DMA length (First only).
     * @param payload       this packet's payload bytes.
     * @param payloadOffset payload offset.
     * @param payloadLength this packet's payload length.
     * @return frame length.
     */
    public int writeSegment(
        final MutableDirectBuffer dst,
        final int offset,
        final int opcode,
        final int psn,
        final boolean ackReq,
        final long address,
        final int messageLength,
        final DirectBuffer payload,
        final int payloadOffset,
        final int payloadLength)
    {
        final boolean first = RoceOpcode.RC_RDMA_WRITE_FIRST == opcode;
        final int headers = first ? WRITE_HEADERS : EXT_OFFSET;
        final int pad = -payloadLength & 3;
        final int icrcOffset = headers + payloadLength + pad;
        dst.putBytes(offset, writeTemplate, 0, headers);
        ipAndUdp(dst, offset, icrcOffset + Icrc.LENGTH - IP_OFFSET, psn, writeIpSum);
        dst.putByte(offset + BTH_OFFSET + BthFlyweight.OPCODE_OFFSET, (byte)opcode);
        dst.putByte(offset + BTH_OFFSET + BthFlyweight.FLAGS_OFFSET, (byte)(migReqFlags | (pad << 4)));
        dst.putInt(offset + ACK_REQ_OFFSET, (ackReq ? 0x8000_0000 : 0) | psn, ByteOrder.BIG_ENDIAN);
        if (first)
        {
            dst.putLong(offset + EXT_OFFSET + RethFlyweight.VIRTUAL_ADDRESS_OFFSET, address, ByteOrder.BIG_ENDIAN);
            dst.putInt(offset + EXT_OFFSET + RethFlyweight.DMA_LENGTH_OFFSET, messageLength, ByteOrder.BIG_ENDIAN);
        }
        dst.putBytes(offset + headers, payload, payloadOffset, payloadLength);
        if (pad > 0)
        {
            dst.setMemory(offset + headers + payloadLength, pad, (byte)0);
        }
        dst.putInt(offset + icrcOffset, Icrc.computeIcrc(dst, offset + IP_OFFSET, offset + icrcOffset),
            ByteOrder.LITTLE_ENDIAN);
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
        final int psnWord = (ackReq ? 0x8000_0000 : 0) | psn;
        ShortCopy.copy(dst, offset, fetchAddTemplate, 0, FETCH_ADD_HEADERS);
        ipAndUdp(dst, offset, fetchAddTotalLength, psn, fetchAddIpSum);
        dst.putInt(offset + ACK_REQ_OFFSET, psnWord, ByteOrder.BIG_ENDIAN);
        dst.putLong(offset + EXT_OFFSET + AtomicEthFlyweight.VIRTUAL_ADDRESS_OFFSET, address, ByteOrder.BIG_ENDIAN);
        dst.putLong(offset + EXT_OFFSET + AtomicEthFlyweight.SWAP_ADD_DATA_OFFSET, addend, ByteOrder.BIG_ENDIAN);
        // Covered byte 64 falls in the middle of the add operand: its high half is a variant of the base, its low
        // half and the (zero) compare operand follow.
        int crc = fetchAddBase ^ variantRegister(psnWord, address) ^
            Crc32Register.updateInt(0, Integer.reverseBytes((int)(addend >>> 32)));
        crc = Crc32Register.updateInt(crc, Integer.reverseBytes((int)addend));
        crc = Crc32Register.updateLong(crc, 0L);
        dst.putInt(offset + FETCH_ADD_HEADERS, Crc32Register.value(crc), ByteOrder.LITTLE_ENDIAN);
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
        final byte flags = frame.getByte(at);
        if (flags < 0)
        {
            return;
        }
        frame.putByte(at, (byte)(flags | 0x80));
        final int delta;
        if (FETCH_ADD_HEADERS + Icrc.LENGTH == length)
        {
            delta = fetchAddAckDelta;
        }
        else
        {
            if (length != ackDeltaFrameLength)
            {
                ackDelta = ackDeltaFor(length);
                ackDeltaFrameLength = length;
            }
            delta = ackDelta;
        }
        final int icrcAt = offset + length - Icrc.LENGTH;
        frame.putInt(icrcAt, frame.getInt(icrcAt, ByteOrder.LITTLE_ENDIAN) ^ delta, ByteOrder.LITTLE_ENDIAN);
    }
}
