package io.dta.collector.query;

/**
 * In-place sort of a prefix of a {@code long[]}, allocation-free (the JDK's sort of a primitive array may allocate
 * a merge buffer for inputs made of sorted runs, such as a rotated ring). A sorted input, or a sorted one rotated
 * (a ring read from slot 0), is put in order in linear time; anything else is heapsorted, O(n log n).
 */
final class LongHeapSort
{
    private LongHeapSort()
    {
    }

    /**
     * @param values the array.
     * @param length sorts {@code values[0 .. length)} ascending (signed).
     */
    static void sort(final long[] values, final int length)
    {
        int descent = -1;
        for (int i = 1; i < length; i++)
        {
            if (values[i] < values[i - 1])
            {
                if (descent >= 0)
                {
                    heapsort(values, length);
                    return;
                }
                descent = i;
            }
        }
        if (descent > 0)
        {
            if (values[length - 1] > values[0])
            {
                heapsort(values, length);
                return;
            }
            reverse(values, 0, descent);
            reverse(values, descent, length);
            reverse(values, 0, length);
        }
    }

    private static void reverse(final long[] values, final int from, final int to)
    {
        for (int i = from, j = to - 1; i < j; i++, j--)
        {
            final long v = values[i];
            values[i] = values[j];
            values[j] = v;
        }
    }

    private static void heapsort(final long[] values, final int length)
    {
        for (int i = length / 2 - 1; i >= 0; i--)
        {
            siftDown(values, i, length);
        }
        for (int end = length - 1; end > 0; end--)
        {
            final long top = values[0];
            values[0] = values[end];
            values[end] = top;
            siftDown(values, 0, end);
        }
    }

    private static void siftDown(final long[] values, final int start, final int length)
    {
        int parent = start;
        final long value = values[parent];
        while (true)
        {
            int child = 2 * parent + 1;
            if (child >= length)
            {
                break;
            }
            if (child + 1 < length && values[child + 1] > values[child])
            {
                child++;
            }
            if (values[child] <= value)
            {
                break;
            }
            values[parent] = values[child];
            parent = child;
        }
        values[parent] = value;
    }
}
