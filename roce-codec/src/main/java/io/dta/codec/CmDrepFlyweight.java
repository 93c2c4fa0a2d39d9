package io.dta.codec;

import org.agrona.DirectBuffer;

/**
 * Flyweight over the body of a CM DisconnectReply (DREP, attribute 0x0016; IBA vol. 1 §12.6.11), wrapped at the MAD
 * data: local communication ID, remote communication ID, then 224 bytes of private data.
 */
public final class CmDrepFlyweight extends BufferFlyweight
{
    /** Offset of the local (sender's) communication ID. */
    public static final int LOCAL_COMM_ID_OFFSET = 0;
    /** Offset of the remote communication ID. */
    public static final int REMOTE_COMM_ID_OFFSET = 4;
    /** Offset of the private data. */
    public static final int PRIVATE_DATA_OFFSET = 8;
    /** Private data length. */
    public static final int PRIVATE_DATA_LENGTH = 224;
    /** Body length. */
    public static final int LENGTH = MadHeaderFlyweight.DATA_LENGTH;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the DREP body.
     * @return this.
     */
    public CmDrepFlyweight wrap(final DirectBuffer buffer, final int offset)
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

    /** @return local communication ID (u32): the sender's (the DREQ's remote communication ID). */
    public long localCommId()
    {
        return CmFields.u32(buffer, offset + LOCAL_COMM_ID_OFFSET);
    }

    /**
     * @param value local communication ID (u32): the sender's (the DREQ's remote communication ID).
     * @return this.
     */
    public CmDrepFlyweight localCommId(final long value)
    {
        CmFields.u32(mutableBuffer, offset + LOCAL_COMM_ID_OFFSET, value);
        return this;
    }

    /** @return remote communication ID (u32): the DREQ sender's. */
    public long remoteCommId()
    {
        return CmFields.u32(buffer, offset + REMOTE_COMM_ID_OFFSET);
    }

    /**
     * @param value remote communication ID (u32): the DREQ sender's.
     * @return this.
     */
    public CmDrepFlyweight remoteCommId(final long value)
    {
        CmFields.u32(mutableBuffer, offset + REMOTE_COMM_ID_OFFSET, value);
        return this;
    }
}
