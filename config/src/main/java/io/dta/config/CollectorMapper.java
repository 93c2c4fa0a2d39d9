package io.dta.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Maps the {@code collectors} list: each collector's addresses and its regions (Key-Write, Key-Increment and postcard
 * stores, lists, sketches), with the rules on a region's length that its kind sets.
 */
final class CollectorMapper
{
    private static final int[] SLOT_SIZES = { 8, 16, 32 };
    private static final int[] PATH_MTUS = { 256, 512, 1024, 2048, 4096 };

    private final ConfigProblems problems;
    private final RegionMapper regionMapper;
    private final SketchMapper sketchMapper;

    CollectorMapper(final ConfigProblems problems)
    {
        this.problems = problems;
        this.regionMapper = new RegionMapper(problems);
        this.sketchMapper = new SketchMapper(problems, regionMapper);
    }

    List<CollectorConfig> collectors(final ConfigSection top, final int batchSize, final int backlog)
    {
        final List<CollectorConfig> collectors = new ArrayList<>();
        final List<ConfigSection> items = top.list("collectors", true);
        if (null == items)
        {
            return collectors;
        }
        if (items.isEmpty() && !problems.has("collectors"))
        {
            problems.add("collectors", "empty; at least one collector is required");
        }
        for (int i = 0; i < items.size(); i++)
        {
            final ConfigSection s = items.get(i);
            if (null != s)
            {
                collectors.add(collector(s, i, batchSize, backlog));
            }
        }
        return collectors;
    }

    private CollectorConfig collector(final ConfigSection s, final int index, final int batchSize, final int backlog)
    {
        final String name = s.string("name", "collector-" + index);
        if (!problems.has(s.pathOf("name")) && name.isBlank())
        {
            problems.add(s.pathOf("name"), "must not be blank");
        }
        final long mac = s.mac("mac");
        final int ip = s.ipv4("ip");
        final int pathMtu = (int)s.oneOf("pathMtu", PATH_MTUS, CollectorConfig.DEFAULT_PATH_MTU);

        final ConfigSection kw = s.section("keyWrite", false);
        final KeyWriteConfig keyWrite = null == kw ? null : keyWrite(kw);
        final ConfigSection ki = s.section("keyIncrement", false);
        final KeyIncrementConfig keyIncrement = null == ki ? null : keyIncrement(ki);
        final ConfigSection pc = s.section("postcards", false);
        final PostcardStoreConfig postcards = null == pc ? null : postcardStore(pc);

        final List<ListConfig> lists = new ArrayList<>();
        final List<ConfigSection> listItems = s.list("lists", false);
        if (null != listItems)
        {
            for (final ConfigSection item : listItems)
            {
                if (null != item)
                {
                    lists.add(list(item, batchSize));
                }
            }
        }
        final List<SketchConfig> sketches = new ArrayList<>();
        final List<ConfigSection> sketchItems = s.list("sketches", false);
        if (null != sketchItems)
        {
            for (final ConfigSection item : sketchItems)
            {
                if (null != item)
                {
                    sketches.add(sketchMapper.sketch(item, backlog));
                }
            }
        }
        s.finish();

        if (!s.present("keyWrite") && !s.present("keyIncrement") && !s.present("postcards") &&
            lists.isEmpty() && sketches.isEmpty() && !problems.has(s.path()))
        {
            problems.add(s.path(), "no regions; a collector hosts at least one of keyWrite, keyIncrement, postcards, " +
                "lists, sketches");
        }
        return new CollectorConfig(name, mac, ip, pathMtu, keyWrite, keyIncrement, postcards, lists, sketches);
    }

    private KeyWriteConfig keyWrite(final ConfigSection s)
    {
        final RegionConfig region = regionMapper.region(s);
        final int slotSize = (int)s.oneOf("slotSize", SLOT_SIZES, KeyWriteConfig.DEFAULT_SLOT_SIZE);
        s.finish();
        if (!problems.has(s.pathOf("slotSize")))
        {
            checkPowerOfTwoSlots(s, region, slotSize, "slotSize " + slotSize, "slots");
        }
        return new KeyWriteConfig(region, slotSize);
    }

    private KeyIncrementConfig keyIncrement(final ConfigSection s)
    {
        final RegionConfig region = regionMapper.region(s);
        final int maxOutstanding = (int)s.integer("maxOutstandingAtomics", 1,
            KeyIncrementConfig.MAX_OUTSTANDING_ATOMICS, KeyIncrementConfig.DEFAULT_MAX_OUTSTANDING_ATOMICS);
        final int queue = (int)s.integer("atomicQueueSize", 1,
            KeyIncrementConfig.MAX_ATOMIC_QUEUE_SIZE, KeyIncrementConfig.DEFAULT_ATOMIC_QUEUE_SIZE);
        s.finish();
        checkPowerOfTwoSlots(s, region, KeyIncrementConfig.COUNTER_BYTES, "the counter size 8", "counters");
        return new KeyIncrementConfig(region, maxOutstanding, queue);
    }

    private PostcardStoreConfig postcardStore(final ConfigSection s)
    {
        final RegionConfig region = regionMapper.region(s);
        s.finish();
        checkPowerOfTwoSlots(s, region, PostcardStoreConfig.SLOT_BYTES, "the slot size 32", "slots");
        return new PostcardStoreConfig(region);
    }

    private void checkPowerOfTwoSlots(
        final ConfigSection s, final RegionConfig region, final int entryBytes, final String entryName,
        final String what)
    {
        final String lengthPath = s.pathOf("length");
        if (problems.has(lengthPath))
        {
            return;
        }
        final long length = region.length();
        if (length % entryBytes != 0)
        {
            problems.add(lengthPath, length + " is not a multiple of " + entryName);
        }
        else
        {
            final long slots = length / entryBytes;
            if (Long.bitCount(slots) != 1)
            {
                problems.add(lengthPath, length + " / " + entryBytes + " = " + slots + " " + what +
                    ", not a power of two");
            }
        }
    }

    private ListConfig list(final ConfigSection s, final int batchSize)
    {
        final long id = s.requiredInteger("id", 0, 0xFFFFFFFFL, "");
        final RegionConfig region = regionMapper.region(s);
        final ListLayout layout = s.layout("layout");
        s.finish();
        final String lengthPath = s.pathOf("length");
        if (!problems.has(lengthPath))
        {
            final String lengthProblem = ListConfig.lengthProblem(region.length(), layout, batchSize);
            if (null != lengthProblem)
            {
                problems.add(lengthPath, lengthProblem);
            }
        }
        return new ListConfig(id, region, layout);
    }
}
