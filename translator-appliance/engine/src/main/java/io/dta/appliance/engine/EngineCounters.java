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
 * process.
 * <p>
 * Updates go to a plain array on the engine thread's heap and reach the manager's values at {@link #publish()}
 * (the live agent publishes with its statistics tick and at its stop; {@link TranslatorEngine#flush} publishes
 * too), as one plain read and one release store per changed counter, which a reader in another process sees
 * whole. A report updates about five counters: updating the shared values directly (a release store behind the
 * buffer's field loads and type check, each time) cost the Key-Write engine about 15 % of its throughput
 * (docs/performance.md). {@link #get} adds what is not yet published, so it is exact on the engine thread; another
 * reader sees the values of the last publication.
 */
public final class EngineCounters
{
    /**
     * Agrona counter type id of engine counters; the counter's key holds the {@link EngineCounter} ordinal.
     */
    public static final int TYPE_ID = 0x0D7A_0001;

    /** Agrona counter type id of one worker's engine counters (beside the totals, {@link #TYPE_ID}). */
    public static final int WORKER_TYPE_ID = 0x0D7A_0011;

    /** The worker in the key of the totals of several workers' counters ({@link #totals}). */
    public static final int ALL_WORKERS = -1;

    /** What a worker's counter's label starts with, followed by the worker's index and ": ". */
    public static final String WORKER_LABEL_PREFIX = "worker ";

    private static final EngineCounter[] ALL = EngineCounter.values();

    private final AtomicBuffer values;
    private final int[] offsets = new int[ALL.length];
    private final long[] unpublished = new long[ALL.length];

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
        this(manager, TYPE_ID, 0);
    }

    /**
     * The totals of several workers' counters ({@link #setPublished}), allocated under the plain labels with worker
     * {@link #ALL_WORKERS} in their keys: metrics export each worker's series, not these.
     *
     * @param manager where to allocate one counter per {@link EngineCounter}.
     * @return the totals.
     */
    public static EngineCounters totals(final CountersManager manager)
    {
        return new EngineCounters(manager, TYPE_ID, ALL_WORKERS);
    }

    private EngineCounters(final CountersManager manager, final int typeId, final int worker)
    {
        values = manager.valuesBuffer();
        for (final EngineCounter c : ALL)
        {
            final int id = manager.allocate(c.name(), typeId,
                key ->
                {
                    key.putInt(0, c.ordinal());
                    key.putInt(4, worker);
                });
            manager.setCounterLabel(id, c.description());
            offsets[c.ordinal()] = CountersReader.counterOffset(id);
        }
    }

    /**
     * One worker's counters, allocated in a counters manager beside the totals: each labelled {@code worker N: } and
     * the counter's description, keyed by the counter's ordinal and the worker's index.
     *
     * @param manager where to allocate one counter per {@link EngineCounter}.
     * @param worker  the worker's index.
     */
    public EngineCounters(final CountersManager manager, final int worker)
    {
        values = manager.valuesBuffer();
        for (final EngineCounter c : ALL)
        {
            final int id = manager.allocate(c.name(), WORKER_TYPE_ID,
                key ->
                {
                    key.putInt(0, c.ordinal());
                    key.putInt(4, worker);
                });
            manager.setCounterLabel(id, WORKER_LABEL_PREFIX + worker + ": " + c.description());
            offsets[c.ordinal()] = CountersReader.counterOffset(id);
        }
    }

    /**
     * @param counter a counter.
     * @return its value as last published (what another thread may read).
     */
    public long published(final EngineCounter counter)
    {
        return values.getLongVolatile(offsets[counter.ordinal()]);
    }

    /**
     * Sets a counter's published value (the totals of several workers' counters, written by one thread).
     *
     * @param counter a counter.
     * @param value   its value.
     */
    public void setPublished(final EngineCounter counter, final long value)
    {
        values.putLongRelease(offsets[counter.ordinal()], value);
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
        unpublished[counter.ordinal()]++;
    }

    /**
     * Adds a delta.
     *
     * @param counter which counter.
     * @param delta   amount.
     */
    public void add(final EngineCounter counter, final long delta)
    {
        unpublished[counter.ordinal()] += delta;
    }

    /**
     * Writes the updates made since the last publication into the counters manager's values, where readers in
     * other threads and processes see them. Engine thread only.
     */
    public void publish()
    {
        for (int i = 0; i < unpublished.length; i++)
        {
            final long delta = unpublished[i];
            if (0 != delta)
            {
                final int offset = offsets[i];
                values.putLongRelease(offset, values.getLong(offset) + delta);
                unpublished[i] = 0;
            }
        }
    }

    /**
     * @param counter which counter.
     * @return its value: exact on the engine thread; from another thread, as of the last {@link #publish()}
     * (plus whatever of the engine thread's later updates that thread happens to see).
     */
    public long get(final EngineCounter counter)
    {
        final int i = counter.ordinal();
        return values.getLongVolatile(offsets[i]) + unpublished[i];
    }

    /**
     * Reports routed to a primitive that were neither delivered nor dropped yet: the difference in the balance that
     * {@link EngineCounter} states, still in an Append batch or the postcard cache, in a held frame, waiting for
     * atomic credit or an acknowledgement. 0 once the engine is flushed and every QP quiescent.
     *
     * @return the reports pending.
     */
    public long reportsPending()
    {
        final long pending = get(EngineCounter.REPORTS_TRANSLATED) - get(EngineCounter.REPORTS_DELIVERED) -
            get(EngineCounter.DROP_GRACE_PERIOD) - get(EngineCounter.DROP_QP_ERROR) -
            get(EngineCounter.DROP_BACKLOG_FULL) - get(EngineCounter.DROP_ATOMIC_QUEUE_FULL) -
            get(EngineCounter.REPORTS_DROPPED_TX_FULL);
        return Math.max(0, pending);
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
