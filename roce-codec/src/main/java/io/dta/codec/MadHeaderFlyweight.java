package io.dta.codec;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over the 24-byte common MAD header that starts every management datagram (IBA vol. 1 §13.4.3):
 * base version, management class, class version, method, status, class-specific, transaction ID, attribute ID,
 * reserved and attribute modifier. Connection management MADs (class {@link #MGMT_CLASS_CM}) are 256 bytes: this
 * header and {@link #DATA_LENGTH} bytes of message body, read with {@link CmReqFlyweight}, {@link CmRepFlyweight},
 * {@link CmRtuFlyweight} or {@link CmRejFlyweight} at {@code offset + LENGTH}.
 */
public final class MadHeaderFlyweight extends BufferFlyweight
{
    /** Offset of the base version. */
    public static final int BASE_VERSION_OFFSET = 0;
    /** Offset of the management class. */
    public static final int MGMT_CLASS_OFFSET = 1;
    /** Offset of the class version. */
    public static final int CLASS_VERSION_OFFSET = 2;
    /** Offset of the method (bit 7 is the response bit R). */
    public static final int METHOD_OFFSET = 3;
    /** Offset of the status. */
    public static final int STATUS_OFFSET = 4;
    /** Offset of the class-specific word. */
    public static final int CLASS_SPECIFIC_OFFSET = 6;
    /** Offset of the 64-bit transaction ID. */
    public static final int TRANSACTION_ID_OFFSET = 8;
    /** Offset of the attribute ID. */
    public static final int ATTRIBUTE_ID_OFFSET = 16;
    /** Offset of the reserved word. */
    public static final int RESERVED_OFFSET = 18;
    /** Offset of the attribute modifier. */
    public static final int ATTRIBUTE_MODIFIER_OFFSET = 20;
    /** Header length in bytes. */
    public static final int LENGTH = 24;
    /** Length of a whole MAD (header and data) in bytes. */
    public static final int MAD_LENGTH = 256;
    /** Length of the data after the header (a CM message body). */
    public static final int DATA_LENGTH = MAD_LENGTH - LENGTH;

    /** Base version of every MAD. */
    public static final int BASE_VERSION = 1;
    /** Management class of connection management. */
    public static final int MGMT_CLASS_CM = 0x07;
    /** CM class version 2 (what Linux ib_cm sends). */
    public static final int CM_CLASS_VERSION = 2;
    /** Method Send: CM messages are all unsolicited sends. */
    public static final int METHOD_SEND = 0x03;
    /** Attribute ID of ConnectRequest. */
    public static final int ATTRIBUTE_REQ = 0x0010;
    /** Attribute ID of MessageReceiptAcknowledgement. */
    public static final int ATTRIBUTE_MRA = 0x0011;
    /** Attribute ID of ConnectReject. */
    public static final int ATTRIBUTE_REJ = 0x0012;
    /** Attribute ID of ConnectReply. */
    public static final int ATTRIBUTE_REP = 0x0013;
    /** Attribute ID of ReadyToUse. */
    public static final int ATTRIBUTE_RTU = 0x0014;
    /** Attribute ID of DisconnectRequest. */
    public static final int ATTRIBUTE_DREQ = 0x0015;
    /** Attribute ID of DisconnectReply. */
    public static final int ATTRIBUTE_DREP = 0x0016;

    private int offset;

    /**
     * @param buffer the frame buffer (mutable if setters are used).
     * @param offset offset of the MAD.
     * @return this.
     */
    public MadHeaderFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        wrapBuffer(buffer);
        this.offset = offset;
        return this;
    }

    /**
     * @return the wrapped buffer.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the MAD in the buffer.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return offset of the MAD data (the CM message body).
     */
    public int dataOffset()
    {
        return offset + LENGTH;
    }

    /**
     * @return base version.
     */
    public int baseVersion()
    {
        return buffer.getByte(offset + BASE_VERSION_OFFSET) & 0xFF;
    }

    /**
     * @param value base version.
     * @return this.
     */
    public MadHeaderFlyweight baseVersion(final int value)
    {
        mutableBuffer.putByte(offset + BASE_VERSION_OFFSET, (byte)value);
        return this;
    }

    /**
     * @return management class.
     */
    public int mgmtClass()
    {
        return buffer.getByte(offset + MGMT_CLASS_OFFSET) & 0xFF;
    }

    /**
     * @param value management class.
     * @return this.
     */
    public MadHeaderFlyweight mgmtClass(final int value)
    {
        mutableBuffer.putByte(offset + MGMT_CLASS_OFFSET, (byte)value);
        return this;
    }

    /**
     * @return class version.
     */
    public int classVersion()
    {
        return buffer.getByte(offset + CLASS_VERSION_OFFSET) & 0xFF;
    }

    /**
     * @param value class version.
     * @return this.
     */
    public MadHeaderFlyweight classVersion(final int value)
    {
        mutableBuffer.putByte(offset + CLASS_VERSION_OFFSET, (byte)value);
        return this;
    }

    /**
     * @return method byte (including the R bit).
     */
    public int method()
    {
        return buffer.getByte(offset + METHOD_OFFSET) & 0xFF;
    }

    /**
     * @param value method byte.
     * @return this.
     */
    public MadHeaderFlyweight method(final int value)
    {
        mutableBuffer.putByte(offset + METHOD_OFFSET, (byte)value);
        return this;
    }

    /**
     * @return status.
     */
    public int status()
    {
        return buffer.getShort(offset + STATUS_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value status.
     * @return this.
     */
    public MadHeaderFlyweight status(final int value)
    {
        mutableBuffer.putShort(offset + STATUS_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return class-specific word.
     */
    public int classSpecific()
    {
        return buffer.getShort(offset + CLASS_SPECIFIC_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value class-specific word.
     * @return this.
     */
    public MadHeaderFlyweight classSpecific(final int value)
    {
        mutableBuffer.putShort(offset + CLASS_SPECIFIC_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return transaction ID (64-bit pattern).
     */
    public long transactionId()
    {
        return buffer.getLong(offset + TRANSACTION_ID_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param value transaction ID.
     * @return this.
     */
    public MadHeaderFlyweight transactionId(final long value)
    {
        mutableBuffer.putLong(offset + TRANSACTION_ID_OFFSET, value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return attribute ID.
     */
    public int attributeId()
    {
        return buffer.getShort(offset + ATTRIBUTE_ID_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * @param value attribute ID.
     * @return this.
     */
    public MadHeaderFlyweight attributeId(final int value)
    {
        mutableBuffer.putShort(offset + ATTRIBUTE_ID_OFFSET, (short)value, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * @return attribute modifier (u32).
     */
    public long attributeModifier()
    {
        return CmFields.u32(buffer, offset + ATTRIBUTE_MODIFIER_OFFSET);
    }

    /**
     * @param value attribute modifier (u32).
     * @return this.
     */
    public MadHeaderFlyweight attributeModifier(final long value)
    {
        CmFields.u32(mutableBuffer, offset + ATTRIBUTE_MODIFIER_OFFSET, value);
        return this;
    }

    /**
     * @return true for a CM Send MAD of base version 1 and class version 2 (the only MADs the CM state machines
     * accept; Linux's MAD layer likewise delivers a CM MAD of another class version to no agent).
     */
    public boolean isCmSend()
    {
        return BASE_VERSION == baseVersion() && MGMT_CLASS_CM == mgmtClass() && CM_CLASS_VERSION == classVersion() &&
            METHOD_SEND == method();
    }

    /**
     * Writes the header of a CM Send MAD: base version 1, class CM, class version 2, method Send, status 0,
     * class-specific 0, reserved 0.
     *
     * @param attributeId       the message's attribute ID.
     * @param transactionId     the transaction ID.
     * @param attributeModifier the attribute modifier.
     * @return this.
     */
    public MadHeaderFlyweight cmSend(final int attributeId, final long transactionId, final long attributeModifier)
    {
        return baseVersion(BASE_VERSION)
            .mgmtClass(MGMT_CLASS_CM)
            .classVersion(CM_CLASS_VERSION)
            .method(METHOD_SEND)
            .status(0)
            .classSpecific(0)
            .transactionId(transactionId)
            .attributeId(attributeId)
            .reservedZero()
            .attributeModifier(attributeModifier);
    }

    private MadHeaderFlyweight reservedZero()
    {
        mutableBuffer.putShort(offset + RESERVED_OFFSET, (short)0, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
