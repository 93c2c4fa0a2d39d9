package io.dta.config;

import java.util.List;

/**
 * A collector and the regions it hosts. Optional stores are {@code null} when not configured; at least one
 * region of some kind is present.
 *
 * @param name         unique name, default {@code collector-<index>}.
 * @param mac          destination MAC of frames to it (low 48 bits; its own or the next hop's).
 * @param ip           its IPv4 address, first octet most significant; reports to this address are routed to it.
 * @param pathMtu      RoCE path MTU: 256, 512, 1024, 2048 or 4096, default 1024.
 * @param keyWrite     Key-Write store or {@code null}.
 * @param keyIncrement Key-Increment counter store or {@code null}.
 * @param postcards    postcard store or {@code null}.
 * @param lists        Append lists (possibly empty, immutable).
 * @param sketches     Sketch-Merge sketches (possibly empty, immutable).
 */
public record CollectorConfig(
    String name,
    long mac,
    int ip,
    int pathMtu,
    KeyWriteConfig keyWrite,
    KeyIncrementConfig keyIncrement,
    PostcardStoreConfig postcards,
    List<ListConfig> lists,
    List<SketchConfig> sketches)
{
    /**
     * Default path MTU.
     */
    public static final int DEFAULT_PATH_MTU = 1024;

    /**
     * Copies the lists so the record stays immutable.
     */
    public CollectorConfig
    {
        lists = List.copyOf(lists);
        sketches = List.copyOf(sketches);
    }

    /**
     * The same collector with every region replaced (kinds, ids and sizes kept).
     *
     * @param mapper gives the new region of each region.
     * @return a new collector record.
     */
    public CollectorConfig withRegions(final java.util.function.UnaryOperator<RegionConfig> mapper)
    {
        // In regions() order, so a stateful mapper sees the regions as everywhere else.
        final KeyWriteConfig newKeyWrite = null == keyWrite ? null :
            new KeyWriteConfig(mapper.apply(keyWrite.region()), keyWrite.slotSize());
        final KeyIncrementConfig newKeyIncrement = null == keyIncrement ? null :
            new KeyIncrementConfig(mapper.apply(keyIncrement.region()), keyIncrement.maxOutstandingAtomics(),
                keyIncrement.atomicQueueSize());
        final PostcardStoreConfig newPostcards = null == postcards ? null :
            new PostcardStoreConfig(mapper.apply(postcards.region()));
        final java.util.ArrayList<ListConfig> newLists = new java.util.ArrayList<>();
        for (final ListConfig list : lists)
        {
            newLists.add(new ListConfig(list.id(), mapper.apply(list.region()), list.layout()));
        }
        final java.util.ArrayList<SketchConfig> newSketches = new java.util.ArrayList<>();
        for (final SketchConfig k : sketches)
        {
            newSketches.add(new SketchConfig(k.id(), k.type(), k.rows(), k.columns(), k.switches(),
                k.batchColumns(), k.epochs(), k.epochTimeoutMicros(), k.nackRetryMicros(), k.nackRetries(),
                mapper.apply(k.region())));
        }
        return new CollectorConfig(
            name, mac, ip, pathMtu, newKeyWrite, newKeyIncrement, newPostcards, newLists, newSketches);
    }

    /**
     * Every region of this collector, stores first, then lists, then sketches.
     *
     * @return the regions (a new immutable list).
     */
    public List<RegionConfig> regions()
    {
        final java.util.ArrayList<RegionConfig> regions = new java.util.ArrayList<>();
        if (keyWrite != null)
        {
            regions.add(keyWrite.region());
        }
        if (keyIncrement != null)
        {
            regions.add(keyIncrement.region());
        }
        if (postcards != null)
        {
            regions.add(postcards.region());
        }
        for (final ListConfig list : lists)
        {
            regions.add(list.region());
        }
        for (final SketchConfig sketch : sketches)
        {
            regions.add(sketch.region());
        }
        return List.copyOf(regions);
    }
}
