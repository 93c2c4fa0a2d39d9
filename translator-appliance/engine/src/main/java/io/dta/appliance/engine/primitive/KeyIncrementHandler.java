package io.dta.appliance.engine.primitive;

import io.dta.appliance.engine.QueuePairSender;
import io.dta.codec.KeyHash;

/**
 * Key-Increment (translation.md §3): N FETCH_ADDs of the report's counter to the 8-byte counters at
 * {@code CRC32(LE(key) ‖ n) & (slots − 1)}, under the QP's limit on outstanding atomics.
 * <p>
 * Report accounting as for {@link KeyWriteHandler}: the report rides on its first admitted copy, or is counted by
 * its last copy's refusal when no copy is admitted.
 */
public final class KeyIncrementHandler
{
    /**
     * Counter size in the store.
     */
    public static final int COUNTER_LENGTH = 8;

    private final QueuePairSender sender;
    private final KeyHash keyHash = new KeyHash();
    private final long baseAddress;
    private final int slotMask;

    /**
     * @param sender      the counter store's QP.
     * @param baseAddress region address.
     * @param length      region length (a power of two number of 8-byte counters).
     */
    public KeyIncrementHandler(final QueuePairSender sender, final long baseAddress, final long length)
    {
        this.sender = sender;
        this.baseAddress = baseAddress;
        this.slotMask = (int)(length / COUNTER_LENGTH) - 1;
    }

    /**
     * Translates one report whose redundancy was already checked.
     *
     * @param redundancy number of counters N.
     * @param key        the key, as on the wire.
     * @param counter    the value to add.
     * @param essential  essential flag.
     * @param nowNanos   engine clock.
     */
    public void onReport(
        final int redundancy, final int key, final long counter, final boolean essential, final long nowNanos)
    {
        int carry = 1;
        final int last = redundancy - 1;
        for (int n = 0; n < redundancy; n++)
        {
            if (!sender.admit(essential, n == last ? carry : 0, nowNanos))
            {
                continue;
            }
            final long index = keyHash.slotHash(key & 0xFFFFFFFFL, n) & slotMask;
            sender.fetchAdd(baseAddress + index * COUNTER_LENGTH, counter, essential, carry, nowNanos);
            carry = 0;
        }
    }
}
