package io.dta.appliance.engine.primitive;

import io.dta.appliance.engine.QueuePairSender;
import io.dta.codec.KeyHash;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Key-Write (translation.md §3): N copies of {@code [CRC32(LE(key)) written LE | data verbatim]}, copy n at
 * slot {@code CRC32(LE(key) ‖ n) & (slots − 1)}, on consecutive PSNs of the store's QP.
 * <p>
 * Report accounting: the report rides on its first copy the QP admits, whatever becomes of that copy; the other
 * copies carry none. When the QP admits no copy, the last copy's refusal counts the report (under that copy's
 * reason). A report with at least one admitted copy is therefore not counted dropped, however many of its copies
 * were refused (they count as operations).
 */
public final class KeyWriteHandler
{
    private final QueuePairSender sender;
    private final KeyHash keyHash = new KeyHash();
    private final long baseAddress;
    private final int slotSize;
    private final int slotMask;
    private final UnsafeBuffer slot;

    /**
     * @param sender      the Key-Write store's QP.
     * @param baseAddress region address.
     * @param length      region length (slots × slotSize, slots a power of two).
     * @param slotSize    8, 16 or 32.
     */
    public KeyWriteHandler(final QueuePairSender sender, final long baseAddress, final long length, final int slotSize)
    {
        this.sender = sender;
        this.baseAddress = baseAddress;
        this.slotSize = slotSize;
        this.slotMask = (int)(length / slotSize) - 1;
        this.slot = new UnsafeBuffer(ByteBuffer.allocateDirect(slotSize));
    }

    /**
     * @return bytes of data a report must carry for this store.
     */
    public int dataLength()
    {
        return slotSize - 4;
    }

    /**
     * Translates one report whose redundancy was already checked.
     *
     * @param redundancy number of copies N.
     * @param key        the key, as on the wire.
     * @param data       buffer holding the data bytes.
     * @param dataOffset offset of the data.
     * @param essential  essential flag.
     * @param nowNanos   engine clock.
     */
    public void onReport(
        final int redundancy,
        final int key,
        final DirectBuffer data,
        final int dataOffset,
        final boolean essential,
        final long nowNanos)
    {
        final long checksum = keyHash.checksum(key & 0xFFFFFFFFL);
        // Whole 8-byte words, so that the frame builder's reads of the slot are served by single earlier stores.
        final long firstData = data.getInt(dataOffset, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
        slot.putLong(0, checksum | firstData << 32, ByteOrder.LITTLE_ENDIAN);
        for (int i = 8; i < slotSize; i += 8)
        {
            slot.putLong(i, data.getLong(dataOffset + i - 4, ByteOrder.LITTLE_ENDIAN), ByteOrder.LITTLE_ENDIAN);
        }
        int carry = 1;
        final int last = redundancy - 1;
        for (int n = 0; n < redundancy; n++)
        {
            if (!sender.admit(essential, n == last ? carry : 0, nowNanos))
            {
                continue;
            }
            final long index = keyHash.slotHash(key & 0xFFFFFFFFL, n) & slotMask;
            sender.write(baseAddress + index * slotSize, slot, 0, slotSize, essential, carry, nowNanos);
            carry = 0;
        }
    }
}
