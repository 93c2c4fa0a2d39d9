package io.dta.collector.query;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * The in-place sort against the JDK's: sorted, rotated (a ring read from slot 0), reversed, nearly rotated (one
 * stale record out of place) and random prefixes, with duplicates and negative values, seeded.
 */
class LongHeapSortTest
{
    @Test
    void shouldSortLikeTheJdkWhateverTheShape()
    {
        final SplittableRandom random = new SplittableRandom(0x50F7);
        for (int trial = 0; trial < 2000; trial++)
        {
            final int length = random.nextInt(64);
            final long[] values = new long[length + 3];
            for (int i = 0; i < values.length; i++)
            {
                values[i] = random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(20) - 5;
            }
            switch (trial % 5)
            {
                case 0 -> Arrays.sort(values, 0, length);
                case 1 -> rotate(values, length, random);
                case 2 ->
                {
                    rotate(values, length, random);
                    if (length > 2)
                    {
                        values[random.nextInt(length)] = random.nextLong();
                    }
                }
                case 3 ->
                {
                    Arrays.sort(values, 0, length);
                    for (int i = 0, j = length - 1; i < j; i++, j--)
                    {
                        final long v = values[i];
                        values[i] = values[j];
                        values[j] = v;
                    }
                }
                default ->
                {
                }
            }
            final long[] expected = values.clone();
            Arrays.sort(expected, 0, length);
            LongHeapSort.sort(values, length);
            assertArrayEquals(expected, values, "trial " + trial);
        }
    }

    private static void rotate(final long[] values, final int length, final SplittableRandom random)
    {
        Arrays.sort(values, 0, length);
        if (length > 0)
        {
            final int by = random.nextInt(length);
            final long[] copy = Arrays.copyOf(values, length);
            for (int i = 0; i < length; i++)
            {
                values[i] = copy[(i + by) % length];
            }
        }
    }
}
