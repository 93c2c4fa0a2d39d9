package io.dta.collector.store;

import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ListConfig;
import io.dta.config.RegionConfig;
import io.dta.config.SketchConfig;

import java.util.ArrayList;
import java.util.List;

/**
 * One region of a collector as the store sees it: a file name, a type, the region's configuration and the layout
 * parameters a reader needs (slot size, list layout and batch size, sketch type and shape).
 *
 * @param name      file stem, unique within the collector: {@code keyWrite}, {@code keyIncrement},
 *                  {@code postcards}, {@code list-<id>} or {@code sketch-<id>}.
 * @param type      what the region holds.
 * @param region    address, length, R_Key and QP of the region.
 * @param id        list or sketch id, 0 for the stores.
 * @param layout    layout parameter written to the manifest: {@code slotSize=8}, {@code layout=SEQUENCED/4} ...
 */
public record RegionDescriptor(String name, RegionType type, RegionConfig region, long id, String layout)
{
    /**
     * The regions of one collector, stores first, then lists, then sketches.
     *
     * @param config    the whole configuration (for the Append batch size and postcard hops).
     * @param collector the collector.
     * @return its regions.
     */
    public static List<RegionDescriptor> of(final ApplianceConfig config, final CollectorConfig collector)
    {
        final List<RegionDescriptor> regions = new ArrayList<>();
        if (null != collector.keyWrite())
        {
            regions.add(new RegionDescriptor("keyWrite", RegionType.KEY_WRITE, collector.keyWrite().region(), 0,
                "slotSize=" + collector.keyWrite().slotSize()));
        }
        if (null != collector.keyIncrement())
        {
            regions.add(new RegionDescriptor("keyIncrement", RegionType.KEY_INCREMENT,
                collector.keyIncrement().region(), 0, "counter=8"));
        }
        if (null != collector.postcards())
        {
            regions.add(new RegionDescriptor("postcards", RegionType.POSTCARDS, collector.postcards().region(), 0,
                "hops=" + config.postcards().hops()));
        }
        for (final ListConfig list : collector.lists())
        {
            regions.add(new RegionDescriptor("list-" + list.id(), RegionType.LIST, list.region(), list.id(),
                "layout=" + list.layout() + ",batchSize=" + config.append().batchSize()));
        }
        for (final SketchConfig sketch : collector.sketches())
        {
            regions.add(new RegionDescriptor("sketch-" + sketch.id(), RegionType.SKETCH, sketch.region(),
                sketch.id(), "type=" + sketch.type() + ",rows=" + sketch.rows() + ",columns=" + sketch.columns() +
                ",epochs=" + sketch.epochs()));
        }
        return regions;
    }
}
