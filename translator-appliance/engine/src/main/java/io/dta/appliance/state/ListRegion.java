package io.dta.appliance.state;

import io.dta.collector.layout.ListLayout;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ListConfig;

import java.util.ArrayList;
import java.util.List;

/**
 * One Append list as the configuration places it: what must be unchanged for a recorded position to be resumed.
 *
 * @param listId    the list id.
 * @param name      the configuration key path (for messages; not recorded).
 * @param address   region base address.
 * @param length    region length in bytes.
 * @param kind      layout.
 * @param batchSize entries per batch.
 */
public record ListRegion(long listId, String name, long address, long length, ListLayout.Kind kind, int batchSize)
{
    /**
     * The lists of a configuration, in configuration order.
     *
     * @param config a configuration whose regions are connected (addresses known).
     * @return one region per list.
     */
    public static List<ListRegion> allOf(final ApplianceConfig config)
    {
        final List<ListRegion> regions = new ArrayList<>();
        for (final CollectorConfig collector : config.collectors())
        {
            for (final ListConfig list : collector.lists())
            {
                regions.add(of(list, config.append().batchSize()));
            }
        }
        return regions;
    }

    /**
     * @param list      a list of a configuration.
     * @param batchSize the configuration's Append batch size.
     * @return the list's region as the resume state file records it.
     */
    public static ListRegion of(final ListConfig list, final int batchSize)
    {
        return new ListRegion(list.id(), list.region().path(), list.region().address(), list.region().length(),
            kindOf(list.layout()), batchSize);
    }

    /**
     * @param layout a configured layout.
     * @return the collector layout kind.
     */
    public static ListLayout.Kind kindOf(final io.dta.config.ListLayout layout)
    {
        return io.dta.config.ListLayout.REFERENCE == layout ? ListLayout.Kind.REFERENCE : ListLayout.Kind.SEQUENCED;
    }

    /**
     * @param other another region.
     * @return true when address, length, layout and batch size are the same (the name does not count).
     */
    public boolean sameAs(final ListRegion other)
    {
        return address == other.address && length == other.length && kind == other.kind &&
            batchSize == other.batchSize;
    }

    /**
     * @return the list's layout.
     */
    public ListLayout layout()
    {
        return new ListLayout(kind, batchSize, length);
    }

    /**
     * @return the position of a list that never wrote a batch: sequence 1, or head slot 0.
     */
    public long initialPosition()
    {
        return ListLayout.Kind.SEQUENCED == kind ? 1 : 0;
    }

    /**
     * @param other the region recorded before.
     * @return what differs, e.g. {@code "address 0x10 (was 0x20)"}.
     */
    String differences(final ListRegion other)
    {
        final List<String> changes = new ArrayList<>();
        if (address != other.address)
        {
            changes.add(String.format("address 0x%x (was 0x%x)", address, other.address));
        }
        if (length != other.length)
        {
            changes.add("length " + length + " (was " + other.length + ")");
        }
        if (kind != other.kind)
        {
            changes.add("layout " + kind.name().toLowerCase() + " (was " + other.kind.name().toLowerCase() + ")");
        }
        if (batchSize != other.batchSize)
        {
            changes.add("batch size " + batchSize + " (was " + other.batchSize + ")");
        }
        return String.join(", ", changes);
    }
}
