package io.dta.appliance.engine.worker;

import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.RegionConfig;
import org.agrona.collections.Int2IntHashMap;

/**
 * Which worker owns each piece of state that must live in one place, when {@code W} shared-nothing workers run one
 * configuration: an Append list (its batch and head), a postcard flow (its cache entry: a flow's postcards come from
 * several switches, so through several workers), a sketch (its epochs and per-switch progress), and a queue pair (its
 * PSNs, credits and essential ring). Key-Write and Key-Increment need no owner: every worker writes through its own
 * QP. A report or a response that arrives at another worker is handed to the owner ({@link HandOffQueues}).
 * <p>
 * Lists and sketches are dealt out round-robin in configuration order (list {@code i} of all collectors to worker
 * {@code i mod W}; sketches by id likewise), postcard flows by a 32-bit mix of their key ({@link #mix(int)}) scaled
 * onto {@code 0..W-1}, so the owners are the same in every process that runs the same configuration with the same
 * {@code W}; QPs by their local QPN, from the configuration ({@link RegionConfig#forWorker(int)}). Immutable after
 * construction; lookups allocate nothing.
 */
public final class WorkerOwnership
{
    /** Answer of {@link #ownerOfQpn(int)} for a QPN no worker has. */
    public static final int NO_OWNER = -1;

    private final int workers;
    private final Int2IntHashMap ownerByLocalQpn = new Int2IntHashMap(NO_OWNER);
    private final Int2IntHashMap ownerByListId = new Int2IntHashMap(NO_OWNER);
    private final Int2IntHashMap ownerBySketchId = new Int2IntHashMap(NO_OWNER);

    /**
     * @param workerConfigs each worker's configuration ({@link ApplianceConfig#forWorker(int)}), worker {@code w} at
     *                      index {@code w}: its regions' local QPNs are its QPs.
     */
    public WorkerOwnership(final ApplianceConfig[] workerConfigs)
    {
        if (workerConfigs.length < 1)
        {
            throw new IllegalArgumentException("at least one worker");
        }
        this.workers = workerConfigs.length;
        // Lists and sketches are few: dealt out in configuration order, round-robin, so every worker owns its share
        // (a hash would give two lists to one worker as often as not).
        int list = 0;
        int sketch = 0;
        for (final CollectorConfig collector : workerConfigs[0].collectors())
        {
            for (final var l : collector.lists())
            {
                ownerByListId.put((int)l.id(), list++ % workers);
            }
            for (final var k : collector.sketches())
            {
                if (ownerBySketchId.get((int)k.id()) == NO_OWNER)
                {
                    ownerBySketchId.put((int)k.id(), sketch++ % workers);
                }
            }
        }
        for (int w = 0; w < workers; w++)
        {
            for (final CollectorConfig collector : workerConfigs[w].collectors())
            {
                for (final RegionConfig region : collector.regions())
                {
                    ownerByLocalQpn.put(region.localQpn(), w);
                }
            }
        }
    }

    /**
     * @return how many workers.
     */
    public int workers()
    {
        return workers;
    }

    /**
     * @param listId an Append list's id (its 32-bit pattern).
     * @return the worker that batches the list.
     */
    public int ownerOfList(final int listId)
    {
        final int owner = ownerByListId.get(listId);
        // A list nobody configured: any worker drops it as unroutable; spread by hash so no one worker takes them all.
        return NO_OWNER == owner ? scale(mix(listId)) : owner;
    }

    /**
     * @param flowKey a postcard's flow key.
     * @return the worker whose postcard cache holds the flow.
     */
    public int ownerOfFlow(final int flowKey)
    {
        return scale(mix(flowKey ^ 0x5A17_F10E));
    }

    /**
     * @param sketchId a sketch's id.
     * @return the worker that merges the sketch.
     */
    public int ownerOfSketch(final int sketchId)
    {
        final int owner = ownerBySketchId.get(sketchId);
        return NO_OWNER == owner ? scale(mix(sketchId ^ 0x00C0_FFEE)) : owner;
    }

    /**
     * @param localQpn a BTH destination QP of a response.
     * @return the worker whose QP it is, or {@link #NO_OWNER}.
     */
    public int ownerOfQpn(final int localQpn)
    {
        return ownerByLocalQpn.get(localQpn);
    }

    private int scale(final int hash)
    {
        return (int)(((hash & 0xFFFF_FFFFL) * workers) >>> 32);
    }

    /**
     * MurmurHash3's 32-bit finaliser: every input bit moves every output bit, so consecutive ids spread evenly.
     *
     * @param x the value.
     * @return its mix.
     */
    public static int mix(final int x)
    {
        int h = x;
        h ^= h >>> 16;
        h *= 0x85EB_CA6B;
        h ^= h >>> 13;
        h *= 0xC2B2_AE35;
        h ^= h >>> 16;
        return h;
    }
}
