package io.dta.collector.query;

import java.math.BigInteger;

/**
 * Answer of a Key-Write lookup.
 *
 * @param key      the key (unsigned 32-bit).
 * @param status   found, not found, or conflicting copies.
 * @param data     the winning data bytes as stored (big-endian as on the wire), or null when not found.
 * @param matches  copies whose checksum matched the key.
 * @param agreeing copies holding the winning data.
 */
public record KeyWriteResult(long key, Status status, byte[] data, int matches, int agreeing)
{
    /**
     * Outcome of a lookup.
     */
    public enum Status
    {
        /** A value was chosen. */
        FOUND,
        /** No copy carries the key's checksum. */
        NOT_FOUND,
        /** Consensus was asked for and the matching copies disagree. */
        CONFLICT
    }

    /**
     * @return true if a value was chosen.
     */
    public boolean found()
    {
        return Status.FOUND == status;
    }

    /**
     * @return the data as an unsigned big-endian number, or null when not found.
     */
    public BigInteger value()
    {
        return null == data ? null : new BigInteger(1, data);
    }
}
