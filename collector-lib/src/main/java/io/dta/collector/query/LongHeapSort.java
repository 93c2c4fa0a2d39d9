package io.dta.collector.query;

/**
 * In-place heapsort of a prefix of a {@code long[]}: O(n log n) whatever the input's shape, and allocation-free
 * (the JDK's sort of a primitive array may allocate a merge buffer for inputs made of sorted runs, such as a
 * rotated ring).
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
