package io.dta.appliance.engine.primitive;

import io.dta.appliance.engine.worker.WorkerOwnership;
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
 * <p>
 * A written record stays in its entry until another flow takes the entry: an RDMA WRITE replaces the whole slot, so
 * a flow's postcards that come after its record went out (a late hop after the idle flush, a network duplicate)
 * would otherwise overwrite the fuller record with one holding only themselves. Postcards of the flow reopen the
 * entry with the written hops carried: the next record holds the written hops and the new ones (a new hop's value
 * replaces a carried one). Completion still needs all H hops reported anew, so a flow that sends its whole path
 * again writes one record per path, as before.
 */
public final class PostcardHandler
{
    private static final int NONE = -1;
    private static final long ESSENTIAL_BIT = 1L << 8;
    private static final long HOPS_REPORTED = 0xFF;
    private static final int CARRIED_SHIFT = 16;
    private static final long CARRIED_HOPS = HOPS_REPORTED << CARRIED_SHIFT;
    private static final long KEY_BITS = 0xFFFF_FFFFL << 32;
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
     * Per entry: the flow key in the high word, the hops carried from the flow's written record in bits 16..23, the
     * essential flag in bit 8 and the hops reported since the entry was opened in the low byte. An entry caches a
     * flow in flight iff its low byte is not 0 (every report sets a bit); with a low byte of 0 and carried hops it
     * holds a written record, with 0 altogether it is free. So the key test, the masks and the flag are one load
     * and one store per report.
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
        final boolean ownEntry = (int)(flow >>> 32) == key;
        if (0 != (flow & HOPS_REPORTED) && !ownEntry)
        {
            counters.increment(EngineCounter.POSTCARD_EVICTIONS);
            emit(entry, flow, count, nowNanos);
            flow = 0;
        }
        if (0 == (flow & HOPS_REPORTED))
        {
            // Free, another flow's written record, or this flow's, whose hops the new record carries.
            flow = ownEntry ? flow & (KEY_BITS | CARRIED_HOPS) : (long)key << 32;
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
     * Writes the entry's record and keeps it in the entry as written; frees the entry if the QP refuses it.
     *
     * @param entry    cache entry.
     * @param flow     the entry's key, flags and masks (the caller's copy may be newer than the array's).
     * @param count    the entry's report count, likewise.
     * @param nowNanos engine clock.
     */
    private void emit(final int entry, final long flow, final int count, final long nowNanos)
    {
        unlink(entry);
        final boolean essential = 0 != (flow & ESSENTIAL_BIT);
        if (!sender.admit(essential, count, nowNanos))
        {
            // Nothing of it landed: a later postcard of the flow starts afresh.
            flows[entry] = 0;
            return;
        }
        final int reported = (int)(flow & HOPS_REPORTED);
        final int carried = (int)((flow & CARRIED_HOPS) >>> CARRIED_SHIFT);
        final int mask = reported | carried;
        if (0 != (carried & ~reported))
        {
            counters.increment(EngineCounter.POSTCARD_CARRIED_RECORDS);
        }
        flows[entry] = (flow & KEY_BITS) | ((long)mask << CARRIED_SHIFT);
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
        return WorkerOwnership.mix(key);
    }
}
