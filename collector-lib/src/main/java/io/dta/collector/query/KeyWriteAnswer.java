package io.dta.collector.query;

import java.math.BigInteger;

/**
 * A caller-owned, reusable answer of a Key-Write lookup ({@link KeyWriteQuery#lookup(long, int, boolean,
 * KeyWriteAnswer)}): filled in place, so a lookup allocates nothing. The data is copied out of the store as
 * words (big-endian as on the wire); {@link #value()} and {@link #toResult()} allocate and are meant for display.
 */
public final class KeyWriteAnswer
{
    /** Longest data a slot holds (a 32-byte slot less its checksum word). */
    public static final int MAX_DATA_LENGTH = 28;

    private final int[] words = new int[MAX_DATA_LENGTH / 4];
    private long key;
    private KeyWriteResult.Status status = KeyWriteResult.Status.NOT_FOUND;
    private int dataLength;
    private int matches;
    private int agreeing;

    void set(final long key, final KeyWriteResult.Status status, final int dataLength, final int matches,
        final int agreeing)
    {
        this.key = key;
        this.status = status;
        this.dataLength = dataLength;
        this.matches = matches;
        this.agreeing = agreeing;
    }

    int[] words()
    {
        return words;
    }

    /**
     * @return the key asked for (unsigned 32-bit).
     */
    public long key()
    {
        return key;
    }

    /**
     * @return found, not found, or conflicting copies.
     */
    public KeyWriteResult.Status status()
    {
        return status;
    }

    /**
     * @return true if a value was chosen.
     */
    public boolean found()
    {
        return KeyWriteResult.Status.FOUND == status;
    }

    /**
     * @return copies whose checksum matched the key.
     */
    public int matches()
    {
        return matches;
    }

    /**
     * @return copies holding the winning data (0 unless found).
     */
    public int agreeing()
    {
        return agreeing;
    }

    /**
     * @return bytes of data of a found answer (the slot size less 4), 0 otherwise.
     */
    public int dataLength()
    {
        return found() ? dataLength : 0;
    }

    /**
     * @param index byte index, below {@link #dataLength()}.
     * @return that data byte.
     */
    public byte dataByte(final int index)
    {
        if (index < 0 || index >= dataLength())
        {
            throw new IndexOutOfBoundsException("data byte " + index + " of " + dataLength());
        }
        return (byte)(words[index >> 2] >>> (24 - 8 * (index & 3)));
    }

    /**
     * @return the first 8 data bytes as an unsigned big-endian number (all of a 4-byte value; for longer data the
     * leading bytes), 0 when not found.
     */
    public long valuePrefix()
    {
        final int length = dataLength();
        if (0 == length)
        {
            return 0;
        }
        final long first = words[0] & 0xFFFF_FFFFL;
        return 4 == length ? first : first << 32 | (words[1] & 0xFFFF_FFFFL);
    }

    /**
     * @param destination receives {@link #dataLength()} bytes from index 0.
     * @return bytes copied.
     */
    public int copyData(final byte[] destination)
    {
        final int n = dataLength();
        for (int i = 0; i < n; i++)
        {
            destination[i] = dataByte(i);
        }
        return n;
    }

    /**
     * @return the data as an unsigned big-endian number, or null when not found (allocates).
     */
    public BigInteger value()
    {
        return found() ? new BigInteger(1, bytes()) : null;
    }

    /**
     * @return the answer as an immutable record (allocates).
     */
    public KeyWriteResult toResult()
    {
        return new KeyWriteResult(key, status, found() ? bytes() : null, matches, agreeing);
    }

    private byte[] bytes()
    {
        final byte[] out = new byte[dataLength];
        copyData(out);
        return out;
    }
}
