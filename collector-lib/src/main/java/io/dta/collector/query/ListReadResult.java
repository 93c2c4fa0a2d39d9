package io.dta.collector.query;

/**
 * Answer of a list read.
 *
 * @param entries     the entries (unsigned 32-bit values), oldest first.
 * @param cursor      the last batch sequence read ({@code SEQUENCED}); pass it as {@code since} next time. For the
 *                    {@code REFERENCE} layout always 0.
 * @param lapped      the writer overwrote batches after {@code since} before they were read.
 * @param lostBatches batches after {@code since} and up to {@code cursor} that are not in the answer (lapped,
 *                    lost on the wire, or caught mid-overwrite).
 */
public record ListReadResult(long[] entries, long cursor, boolean lapped, long lostBatches)
{
}
