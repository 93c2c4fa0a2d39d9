package io.dta.codec;

import org.agrona.DirectBuffer;

/**
 * Flyweight over the body of a CM ReadyToUse (RTU, attribute 0x0014; IBA vol. 1 §12.6.9), wrapped at the MAD data:
 * local communication ID, remote communication ID, then 224 bytes of private data.
 */
public final class CmRtuFlyweight extends BufferFlyweight
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
     * @param offset offset of the RTU body.
     * @return this.
     */
    public CmRtuFlyweight wrap(final DirectBuffer buffer, final int offset)
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

    /** @return local communication ID (u32). */
    public long localCommId()
    {
        return CmFields.u32(buffer, offset + LOCAL_COMM_ID_OFFSET);
    }

    /**
     * @param value local communication ID (u32).
     * @return this.
     */
    public CmRtuFlyweight localCommId(final long value)
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
     * @param value remote communication ID (u32).
     * @return this.
     */
    public CmRtuFlyweight remoteCommId(final long value)
    {
        CmFields.u32(mutableBuffer, offset + REMOTE_COMM_ID_OFFSET, value);
        return this;
    }
}
