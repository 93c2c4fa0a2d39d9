package io.dta.codec;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the body of a CM ConnectReply (REP, attribute 0x0013; IBA vol. 1 §12.6.8), wrapped at the MAD
 * data. Offsets are relative to the body; the reference read the QPN at 12 and the starting PSN at 20
 * (dta-reference.md §4.4).
 */
public final class CmRepFlyweight extends BufferFlyweight
{
    /** Offset of the local (responder's) communication ID. */
    public static final int LOCAL_COMM_ID_OFFSET = 0;
    /** Offset of the remote (requester's) communication ID. */
    public static final int REMOTE_COMM_ID_OFFSET = 4;
    /** Offset of the local Q_Key. */
    public static final int LOCAL_Q_KEY_OFFSET = 8;
    /** Offset of the local QPN (u24). */
    public static final int LOCAL_QPN_OFFSET = 12;
    /** Offset of the local EECN (u24). */
    public static final int LOCAL_EECN_OFFSET = 16;
    /** Offset of the starting PSN (u24): the responder's send PSN. */
    public static final int STARTING_PSN_OFFSET = 20;
    /** Offset of responder resources. */
    public static final int RESPONDER_RESOURCES_OFFSET = 24;
    /** Offset of initiator depth. */
    public static final int INITIATOR_DEPTH_OFFSET = 25;
    /** Byte: target ACK delay (7..3), failover accepted (2..1), end-to-end flow control (0). */
    public static final int TARGET_ACK_DELAY_OFFSET = 26;
    /** Byte: RNR retry count (7..5), SRQ (4). */
    public static final int RNR_RETRY_OFFSET = 27;
    /** Offset of the local CA GUID. */
    public static final int LOCAL_CA_GUID_OFFSET = 28;
    /** Offset of the private data. */
    public static final int PRIVATE_DATA_OFFSET = 36;
    /** Private data length. */
    public static final int PRIVATE_DATA_LENGTH = 196;
    /** Body length. */
    public static final int LENGTH = MadHeaderFlyweight.DATA_LENGTH;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the REP body.
     * @return this.
     */
    public CmRepFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        wrapBuffer(buffer);
        this.offset = offset;
        return this;
    }

    /** @return offset of the body in the buffer. */
    public int offset()
    {
        return offset;
    }

    /** @return local (responder's) communication ID (u32). */
    public long localCommId()
    {
        return CmFields.u32(buffer, offset + LOCAL_COMM_ID_OFFSET);
    }

    /**
     * @param value local communication ID (u32).
     * @return this.
     */
    public CmRepFlyweight localCommId(final long value)
    {
        CmFields.u32(mutableBuffer, offset + LOCAL_COMM_ID_OFFSET, value);
        return this;
    }

    /** @return remote (requester's) communication ID (u32). */
    public long remoteCommId()
    {
        return CmFields.u32(buffer, offset + REMOTE_COMM_ID_OFFSET);
    }

    /**
     * @param value remote communication ID (u32): the REQ's local communication ID.
     * @return this.
     */
    public CmRepFlyweight remoteCommId(final long value)
    {
        CmFields.u32(mutableBuffer, offset + REMOTE_COMM_ID_OFFSET, value);
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
    public CmRepFlyweight localQKey(final long value)
    {
        CmFields.u32(mutableBuffer, offset + LOCAL_Q_KEY_OFFSET, value);
        return this;
    }

    /** @return local QPN (24 bits): the responder's QP, BTH DestQP of the requester's frames. */
    public int localQpn()
    {
        return CmFields.u24(buffer, offset + LOCAL_QPN_OFFSET);
    }

    /**
     * @param value local QPN (24 bits).
     * @return this.
     */
    public CmRepFlyweight localQpn(final int value)
    {
        CmFields.u24(mutableBuffer, offset + LOCAL_QPN_OFFSET, value);
        return this;
    }

    /** @return starting PSN (24 bits): the first PSN the responder sends on this connection. */
    public int startingPsn()
    {
        return CmFields.u24(buffer, offset + STARTING_PSN_OFFSET);
    }

    /**
     * @param value starting PSN (24 bits).
     * @return this.
     */
    public CmRepFlyweight startingPsn(final int value)
    {
        CmFields.u24(mutableBuffer, offset + STARTING_PSN_OFFSET, value);
        return this;
    }

    /** @return responder resources. */
    public int responderResources()
    {
        return buffer.getByte(offset + RESPONDER_RESOURCES_OFFSET) & 0xFF;
    }

    /**
     * @param value responder resources (outstanding atomics / reads the responder accepts).
     * @return this.
     */
    public CmRepFlyweight responderResources(final int value)
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
    public CmRepFlyweight initiatorDepth(final int value)
    {
        mutableBuffer.putByte(offset + INITIATOR_DEPTH_OFFSET, (byte)value);
        return this;
    }

    /** @return target ACK delay exponent (5 bits). */
    public int targetAckDelay()
    {
        return CmFields.bits(buffer, offset + TARGET_ACK_DELAY_OFFSET, 3, 5);
    }

    /**
     * @param value target ACK delay exponent (5 bits).
     * @return this.
     */
    public CmRepFlyweight targetAckDelay(final int value)
    {
        CmFields.bits(mutableBuffer, offset + TARGET_ACK_DELAY_OFFSET, 3, 5, value);
        return this;
    }

    /** @return RNR retry count (3 bits). */
    public int rnrRetryCount()
    {
        return CmFields.bits(buffer, offset + RNR_RETRY_OFFSET, 5, 3);
    }

    /**
     * @param value RNR retry count (3 bits).
     * @return this.
     */
    public CmRepFlyweight rnrRetryCount(final int value)
    {
        CmFields.bits(mutableBuffer, offset + RNR_RETRY_OFFSET, 5, 3, value);
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
    public CmRepFlyweight localCaGuid(final long value)
    {
        mutableBuffer.putLong(offset + LOCAL_CA_GUID_OFFSET, value, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
