package io.dta.collector.query;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The Key-Write vote over the copies of one key, given their slot offsets: copies whose checksum word matches
 * count once per distinct slot; the data held by most of them wins, a tie to the value first seen (lowest n);
 * with consensus, two distinct values are a conflict. Compares the data in place, so it allocates nothing.
 */
final class KeyWriteVote
{
    private final DirectBuffer region;
    private final int dataLength;
    private final int dataWords;
    private final int[] matching = new int[KeyWriteQuery.MAX_REDUNDANCY];

    KeyWriteVote(final DirectBuffer region, final int slotSize)
    {
        this.region = region;
        this.dataLength = slotSize - 4;
        this.dataWords = dataLength / 4;
    }

    void decide(final long key, final int checksum, final int[] offsets, final int at, final int redundancy,
        final boolean consensus, final KeyWriteAnswer answer)
    {
        final int m = matchingCopies(checksum, offsets, at, redundancy);
        if (0 == m)
        {
            answer.set(key, KeyWriteResult.Status.NOT_FOUND, dataLength, 0, 0);
            return;
        }
        int best = matching[0];
        int bestVotes = 1;
        int distinct = 1;
        if (2 == m)
        {
            final boolean same = sameData(matching[0], matching[1]);
            bestVotes = same ? 2 : 1;
            distinct = same ? 1 : 2;
        }
        else if (m > 2)
        {
            bestVotes = 0;
            distinct = 0;
            for (int i = 0; i < m; i++)
            {
                if (seenBefore(i))
                {
                    continue;
                }
                distinct++;
                final int votes = votesFrom(i, m);
                if (votes > bestVotes)
                {
                    best = matching[i];
                    bestVotes = votes;
                }
            }
        }
        if (consensus && distinct > 1)
        {
            answer.set(key, KeyWriteResult.Status.CONFLICT, dataLength, m, 0);
            return;
        }
        final int[] words = answer.words();
        for (int w = 0; w < dataWords; w++)
        {
            words[w] = region.getInt(best + 4 + 4 * w, ByteOrder.BIG_ENDIAN);
        }
        answer.set(key, KeyWriteResult.Status.FOUND, dataLength, m, bestVotes);
    }

    private int matchingCopies(final int checksum, final int[] offsets, final int at, final int redundancy)
    {
        int m = 0;
        for (int n = 0; n < redundancy; n++)
        {
            final int offset = offsets[at + n];
            boolean duplicateSlot = false;
            for (int i = 0; i < n; i++)
            {
                duplicateSlot |= offsets[at + i] == offset;
            }
            // Branch-free: whether a copy matches is close to random across keys.
            matching[m] = offset;
            m += !duplicateSlot & region.getInt(offset, ByteOrder.LITTLE_ENDIAN) == checksum ? 1 : 0;
        }
        return m;
    }

    private int votesFrom(final int i, final int m)
    {
        int votes = 1;
        for (int j = i + 1; j < m; j++)
        {
            if (sameData(matching[i], matching[j]))
            {
                votes++;
            }
        }
        return votes;
    }

    private boolean seenBefore(final int i)
    {
        for (int j = 0; j < i; j++)
        {
            if (sameData(matching[j], matching[i]))
            {
                return true;
            }
        }
        return false;
    }

    private boolean sameData(final int a, final int b)
    {
        for (int w = 1; w <= dataWords; w++)
        {
            if (region.getInt(a + 4 * w) != region.getInt(b + 4 * w))
            {
                return false;
            }
        }
        return true;
    }
}
