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
    private static final long ESSENTIAL_BIT = 1L << 8;
    private static final long LOW_WORD = 0xFFFF_FFFFL;

    private final QueuePairSender sender;
    private final EngineCounters counters;
    private final KeyHash keyHash = new KeyHash();
    private final long baseAddress;
    private final int slotMask;
    private final int hops;
    private final int completeMask;
    private final long idleFlushNanos;
    private final int cacheMask;
    /**
     * Per entry: the flow key in the high word, the essential flag in bit 8 and the hop mask in the low byte. An
     * entry is occupied iff its mask is not 0 (every report sets a bit), so the key test, the mask and the flag are
     * one load and one store per report.
     */
    private final long[] flows;
    private final int[] hopData;
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
        flows = new long[cacheEntries];
        hopData = new int[cacheEntries * hops];
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
        long flow = flows[entry];
        int count = reports[entry];
        if (0 != (int)flow && (int)(flow >>> 32) != key)
        {
            counters.increment(EngineCounter.POSTCARD_EVICTIONS);
            emit(entry, flow, count, nowNanos);
            flow = 0;
        }
        if (0 == (int)flow)
        {
            flow = (long)key << 32;
            count = 0;
            linkNewest(entry);
        }
        else if (entry != newest)
        {
            // Consecutive hops of one flow find it the newest already: nothing to move.
            unlink(entry);
            linkNewest(entry);
        }
        hopData[entry * hops + hop - 1] = data;
        flow |= 1L << (hop - 1);
        if (essentialCard)
        {
            flow |= ESSENTIAL_BIT;
        }
        count++;
        updatedNanos[entry] = nowNanos;
        if (((int)flow & completeMask) == completeMask)
        {
            emit(entry, flow, count, nowNanos);
        }
        else
        {
            flows[entry] = flow;
            reports[entry] = count;
        }
    }

    /**
     * When {@link #poll(long)} will next have work: the idle flush of the least recently updated flow.
     *
     * @param limitNanos returned when no timer is due earlier.
     * @return the oldest flow's idle flush time if it is before {@code limitNanos}, else {@code limitNanos}.
     */
    public long nextTimerNanos(final long limitNanos)
    {
        if (NONE == oldest)
        {
            return limitNanos;
        }
        final long due = updatedNanos[oldest] + idleFlushNanos;
        return due - limitNanos < 0 ? due : limitNanos;
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
            emit(oldest, flows[oldest], reports[oldest], nowNanos);
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
            emit(oldest, flows[oldest], reports[oldest], nowNanos);
        }
    }

    /**
     * Frees the entry and writes its record.
     *
     * @param entry    cache entry.
     * @param flow     the entry's key, flag and mask (the caller's copy may be newer than the array's).
     * @param count    the entry's report count, likewise.
     * @param nowNanos engine clock.
     */
    private void emit(final int entry, final long flow, final int count, final long nowNanos)
    {
        unlink(entry);
        flows[entry] = 0;
        final boolean essential = 0 != (flow & ESSENTIAL_BIT);
        if (!sender.admit(essential, count, nowNanos))
        {
            return;
        }
        final int mask = (int)flow & 0xFF;
        final int key = (int)(flow >>> 32);
        // Key then mask, little-endian: one 8-byte store.
        record.putLong(PostcardLayout.KEY_OFFSET, (flow >>> 32) | ((long)mask << 32), ByteOrder.LITTLE_ENDIAN);
        final int first = entry * hops;
        for (int h = 0; h < hops; h++)
        {
            // A missing hop's word is 0 (its array element may hold an earlier flow's data).
            final int value = hopData[first + h] & -((mask >>> h) & 1);
            record.putInt(PostcardLayout.HOPS_OFFSET + 4 * h, value, ByteOrder.LITTLE_ENDIAN);
        }
        final long slot = keyHash.slotHash(key & LOW_WORD, 0) & slotMask;
        counters.increment(EngineCounter.POSTCARD_RECORDS);
        sender.write(baseAddress + slot * PostcardLayout.SLOT_LENGTH, record, 0, PostcardLayout.recordLength(hops),
            essential, count, nowNanos);
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
