package io.dta.config;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Maps a {@link ConfigNode} tree onto the settings records, collecting every problem with its key path instead of
 * stopping at the first. Cross-field and cross-collector rules run after the whole tree has been read, and only
 * on values that were themselves valid, so one mistake is reported once rather than as a cascade.
 */
final class ConfigMapper
{
    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final int QPN_MIN = 2;
    private static final int QPN_MAX = 0xFFFFFE;
    private static final String QPN_NOTE = " (QPN 0 and 1 are reserved, 0xffffff is the multicast QPN)";
    private static final long MAX_MICROS = 3_600_000_000L;
    private static final int[] BATCH_SIZES = { 1, 2, 4, 8, 16 };
    private static final int[] SLOT_SIZES = { 8, 16, 32 };
    private static final int[] PATH_MTUS = { 256, 512, 1024, 2048, 4096 };
    private static final String[] NEGOTIATED_KEYS = { "qpn", "rkey", "address" };

    private final List<String> problems = new ArrayList<>();

    ApplianceConfig map(final ConfigNode root)
    {
        if (!(root instanceof ConfigNode.MapNode rootMap))
        {
            throw new ConfigException(List.of("(document): expected a mapping at the top level, got " +
                ConfigNode.describe(root)));
        }
        final Section top = new Section("", rootMap.entries());

        final TranslatorConfig translator = translator(top.section("translator", true));
        final ReportsConfig reports = reports(top.sectionOrEmpty("reports"));
        final RedundancyConfig redundancy = redundancy(top.sectionOrEmpty("redundancy"));
        final AppendConfig append = append(top.sectionOrEmpty("append"));
        final PostcardsConfig postcards = postcards(top.sectionOrEmpty("postcards"));
        final AcksConfig acks = acks(top.sectionOrEmpty("acks"));
        final ResyncConfig resync = resync(top.sectionOrEmpty("resync"));
        final EssentialConfig essential = essential(top.sectionOrEmpty("essential"));
        final ConnectionConfig connection = connection(top.sectionOrEmpty("connection"), acks);
        final WorkersConfig workers = workers(top.sectionOrEmpty("workers"));
        final int batchSize = hasProblem("append.batchSize") ? -1 : append.batchSize();
        final int backlog = hasProblem("essential.backlog") ? -1 : essential.backlog();
        final List<CollectorConfig> collectors = collectors(top, batchSize, backlog);
        top.finish();

        crossChecks(translator, collectors);
        essentialRingBudget(collectors, backlog);
        sketchStateBudget(collectors);
        autoBaseHeaderNeedsOneKeyWriteSize(reports, collectors);

        if (!problems.isEmpty())
        {
            throw new ConfigException(problems);
        }
        final ApplianceConfig config = new ApplianceConfig(
            translator, reports, redundancy, append, postcards, acks, resync, essential, collectors, connection,
            workers);
        final List<String> workerProblems = config.workerProblems(workers.count());
        if (!workerProblems.isEmpty())
        {
            throw new ConfigException(workerProblems);
        }
        return config;
    }

    private WorkersConfig workers(final Section s)
    {
        final int count = (int)s.integer("count", 1, WorkersConfig.MAX_WORKERS, 1);
        final int queueBytes = (int)s.integer("handOffQueueBytes", WorkersConfig.MIN_HAND_OFF_QUEUE_BYTES,
            WorkersConfig.MAX_HAND_OFF_QUEUE_BYTES, WorkersConfig.DEFAULT_HAND_OFF_QUEUE_BYTES);
        if (!hasProblem(s.pathOf("handOffQueueBytes")) && Integer.bitCount(queueBytes) != 1)
        {
            problem(s.pathOf("handOffQueueBytes"), queueBytes + " is not a power of two");
        }
        s.finish();
        return new WorkersConfig(count, queueBytes);
    }

    private List<WorkerQueuePair> workerQueuePairs(final Section s, final boolean negotiated)
    {
        final List<WorkerQueuePair> pairs = new ArrayList<>();
        if (!s.present("workerQueuePairs"))
        {
            return pairs;
        }
        if (negotiated)
        {
            problem(s.pathOf("workerQueuePairs"), "not allowed with servicePort: a negotiated region's workers " +
                "connect QPs of their own (local QPN + worker << 16)");
            return pairs;
        }
        final List<Section> items = s.list("workerQueuePairs", false);
        if (null == items)
        {
            return pairs;
        }
        for (final Section item : items)
        {
            if (null == item)
            {
                continue;
            }
            final int localQpn = (int)item.requiredInteger("localQpn", QPN_MIN, QPN_MAX, QPN_NOTE);
            final int qpn = (int)item.requiredInteger("qpn", QPN_MIN, QPN_MAX, QPN_NOTE);
            final int startPsn = (int)item.integer("startPsn", 0, 0xFFFFFF, 0);
            final int udpSourcePort = (int)item.integer("udpSourcePort", 1, 65535,
                hasProblem(item.pathOf("localQpn")) ? 0xC000 : RegionConfig.defaultUdpSourcePort(localQpn));
            item.finish();
            pairs.add(new WorkerQueuePair(localQpn, qpn, startPsn, udpSourcePort));
        }
        return pairs;
    }

    private TranslatorConfig translator(final Section s)
    {
        if (null == s)
        {
            return null;
        }
        final long mac = s.mac("mac");
        final int ip = s.ipv4("ip");
        final int dscp = (int)s.integer("dscp", 0, 63, TranslatorConfig.DEFAULT_DSCP);
        final int ecn = (int)s.integer("ecn", 0, 3, TranslatorConfig.DEFAULT_ECN);
        final int ttl = (int)s.integer("ttl", 1, 255, TranslatorConfig.DEFAULT_TTL);
        final int pKey = (int)s.integer("pKey", 0, 0xFFFF, TranslatorConfig.DEFAULT_P_KEY);
        if (!hasProblem(s.pathOf("pKey")) && (pKey & 0x7FFF) == 0)
        {
            problem(s.pathOf("pKey"), hex(pKey, 4) + " is not a valid partition key (0x0000 and 0x8000 are invalid)");
        }
        s.finish();
        return new TranslatorConfig(mac, ip, dscp, ecn, ttl, pKey);
    }

    private ReportsConfig reports(final Section s)
    {
        final int udpPort = (int)s.integer("udpPort", 1, 65535, ReportsConfig.DEFAULT_UDP_PORT);
        if (!hasProblem(s.pathOf("udpPort")) && ReportsConfig.ROCEV2_UDP_PORT == udpPort)
        {
            // The decoder tells reports from responses by destination port alone: with both on 4791 every ACK
            // and NAK would be parsed as a report and no QP would ever see its acknowledgements.
            problem(s.pathOf("udpPort"), udpPort + " is the RoCEv2 port, on which the collectors' " +
                "responses arrive; reports need a port of their own");
        }
        final BaseHeader baseHeader = s.baseHeader("baseHeader");
        final boolean verifyChecksums = s.bool("verifyChecksums", false);
        final int nackPort = (int)s.integer("nackPort", 1, 65535, ReportsConfig.DEFAULT_NACK_PORT);
        final long sequenceTimeout = s.integer(
            "sequenceTimeoutMicros", 0, MAX_MICROS, ReportsConfig.DEFAULT_SEQUENCE_TIMEOUT_MICROS);
        s.finish();
        return new ReportsConfig(udpPort, baseHeader, verifyChecksums, nackPort, sequenceTimeout);
    }

    private RedundancyConfig redundancy(final Section s)
    {
        final int max = (int)s.integer("max", 1, RedundancyConfig.MAX_REDUNDANCY, RedundancyConfig.DEFAULT_MAX);
        s.finish();
        return new RedundancyConfig(max);
    }

    private AppendConfig append(final Section s)
    {
        final int batchSize = (int)s.oneOf("batchSize", BATCH_SIZES, AppendConfig.DEFAULT_BATCH_SIZE);
        final long idle = s.integer("idleFlushMicros", 1, MAX_MICROS, AppendConfig.DEFAULT_IDLE_FLUSH_MICROS);
        s.finish();
        return new AppendConfig(batchSize, idle);
    }

    private PostcardsConfig postcards(final Section s)
    {
        final int hops = (int)s.integer("hops", 1, PostcardsConfig.MAX_HOPS, PostcardsConfig.DEFAULT_HOPS);
        final long idle = s.integer("idleFlushMicros", 1, MAX_MICROS, PostcardsConfig.DEFAULT_IDLE_FLUSH_MICROS);
        final int cacheEntries = (int)s.integer(
            "cacheEntries", 1, PostcardsConfig.MAX_CACHE_ENTRIES, PostcardsConfig.DEFAULT_CACHE_ENTRIES);
        if (!hasProblem(s.pathOf("cacheEntries")) && Integer.bitCount(cacheEntries) != 1)
        {
            problem(s.pathOf("cacheEntries"), cacheEntries + " is not a power of two");
        }
        s.finish();
        return new PostcardsConfig(hops, idle, cacheEntries);
    }

    private AcksConfig acks(final Section s)
    {
        final int interval = (int)s.integer("requestInterval", 1, 65536, AcksConfig.DEFAULT_REQUEST_INTERVAL);
        final long timeout = s.integer("timeoutMicros", 1, MAX_MICROS, AcksConfig.DEFAULT_TIMEOUT_MICROS);
        final int window = (int)s.integer("window", 1, AcksConfig.MAX_WINDOW, AcksConfig.DEFAULT_WINDOW);
        s.finish();
        return new AcksConfig(interval, timeout, window);
    }

    private ResyncConfig resync(final Section s)
    {
        final long micros = s.integer("graceMicros", 0, MAX_MICROS, ResyncConfig.DEFAULT_GRACE_MICROS);
        final long packets = s.integer("gracePackets", 0, 0xFFFFFFFFL, ResyncConfig.DEFAULT_GRACE_PACKETS);
        final long rnr = s.integer(
            "maxRnrWaitMicros", 0, ResyncConfig.MAX_RNR_WAIT_MICROS, ResyncConfig.DEFAULT_MAX_RNR_WAIT_MICROS);
        s.finish();
        return new ResyncConfig(micros, packets, rnr);
    }

    private EssentialConfig essential(final Section s)
    {
        final int backlog = (int)s.integer(
            "backlog", 1, EssentialConfig.MAX_BACKLOG, EssentialConfig.DEFAULT_BACKLOG);
        s.finish();
        return new EssentialConfig(backlog);
    }

    private ConnectionConfig connection(final Section s, final AcksConfig acks)
    {
        final int cmTimeout = (int)s.integer(
            "cmResponseTimeout", 0, 31, ConnectionConfig.DEFAULT_CM_RESPONSE_TIMEOUT);
        final int cmRetries = (int)s.integer("maxCmRetries", 0, 15, ConnectionConfig.DEFAULT_MAX_CM_RETRIES);
        final int ackTimeout = (int)s.integer("localAckTimeout", 0, 31, ConnectionConfig.DEFAULT_LOCAL_ACK_TIMEOUT);
        final int retryCount = (int)s.integer("retryCount", 0, 7, ConnectionConfig.DEFAULT_RETRY_COUNT);
        final int reconnects = (int)s.integer(
            "reconnectAttempts", 0, 1000, ConnectionConfig.DEFAULT_RECONNECT_ATTEMPTS);
        final long backoff = s.integer(
            "reconnectBackoffMillis", 1, 60_000, ConnectionConfig.DEFAULT_RECONNECT_BACKOFF_MILLIS);
        final long silence = silenceTimeout(s, acks);
        s.finish();
        return new ConnectionConfig(cmTimeout, cmRetries, ackTimeout, retryCount, reconnects, backoff, silence);
    }

    /**
     * The silence must last at least two ACK timeouts, or a collector would be taken for dead before a probe could
     * be answered. Given explicitly, a shorter value is refused; the default grows with a long ACK timeout instead,
     * so that raising {@code acks.timeoutMicros} alone never makes a configuration invalid.
     */
    private long silenceTimeout(final Section s, final AcksConfig acks)
    {
        final String key = "silenceTimeoutMillis";
        final boolean given = s.present(key);
        final long millis = s.integer(key, 0, 3_600_000, ConnectionConfig.DEFAULT_SILENCE_TIMEOUT_MILLIS);
        if (0 == millis || hasProblem(s.pathOf(key)) || hasProblem("acks.timeoutMicros"))
        {
            return millis;
        }
        final long leastMillis = (2 * acks.timeoutMicros() + 999) / 1000;
        if (millis >= leastMillis)
        {
            return millis;
        }
        if (given)
        {
            problem(s.pathOf(key), millis + " ms is shorter than two ACK timeouts (acks.timeoutMicros " +
                acks.timeoutMicros() + "): a collector would be taken for dead before a probe could be answered");
        }
        return leastMillis;
    }

    /**
     * Under {@code baseHeader: auto} a report's form is told by its length, which for Key-Write depends on the
     * data length, i.e. on the slot size. The decoder knows one Key-Write size before it knows the route, so with
     * several slot sizes a Key-Write for a collector with larger slots would be taken as malformed.
     */
    private void autoBaseHeaderNeedsOneKeyWriteSize(final ReportsConfig reports, final List<CollectorConfig> collectors)
    {
        if (null == reports || BaseHeader.AUTO != reports.baseHeader())
        {
            return;
        }
        final Set<Integer> sizes = new TreeSet<>();
        for (final CollectorConfig collector : collectors)
        {
            if (null != collector.keyWrite())
            {
                sizes.add(collector.keyWrite().slotSize());
            }
        }
        if (sizes.size() > 1)
        {
            problem("reports.baseHeader", "auto tells the 2- and 3-byte forms apart by report length, which needs " +
                "one Key-Write slot size across collectors, but they use " + sizes + "; set the form (2 or 3) or use " +
                "one slot size");
        }
    }

    private List<CollectorConfig> collectors(final Section top, final int batchSize, final int backlog)
    {
        final List<CollectorConfig> collectors = new ArrayList<>();
        final List<Section> items = top.list("collectors", true);
        if (null == items)
        {
            return collectors;
        }
        if (items.isEmpty() && !hasProblem("collectors"))
        {
            problem("collectors", "empty; at least one collector is required");
        }
        for (int i = 0; i < items.size(); i++)
        {
            final Section s = items.get(i);
            if (null != s)
            {
                collectors.add(collector(s, i, batchSize, backlog));
            }
        }
        return collectors;
    }

    private CollectorConfig collector(final Section s, final int index, final int batchSize, final int backlog)
    {
        final String name = s.string("name", "collector-" + index);
        if (!hasProblem(s.pathOf("name")) && name.isBlank())
        {
            problem(s.pathOf("name"), "must not be blank");
        }
        final long mac = s.mac("mac");
        final int ip = s.ipv4("ip");
        final int pathMtu = (int)s.oneOf("pathMtu", PATH_MTUS, CollectorConfig.DEFAULT_PATH_MTU);

        final Section kw = s.section("keyWrite", false);
        final KeyWriteConfig keyWrite = null == kw ? null : keyWrite(kw);
        final Section ki = s.section("keyIncrement", false);
        final KeyIncrementConfig keyIncrement = null == ki ? null : keyIncrement(ki);
        final Section pc = s.section("postcards", false);
        final PostcardStoreConfig postcards = null == pc ? null : postcardStore(pc);

        final List<ListConfig> lists = new ArrayList<>();
        final List<Section> listItems = s.list("lists", false);
        if (null != listItems)
        {
            for (final Section item : listItems)
            {
                if (null != item)
                {
                    lists.add(list(item, batchSize));
                }
            }
        }
        final List<SketchConfig> sketches = new ArrayList<>();
        final List<Section> sketchItems = s.list("sketches", false);
        if (null != sketchItems)
        {
            for (final Section item : sketchItems)
            {
                if (null != item)
                {
                    sketches.add(sketch(item, backlog));
                }
            }
        }
        s.finish();

        if (!s.present("keyWrite") && !s.present("keyIncrement") && !s.present("postcards") &&
            lists.isEmpty() && sketches.isEmpty() && !hasProblem(s.path()))
        {
            problem(s.path(), "no regions; a collector hosts at least one of keyWrite, keyIncrement, postcards, " +
                "lists, sketches");
        }
        return new CollectorConfig(name, mac, ip, pathMtu, keyWrite, keyIncrement, postcards, lists, sketches);
    }

    private KeyWriteConfig keyWrite(final Section s)
    {
        final RegionConfig region = region(s);
        final int slotSize = (int)s.oneOf("slotSize", SLOT_SIZES, KeyWriteConfig.DEFAULT_SLOT_SIZE);
        s.finish();
        if (!hasProblem(s.pathOf("slotSize")))
        {
            checkPowerOfTwoSlots(s, region, slotSize, "slotSize " + slotSize, "slots");
        }
        return new KeyWriteConfig(region, slotSize);
    }

    private KeyIncrementConfig keyIncrement(final Section s)
    {
        final RegionConfig region = region(s);
        final int maxOutstanding = (int)s.integer("maxOutstandingAtomics", 1,
            KeyIncrementConfig.MAX_OUTSTANDING_ATOMICS, KeyIncrementConfig.DEFAULT_MAX_OUTSTANDING_ATOMICS);
        final int queue = (int)s.integer("atomicQueueSize", 1,
            KeyIncrementConfig.MAX_ATOMIC_QUEUE_SIZE, KeyIncrementConfig.DEFAULT_ATOMIC_QUEUE_SIZE);
        s.finish();
        checkPowerOfTwoSlots(s, region, KeyIncrementConfig.COUNTER_BYTES, "the counter size 8", "counters");
        return new KeyIncrementConfig(region, maxOutstanding, queue);
    }

    private PostcardStoreConfig postcardStore(final Section s)
    {
        final RegionConfig region = region(s);
        s.finish();
        checkPowerOfTwoSlots(s, region, PostcardStoreConfig.SLOT_BYTES, "the slot size 32", "slots");
        return new PostcardStoreConfig(region);
    }

    private void checkPowerOfTwoSlots(
        final Section s, final RegionConfig region, final int entryBytes, final String entryName, final String what)
    {
        final String lengthPath = s.pathOf("length");
        if (hasProblem(lengthPath))
        {
            return;
        }
        final long length = region.length();
        if (length % entryBytes != 0)
        {
            problem(lengthPath, length + " is not a multiple of " + entryName);
        }
        else
        {
            final long slots = length / entryBytes;
            if (Long.bitCount(slots) != 1)
            {
                problem(lengthPath, length + " / " + entryBytes + " = " + slots + " " + what + ", not a power of two");
            }
        }
    }

    private ListConfig list(final Section s, final int batchSize)
    {
        final long id = s.requiredInteger("id", 0, 0xFFFFFFFFL, "");
        final RegionConfig region = region(s);
        final ListLayout layout = s.layout("layout");
        s.finish();
        final String lengthPath = s.pathOf("length");
        if (!hasProblem(lengthPath))
        {
            final String lengthProblem = ListConfig.lengthProblem(region.length(), layout, batchSize);
            if (null != lengthProblem)
            {
                problem(lengthPath, lengthProblem);
            }
        }
        return new ListConfig(id, region, layout);
    }

    private SketchConfig sketch(final Section s, final int backlog)
    {
        final long id = s.requiredInteger("id", 0, SketchConfig.MAX_ID, "");
        final SketchType type = s.sketchType("type");
        final int rows;
        if (type == SketchType.HYPERLOGLOG)
        {
            rows = (int)s.integer("rows", 1, SketchConfig.MAX_ROWS, 1);
            if (!hasProblem(s.pathOf("rows")) && rows != 1)
            {
                problem(s.pathOf("rows"), rows + " rows; a hyperloglog sketch has exactly 1 row of registers");
            }
        }
        else
        {
            rows = (int)s.requiredInteger("rows", 1, SketchConfig.MAX_ROWS, "");
        }
        final int columns = (int)s.requiredInteger("columns", 1, SketchConfig.MAX_COLUMNS, "");
        if (!hasProblem(s.pathOf("columns")) && Integer.bitCount(columns) != 1)
        {
            problem(s.pathOf("columns"), columns + " is not a power of two");
        }
        final boolean columnsOk = !hasProblem(s.pathOf("columns"));
        final int switches = (int)s.integer("switches", 1, SketchConfig.MAX_SWITCHES, SketchConfig.DEFAULT_SWITCHES);
        final int defaultBatch = columnsOk ? Math.min(SketchConfig.DEFAULT_BATCH_COLUMNS, Integer.highestOneBit(
            Math.max(columns, 1))) : SketchConfig.DEFAULT_BATCH_COLUMNS;
        final int batchColumns = (int)s.integer("batchColumns", 1, SketchConfig.MAX_COLUMNS, defaultBatch);
        if (!hasProblem(s.pathOf("batchColumns")))
        {
            if (Integer.bitCount(batchColumns) != 1)
            {
                problem(s.pathOf("batchColumns"), batchColumns + " is not a power of two");
            }
            else if (columnsOk && batchColumns > columns)
            {
                problem(s.pathOf("batchColumns"), batchColumns + " is more than columns " + columns);
            }
            else if (backlog > 0 && !hasProblem(s.pathOf("rows")))
            {
                // A run longer than the path MTU is fine (one WRITE First/Middle/Last), but the sketch QP's essential
                // ring keeps every WRITE it has not seen acknowledged in entries sized for the run, preallocated as
                // one buffer of essential.backlog entries rounded up to a power of two: that must be addressable.
                final long run = (long)batchColumns * rows * SketchConfig.CELL_BYTES;
                final long entries = Long.highestOneBit(2L * backlog - 1);
                if (run * entries > Integer.MAX_VALUE)
                {
                    problem(s.pathOf("batchColumns"), batchColumns + " columns x " + rows + " rows x " +
                        SketchConfig.CELL_BYTES + " = " + run + " bytes per WRITE x " + entries +
                        " essential ring entries (essential.backlog " + backlog + ", rounded up to a power of two) = " +
                        run * entries + " bytes, more than " + Integer.MAX_VALUE);
                }
            }
        }
        final int epochs = (int)s.integer("epochs", 1, SketchConfig.MAX_EPOCHS, SketchConfig.DEFAULT_EPOCHS);
        final long epochTimeout = s.integer(
            "epochTimeoutMicros", 1, MAX_MICROS, SketchConfig.DEFAULT_EPOCH_TIMEOUT_MICROS);
        if (!hasProblem(s.pathOf("epochTimeoutMicros")) && epochTimeout < SketchConfig.MIN_EPOCH_TIMEOUT_MICROS)
        {
            // nackRetryMicros must be at least 1 and below the timeout, its default included: 1 leaves no value.
            problem(s.pathOf("epochTimeoutMicros"), epochTimeout + " leaves no valid nackRetryMicros (at least 1 and " +
                "below epochTimeoutMicros); the least epoch timeout is " + SketchConfig.MIN_EPOCH_TIMEOUT_MICROS);
        }
        final boolean timeoutOk = !hasProblem(s.pathOf("epochTimeoutMicros"));
        final long nackRetry = s.integer("nackRetryMicros", 1, MAX_MICROS,
            SketchConfig.defaultNackRetryMicros(timeoutOk ? epochTimeout : SketchConfig.DEFAULT_EPOCH_TIMEOUT_MICROS));
        if (timeoutOk && s.present("nackRetryMicros") && !hasProblem(s.pathOf("nackRetryMicros")) &&
            nackRetry >= epochTimeout)
        {
            // The first retry would come after the epoch closed: a setting that silently does nothing. The default
            // is always below (it is only not for a 1 us timeout, where retries cannot help anyway).
            problem(s.pathOf("nackRetryMicros"), nackRetry + " is not below epochTimeoutMicros " + epochTimeout +
                "; a retry that late would find the epoch closed");
        }
        final int nackRetries = (int)s.integer(
            "nackRetries", 0, SketchConfig.MAX_NACK_RETRIES, SketchConfig.DEFAULT_NACK_RETRIES);
        final RegionConfig region = region(s);
        s.finish();

        final String lengthPath = s.pathOf("length");
        if (!hasProblem(lengthPath))
        {
            final long length = region.length();
            if (length % SketchConfig.CELL_BYTES != 0)
            {
                problem(lengthPath, length + " is not a multiple of the cell size 4");
            }
            else if (!hasProblem(s.pathOf("rows")) && columnsOk && !hasProblem(s.pathOf("epochs")))
            {
                final long needed = epochs * SketchConfig.epochBytes(rows, columns);
                if (length < needed)
                {
                    problem(lengthPath, length + " is too small for " + epochs + " epochs x (" +
                        SketchConfig.EPOCH_HEADER_BYTES + " + " + rows + " rows x " + columns + " columns x " +
                        SketchConfig.CELL_BYTES + ") = " + needed + " bytes");
                }
            }
        }
        return new SketchConfig(
            id, type, rows, columns, switches, batchColumns, epochs, epochTimeout, nackRetry, nackRetries, region);
    }

    private RegionConfig region(final Section s)
    {
        final int localQpn = (int)s.requiredInteger("localQpn", QPN_MIN, QPN_MAX, QPN_NOTE);
        final int servicePort = (int)s.integer("servicePort", 1, 65535, 0);
        final boolean negotiated = s.present("servicePort") && !hasProblem(s.pathOf("servicePort"));
        final int qpn;
        final long rkey;
        final long address;
        if (negotiated || hasProblem(s.pathOf("servicePort")))
        {
            // The collector chooses these and tells them in the connection set-up; a configured value would be
            // either redundant or wrong.
            for (final String learned : NEGOTIATED_KEYS)
            {
                if (s.present(learned))
                {
                    problem(s.pathOf(learned), "not allowed with servicePort: a negotiated region learns it from " +
                        "the collector");
                }
            }
            qpn = 0;
            rkey = 0;
            address = 0;
        }
        else
        {
            qpn = (int)s.requiredInteger("qpn", QPN_MIN, QPN_MAX, QPN_NOTE);
            rkey = s.requiredInteger("rkey", 0, 0xFFFFFFFFL, "");
            address = s.address("address");
        }
        final long length = s.requiredInteger("length", 1, Long.MAX_VALUE, "");
        final int startPsn = (int)s.integer("startPsn", 0, 0xFFFFFF, 0);
        final int defaultPort = hasProblem(s.pathOf("localQpn")) ? 0xC000 :
            RegionConfig.defaultUdpSourcePort(localQpn);
        final int udpSourcePort = (int)s.integer("udpSourcePort", 1, 65535, defaultPort);

        final String addressPath = s.pathOf("address");
        if (!negotiated && !hasProblem(addressPath))
        {
            if ((address & (RegionConfig.ADDRESS_ALIGNMENT - 1)) != 0)
            {
                problem(addressPath, hex(address, 0) + " is not 8-byte aligned");
            }
            else if (!hasProblem(s.pathOf("length")) && Long.compareUnsigned(address + (length - 1), address) < 0)
            {
                problem(s.pathOf("length"), "address " + hex(address, 0) + " + length " + length +
                    " runs past the end of the 64-bit address space");
            }
        }
        if (negotiated && !hasProblem(s.pathOf("length")) && length > 0xFFFF_FFFFL)
        {
            problem(s.pathOf("length"), length + " is too large for a negotiated region: the collector advertises " +
                "its length in 32 bits");
        }
        final List<WorkerQueuePair> workerQueuePairs = workerQueuePairs(s, negotiated);
        return new RegionConfig(s.path(), localQpn, qpn, rkey, address, length, startPsn, udpSourcePort, servicePort,
            workerQueuePairs);
    }

    /**
     * Every QP keeps an essential ring, preallocated: {@code essential.backlog} entries rounded up to a power of two,
     * each the size of the QP's largest WRITE. Sketch runs may be large now that they need not fit one packet, so the
     * rings together are held to {@link EssentialConfig#MAX_RING_BYTES}, refused here rather than failing to start.
     */
    private void essentialRingBudget(final List<CollectorConfig> collectors, final int backlog)
    {
        if (backlog <= 0)
        {
            return;
        }
        final long entries = Long.highestOneBit(2L * backlog - 1);
        long total = 0;
        long largest = 0;
        String largestPath = null;
        for (int c = 0; c < collectors.size(); c++)
        {
            final CollectorConfig collector = collectors.get(c);
            total += (collector.regions().size() - collector.sketches().size()) * entries * EssentialConfig.ENTRY_BYTES;
            for (int k = 0; k < collector.sketches().size(); k++)
            {
                final SketchConfig sketch = collector.sketches().get(k);
                if (hasProblem("collectors[" + c + "].sketches[" + k + "].batchColumns"))
                {
                    return; // that sketch's ring alone is already refused, with its own message
                }
                final long ring = entries * Math.max(EssentialConfig.ENTRY_BYTES, sketch.runBytes());
                total += ring;
                if (ring > largest)
                {
                    largest = ring;
                    largestPath = "collectors[" + c + "].sketches[" + k + "]";
                }
            }
        }
        if (total > EssentialConfig.MAX_RING_BYTES)
        {
            problem("essential.backlog", backlog + " (" + entries + " entries per QP) makes the QPs' essential " +
                "rings take " + total + " bytes together, more than " + EssentialConfig.MAX_RING_BYTES +
                (null == largestPath ? "" : "; the largest is " + largestPath + "'s, " + largest + " bytes (one " +
                "entry per run of batchColumns x rows x 4 bytes)") + ": lower essential.backlog" +
                (null == largestPath ? "" : " or the sketches' batchColumns"));
        }
    }

    /**
     * The translator preallocates every epoch area's merge state on its heap (every area may hold an open epoch),
     * so all sketches together are held to {@link SketchConfig#MAX_TRANSLATOR_STATE_BYTES}, refused here rather than
     * dying of an OutOfMemoryError at start. Reported at the largest sketch, with its numbers and the total.
     */
    private void sketchStateBudget(final List<CollectorConfig> collectors)
    {
        long total = 0;
        long largest = -1;
        SketchConfig largestSketch = null;
        String largestPath = null;
        for (int c = 0; c < collectors.size(); c++)
        {
            final CollectorConfig collector = collectors.get(c);
            for (int k = 0; k < collector.sketches().size(); k++)
            {
                final String path = "collectors[" + c + "].sketches[" + k + "]";
                if (hasProblem(path + ".type") || hasProblem(path + ".rows") || hasProblem(path + ".columns") ||
                    hasProblem(path + ".epochs"))
                {
                    continue; // its size is unknown; its own message says why
                }
                final SketchConfig sketch = collector.sketches().get(k);
                final long bytes = sketch.translatorStateBytes();
                total += bytes;
                if (bytes > largest)
                {
                    largest = bytes;
                    largestSketch = sketch;
                    largestPath = path;
                }
            }
        }
        if (total > SketchConfig.MAX_TRANSLATOR_STATE_BYTES)
        {
            problem(largestPath, largestSketch.epochs() + " epochs x " + largestSketch.columns() + " columns x (" +
                largestSketch.rows() + " rows x " + SketchConfig.translatorCellBytes(largestSketch.type()) + " + " +
                SketchConfig.CELL_BYTES + ") bytes = " + largest + " bytes (" + mib(largest) + " MiB) of merge " +
                "state the translator preallocates on its heap (" + largestSketch.type().text() + " cells and " +
                "per-column contribution counts, for every epoch area)" + (total == largest ? "" : "; all sketches " +
                "together " + total + " bytes (" + mib(total) + " MiB)") + ", more than the " +
                SketchConfig.MAX_TRANSLATOR_STATE_BYTES + " bytes (" + mib(SketchConfig.MAX_TRANSLATOR_STATE_BYTES) +
                " MiB) the translator holds for sketches: lower epochs, rows or columns");
        }
    }

    private static long mib(final long bytes)
    {
        return (bytes + (1L << 20) - 1) >> 20;
    }

    private void crossChecks(final TranslatorConfig translator, final List<CollectorConfig> collectors)
    {
        final Map<Integer, String> localQpns = new HashMap<>();
        final Map<Long, String> listIds = new HashMap<>();
        final Map<Integer, String> ips = new HashMap<>();
        final Map<String, String> names = new HashMap<>();
        final boolean translatorIpOk = null != translator && !hasProblem("translator.ip");

        for (int c = 0; c < collectors.size(); c++)
        {
            final CollectorConfig collector = collectors.get(c);
            final String cPath = "collectors[" + c + "]";
            if (!hasProblem(cPath + ".name"))
            {
                unique(names, collector.name(), cPath + ".name", "\"" + ShortText.of(collector.name()) + "\"", "");
            }
            if (!hasProblem(cPath + ".ip"))
            {
                final String ipText = NetAddress.ipv4ToString(collector.ip());
                if (translatorIpOk && collector.ip() == translator.ip())
                {
                    problem(cPath + ".ip", ipText + " is the translator's own address (translator.ip)");
                }
                unique(ips, collector.ip(), cPath + ".ip", ipText, "");
            }

            final Map<Integer, String> qpns = new HashMap<>();
            final Map<Integer, String> servicePorts = new HashMap<>();
            final List<RegionConfig> regions = collector.regions();
            for (final RegionConfig region : regions)
            {
                final String localPath = region.path() + ".localQpn";
                if (!hasProblem(localPath))
                {
                    unique(localQpns, region.localQpn(), localPath, hex(region.localQpn(), 6),
                        " (responses are demultiplexed by it)");
                }
                final String qpnPath = region.path() + ".qpn";
                if (region.negotiated())
                {
                    unique(servicePorts, region.servicePort(), region.path() + ".servicePort",
                        Integer.toString(region.servicePort()), " on the same collector");
                }
                else if (!hasProblem(qpnPath))
                {
                    unique(qpns, region.qpn(), qpnPath, hex(region.qpn(), 6), " on the same collector");
                }
            }
            for (int l = 0; l < collector.lists().size(); l++)
            {
                final String idPath = cPath + ".lists[" + l + "].id";
                if (!hasProblem(idPath))
                {
                    unique(listIds, collector.lists().get(l).id(), idPath, Long.toString(collector.lists().get(l).id()),
                        " (lists are routed by id alone)");
                }
            }
            final Map<Long, String> sketchIds = new HashMap<>();
            for (int k = 0; k < collector.sketches().size(); k++)
            {
                final String idPath = cPath + ".sketches[" + k + "].id";
                if (!hasProblem(idPath))
                {
                    final long id = collector.sketches().get(k).id();
                    unique(sketchIds, id, idPath, Long.toString(id), " on the same collector");
                }
            }
            checkOverlaps(regions);
        }
    }

    private void checkOverlaps(final List<RegionConfig> regions)
    {
        for (int i = 0; i < regions.size(); i++)
        {
            final RegionConfig a = regions.get(i);
            if (!extentValid(a))
            {
                continue;
            }
            for (int j = i + 1; j < regions.size(); j++)
            {
                final RegionConfig b = regions.get(j);
                if (!extentValid(b))
                {
                    continue;
                }
                final long aLast = a.address() + (a.length() - 1);
                final long bLast = b.address() + (b.length() - 1);
                if (Long.compareUnsigned(a.address(), bLast) <= 0 && Long.compareUnsigned(b.address(), aLast) <= 0)
                {
                    problem(b.path(), "region " + extent(b) + " overlaps " + a.path() + " " + extent(a));
                }
            }
        }
    }

    private boolean extentValid(final RegionConfig region)
    {
        // A negotiated region's extent is the collector's choice, known only after connection set-up.
        return !region.negotiated() && !hasProblem(region.path() + ".address") && !hasProblem(region.path() + ".length");
    }

    private static String extent(final RegionConfig region)
    {
        return "[" + hex(region.address(), 0) + ", " + hex(region.address() + region.length(), 0) + ")";
    }

    private <K> void unique(
        final Map<K, String> seen, final K key, final String path, final String shown, final String why)
    {
        final String previous = seen.putIfAbsent(key, path);
        if (null != previous)
        {
            problem(path, shown + " already used by " + previous + why);
        }
    }

    private void problem(final String path, final String reason)
    {
        problems.add(path + ": " + reason);
    }

    private boolean hasProblem(final String path)
    {
        for (final String p : problems)
        {
            if (p.startsWith(path) && p.length() > path.length())
            {
                final char next = p.charAt(path.length());
                if (next == ':' || next == '.' || next == '[')
                {
                    return true;
                }
            }
        }
        return false;
    }

    static String hex(final long value, final int digits)
    {
        final String h = Long.toHexString(value);
        return "0x" + "0".repeat(Math.max(0, digits - h.length())) + h;
    }

    static int editDistance(final String a, final String b)
    {
        final int[] previous = new int[b.length() + 1];
        final int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++)
        {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++)
        {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++)
            {
                final int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            System.arraycopy(current, 0, previous, 0, current.length);
        }
        return previous[b.length()];
    }

    static String suggest(final String key, final Set<String> known)
    {
        final String normalised = normalise(key);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String candidate : known)
        {
            final int distance = editDistance(normalised, normalise(candidate));
            if (distance < bestDistance)
            {
                best = candidate;
                bestDistance = distance;
            }
        }
        final int allowed = normalised.length() <= 4 ? 1 : 2;
        return bestDistance <= allowed ? best : null;
    }

    private static String normalise(final String key)
    {
        return key.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
    }

    /**
     * A mapping being read: remembers which keys were asked for so that the rest can be refused as unknown.
     */
    private final class Section
    {
        private final String path;
        private final Map<String, ConfigNode> entries;
        private final Set<String> known = new LinkedHashSet<>();

        Section(final String path, final Map<String, ConfigNode> entries)
        {
            this.path = path;
            this.entries = entries;
        }

        String path()
        {
            return path;
        }

        String pathOf(final String key)
        {
            return path.isEmpty() ? ShortText.of(key) : path + "." + ShortText.of(key);
        }

        ConfigNode node(final String key)
        {
            known.add(key);
            final ConfigNode node = entries.get(key);
            return node instanceof ConfigNode.ScalarNode scalar && scalar.isNull() ? null : node;
        }

        boolean present(final String key)
        {
            return null != node(key);
        }

        Section section(final String key, final boolean required)
        {
            final ConfigNode node = node(key);
            if (null == node)
            {
                if (required)
                {
                    problem(pathOf(key), "required section missing");
                }
                return null;
            }
            if (node instanceof ConfigNode.MapNode map)
            {
                return new Section(pathOf(key), map.entries());
            }
            problem(pathOf(key), "expected a mapping, got " + ConfigNode.describe(node));
            return null;
        }

        Section sectionOrEmpty(final String key)
        {
            final Section section = section(key, false);
            return null == section ? new Section(pathOf(key), Map.of()) : section;
        }

        /**
         * Items of a list of mappings; an item that is not a mapping is reported and given as {@code null}.
         */
        List<Section> list(final String key, final boolean required)
        {
            final ConfigNode node = node(key);
            if (null == node)
            {
                if (required)
                {
                    problem(pathOf(key), "required; at least one collector is required");
                }
                return null;
            }
            if (!(node instanceof ConfigNode.ListNode listNode))
            {
                problem(pathOf(key), "expected a list, got " + ConfigNode.describe(node));
                return null;
            }
            final List<Section> items = new ArrayList<>();
            for (int i = 0; i < listNode.items().size(); i++)
            {
                final ConfigNode item = listNode.items().get(i);
                final String itemPath = pathOf(key) + "[" + i + "]";
                if (item instanceof ConfigNode.MapNode map)
                {
                    items.add(new Section(itemPath, map.entries()));
                }
                else
                {
                    problem(itemPath, "expected a mapping, got " + ConfigNode.describe(item));
                    items.add(null);
                }
            }
            return items;
        }

        long integer(final String key, final long min, final long max, final long defaultValue)
        {
            final ConfigNode node = node(key);
            return null == node ? defaultValue : checkedInteger(key, node, min, max, "", defaultValue);
        }

        long requiredInteger(final String key, final long min, final long max, final String note)
        {
            final ConfigNode node = node(key);
            if (null == node)
            {
                problem(pathOf(key), "required");
                return min;
            }
            return checkedInteger(key, node, min, max, note, min);
        }

        long oneOf(final String key, final int[] allowed, final long defaultValue)
        {
            final ConfigNode node = node(key);
            if (null == node)
            {
                return defaultValue;
            }
            final BigInteger value = integerValue(pathOf(key), node);
            if (null == value)
            {
                return defaultValue;
            }
            for (final int candidate : allowed)
            {
                if (value.equals(BigInteger.valueOf(candidate)))
                {
                    return candidate;
                }
            }
            final StringBuilder list = new StringBuilder();
            for (final int candidate : allowed)
            {
                list.append(list.isEmpty() ? "" : ", ").append(candidate);
            }
            problem(pathOf(key), text(node) + " is not one of {" + list + "}");
            return defaultValue;
        }

        long address(final String key)
        {
            final ConfigNode node = node(key);
            if (null == node)
            {
                problem(pathOf(key), "required");
                return 0;
            }
            final BigInteger value = integerValue(pathOf(key), node);
            if (null == value)
            {
                return 0;
            }
            if (value.signum() < 0 || value.compareTo(U64_MAX) > 0)
            {
                problem(pathOf(key), text(node) + " is out of range 0x0..0xffffffffffffffff");
                return 0;
            }
            return value.longValue();
        }

        private long checkedInteger(
            final String key, final ConfigNode node, final long min, final long max, final String note,
            final long fallback)
        {
            final BigInteger value = integerValue(pathOf(key), node);
            if (null == value)
            {
                return fallback;
            }
            if (value.compareTo(BigInteger.valueOf(min)) < 0 || value.compareTo(BigInteger.valueOf(max)) > 0)
            {
                if (max == Long.MAX_VALUE)
                {
                    problem(pathOf(key), text(node) + (value.signum() < 0 || value.compareTo(BigInteger.valueOf(min))
                        < 0 ? " is less than " + min : " is too large") + note);
                    return fallback;
                }
                final boolean hex = max >= QPN_MAX && max != MAX_MICROS;
                problem(pathOf(key), text(node) + " is out of range " +
                    (hex ? hex(min, 0) + ".." + hex(max, 0) : min + ".." + max) + note);
                return fallback;
            }
            return value.longValue();
        }

        private BigInteger integerValue(final String keyPath, final ConfigNode node)
        {
            if (node instanceof ConfigNode.ScalarNode scalar &&
                (scalar.kind() == ConfigNode.Kind.INTEGER || scalar.kind() == ConfigNode.Kind.STRING))
            {
                final BigInteger value = parseInteger(scalar.text().strip());
                if (null != value)
                {
                    return value;
                }
                final String t = scalar.text().strip();
                if (t.length() > 1 && t.charAt(0) == '0' && t.chars().allMatch(Character::isDigit))
                {
                    problem(keyPath, text(node) + " has a leading zero (octal in some YAML readers); write it " +
                        "in decimal without leading zeros or in 0x-hex");
                    return null;
                }
            }
            problem(keyPath, "expected an integer (decimal or 0x-hex), got " + ConfigNode.describe(node));
            return null;
        }

        boolean bool(final String key, final boolean defaultValue)
        {
            final ConfigNode node = node(key);
            if (null == node)
            {
                return defaultValue;
            }
            // YAML 1.1 readers also type yes/no/on/off as booleans: only the words true and false are accepted
            if (node instanceof ConfigNode.ScalarNode scalar && scalar.kind() == ConfigNode.Kind.BOOLEAN)
            {
                final String word = scalar.text().strip().toLowerCase(Locale.ROOT);
                if (word.equals("true") || word.equals("false"))
                {
                    return word.equals("true");
                }
            }
            problem(pathOf(key), "expected true or false, got " + ConfigNode.describe(node));
            return defaultValue;
        }

        String string(final String key, final String defaultValue)
        {
            final ConfigNode node = node(key);
            if (null == node)
            {
                return defaultValue;
            }
            if (node instanceof ConfigNode.ScalarNode scalar && scalar.kind() == ConfigNode.Kind.STRING)
            {
                return scalar.text();
            }
            problem(pathOf(key), "expected a string, got " + ConfigNode.describe(node));
            return defaultValue;
        }

        long mac(final String key)
        {
            final ConfigNode node = node(key);
            if (null == node)
            {
                problem(pathOf(key), "required");
                return 0;
            }
            if (node instanceof ConfigNode.ScalarNode scalar &&
                (scalar.kind() == ConfigNode.Kind.STRING || scalar.kind() == ConfigNode.Kind.INTEGER))
            {
                final long mac = NetAddress.parseMac(scalar.text().strip());
                if (mac == NetAddress.INVALID)
                {
                    problem(pathOf(key), text(node) + " is not a MAC address (aa:bb:cc:dd:ee:ff; quote it in YAML)");
                }
                else if ((mac & 0x0100_0000_0000L) != 0)
                {
                    problem(pathOf(key), text(node) + " is a multicast MAC address; a unicast address is required");
                }
                else if (mac == 0)
                {
                    problem(pathOf(key), text(node) + " is the all-zero MAC address");
                }
                return mac;
            }
            problem(pathOf(key), "expected a MAC address string, got " + ConfigNode.describe(node));
            return 0;
        }

        int ipv4(final String key)
        {
            final ConfigNode node = node(key);
            if (null == node)
            {
                problem(pathOf(key), "required");
                return 0;
            }
            if (node instanceof ConfigNode.ScalarNode scalar && scalar.kind() == ConfigNode.Kind.STRING)
            {
                final long ip = NetAddress.parseIpv4(scalar.text().strip());
                if (ip == NetAddress.INVALID)
                {
                    problem(pathOf(key), text(node) + " is not a dotted-quad IPv4 address");
                    return 0;
                }
                final int first = (int)(ip >>> 24);
                if (ip == 0 || ip == 0xFFFFFFFFL || first == 127 || (first & 0xF0) == 0xE0)
                {
                    problem(pathOf(key), text(node) + " is not a unicast host address " +
                        "(0.0.0.0, broadcast, loopback and multicast are refused)");
                }
                return (int)ip;
            }
            problem(pathOf(key), "expected a dotted-quad IPv4 address string, got " + ConfigNode.describe(node));
            return 0;
        }

        BaseHeader baseHeader(final String key)
        {
            final String value = word(key);
            if (null == value)
            {
                return BaseHeader.THREE;
            }
            return switch (value)
            {
                case "3" -> BaseHeader.THREE;
                case "2" -> BaseHeader.TWO;
                case "auto" -> BaseHeader.AUTO;
                default ->
                {
                    problem(pathOf(key), "\"" + value + "\" is not one of \"3\", \"2\", \"auto\"");
                    yield BaseHeader.THREE;
                }
            };
        }

        ListLayout layout(final String key)
        {
            final String value = word(key);
            if (null == value)
            {
                return ListLayout.SEQUENCED;
            }
            return switch (value)
            {
                case "sequenced" -> ListLayout.SEQUENCED;
                case "reference" -> ListLayout.REFERENCE;
                default ->
                {
                    problem(pathOf(key), "\"" + value + "\" is not one of sequenced, reference");
                    yield ListLayout.SEQUENCED;
                }
            };
        }

        SketchType sketchType(final String key)
        {
            if (!present(key))
            {
                problem(pathOf(key), "required (count-min, count-sketch or hyperloglog)");
                return SketchType.COUNT_MIN;
            }
            final String value = word(key);
            for (final SketchType type : SketchType.values())
            {
                if (type.text().equals(value))
                {
                    return type;
                }
            }
            if (null != value)
            {
                problem(pathOf(key), "\"" + value + "\" is not one of count-min, count-sketch, hyperloglog");
            }
            return SketchType.COUNT_MIN;
        }

        /**
         * A keyword: a string, or an integer written bare (YAML {@code baseHeader: 3}). Null when absent or
         * of the wrong type (reported).
         */
        private String word(final String key)
        {
            final ConfigNode node = node(key);
            if (null == node)
            {
                return null;
            }
            if (node instanceof ConfigNode.ScalarNode scalar &&
                (scalar.kind() == ConfigNode.Kind.STRING || scalar.kind() == ConfigNode.Kind.INTEGER))
            {
                return scalar.text().strip();
            }
            problem(pathOf(key), "expected a string, got " + ConfigNode.describe(node));
            return null;
        }

        void finish()
        {
            for (final String key : entries.keySet())
            {
                if (!known.contains(key))
                {
                    final String hint = suggest(key, known);
                    problem(pathOf(key), "unknown key" + (null != hint ? "; did you mean '" + hint + "'?" :
                        "; expected one of: " + String.join(", ", known)));
                }
            }
        }
    }

    /**
     * A scalar as written, for messages about its value (as opposed to its type).
     */
    private static String text(final ConfigNode node)
    {
        // An empty (or blank) value would vanish from "translator.mac:  is not a MAC address"; quoted it shows.
        return node instanceof ConfigNode.ScalarNode scalar ?
            (scalar.text().isBlank() ? "\"" + ShortText.of(scalar.text()) + "\"" : ShortText.of(scalar.text())) :
            ConfigNode.describe(node);
    }

    static BigInteger parseInteger(final String text)
    {
        if (text.length() > 2 && text.charAt(0) == '0' && (text.charAt(1) == 'x' || text.charAt(1) == 'X'))
        {
            for (int i = 2; i < text.length(); i++)
            {
                if (Character.digit(text.charAt(i), 16) < 0)
                {
                    return null;
                }
            }
            return new BigInteger(text.substring(2), 16);
        }
        final int start = text.startsWith("-") ? 1 : 0;
        if (text.length() == start)
        {
            return null;
        }
        for (int i = start; i < text.length(); i++)
        {
            if (text.charAt(i) < '0' || text.charAt(i) > '9')
            {
                return null;
            }
        }
        if (text.length() - start > 1 && text.charAt(start) == '0')
        {
            return null;
        }
        return new BigInteger(text);
    }
}
