package io.dta.codec;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the body of a CM ConnectReject (REJ, attribute 0x0012; IBA vol. 1 §12.6.7), wrapped at the MAD
 * data: local and remote communication IDs, which message is rejected, reject-info length, reason, 72 bytes of
 * additional reject information and 148 bytes of private data.
 */
public final class CmRejFlyweight extends BufferFlyweight
{
    /** Offset of the local (sender's) communication ID. */
    public static final int LOCAL_COMM_ID_OFFSET = 0;
    /** Offset of the remote communication ID. */
    public static final int REMOTE_COMM_ID_OFFSET = 4;
    /** Byte: message rejected (7..6). */
    public static final int MESSAGE_REJECTED_OFFSET = 8;
    /** Byte: reject info length (7..1). */
    public static final int REJECT_INFO_LENGTH_OFFSET = 9;
    /** Offset of the reason (u16). */
    public static final int REASON_OFFSET = 10;
    /** Offset of the additional reject information (72 bytes). */
    public static final int ARI_OFFSET = 12;
    /** Offset of the private data. */
    public static final int PRIVATE_DATA_OFFSET = 84;
    /** Body length. */
    public static final int LENGTH = MadHeaderFlyweight.DATA_LENGTH;

    /** Message rejected: the REQ. */
    public static final int REJECTED_REQ = 0;
    /** Message rejected: the REP. */
    public static final int REJECTED_REP = 1;
    /** Message rejected: no message (other). */
    public static final int REJECTED_OTHER = 2;

    /** Reason: no QP available. */
    public static final int REASON_NO_QP = 1;
    /** Reason: insufficient resources. */
    public static final int REASON_NO_RESOURCES = 3;
    /** Reason: timeout. */
    public static final int REASON_TIMEOUT = 4;
    /** Reason: unsupported request. */
    public static final int REASON_UNSUPPORTED_REQUEST = 5;
    /** Reason: invalid communication ID. */
    public static final int REASON_INVALID_COMM_ID = 6;
    /** Reason: invalid service ID (nobody listens on the service). */
    public static final int REASON_INVALID_SERVICE_ID = 8;
    /** Reason: invalid transport service type. */
    public static final int REASON_INVALID_TRANSPORT_TYPE = 9;
    /** Reason: stale connection. */
    public static final int REASON_STALE_CONNECTION = 10;
    /** Reason: invalid GID. */
    public static final int REASON_INVALID_GID = 12;
    /** Reason: insufficient responder resources (the REP grants fewer outstanding atomics than needed). */
    public static final int REASON_INSUFFICIENT_RESPONDER_RESOURCES = 27;
    /** Reason: consumer-defined rejection. */
    public static final int REASON_CONSUMER_REJECT = 28;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the REJ body.
     * @return this.
     */
    public CmRejFlyweight wrap(final DirectBuffer buffer, final int offset)
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

    /**
     * @param reason a reject reason.
     * @return a short name, e.g. {@code invalid service ID}, or {@code reason N}.
     */
    public static String reasonName(final int reason)
    {
        return switch (reason)
        {
            case REASON_NO_QP -> "no QP";
            case 2 -> "no EEC";
            case REASON_NO_RESOURCES -> "insufficient resources";
            case REASON_TIMEOUT -> "timeout";
            case REASON_UNSUPPORTED_REQUEST -> "unsupported request";
            case REASON_INVALID_COMM_ID -> "invalid communication ID";
            case 7 -> "invalid communication instance";
            case REASON_INVALID_SERVICE_ID -> "invalid service ID";
            case REASON_INVALID_TRANSPORT_TYPE -> "invalid transport service type";
            case REASON_STALE_CONNECTION -> "stale connection";
            case REASON_INVALID_GID -> "invalid GID";
            case REASON_INSUFFICIENT_RESPONDER_RESOURCES -> "insufficient responder resources";
            case REASON_CONSUMER_REJECT -> "consumer reject";
            default -> "reason " + reason;
        };
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
    public CmRejFlyweight localCommId(final long value)
    {
        CmFields.u32(mutableBuffer, offset + LOCAL_COMM_ID_OFFSET, value);
        return this;
    }

    /** @return remote communication ID (u32). */
    public long remoteCommId()
    {
        return CmFields.u32(buffer, offset + REMOTE_COMM_ID_OFFSET);
    }

    /**
     * @param value remote communication ID (u32): the rejected REQ's local communication ID.
     * @return this.
     */
    public CmRejFlyweight remoteCommId(final long value)
    {
        CmFields.u32(mutableBuffer, offset + REMOTE_COMM_ID_OFFSET, value);
        return this;
    }

    /** @return which message is rejected (2 bits). */
    public int messageRejected()
    {
        return CmFields.bits(buffer, offset + MESSAGE_REJECTED_OFFSET, 6, 2);
    }

    /**
     * @param value which message is rejected (2 bits).
     * @return this.
     */
    public CmRejFlyweight messageRejected(final int value)
    {
        CmFields.bits(mutableBuffer, offset + MESSAGE_REJECTED_OFFSET, 6, 2, value);
        return this;
    }

    /** @return reject info length (7 bits). */
    public int rejectInfoLength()
    {
        return CmFields.bits(buffer, offset + REJECT_INFO_LENGTH_OFFSET, 1, 7);
    }

    /**
     * @param value reject info length (7 bits).
     * @return this.
     */
    public CmRejFlyweight rejectInfoLength(final int value)
    {
        CmFields.bits(mutableBuffer, offset + REJECT_INFO_LENGTH_OFFSET, 1, 7, value);
        return this;
    }

    /** @return reason. */
    public int reason()
    {
        return buffer.getShort(offset + REASON_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value reason.
     * @return this.
     */
    public CmRejFlyweight reason(final int value)
    {
        mutableBuffer.putShort(offset + REASON_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
