package io.dta.collector.query.bench;

import io.dta.collector.query.KeyWriteAnswer;
import io.dta.collector.query.KeyWriteAnswers;
import io.dta.collector.query.KeyWriteQuery;
import org.agrona.DirectBuffer;

/**
 * One thread's Key-Write lookups over its own keys, in batches ({@link KeyWriteQuery#lookup(long[], int, int, int,
 * boolean, KeyWriteAnswers)}) or one at a time ({@link KeyWriteQuery#lookup(long, int, boolean, KeyWriteAnswer)}),
 * plurality vote. A round is {@link #ROUND} lookups, going on where the previous round stopped.
 */
public final class KeyWriteWorker implements TimedThreads.Worker
{
    /** Lookups per round. */
    public static final int ROUND = 8192;

    private final KeyWriteQuery query;
    private final long[] keys;
    private final int redundancy;
    private final int batch;
    private final KeyWriteAnswers answers;
    private final KeyWriteAnswer answer = new KeyWriteAnswer();
    private int position;
    private long agreeing;

    /**
     * @param region     the store.
     * @param slotSize   its slot size.
     * @param keys       keys to look up, a multiple of {@link #ROUND} long.
     * @param redundancy N.
     * @param batch      keys per batch, or 0 for one lookup at a time.
     */
    public KeyWriteWorker(final DirectBuffer region, final int slotSize, final long[] keys, final int redundancy,
        final int batch)
    {
        if (keys.length % ROUND != 0 || 0 == keys.length)
        {
            throw new IllegalArgumentException("keys must be a multiple of " + ROUND + ": " + keys.length);
        }
        this.query = new KeyWriteQuery(region, slotSize);
        this.keys = keys;
        this.redundancy = redundancy;
        this.batch = batch;
        this.answers = new KeyWriteAnswers(Math.max(1, batch));
    }

    @Override
    public long round()
    {
        final int end = position + ROUND;
        long sum = 0;
        if (batch > 0)
        {
            for (int from = position; from < end; from += batch)
            {
                final int count = Math.min(batch, end - from);
                query.lookup(keys, from, count, redundancy, false, answers);
                for (int i = 0; i < count; i++)
                {
                    sum += answers.get(i).agreeing();
                }
            }
        }
        else
        {
            for (int i = position; i < end; i++)
            {
                query.lookup(keys[i], redundancy, false, answer);
                sum += answer.agreeing();
            }
        }
        position = end == keys.length ? 0 : end;
        agreeing += sum;
        return ROUND;
    }

    /**
     * @return agreeing copies summed over every answer so far (keeps the answers observable).
     */
    public long agreeing()
    {
        return agreeing;
    }
}
