package io.dta.collector.query;

/**
 * Caller-owned answers of a batch of Key-Write lookups ({@link KeyWriteQuery#lookup(long[], int, int, int, boolean,
 * KeyWriteAnswers)}): answer {@code i} belongs to the batch's key {@code i}. Allocated once, reused for every
 * batch.
 */
public final class KeyWriteAnswers
{
    private final KeyWriteAnswer[] answers;

    /**
     * @param capacity largest batch, ≥ 1.
     */
    public KeyWriteAnswers(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        answers = new KeyWriteAnswer[capacity];
        for (int i = 0; i < capacity; i++)
        {
            answers[i] = new KeyWriteAnswer();
        }
    }

    /**
     * @return the largest batch.
     */
    public int capacity()
    {
        return answers.length;
    }

    /**
     * @param index index in the batch.
     * @return its answer (valid until the next batch).
     */
    public KeyWriteAnswer get(final int index)
    {
        return answers[index];
    }
}
