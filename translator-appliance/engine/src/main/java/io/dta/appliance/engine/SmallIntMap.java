package io.dta.appliance.engine;

import org.agrona.collections.Int2ObjectHashMap;

import java.util.Arrays;

/**
 * The engine's routing tables (collector by IP, list by id, sender by local QPN): filled at start, read for every
 * report or response. A configuration has a handful of collectors and regions, and for up to
 * {@link #LINEAR_LIMIT} keys a scan of a packed key array (the first entry is the usual hit) costs less than
 * hashing into {@link Int2ObjectHashMap}, which showed as 5–10 % of the engine's samples; larger tables use the map.
 *
 * @param <V> value type.
 */
final class SmallIntMap<V>
{
    /**
     * Most keys scanned linearly.
     */
    static final int LINEAR_LIMIT = 8;

    private final Int2ObjectHashMap<V> map = new Int2ObjectHashMap<>();
    private int[] keys = new int[0];
    private Object[] values = new Object[0];
    private boolean linear = true;

    /**
     * Adds or replaces a mapping (start-up and reconfiguration only: it allocates).
     *
     * @param key   the key.
     * @param value the value, not null.
     */
    void put(final int key, final V value)
    {
        map.put(key, value);
        for (int i = 0; i < keys.length; i++)
        {
            if (keys[i] == key)
            {
                values[i] = value;
                return;
            }
        }
        keys = Arrays.copyOf(keys, keys.length + 1);
        values = Arrays.copyOf(values, values.length + 1);
        keys[keys.length - 1] = key;
        values[values.length - 1] = value;
        linear = keys.length <= LINEAR_LIMIT;
    }

    /**
     * @param key the key.
     * @return its value, or null.
     */
    @SuppressWarnings("unchecked")
    V get(final int key)
    {
        if (linear)
        {
            final int[] keys = this.keys;
            for (int i = 0; i < keys.length; i++)
            {
                if (keys[i] == key)
                {
                    return (V)values[i];
                }
            }
            return null;
        }
        return map.get(key);
    }
}
