package io.dta.collector.query;

import io.dta.collector.layout.ListLayout;
import io.dta.collector.layout.SketchLayout;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.MappedRegion;
import io.dta.collector.store.RegionType;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ListConfig;
import io.dta.config.SketchConfig;

/**
 * The queries over one collector's store, built from the configuration (slot size, postcard hops, list layouts).
 * Each accessor returns null when the collector has no such region.
 */
public final class StoreQueries
{
    private final ApplianceConfig config;
    private final CollectorStore store;

    /**
     * @param config the configuration the store was checked against.
     * @param store  the (read-only) store.
     */
    public StoreQueries(final ApplianceConfig config, final CollectorStore store)
    {
        this.config = config;
        this.store = store;
    }

    /**
     * @return the Key-Write query, or null.
     */
    public KeyWriteQuery keyWrite()
    {
        final MappedRegion region = store.region(RegionType.KEY_WRITE, 0);
        return null == region ? null : new KeyWriteQuery(region.buffer(), store.collector().keyWrite().slotSize());
    }

    /**
     * @return the counter query, or null.
     */
    public CounterQuery counters()
    {
        final MappedRegion region = store.region(RegionType.KEY_INCREMENT, 0);
        return null == region ? null : new CounterQuery(region.buffer());
    }

    /**
     * @return the postcard query, or null.
     */
    public PostcardQuery postcards()
    {
        final MappedRegion region = store.region(RegionType.POSTCARDS, 0);
        return null == region ? null : new PostcardQuery(region.buffer(), config.postcards().hops());
    }

    /**
     * @param id list id.
     * @return a reader of the list, or null.
     */
    public ListReader list(final long id)
    {
        final MappedRegion region = store.region(RegionType.LIST, id);
        if (null == region)
        {
            return null;
        }
        return new ListReader(region.buffer(), layoutOf(config, listConfig(store.collector(), id)));
    }

    /**
     * @param id sketch id.
     * @return a reader of the sketch's epochs, or null if the collector has no such sketch.
     */
    public SketchQuery sketch(final long id)
    {
        final MappedRegion region = store.region(RegionType.SKETCH, id);
        final SketchConfig sketch = sketchConfig(store.collector(), id);
        return null == region || null == sketch ? null : new SketchQuery(region.buffer(), SketchLayout.of(sketch));
    }

    /**
     * @param collector a collector.
     * @param id        sketch id.
     * @return its sketch of that id, or null.
     */
    public static SketchConfig sketchConfig(final CollectorConfig collector, final long id)
    {
        for (final SketchConfig sketch : collector.sketches())
        {
            if (sketch.id() == id)
            {
                return sketch;
            }
        }
        return null;
    }

    /**
     * The layout of a configured list.
     *
     * @param config the configuration (Append batch size).
     * @param list   the list.
     * @return its layout.
     */
    public static ListLayout layoutOf(final ApplianceConfig config, final ListConfig list)
    {
        final ListLayout.Kind kind = io.dta.config.ListLayout.REFERENCE == list.layout() ?
            ListLayout.Kind.REFERENCE : ListLayout.Kind.SEQUENCED;
        return new ListLayout(kind, config.append().batchSize(), list.region().length());
    }

    private static ListConfig listConfig(final CollectorConfig collector, final long id)
    {
        for (final ListConfig list : collector.lists())
        {
            if (list.id() == id)
            {
                return list;
            }
        }
        throw new IllegalArgumentException("no list " + id);
    }
}
