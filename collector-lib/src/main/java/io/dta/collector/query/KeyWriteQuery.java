package io.dta.collector.query;

import io.dta.codec.KeyHash;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Reads the Key-Write store (docs/layouts.md): key {@code k} with redundancy {@code N} was written to the slots
 * {@code CRC32(LE(k) ‖ n) & (slots − 1)}, n = 0..N−1, each holding {@code CRC32(LE(k))} (LE u32) and the data.
 * <p>
 * A lookup keeps the slots whose checksum word is the key's checksum (slots reached by several n are counted
 * once) and votes: the data held by most of them wins, a tie goes to the value seen at the lowest n. With
 * consensus every matching copy must hold the same data. Checksum collisions between keys are possible (32 bits):
 * the vote over several copies is what makes a wrong answer unlikely.
 * <p>
 * Lookups into a caller-owned {@link KeyWriteAnswer} or {@link KeyWriteAnswers} allocate nothing. A batch first
 * computes the slot of every copy of every key, then touches them all (independent loads, so the random memory
 * accesses overlap instead of queueing one behind the other), then votes over lines that are by then in the cache.
 * Not thread-safe: one instance per thread (they may share the region).
 */
public final class KeyWriteQuery
{
    /** Largest N. */
    public static final int MAX_REDUNDANCY = 256;

    /** Slots touched ahead per step of a batch: enough to keep the memory system busy, few enough to stay cached. */
    static final int TOUCH_AHEAD = 64;

    private final DirectBuffer region;
    private final int slotSize;
    private final int dataWords;
    private final int slots;
    private final KeyHash hash = new KeyHash();
    private final KeyWriteVote vote;
    private static final int HALF = Math.max(TOUCH_AHEAD, MAX_REDUNDANCY);

    private final int[] offsets = new int[2 * HALF];
    private final int[] checksums = new int[2 * TOUCH_AHEAD];
    private final KeyWriteAnswer single = new KeyWriteAnswer();
    private long touched;

    /**
     * @param region   the store's memory.
     * @param slotSize bytes per slot (8, 16 or 32).
     */
    public KeyWriteQuery(final DirectBuffer region, final int slotSize)
    {
        if (slotSize != 8 && slotSize != 16 && slotSize != 32)
        {
            throw new IllegalArgumentException("slot size must be 8, 16 or 32: " + slotSize);
        }
        final int count = region.capacity() / slotSize;
        if (Integer.bitCount(count) != 1)
        {
            throw new IllegalArgumentException("slot count must be a power of two: " + count);
        }
        this.region = region;
        this.slotSize = slotSize;
        this.dataWords = (slotSize - 4) / 4;
        this.slots = count;
        this.vote = new KeyWriteVote(region, slotSize);
    }

    /**
     * @param key        the key (low 32 bits).
     * @param redundancy copies to look at, N ≥ 1.
     * @param consensus  require every matching copy to agree.
     * @return the answer (allocates; {@link #lookup(long, int, boolean, KeyWriteAnswer)} does not).
     */
    public KeyWriteResult lookup(final long key, final int redundancy, final boolean consensus)
    {
        lookup(key, redundancy, consensus, single);
        return single.toResult();
    }

    /**
     * One lookup, allocation-free.
     *
     * @param key        the key (low 32 bits).
     * @param redundancy copies to look at, 1..{@link #MAX_REDUNDANCY}.
     * @param consensus  require every matching copy to agree.
     * @param answer     receives the answer.
     */
    public void lookup(final long key, final int redundancy, final boolean consensus, final KeyWriteAnswer answer)
    {
        checkRedundancy(redundancy);
        final long k = key & 0xFFFF_FFFFL;
        final int checksum = addresses(k, redundancy, 0);
        vote.decide(k, checksum, offsets, 0, redundancy, consensus, answer);
    }

    /**
     * A batch of lookups, allocation-free: every slot address first, then a load of each, then the votes.
     *
     * @param keys       keys (low 32 bits each).
     * @param from       index of the first key.
     * @param count      keys to look up, at most {@code answers.capacity()}.
     * @param redundancy copies per key, 1..{@link #MAX_REDUNDANCY}.
     * @param consensus  require every matching copy to agree.
     * @param answers    answer {@code i} receives the answer for {@code keys[from + i]}.
     */
    public void lookup(final long[] keys, final int from, final int count, final int redundancy,
        final boolean consensus, final KeyWriteAnswers answers)
    {
        checkRedundancy(redundancy);
        if (count > answers.capacity() || from < 0 || count < 0 || from + count > keys.length)
        {
            throw new IndexOutOfBoundsException("batch of " + count + " keys from " + from + " of " + keys.length +
                " into " + answers.capacity() + " answers");
        }
        // Two chunks in flight: the next chunk's slots are touched before the current chunk is voted on, so their
        // memory accesses overlap the vote as well as each other.
        final int step = Math.max(1, TOUCH_AHEAD / redundancy);
        prepare(keys, from, Math.min(step, count), redundancy, 0);
        for (int start = 0, half = 0; start < count; start += step, half ^= 1)
        {
            final int n = Math.min(step, count - start);
            final int next = start + step;
            if (next < count)
            {
                prepare(keys, from + next, Math.min(step, count - next), redundancy, half ^ 1);
            }
            final int base = half * HALF;
            for (int i = 0; i < n; i++)
            {
                vote.decide(keys[from + start + i] & 0xFFFF_FFFFL, checksums[half * TOUCH_AHEAD + i], offsets,
                    base + i * redundancy, redundancy, consensus, answers.get(start + i));
            }
        }
    }

    private void prepare(final long[] keys, final int from, final int n, final int redundancy, final int half)
    {
        final int base = half * HALF;
        for (int i = 0; i < n; i++)
        {
            checksums[half * TOUCH_AHEAD + i] = addresses(keys[from + i] & 0xFFFF_FFFFL, redundancy,
                base + i * redundancy);
        }
        long sum = 0;
        for (int i = base; i < base + n * redundancy; i++)
        {
            sum += region.getInt(offsets[i]);
        }
        touched += sum;
    }

    /**
     * @return number of slots.
     */
    public int slots()
    {
        return slots;
    }

    /**
     * @return bytes per slot.
     */
    public int slotSize()
    {
        return slotSize;
    }

    /**
     * @return data bytes per slot.
     */
    public int dataLength()
    {
        return dataWords * 4;
    }

    private int addresses(final long k, final int redundancy, final int at)
    {
        for (int n = 0; n < redundancy; n++)
        {
            offsets[at + n] = hash.slotIndex(k, n, slots) * slotSize;
        }
        return (int)hash.checksum(k);
    }

    private static void checkRedundancy(final int redundancy)
    {
        if (redundancy < 1 || redundancy > MAX_REDUNDANCY)
        {
            throw new IllegalArgumentException("redundancy must be 1.." + MAX_REDUNDANCY + ": " + redundancy);
        }
    }
}
