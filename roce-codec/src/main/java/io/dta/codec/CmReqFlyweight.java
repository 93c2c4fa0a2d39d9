package io.dta.codec;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the body of a CM ConnectRequest (REQ, attribute 0x0010; IBA vol. 1 §12.6.5), wrapped at the MAD
 * data ({@link MadHeaderFlyweight#dataOffset()}). Offsets are relative to the body, as in dta-reference.md §4.3.
 * <p>
 * Timeouts are IBA exponents: {@code 4.096 µs × 2^value} (see {@link #timeoutNanos(int)}). Only the primary path
 * is modelled; the alternate path (44 bytes at {@link #ALTERNATE_PATH_OFFSET}) stays zero. The private data of an
 * RDMA-CM REQ starts with the header read by {@link RdmaCmHeaderFlyweight}.
 */
public final class CmReqFlyweight extends BufferFlyweight
{
    /** Offset of the local communication ID (u32). */
    public static final int LOCAL_COMM_ID_OFFSET = 0;
    /** Offset of the reserved word (Linux puts the ECE vendor ID here). */
    public static final int VENDOR_ID_OFFSET = 4;
    /** Offset of the 64-bit service ID. */
    public static final int SERVICE_ID_OFFSET = 8;
    /** Offset of the local CA GUID. */
    public static final int LOCAL_CA_GUID_OFFSET = 16;
    /** Offset of the local Q_Key. */
    public static final int LOCAL_Q_KEY_OFFSET = 28;
    /** Offset of the local QPN (u24), followed by responder resources (u8). */
    public static final int LOCAL_QPN_OFFSET = 32;
    /** Offset of responder resources. */
    public static final int RESPONDER_RESOURCES_OFFSET = 35;
    /** Offset of the local EECN (u24), followed by initiator depth (u8). */
    public static final int LOCAL_EECN_OFFSET = 36;
    /** Offset of initiator depth. */
    public static final int INITIATOR_DEPTH_OFFSET = 39;
    /** Offset of the remote EECN (u24). */
    public static final int REMOTE_EECN_OFFSET = 40;
    /** Byte: remote CM response timeout (7..3), transport service type (2..1), end-to-end flow control (0). */
    public static final int REMOTE_CM_TIMEOUT_OFFSET = 43;
    /** Offset of the starting PSN (u24). */
    public static final int STARTING_PSN_OFFSET = 44;
    /** Byte: local CM response timeout (7..3), retry count (2..0). */
    public static final int LOCAL_CM_TIMEOUT_OFFSET = 47;
    /** Offset of the partition key (u16). */
    public static final int P_KEY_OFFSET = 48;
    /** Byte: path MTU (7..4), RDC exists (3), RNR retry count (2..0). */
    public static final int PATH_MTU_OFFSET = 50;
    /** Byte: max CM retries (7..4), SRQ (3), extended transport type (2..0). */
    public static final int MAX_CM_RETRIES_OFFSET = 51;
    /** Offset of the primary local LID (u16). */
    public static final int PRIMARY_LOCAL_LID_OFFSET = 52;
    /** Offset of the primary remote LID (u16). */
    public static final int PRIMARY_REMOTE_LID_OFFSET = 54;
    /** Offset of the primary local GID (16 bytes). */
    public static final int PRIMARY_LOCAL_GID_OFFSET = 56;
    /** Offset of the primary remote GID (16 bytes). */
    public static final int PRIMARY_REMOTE_GID_OFFSET = 72;
    /** Word: primary flow label (31..12), reserved (11..6), packet rate (5..0). */
    public static final int PRIMARY_FLOW_LABEL_OFFSET = 88;
    /** Offset of the primary traffic class. */
    public static final int PRIMARY_TRAFFIC_CLASS_OFFSET = 92;
    /** Offset of the primary hop limit. */
    public static final int PRIMARY_HOP_LIMIT_OFFSET = 93;
    /** Byte: service level (7..4), subnet local (3). */
    public static final int PRIMARY_SL_OFFSET = 94;
    /** Byte: local ACK timeout (7..3). */
    public static final int PRIMARY_LOCAL_ACK_TIMEOUT_OFFSET = 95;
    /** Offset of the alternate path (unused, zero). */
    public static final int ALTERNATE_PATH_OFFSET = 96;
    /** Offset of the private data. */
    public static final int PRIVATE_DATA_OFFSET = 140;
    /** Private data length. */
    public static final int PRIVATE_DATA_LENGTH = 92;
    /** Body length. */
    public static final int LENGTH = MadHeaderFlyweight.DATA_LENGTH;

    /** Transport service type RC. */
    public static final int TRANSPORT_RC = 0;
    /** RDMA-CM port space TCP, bits 31..16 of the low word of an RDMA-CM service ID. */
    public static final long RDMA_PS_TCP = 0x0106;
    /** Largest CM timeout exponent. */
    public static final int MAX_TIMEOUT_EXPONENT = 31;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the REQ body.
     * @return this.
     */
    public CmReqFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        wrapBuffer(buffer);
        this.offset = offset;
        return this;
    }

    /**
     * @return offset of the body in the buffer.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * The RDMA-CM service ID of a TCP port: {@code 0x0000000001060000 | port}.
     *
     * @param port the service (listening) port.
     * @return the service ID.
     */
    public static long rdmaCmServiceId(final int port)
    {
        return (RDMA_PS_TCP << 16) | (port & 0xFFFF);
    }

    /**
     * @param serviceId a service ID.
     * @return its TCP port if it is an RDMA-CM TCP port-space ID, else -1.
     */
    public static int rdmaCmServicePort(final long serviceId)
    {
        return (serviceId >>> 16) == RDMA_PS_TCP ? (int)(serviceId & 0xFFFF) : -1;
    }

    /**
     * @param exponent a CM or ACK timeout exponent, 0..31.
     * @return {@code 4096 ns × 2^exponent}.
     */
    public static long timeoutNanos(final int exponent)
    {
        return 4096L << (exponent & 31);
    }

    /**
     * A CA GUID derived from a MAC address the way the reference's (Mellanox) GUIDs are: the MAC's first three
     * bytes, {@code 03:00}, then its last three bytes.
     *
     * @param mac MAC in the low 48 bits.
     * @return the CA GUID.
     */
    public static long caGuidOf(final long mac)
    {
        return ((mac & 0xFFFF_FF00_0000L) << 16) | 0x03_0000_0000L | (mac & 0xFF_FFFFL);
    }

    /** @return local communication ID (u32). */
    public long localCommId()
    {
        return CmFields.u32(buffer, offset + LOCAL_COMM_ID_OFFSET);
    }

    /**
     * @param value local communication ID (u32).
     * @return this.
     */
    public CmReqFlyweight localCommId(final long value)
    {
        CmFields.u32(mutableBuffer, offset + LOCAL_COMM_ID_OFFSET, value);
        return this;
    }

    /** @return the reserved / vendor ID word (u32). */
    public long vendorId()
    {
        return CmFields.u32(buffer, offset + VENDOR_ID_OFFSET);
    }

    /**
     * @param value reserved / vendor ID word (u32).
     * @return this.
     */
    public CmReqFlyweight vendorId(final long value)
    {
        CmFields.u32(mutableBuffer, offset + VENDOR_ID_OFFSET, value);
        return this;
    }

    /** @return service ID. */
    public long serviceId()
    {
        return buffer.getLong(offset + SERVICE_ID_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param value service ID.
     * @return this.
     */
    public CmReqFlyweight serviceId(final long value)
    {
        mutableBuffer.putLong(offset + SERVICE_ID_OFFSET, value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /** @return local CA GUID. */
    public long localCaGuid()
    {
        return buffer.getLong(offset + LOCAL_CA_GUID_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param value local CA GUID.
     * @return this.
     */
    public CmReqFlyweight localCaGuid(final long value)
    {
        mutableBuffer.putLong(offset + LOCAL_CA_GUID_OFFSET, value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /** @return local Q_Key (u32). */
    public long localQKey()
    {
        return CmFields.u32(buffer, offset + LOCAL_Q_KEY_OFFSET);
    }

    /**
     * @param value local Q_Key (u32).
     * @return this.
     */
    public CmReqFlyweight localQKey(final long value)
    {
        CmFields.u32(mutableBuffer, offset + LOCAL_Q_KEY_OFFSET, value);
        return this;
    }

    /** @return local QPN (24 bits): the requester's QP, DestQP of the responder's frames. */
    public int localQpn()
    {
        return CmFields.u24(buffer, offset + LOCAL_QPN_OFFSET);
    }

    /**
     * @param value local QPN (24 bits).
     * @return this.
     */
    public CmReqFlyweight localQpn(final int value)
    {
        CmFields.u24(mutableBuffer, offset + LOCAL_QPN_OFFSET, value);
        return this;
    }

    /** @return responder resources. */
    public int responderResources()
    {
        return buffer.getByte(offset + RESPONDER_RESOURCES_OFFSET) & 0xFF;
    }

    /**
     * @param value responder resources.
     * @return this.
     */
    public CmReqFlyweight responderResources(final int value)
    {
        mutableBuffer.putByte(offset + RESPONDER_RESOURCES_OFFSET, (byte)value);
        return this;
    }

    /** @return initiator depth. */
    public int initiatorDepth()
    {
        return buffer.getByte(offset + INITIATOR_DEPTH_OFFSET) & 0xFF;
    }

    /**
     * @param value initiator depth.
     * @return this.
     */
    public CmReqFlyweight initiatorDepth(final int value)
    {
        mutableBuffer.putByte(offset + INITIATOR_DEPTH_OFFSET, (byte)value);
        return this;
    }

    /** @return remote CM response timeout exponent (5 bits). */
    public int remoteCmResponseTimeout()
    {
        return CmFields.bits(buffer, offset + REMOTE_CM_TIMEOUT_OFFSET, 3, 5);
    }

    /**
     * @param value remote CM response timeout exponent (5 bits): how long the responder may take to answer.
     * @return this.
     */
    public CmReqFlyweight remoteCmResponseTimeout(final int value)
    {
        CmFields.bits(mutableBuffer, offset + REMOTE_CM_TIMEOUT_OFFSET, 3, 5, value);
        return this;
    }

    /** @return transport service type (2 bits, 0 = RC). */
    public int transportServiceType()
    {
        return CmFields.bits(buffer, offset + REMOTE_CM_TIMEOUT_OFFSET, 1, 2);
    }

    /**
     * @param value transport service type (2 bits, 0 = RC).
     * @return this.
     */
    public CmReqFlyweight transportServiceType(final int value)
    {
        CmFields.bits(mutableBuffer, offset + REMOTE_CM_TIMEOUT_OFFSET, 1, 2, value);
        return this;
    }

    /** @return starting PSN (24 bits): the first PSN the requester sends, the responder's expected PSN. */
    public int startingPsn()
    {
        return CmFields.u24(buffer, offset + STARTING_PSN_OFFSET);
    }

    /**
     * @param value starting PSN (24 bits).
     * @return this.
     */
    public CmReqFlyweight startingPsn(final int value)
    {
        CmFields.u24(mutableBuffer, offset + STARTING_PSN_OFFSET, value);
        return this;
    }

    /** @return local CM response timeout exponent (5 bits). */
    public int localCmResponseTimeout()
    {
        return CmFields.bits(buffer, offset + LOCAL_CM_TIMEOUT_OFFSET, 3, 5);
    }

    /**
     * @param value local CM response timeout exponent (5 bits): how long the requester takes to answer a REP.
     * @return this.
     */
    public CmReqFlyweight localCmResponseTimeout(final int value)
    {
        CmFields.bits(mutableBuffer, offset + LOCAL_CM_TIMEOUT_OFFSET, 3, 5, value);
        return this;
    }

    /** @return transport retry count (3 bits). */
    public int retryCount()
    {
        return CmFields.bits(buffer, offset + LOCAL_CM_TIMEOUT_OFFSET, 0, 3);
    }

    /**
     * @param value transport retry count (3 bits).
     * @return this.
     */
    public CmReqFlyweight retryCount(final int value)
    {
        CmFields.bits(mutableBuffer, offset + LOCAL_CM_TIMEOUT_OFFSET, 0, 3, value);
        return this;
    }

    /** @return partition key. */
    public int pKey()
    {
        return buffer.getShort(offset + P_KEY_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value partition key.
     * @return this.
     */
    public CmReqFlyweight pKey(final int value)
    {
        mutableBuffer.putShort(offset + P_KEY_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /** @return path MTU code (4 bits: 1 = 256 ... 5 = 4096). */
    public int pathMtu()
    {
        return CmFields.bits(buffer, offset + PATH_MTU_OFFSET, 4, 4);
    }

    /**
     * @param value path MTU code (4 bits).
     * @return this.
     */
    public CmReqFlyweight pathMtu(final int value)
    {
        CmFields.bits(mutableBuffer, offset + PATH_MTU_OFFSET, 4, 4, value);
        return this;
    }

    /** @return RNR retry count (3 bits). */
    public int rnrRetryCount()
    {
        return CmFields.bits(buffer, offset + PATH_MTU_OFFSET, 0, 3);
    }

    /**
     * @param value RNR retry count (3 bits).
     * @return this.
     */
    public CmReqFlyweight rnrRetryCount(final int value)
    {
        CmFields.bits(mutableBuffer, offset + PATH_MTU_OFFSET, 0, 3, value);
        return this;
    }

    /** @return max CM retries (4 bits). */
    public int maxCmRetries()
    {
        return CmFields.bits(buffer, offset + MAX_CM_RETRIES_OFFSET, 4, 4);
    }

    /**
     * @param value max CM retries (4 bits): how often either side re-sends an unanswered CM message.
     * @return this.
     */
    public CmReqFlyweight maxCmRetries(final int value)
    {
        CmFields.bits(mutableBuffer, offset + MAX_CM_RETRIES_OFFSET, 4, 4, value);
        return this;
    }

    /** @return primary local LID. */
    public int primaryLocalLid()
    {
        return buffer.getShort(offset + PRIMARY_LOCAL_LID_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value primary local LID (0xFFFF on RoCE, the permissive LID).
     * @return this.
     */
    public CmReqFlyweight primaryLocalLid(final int value)
    {
        mutableBuffer.putShort(offset + PRIMARY_LOCAL_LID_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /** @return primary remote LID. */
    public int primaryRemoteLid()
    {
        return buffer.getShort(offset + PRIMARY_REMOTE_LID_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value primary remote LID (0xFFFF on RoCE).
     * @return this.
     */
    public CmReqFlyweight primaryRemoteLid(final int value)
    {
        mutableBuffer.putShort(offset + PRIMARY_REMOTE_LID_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /** @return true if the primary local GID is IPv4-mapped ({@code ::ffff:a.b.c.d}). */
    public boolean primaryLocalGidIsIpv4()
    {
        return CmFields.isIpv4MappedGid(buffer, offset + PRIMARY_LOCAL_GID_OFFSET);
    }

    /** @return IPv4 address in the last 4 bytes of the primary local GID. */
    public int primaryLocalGidIpv4()
    {
        return buffer.getInt(offset + PRIMARY_LOCAL_GID_OFFSET + 12, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param ipv4 IPv4 address written as the GID {@code ::ffff:a.b.c.d}.
     * @return this.
     */
    public CmReqFlyweight primaryLocalGidIpv4(final int ipv4)
    {
        CmFields.ipv4MappedGid(mutableBuffer, offset + PRIMARY_LOCAL_GID_OFFSET, ipv4);
        return this;
    }

    /** @return true if the primary remote GID is IPv4-mapped. */
    public boolean primaryRemoteGidIsIpv4()
    {
        return CmFields.isIpv4MappedGid(buffer, offset + PRIMARY_REMOTE_GID_OFFSET);
    }

    /** @return IPv4 address in the last 4 bytes of the primary remote GID. */
    public int primaryRemoteGidIpv4()
    {
        return buffer.getInt(offset + PRIMARY_REMOTE_GID_OFFSET + 12, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param ipv4 IPv4 address written as the GID {@code ::ffff:a.b.c.d}.
     * @return this.
     */
    public CmReqFlyweight primaryRemoteGidIpv4(final int ipv4)
    {
        CmFields.ipv4MappedGid(mutableBuffer, offset + PRIMARY_REMOTE_GID_OFFSET, ipv4);
        return this;
    }

    /** @return primary flow label (20 bits). */
    public int primaryFlowLabel()
    {
        return buffer.getInt(offset + PRIMARY_FLOW_LABEL_OFFSET, ByteOrder.BIG_ENDIAN) >>> 12;
    }

    /** @return primary packet rate (6 bits). */
    public int primaryPacketRate()
    {
        return buffer.getInt(offset + PRIMARY_FLOW_LABEL_OFFSET, ByteOrder.BIG_ENDIAN) & 0x3F;
    }

    /**
     * @param flowLabel  primary flow label (20 bits).
     * @param packetRate primary packet rate (6 bits).
     * @return this.
     */
    public CmReqFlyweight primaryFlowLabelAndRate(final int flowLabel, final int packetRate)
    {
        mutableBuffer.putInt(offset + PRIMARY_FLOW_LABEL_OFFSET, (flowLabel << 12) | (packetRate & 0x3F),
            ByteOrder.BIG_ENDIAN);
        return this;
    }

    /** @return primary traffic class. */
    public int primaryTrafficClass()
    {
        return buffer.getByte(offset + PRIMARY_TRAFFIC_CLASS_OFFSET) & 0xFF;
    }

    /**
     * @param value primary traffic class (the IPv4 TOS byte on RoCEv2).
     * @return this.
     */
    public CmReqFlyweight primaryTrafficClass(final int value)
    {
        mutableBuffer.putByte(offset + PRIMARY_TRAFFIC_CLASS_OFFSET, (byte)value);
        return this;
    }

    /** @return primary hop limit. */
    public int primaryHopLimit()
    {
        return buffer.getByte(offset + PRIMARY_HOP_LIMIT_OFFSET) & 0xFF;
    }

    /**
     * @param value primary hop limit (the IPv4 TTL on RoCEv2).
     * @return this.
     */
    public CmReqFlyweight primaryHopLimit(final int value)
    {
        mutableBuffer.putByte(offset + PRIMARY_HOP_LIMIT_OFFSET, (byte)value);
        return this;
    }

    /** @return primary local ACK timeout exponent (5 bits). */
    public int primaryLocalAckTimeout()
    {
        return CmFields.bits(buffer, offset + PRIMARY_LOCAL_ACK_TIMEOUT_OFFSET, 3, 5);
    }

    /**
     * @param value primary local ACK timeout exponent (5 bits): the transport ACK timeout on this path.
     * @return this.
     */
    public CmReqFlyweight primaryLocalAckTimeout(final int value)
    {
        CmFields.bits(mutableBuffer, offset + PRIMARY_LOCAL_ACK_TIMEOUT_OFFSET, 3, 5, value);
        return this;
    }

    /** @return offset of the private data in the buffer. */
    public int privateDataOffset()
    {
        return offset + PRIVATE_DATA_OFFSET;
    }
}
