package io.dta.appliance.engine.primitive;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.codec.KeyHash;
import io.dta.collector.layout.PostcardLayout;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Postcarding (translation.md §3): a direct-mapped cache of flows in flight; one WRITE of the
 * {@link PostcardLayout} record per flow when all H hops are in, when another flow takes the cache entry, when
 * the flow has been idle for {@code idleFlushNanos}, or at shutdown. The record always goes to the slot of its
 * own flow (the reference wrote an evicted flow to the evicting flow's slot).
 * <p>
 * Occupied entries are threaded on a list in order of last update, so the idle check looks at the oldest
 * entry only instead of scanning the cache.
 * <p>
 * A record's WRITE carries every hop report its cache entry took (a repeated hop overwrites the earlier value;
 * both reports count), so a refused record counts each of them as a dropped report.
 */
public final class PostcardHandler
{
    private static final int NONE = -1;

    private final QueuePairSender sender;
    private final EngineCounters counters;
    private final KeyHash keyHash = new KeyHash();
    private final long baseAddress;
    private final int slotMask;
    private final int hops;
    private final int completeMask;
    private final long idleFlushNanos;
    private final int cacheMask;
    private final int[] keys;
    private final int[] masks;
    private final int[] hopData;
    private final boolean[] occupied;
    private final boolean[] essential;
    private final int[] reports;
    private final long[] updatedNanos;
    private final int[] older;
    private final int[] newer;
    private int oldest = NONE;
    private int newest = NONE;
    private final UnsafeBuffer record;

    /**
     * @param sender         the postcard store's QP.
     * @param counters       engine counters.
     * @param baseAddress    region address.
     * @param length         region length (a power of two number of 32-byte slots).
     * @param hops           hops per path, 1..{@link PostcardLayout#MAX_HOPS}.
     * @param idleFlushNanos idle time after which an incomplete record goes out.
     * @param cacheEntries   flows cached at once (a power of two).
     */
    public PostcardHandler(
        final QueuePairSender sender,
        final EngineCounters counters,
        final long baseAddress,
        final long length,
        final int hops,
        final long idleFlushNanos,
        final int cacheEntries)
    {
        this.sender = sender;
        this.counters = counters;
        this.baseAddress = baseAddress;
        this.slotMask = (int)(length / PostcardLayout.SLOT_LENGTH) - 1;
        this.hops = hops;
        this.completeMask = (1 << hops) - 1;
        this.idleFlushNanos = idleFlushNanos;
        this.cacheMask = cacheEntries - 1;
        keys = new int[cacheEntries];
        masks = new int[cacheEntries];
        hopData = new int[cacheEntries * hops];
        occupied = new boolean[cacheEntries];
        essential = new boolean[cacheEntries];
        reports = new int[cacheEntries];
        updatedNanos = new long[cacheEntries];
        older = new int[cacheEntries];
        newer = new int[cacheEntries];
        record = new UnsafeBuffer(ByteBuffer.allocateDirect(PostcardLayout.SLOT_LENGTH));
    }

    /**
     * @return hops per path.
     */
    public int hops()
    {
        return hops;
    }

    /**
     * Takes one postcard whose hop number was already checked to be in 1..hops.
     *
     * @param key            flow key as on the wire.
     * @param hop            hop number, 1-based.
     * @param data           hop data as on the wire.
     * @param essentialCard  essential flag.
     * @param nowNanos       engine clock.
     */
    public void onReport(final int key, final int hop, final int data, final boolean essentialCard, final long nowNanos)
    {
        final int entry = mix(key) & cacheMask;
        if (occupied[entry] && keys[entry] != key)
        {
            counters.increment(EngineCounter.POSTCARD_EVICTIONS);
            emit(entry, nowNanos);
        }
        if (!occupied[entry])
        {
            occupied[entry] = true;
            keys[entry] = key;
            masks[entry] = 0;
            essential[entry] = false;
            reports[entry] = 0;
        }
        else
        {
            unlink(entry);
        }
        hopData[entry * hops + hop - 1] = data;
        masks[entry] |= 1 << (hop - 1);
        essential[entry] |= essentialCard;
        reports[entry]++;
        updatedNanos[entry] = nowNanos;
        linkNewest(entry);
        if (masks[entry] == completeMask)
        {
            emit(entry, nowNanos);
        }
    }

    /**
     * Writes out flows idle for at least the idle flush time.
     *
     * @param nowNanos engine clock.
     * @return records written.
     */
    public int poll(final long nowNanos)
    {
        int work = 0;
        while (NONE != oldest && nowNanos - updatedNanos[oldest] >= idleFlushNanos)
        {
            counters.increment(EngineCounter.POSTCARD_IDLE_FLUSHES);
            emit(oldest, nowNanos);
            work++;
        }
        return work;
    }

    /**
     * Writes out every cached flow (shutdown, end of input).
     *
     * @param nowNanos engine clock.
     */
    public void flush(final long nowNanos)
    {
        while (NONE != oldest)
        {
            emit(oldest, nowNanos);
        }
    }

    private void emit(final int entry, final long nowNanos)
    {
        unlink(entry);
        occupied[entry] = false;
        final int key = keys[entry];
        if (!sender.admit(essential[entry], reports[entry], nowNanos))
        {
            return;
        }
        record.putInt(PostcardLayout.KEY_OFFSET, key, ByteOrder.LITTLE_ENDIAN);
        record.putInt(PostcardLayout.HOP_MASK_OFFSET, masks[entry], ByteOrder.LITTLE_ENDIAN);
        for (int h = 1; h <= hops; h++)
        {
            final int value = 0 != (masks[entry] & (1 << (h - 1))) ? hopData[entry * hops + h - 1] : 0;
            record.putInt(PostcardLayout.hopOffset(h), value, ByteOrder.LITTLE_ENDIAN);
        }
        final long slot = keyHash.slotHash(key & 0xFFFFFFFFL, 0) & slotMask;
        counters.increment(EngineCounter.POSTCARD_RECORDS);
        sender.write(baseAddress + slot * PostcardLayout.SLOT_LENGTH, record, 0, PostcardLayout.recordLength(hops),
            essential[entry], reports[entry], nowNanos);
    }

    private void linkNewest(final int entry)
    {
        older[entry] = newest;
        newer[entry] = NONE;
        if (NONE != newest)
        {
            newer[newest] = entry;
        }
        newest = entry;
        if (NONE == oldest)
        {
            oldest = entry;
        }
    }

    private void unlink(final int entry)
    {
        final int o = older[entry];
        final int n = newer[entry];
        if (NONE != o)
        {
            newer[o] = n;
        }
        else if (oldest == entry)
        {
            oldest = n;
        }
        if (NONE != n)
        {
            older[n] = o;
        }
        else if (newest == entry)
        {
            newest = o;
        }
        older[entry] = NONE;
        newer[entry] = NONE;
    }

    private static int mix(final int key)
    {
        int h = key;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
