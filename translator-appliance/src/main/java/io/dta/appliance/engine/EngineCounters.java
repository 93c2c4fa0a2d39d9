package io.dta.appliance.engine;

import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.nio.charset.StandardCharsets;

/**
 * The engine's counters, one Agrona counter per {@link EngineCounter}, written only by the engine thread.
 * <p>
 * The values live in an Agrona {@link CountersManager}: on the heap for tests and replays, or in a memory-mapped
 * counters file ({@code io.dta.appliance.stat.CountersFile}) that {@code dta stat} reads live from another
 * process. A single writer needs no atomic read-modify-write: each update is a plain read and a release store,
 * which a reader in another process sees whole.
 */
public final class EngineCounters
{
    /**
     * Agrona counter type id of engine counters; the counter's key holds the {@link EngineCounter} ordinal.
     */
    public static final int TYPE_ID = 0x0D7A_0001;

    private static final EngineCounter[] ALL = EngineCounter.values();

    private final AtomicBuffer values;
    private final int[] offsets = new int[ALL.length];

    /**
     * Counters on the heap, private to this process.
     */
    public EngineCounters()
    {
        this(heapManager(ALL.length));
    }

    /**
     * Counters allocated in a counters manager (for example over a shared-memory file).
     *
     * @param manager where to allocate one counter per {@link EngineCounter}.
     */
    public EngineCounters(final CountersManager manager)
    {
        values = manager.valuesBuffer();
        for (final EngineCounter c : ALL)
        {
            final int id = manager.allocate(c.name(), TYPE_ID,
                key -> key.putInt(0, c.ordinal()));
            manager.setCounterLabel(id, c.description());
            offsets[c.ordinal()] = CountersReader.counterOffset(id);
        }
    }

    /**
     * A heap counters manager with room for {@code counters} counters.
     *
     * @param counters how many counters it must hold.
     * @return the manager.
     */
    public static CountersManager heapManager(final int counters)
    {
        // Direct and aligned: counters are read and written with ordered 8-byte accesses.
        return new CountersManager(
            new UnsafeBuffer(BufferUtil.allocateDirectAligned(counters * CountersReader.METADATA_LENGTH, 64)),
            new UnsafeBuffer(BufferUtil.allocateDirectAligned(counters * CountersReader.COUNTER_LENGTH, 64)),
            StandardCharsets.UTF_8);
    }

    /**
     * @return how many counters an engine allocates.
     */
    public static int count()
    {
        return ALL.length;
    }

    /**
     * Adds one.
     *
     * @param counter which counter.
     */
    public void increment(final EngineCounter counter)
    {
        final int offset = offsets[counter.ordinal()];
        values.putLongRelease(offset, values.getLong(offset) + 1);
    }

    /**
     * Adds a delta.
     *
     * @param counter which counter.
     * @param delta   amount.
     */
    public void add(final EngineCounter counter, final long delta)
    {
        final int offset = offsets[counter.ordinal()];
        values.putLongRelease(offset, values.getLong(offset) + delta);
    }

    /**
     * @param counter which counter.
     * @return its value.
     */
    public long get(final EngineCounter counter)
    {
        return values.getLongVolatile(offsets[counter.ordinal()]);
    }

    /**
     * @return the sum of every drop counter (reports and responses).
     */
    public long totalDrops()
    {
        long sum = 0;
        for (final EngineCounter c : ALL)
        {
            if (c.isDrop())
            {
                sum += get(c);
            }
        }
        return sum;
    }
}
