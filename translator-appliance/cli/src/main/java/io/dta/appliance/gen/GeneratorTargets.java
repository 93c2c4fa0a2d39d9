package io.dta.appliance.gen;

import io.dta.codec.Ipv4Address;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ListConfig;
import io.dta.config.SketchConfig;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where the generated reports go: the collectors {@code --collector} selects (all by default) by index, which of them
 * take which primitive, the lists and the sketch streams of {@code --lists} and {@code --sketches}. Resolved once
 * from the configuration; a selection that names what the configuration lacks is refused naming the option.
 */
final class GeneratorTargets
{
    final int[] collectorIps;
    final long[] collectorMacs;
    /** Data bytes of a Key-Write report to each collector (its slot size less the checksum), -1 without a store. */
    final int[] collectorKeyWriteDataLength;
    final int[] keyWriteCollectors;
    final int[] keyIncrementCollectors;
    final int[] postcardCollectors;
    final int[] allCollectors;
    final long[] listIds;
    /** The index of the collector hosting each of {@link #listIds}. */
    final int[] listCollectors;
    /** Every list ID of the configuration, selected or not, sorted. */
    final long[] configListIdsSorted;
    final SketchTraffic[] sketchTraffic;

    /**
     * @param config   the translator configuration.
     * @param settings the selection ({@code --collector}, {@code --lists}, {@code --sketches}) and the sketch
     *                 traffic's shape.
     * @throws GeneratorSettingsException naming the option when the selection does not fit the configuration.
     */
    GeneratorTargets(final ApplianceConfig config, final GeneratorSettings settings)
    {
        final List<CollectorConfig> selected = selectCollectors(config, settings.collectorIps());
        final int collectorCount = selected.size();
        collectorIps = new int[collectorCount];
        collectorMacs = new long[collectorCount];
        collectorKeyWriteDataLength = new int[collectorCount];
        allCollectors = new int[collectorCount];
        final int[] kw = new int[collectorCount];
        final int[] ki = new int[collectorCount];
        final int[] pc = new int[collectorCount];
        int kwCount = 0;
        int kiCount = 0;
        int pcCount = 0;
        for (int i = 0; i < collectorCount; i++)
        {
            final CollectorConfig collector = selected.get(i);
            collectorIps[i] = collector.ip();
            collectorMacs[i] = collector.mac();
            allCollectors[i] = i;
            collectorKeyWriteDataLength[i] = null == collector.keyWrite() ? -1 : collector.keyWrite().slotSize() - 4;
            if (null != collector.keyWrite())
            {
                kw[kwCount++] = i;
            }
            if (null != collector.keyIncrement())
            {
                ki[kiCount++] = i;
            }
            if (null != collector.postcards())
            {
                pc[pcCount++] = i;
            }
        }
        keyWriteCollectors = Arrays.copyOf(kw, kwCount);
        keyIncrementCollectors = Arrays.copyOf(ki, kiCount);
        postcardCollectors = Arrays.copyOf(pc, pcCount);

        configListIdsSorted = config.collectors().stream()
            .flatMap(c -> c.lists().stream()).mapToLong(ListConfig::id).sorted().toArray();
        final List<long[]> lists = selectLists(config, selected, settings.listIds());
        listIds = new long[lists.size()];
        listCollectors = new int[lists.size()];
        for (int i = 0; i < lists.size(); i++)
        {
            listIds[i] = lists.get(i)[0];
            listCollectors[i] = (int)lists.get(i)[1];
        }
        sketchTraffic = selectSketches(selected, settings);
    }

    boolean available(final Primitive primitive)
    {
        return switch (primitive)
        {
            case KEY_WRITE -> keyWriteCollectors.length > 0;
            case KEY_INCREMENT -> keyIncrementCollectors.length > 0;
            case POSTCARD -> postcardCollectors.length > 0;
            case APPEND -> listIds.length > 0;
            case SKETCH -> sketchTraffic.length > 0;
        };
    }

    static String requirement(final Primitive primitive)
    {
        return switch (primitive)
        {
            case KEY_WRITE -> "a collector with a keyWrite store";
            case KEY_INCREMENT -> "a collector with a keyIncrement store";
            case POSTCARD -> "a collector with a postcards store";
            case APPEND -> "a list";
            case SKETCH -> "a sketch";
        };
    }

    private static List<CollectorConfig> selectCollectors(final ApplianceConfig config, final int[] ips)
    {
        if (null == ips)
        {
            return config.collectors();
        }
        final List<CollectorConfig> selected = new ArrayList<>();
        for (final int ip : ips)
        {
            CollectorConfig found = null;
            for (final CollectorConfig collector : config.collectors())
            {
                if (collector.ip() == ip)
                {
                    found = collector;
                }
            }
            if (null == found)
            {
                final StringBuilder known = new StringBuilder();
                for (final CollectorConfig collector : config.collectors())
                {
                    known.append(known.length() == 0 ? "" : ", ").append(Ipv4Address.format(collector.ip()));
                }
                throw new GeneratorSettingsException("--collector", Ipv4Address.format(ip) +
                    " is not a collector of the configuration (collectors: " + known + ")");
            }
            if (!selected.contains(found))
            {
                selected.add(found);
            }
        }
        return selected;
    }

    private static SketchTraffic[] selectSketches(
        final List<CollectorConfig> selected, final GeneratorSettings settings)
    {
        if (settings.mixWeight(Primitive.SKETCH) == 0)
        {
            return new SketchTraffic[0];
        }
        final long[] ids = settings.sketchIds();
        final List<SketchTraffic> out = new ArrayList<>();
        for (int c = 0; c < selected.size(); c++)
        {
            for (final SketchConfig sketch : selected.get(c).sketches())
            {
                if (null == ids || Arrays.stream(ids).anyMatch(id -> id == sketch.id()))
                {
                    final int switches = 0 == settings.switches() ? sketch.switches() : settings.switches();
                    out.add(new SketchTraffic(sketch, c, switches, settings.epochs(), settings.firstEpoch(),
                        settings.sketchItems(), settings.keyDistribution(), settings.keySpace(),
                        settings.zipfExponent(), settings.seed(), settings.sketchGaps(), settings.sketchDuplicates(),
                        settings.missingSwitch(), settings.recordTruth()));
                }
            }
        }
        if (null != ids)
        {
            for (final long id : ids)
            {
                if (out.stream().noneMatch(t -> t.sketch().id() == id))
                {
                    throw new GeneratorSettingsException("--sketches", "sketch " + id + " is not a sketch of a " +
                        "selected collector (sketches: " + Arrays.toString(selected.stream()
                        .flatMap(col -> col.sketches().stream()).mapToLong(SketchConfig::id).sorted().toArray()) + ")");
                }
            }
        }
        return out.toArray(new SketchTraffic[0]);
    }

    /** Each element is {list ID, index of the hosting collector among the selected ones}. */
    private static List<long[]> selectLists(
        final ApplianceConfig config, final List<CollectorConfig> selected, final long[] ids)
    {
        final List<long[]> lists = new ArrayList<>();
        if (null == ids)
        {
            for (int c = 0; c < selected.size(); c++)
            {
                for (final ListConfig list : selected.get(c).lists())
                {
                    lists.add(new long[]{ list.id(), c });
                }
            }
            return lists;
        }
        for (final long id : ids)
        {
            CollectorConfig host = null;
            for (final CollectorConfig collector : config.collectors())
            {
                for (final ListConfig list : collector.lists())
                {
                    if (list.id() == id)
                    {
                        host = collector;
                    }
                }
            }
            if (null == host)
            {
                throw new GeneratorSettingsException("--lists", "list " + id + " is not in the configuration (lists: " +
                    Arrays.toString(config.collectors().stream().flatMap(c -> c.lists().stream())
                        .mapToLong(ListConfig::id).sorted().toArray()) + ")");
            }
            final int index = selected.indexOf(host);
            if (index < 0)
            {
                throw new GeneratorSettingsException("--lists", "list " + id + " is hosted by collector " +
                    host.name() + " (" + Ipv4Address.format(host.ip()) + "), which --collector leaves out");
            }
            lists.add(new long[]{ id, index });
        }
        return lists;
    }
}
