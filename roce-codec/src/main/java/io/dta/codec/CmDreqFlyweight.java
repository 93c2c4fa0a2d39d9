package io.dta.codec;

import org.agrona.DirectBuffer;

/**
 * Flyweight over the body of a CM DisconnectRequest (DREQ, attribute 0x0015; IBA vol. 1 §12.6.10), wrapped at the
 * MAD data: local communication ID, remote communication ID, the remote QPN/EECN (24 bits, then 8 reserved bits),
 * then 220 bytes of private data to the end of the 232-byte CM data.
 */
public final class CmDreqFlyweight extends BufferFlyweight
{
    /** Offset of the local (sender's) communication ID. */
    public static final int LOCAL_COMM_ID_OFFSET = 0;
    /** Offset of the remote communication ID. */
    public static final int REMOTE_COMM_ID_OFFSET = 4;
    /** Offset of the remote QPN/EECN (u24; the byte after it is reserved). */
    public static final int REMOTE_QPN_OFFSET = 8;
    /** Offset of the private data. */
    public static final int PRIVATE_DATA_OFFSET = 12;
    /** Private data length. */
    public static final int PRIVATE_DATA_LENGTH = 220;
    /** Body length. */
    public static final int LENGTH = MadHeaderFlyweight.DATA_LENGTH;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the DREQ body.
     * @return this.
     */
    public CmDreqFlyweight wrap(final DirectBuffer buffer, final int offset)
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

    /** @return offset of the private data in the buffer. */
    public int privateDataOffset()
    {
        return offset + PRIVATE_DATA_OFFSET;
    }

    /** @return local communication ID (u32): the sender's. */
    public long localCommId()
    {
        return CmFields.u32(buffer, offset + LOCAL_COMM_ID_OFFSET);
    }

    /**
     * @param value local communication ID (u32): the sender's.
     * @return this.
     */
    public CmDreqFlyweight localCommId(final long value)
    {
        CmFields.u32(mutableBuffer, offset + LOCAL_COMM_ID_OFFSET, value);
        return this;
    }

    /** @return remote communication ID (u32): the receiver's. */
    public long remoteCommId()
    {
        return CmFields.u32(buffer, offset + REMOTE_COMM_ID_OFFSET);
    }

    /**
     * @param value remote communication ID (u32): the receiver's.
     * @return this.
     */
    public CmDreqFlyweight remoteCommId(final long value)
    {
        CmFields.u32(mutableBuffer, offset + REMOTE_COMM_ID_OFFSET, value);
        return this;
    }

    /** @return remote QPN/EECN (u24): the receiver's QP of the connection. */
    public int remoteQpn()
    {
        return CmFields.u24(buffer, offset + REMOTE_QPN_OFFSET);
    }

    /**
     * @param value remote QPN/EECN (u24): the receiver's QP of the connection; the reserved byte after it is left
     *              alone.
     * @return this.
     */
    public CmDreqFlyweight remoteQpn(final int value)
    {
        CmFields.u24(mutableBuffer, offset + REMOTE_QPN_OFFSET, value);
        return this;
    }
}
