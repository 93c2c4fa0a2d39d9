package io.dta.appliance.engine;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class SmallIntMapTest
{
    private static final long SEED = 0x5EEDL;

    @Test
    void shouldAnswerAsAHashMapDoesBelowAndAboveTheLinearLimit()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        for (int size = 0; size <= 3 * SmallIntMap.LINEAR_LIMIT; size++)
        {
            final SmallIntMap<String> map = new SmallIntMap<>();
            final Map<Integer, String> oracle = new HashMap<>();
            for (int i = 0; i < size; i++)
            {
                // Keys from a small range so that some repeat (a put replaces), and the extremes of an int.
                final int key = 0 == i % 5 ? (0 == i % 2 ? Integer.MIN_VALUE : -1) : random.nextInt(-40, 40);
                final String value = "v" + i;
                map.put(key, value);
                oracle.put(key, value);
            }
            for (int key = -50; key <= 50; key++)
            {
                assertEquals(oracle.get(key), map.get(key), "seed " + SEED + ", size " + size + ", key " + key);
            }
            assertEquals(oracle.get(Integer.MIN_VALUE), map.get(Integer.MIN_VALUE));
            assertNull(map.get(Integer.MAX_VALUE));
        }
    }

    @Test
    void shouldReplaceAValueWithoutGrowing()
    {
        final SmallIntMap<String> map = new SmallIntMap<>();
        for (int i = 0; i < SmallIntMap.LINEAR_LIMIT; i++)
        {
            map.put(i, "a" + i);
        }
        // Replacing every key keeps the table at the limit: still answered by the scan, with the new values.
        for (int i = 0; i < SmallIntMap.LINEAR_LIMIT; i++)
        {
            map.put(i, "b" + i);
        }
        for (int i = 0; i < SmallIntMap.LINEAR_LIMIT; i++)
        {
            assertEquals("b" + i, map.get(i));
        }
        assertNull(map.get(SmallIntMap.LINEAR_LIMIT));
    }
}
