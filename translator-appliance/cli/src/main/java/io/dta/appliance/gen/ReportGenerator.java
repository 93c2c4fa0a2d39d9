package io.dta.appliance.gen;

import io.dta.codec.AppendFlyweight;
import io.dta.codec.DtaBaseHeaderFlyweight;
import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.Ipv4Address;
import io.dta.codec.Ipv4Flyweight;
import io.dta.codec.KeyIncrementFlyweight;
import io.dta.codec.KeyWriteFlyweight;
import io.dta.codec.PostcardFlyweight;
import io.dta.codec.SketchColumnFlyweight;
import io.dta.codec.UdpFlyweight;
import io.dta.config.ApplianceConfig;
import io.dta.config.BaseHeader;
import io.dta.config.CollectorConfig;
import io.dta.config.ListConfig;
import io.dta.config.SketchConfig;
import org.agrona.MutableDirectBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Builds synthetic DTA report frames (Ethernet II / IPv4 / UDP / DTA) for a configuration: configure once, then
 * call {@link #next(MutableDirectBuffer, int)} for each report. After each call the accessors describe the report
 * just written (primitive, key, reporter, ...), and cumulative counters describe everything written so far.
 * <p>
 * Every frame has an untagged Ethernet header (reporter MAC to collector MAC), IPv4 with IHL 5, TTL 64, DF clear
 * and a correct header checksum, and UDP from port {@value GeneratorSettings#REPORT_SOURCE_PORT} to
 * {@code reports.udpPort} with a correct checksum. Frames are not padded to 60 bytes.
 * <p>
 * The output is a pure function of the configuration and the settings (one {@link SplittableRandom} seeded with
 * {@link GeneratorSettings#seed()}). {@code next} allocates nothing, except when sketch traffic starts an epoch
 * (the switches' sketches are built then, see {@link SketchTraffic}). Not thread-safe.
 */
public final class ReportGenerator
{
    /**
     * Upper bound of a generated frame's length: a Sketch-Merge column of 64 rows in the 3-byte form is 313 bytes
     * (the longest other report, Key-Write with 32-byte slots, is 78).
     */
    public static final int MAX_FRAME_LENGTH = 320;
    /** Offset of the IPv4 header in a generated frame. */
    public static final int IP_OFFSET = EthernetFlyweight.HEADER_LENGTH;
    /** Offset of the UDP header in a generated frame. */
    public static final int UDP_OFFSET = IP_OFFSET + Ipv4Flyweight.MIN_HEADER_LENGTH;
    /** Offset of the DTA base header in a generated frame. */
    public static final int DTA_OFFSET = UDP_OFFSET + UdpFlyweight.HEADER_LENGTH;
    /** Length of the body of an unknown-opcode report after its base header. */
    public static final int UNKNOWN_OPCODE_BODY_LENGTH = 9;
    /** TTL of generated reports. */
    public static final int TTL = 64;

    private static final int PRIMITIVES = Primitive.values().length;
    private static final Primitive[] PRIMITIVE_VALUES = Primitive.values();
    private static final BadKind[] BAD_VALUES = BadKind.values();

    private final EthernetFlyweight ethernet = new EthernetFlyweight();
    private final Ipv4Flyweight ipv4 = new Ipv4Flyweight();
    private final UdpFlyweight udp = new UdpFlyweight();
    private final DtaBaseHeaderFlyweight dtaBase = new DtaBaseHeaderFlyweight();
    private final KeyWriteFlyweight keyWrite = new KeyWriteFlyweight();
    private final KeyIncrementFlyweight keyIncrement = new KeyIncrementFlyweight();
    private final AppendFlyweight append = new AppendFlyweight();
    private final PostcardFlyweight postcard = new PostcardFlyweight();
    private final SketchColumnFlyweight sketchColumn = new SketchColumnFlyweight();

    private final SplittableRandom random;
    private final DtaBaseHeaderForm form;
    private final int baseLength;
    private final int dtaPort;
    private final int configRedundancyMax;
    private final int redundancyMin;
    private final int redundancySpan;
    private final int hops;
    private final double postcardLoss;
    private final double essentialFraction;
    private final double badFraction;
    private final boolean retransmittable;
    private final KeyDistribution keyDistribution;
    private final long keySpace;
    private final ZipfSampler zipf;
    private final long startTimeNanos;
    private final long spacingNanos;

    private final int[] collectorIps;
    private final long[] collectorMacs;
    private final int[] collectorKeyWriteDataLength;
    private final int[] keyWriteCollectors;
    private final int[] keyIncrementCollectors;
    private final int[] postcardCollectors;
    private final int[] allCollectors;
    private final long[] listIds;
    private final int[] listCollectors;
    private final long[] configListIdsSorted;

    private final int[] mixWeights = new int[PRIMITIVES];
    private final int[] mixCumulative = new int[PRIMITIVES];
    private int mixTotal;
    private final List<Primitive> omittedPrimitives;
    private final BadKind[] badKinds;

    private final int[] reporterIps;
    private final long[] reporterMacs;
    private final int[] reporterSeqnums;

    private final SketchTraffic[] sketchTraffic;
    private final int[] sketchActive;
    private int sketchActiveCount;
    private final int[] switchIps = new int[GeneratorSettings.MAX_SWITCHES];
    private final long[] switchMacs = new long[GeneratorSettings.MAX_SWITCHES];
    private final int[] switchSeqnums = new int[GeneratorSettings.MAX_SWITCHES];
    private long lastSketchId = -1;
    private int lastSwitch = -1;
    private long lastEpoch = -1;
    private int lastColumn = -1;

    private long sequentialKey;
    private boolean flowActive;
    private long flowKey;
    private int flowCollector;
    private int flowReporterBase;
    private int flowNextHop;

    private long reports;
    private final long[] primitiveCounts = new long[PRIMITIVES];
    private final long[] badCounts = new long[BAD_VALUES.length];
    private final long[] reporterCounts;
    private long essentialCount;
    private long postcardFlows;
    private long postcardHopsSkipped;
    private long bytes;

    private long lastIndex = -1;
    private Primitive lastPrimitive;
    private int lastOpcode;
    private BadKind lastBadKind;
    private int lastReporter;
    private int lastCollector;
    private long lastKey;
    private int lastRedundancy;
    private long lastListId;
    private int lastHop;
    private long lastData;
    private int lastSeqnum;
    private boolean lastEssential;
    private int lastFrameLength;

    /**
     * Configure a generator.
     *
     * @param config   the translator configuration (collectors, lists, stores, {@code reports.udpPort},
     *                 {@code redundancy.max}, {@code postcards.hops}).
     * @param settings what to generate; read now, later changes have no effect.
     * @throws GeneratorSettingsException naming the option when the settings do not fit the configuration.
     */
    public ReportGenerator(final ApplianceConfig config, final GeneratorSettings settings)
    {
        random = new SplittableRandom(settings.seed());
        if (null != settings.baseHeader())
        {
            form = settings.baseHeader();
        }
        else
        {
            form = config.reports().baseHeader() == BaseHeader.TWO ? DtaBaseHeaderForm.TWO : DtaBaseHeaderForm.THREE;
        }
        baseLength = form.length();
        if (form == DtaBaseHeaderForm.TWO && settings.retransmittable())
        {
            throw new GeneratorSettingsException("--retransmittable",
                "needs the 3-byte base header: the 2-byte form has no seqnum field");
        }
        if (form == DtaBaseHeaderForm.TWO && settings.essentialFraction() > 0.0)
        {
            throw new GeneratorSettingsException("--essential",
                "needs the 3-byte base header: the 2-byte form has no essential flag");
        }
        final BaseHeader configured = config.reports().baseHeader();
        if (configured != BaseHeader.AUTO && (configured == BaseHeader.TWO) != (form == DtaBaseHeaderForm.TWO))
        {
            // The configured translator decodes only its own form, so every report would be lost, yet counted valid.
            throw new GeneratorSettingsException("--base-header", "form " + form.length() + " does not match " +
                "reports.baseHeader \"" + (configured == BaseHeader.TWO ? 2 : 3) + "\" of the configuration (the " +
                "translator would not translate these reports; \"auto\" takes either form)");
        }
        dtaPort = config.reports().udpPort();
        retransmittable = settings.retransmittable();
        essentialFraction = settings.essentialFraction();
        badFraction = settings.badFraction();
        postcardLoss = settings.postcardLoss();
        keyDistribution = settings.keyDistribution();
        keySpace = settings.keySpace();
        zipf = keyDistribution == KeyDistribution.ZIPF ? new ZipfSampler(keySpace, settings.zipfExponent()) : null;
        startTimeNanos = settings.startTimeNanos();
        spacingNanos = settings.spacingNanos();
        hops = settings.hops() != 0 ? settings.hops() : config.postcards().hops();
        if (hops > config.postcards().hops())
        {
            // The translator drops hops past postcards.hops (bad hop), so they could not count as valid reports.
            throw new GeneratorSettingsException("--hops", hops + " hops per flow exceed postcards.hops " +
                config.postcards().hops() + " of the configuration");
        }

        configRedundancyMax = config.redundancy().max();
        if (settings.redundancyMin() < 0)
        {
            redundancyMin = Math.min(GeneratorSettings.DEFAULT_REDUNDANCY, configRedundancyMax);
            redundancySpan = 1;
        }
        else
        {
            if (settings.redundancyMax() > configRedundancyMax)
            {
                throw new GeneratorSettingsException("--redundancy", "N up to " + settings.redundancyMax() +
                    " exceeds redundancy.max " + configRedundancyMax + " of the configuration (--bad makes invalid N)");
            }
            redundancyMin = settings.redundancyMin();
            redundancySpan = settings.redundancyMax() - settings.redundancyMin() + 1;
        }

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

        final long[] configIds = config.collectors().stream()
            .flatMap(c -> c.lists().stream()).mapToLong(ListConfig::id).sorted().toArray();
        configListIdsSorted = configIds;
        final List<long[]> lists = selectLists(config, selected, settings.listIds());
        listIds = new long[lists.size()];
        listCollectors = new int[lists.size()];
        for (int i = 0; i < lists.size(); i++)
        {
            listIds[i] = lists.get(i)[0];
            listCollectors[i] = (int)lists.get(i)[1];
        }

        sketchTraffic = selectSketches(config, selected, settings);
        sketchActive = new int[sketchTraffic.length];
        for (int i = 0; i < sketchTraffic.length; i++)
        {
            if (!sketchTraffic[i].done())
            {
                sketchActive[sketchActiveCount++] = i;
            }
        }
        for (int s = 0; s < switchIps.length; s++)
        {
            switchIps[s] = GeneratorSettings.switchIp(s);
            switchMacs[s] = reporterMac(switchIps[s]);
        }

        final List<Primitive> omitted = new ArrayList<>();
        int total = 0;
        for (final Primitive primitive : PRIMITIVE_VALUES)
        {
            int weight = settings.mixWeight(primitive);
            if (weight > 0 && !available(primitive))
            {
                if (settings.mixExplicit())
                {
                    throw new GeneratorSettingsException("--mix", primitive.cliName() + " needs " +
                        requirement(primitive) + ", and no selected collector has one");
                }
                omitted.add(primitive);
                weight = 0;
            }
            total += weight;
            mixWeights[primitive.ordinal()] = weight;
            mixCumulative[primitive.ordinal()] = total;
        }
        if (total == 0)
        {
            throw new GeneratorSettingsException("--mix", "the selected collectors support none of the primitives");
        }
        mixTotal = total;
        omittedPrimitives = Collections.unmodifiableList(omitted);
        if (mixWeights[Primitive.SKETCH.ordinal()] > 0 && 0 == sketchActiveCount)
        {
            dropFromMix(Primitive.SKETCH);
        }

        final EnumSet<BadKind> kinds = EnumSet.allOf(BadKind.class);
        if (keyWriteCollectors.length == 0 && keyIncrementCollectors.length == 0)
        {
            kinds.remove(BadKind.REDUNDANCY_ZERO);
            kinds.remove(BadKind.REDUNDANCY_ABOVE_MAX);
        }
        badKinds = kinds.toArray(new BadKind[0]);

        final int reporterCount = settings.reporters();
        reporterIps = new int[reporterCount];
        reporterMacs = new long[reporterCount];
        reporterSeqnums = new int[reporterCount];
        reporterCounts = new long[reporterCount];
        for (int i = 0; i < reporterCount; i++)
        {
            reporterIps[i] = GeneratorSettings.reporterIp(i);
            reporterMacs[i] = reporterMac(reporterIps[i]);
        }
    }

    /**
     * The MAC of a reporter: locally administered 02:00 followed by its IPv4 address.
     *
     * @param ip the reporter's address.
     * @return the MAC in the low 48 bits.
     */
    public static long reporterMac(final int ip)
    {
        return 0x0200_0000_0000L | (ip & 0xFFFF_FFFFL);
    }

    /**
     * Write the next report frame.
     *
     * @param dst    destination buffer, with at least {@link #MAX_FRAME_LENGTH} bytes from {@code offset}.
     * @param offset where the frame starts (its Ethernet destination MAC).
     * @return the frame length.
     */
    public int next(final MutableDirectBuffer dst, final int offset)
    {
        lastIndex = reports;
        lastPrimitive = null;
        lastBadKind = null;
        lastKey = -1;
        lastRedundancy = -1;
        lastListId = -1;
        lastHop = -1;
        lastData = -1;
        lastSketchId = -1;
        lastSwitch = -1;
        lastEpoch = -1;
        lastColumn = -1;

        final int payloadLength;
        if (badFraction > 0.0 && (badFraction >= 1.0 || random.nextDouble() < badFraction))
        {
            payloadLength = writeBad(dst, offset);
            badCounts[lastBadKind.ordinal()]++;
        }
        else
        {
            final Primitive primitive = pickPrimitive();
            payloadLength = writeValid(dst, offset, primitive, primitive == Primitive.POSTCARD ||
                primitive == Primitive.SKETCH);
            primitiveCounts[primitive.ordinal()]++;
        }

        finish(dst, offset, payloadLength);
        return lastFrameLength;
    }

    private int writeValid(
        final MutableDirectBuffer dst, final int offset, final Primitive primitive, final boolean continueFlow)
    {
        final int dtaOffset = offset + DTA_OFFSET;
        final int subOffset = dtaOffset + baseLength;
        switch (primitive)
        {
            case KEY_WRITE:
            {
                final int collector = pick(keyWriteCollectors);
                return writeKeyWrite(dst, offset, collector, pickReporter(), nextKey(), pickRedundancy());
            }
            case KEY_INCREMENT:
            {
                final int collector = pick(keyIncrementCollectors);
                return writeKeyIncrement(dst, offset, collector, pickReporter(), nextKey(), pickRedundancy());
            }
            case APPEND:
            {
                final int list = listIds.length == 1 ? 0 : random.nextInt(listIds.length);
                final int reporter = pickReporter();
                beginReport(dst, offset, Primitive.APPEND, listCollectors[list], reporter);
                lastListId = listIds[list];
                lastData = random.nextInt() & 0xFFFF_FFFFL;
                append.wrap(dst, subOffset).listId(lastListId).data(lastData);
                return baseLength + AppendFlyweight.LENGTH;
            }
            case SKETCH:
                return writeSketch(dst, offset, continueFlow);
            default:
            {
                final int collector;
                final int reporter;
                final long key;
                final int hop;
                if (continueFlow)
                {
                    advanceFlow();
                    collector = flowCollector;
                    hop = flowNextHop++;
                    reporter = (flowReporterBase + hop - 1) % reporterIps.length;
                    key = flowKey;
                }
                else
                {
                    // A truncated postcard must not disturb the flow in progress.
                    collector = pick(postcardCollectors);
                    reporter = pickReporter();
                    key = nextKey();
                    hop = 1 + random.nextInt(hops);
                }
                beginReport(dst, offset, Primitive.POSTCARD, collector, reporter);
                lastKey = key;
                lastHop = hop;
                lastData = random.nextInt() & 0xFFFF_FFFFL;
                postcard.wrap(dst, subOffset).key(key).hop(hop).data(lastData);
                return baseLength + PostcardFlyweight.LENGTH;
            }
        }
    }

    /**
     * A Sketch-Merge column: the next one of a sketch stream still sending (picked uniformly), or, for a
     * truncated report, a stray column with random counters that leaves every stream alone.
     */
    private int writeSketch(final MutableDirectBuffer dst, final int offset, final boolean fromStream)
    {
        final int subOffset = offset + DTA_OFFSET + baseLength;
        final SketchTraffic traffic;
        final int switchId;
        final long epoch;
        final int column;
        if (fromStream)
        {
            final int slot = sketchActiveCount == 1 ? 0 : random.nextInt(sketchActiveCount);
            traffic = sketchTraffic[sketchActive[slot]];
            traffic.advance(random);
            switchId = traffic.switchId();
            epoch = traffic.epoch();
            column = traffic.column();
            if (traffic.done())
            {
                sketchActive[slot] = sketchActive[--sketchActiveCount];
                if (0 == sketchActiveCount)
                {
                    dropFromMix(Primitive.SKETCH);
                }
            }
        }
        else
        {
            traffic = sketchTraffic[sketchTraffic.length == 1 ? 0 : random.nextInt(sketchTraffic.length)];
            switchId = random.nextInt(traffic.switches());
            epoch = random.nextInt() & 0xFFFF_FFFFL;
            column = random.nextInt(traffic.sketch().columns());
        }
        final SketchConfig sketch = traffic.sketch();
        beginSketchReport(dst, offset, traffic.collectorIndex(), switchId);
        sketchColumn.wrap(dst, subOffset).sketchId((int)sketch.id()).switchId(switchId).epoch(epoch).column(column)
            .rows(sketch.rows()).reserved(0);
        for (int r = 0; r < sketch.rows(); r++)
        {
            sketchColumn.counter(r, fromStream ? traffic.counter(r) : random.nextInt());
        }
        lastSketchId = sketch.id();
        lastSwitch = switchId;
        lastEpoch = epoch;
        lastColumn = column;
        return baseLength + SketchColumnFlyweight.length(sketch.rows());
    }

    private void dropFromMix(final Primitive primitive)
    {
        mixWeights[primitive.ordinal()] = 0;
        int total = 0;
        for (int i = 0; i < PRIMITIVES; i++)
        {
            total += mixWeights[i];
            mixCumulative[i] = total;
        }
        mixTotal = total;
    }

    private int writeKeyWrite(
        final MutableDirectBuffer dst,
        final int offset,
        final int collector,
        final int reporter,
        final long key,
        final int redundancy)
    {
        beginReport(dst, offset, Primitive.KEY_WRITE, collector, reporter);
        final int dataLength = collectorKeyWriteDataLength[collector];
        keyWrite.wrap(dst, offset + DTA_OFFSET + baseLength, dataLength).redundancy(redundancy).key(key);
        for (int word = 0, words = dataLength / 4; word < words; word++)
        {
            keyWrite.dataWord(word, random.nextInt() & 0xFFFF_FFFFL);
        }
        lastKey = key;
        lastRedundancy = redundancy;
        lastData = keyWrite.data();
        return baseLength + KeyWriteFlyweight.FIXED_LENGTH + dataLength;
    }

    private int writeKeyIncrement(
        final MutableDirectBuffer dst,
        final int offset,
        final int collector,
        final int reporter,
        final long key,
        final int redundancy)
    {
        beginReport(dst, offset, Primitive.KEY_INCREMENT, collector, reporter);
        lastKey = key;
        lastRedundancy = redundancy;
        lastData = 1 + random.nextInt(1000);
        keyIncrement.wrap(dst, offset + DTA_OFFSET + baseLength).redundancy(redundancy).key(key).counter(lastData);
        return baseLength + KeyIncrementFlyweight.LENGTH;
    }

    private int writeBad(final MutableDirectBuffer dst, final int offset)
    {
        final BadKind kind = badKinds.length == 1 ? badKinds[0] : badKinds[random.nextInt(badKinds.length)];
        final int subOffset = offset + DTA_OFFSET + baseLength;
        final int payloadLength;
        switch (kind)
        {
            case UNKNOWN_OPCODE:
            {
                // 0x00 or 0x06..0xFF: 0x05 (Sketch-Merge) is known and of variable length.
                final int draw = random.nextInt(251);
                final int opcode = draw == 0 ? 0 : draw + 5;
                beginReport(dst, offset, null, pick(allCollectors), pickReporter());
                dtaBase.opcode(opcode);
                lastOpcode = opcode;
                for (int i = 0; i < UNKNOWN_OPCODE_BODY_LENGTH; i++)
                {
                    dst.putByte(subOffset + i, (byte)random.nextInt());
                }
                payloadLength = baseLength + UNKNOWN_OPCODE_BODY_LENGTH;
                break;
            }
            case REDUNDANCY_ZERO:
            case REDUNDANCY_ABOVE_MAX:
            {
                final int redundancy = kind == BadKind.REDUNDANCY_ZERO ?
                    0 : configRedundancyMax + 1 + random.nextInt(255 - configRedundancyMax);
                final boolean useKeyWrite = keyIncrementCollectors.length == 0 ||
                    (keyWriteCollectors.length > 0 && random.nextBoolean());
                payloadLength = useKeyWrite ?
                    writeKeyWrite(dst, offset, pick(keyWriteCollectors), pickReporter(), nextKey(), redundancy) :
                    writeKeyIncrement(dst, offset, pick(keyIncrementCollectors), pickReporter(), nextKey(), redundancy);
                break;
            }
            case TRUNCATED:
            {
                final int full = writeValid(dst, offset, pickPrimitive(), false);
                final int subLength = full - baseLength;
                // Cut at least 2 bytes: 3-byte form minus one byte would read as a complete 2-byte-form report.
                payloadLength = full - (2 + random.nextInt(subLength - 1));
                break;
            }
            default:
            {
                long listId;
                do
                {
                    listId = random.nextInt() & 0xFFFF_FFFFL;
                }
                while (Arrays.binarySearch(configListIdsSorted, listId) >= 0);
                beginReport(dst, offset, Primitive.APPEND, pick(allCollectors), pickReporter());
                lastListId = listId;
                lastData = random.nextInt() & 0xFFFF_FFFFL;
                append.wrap(dst, subOffset).listId(listId).data(lastData);
                payloadLength = baseLength + AppendFlyweight.LENGTH;
                break;
            }
        }
        lastBadKind = kind;
        return payloadLength;
    }

    /**
     * Write the Ethernet, IPv4 and UDP fields that do not depend on the length, and the base header; decide the
     * flags and take the reporter's next seqnum.
     */
    private void beginReport(
        final MutableDirectBuffer dst,
        final int offset,
        final Primitive primitive,
        final int collector,
        final int reporter)
    {
        lastReporter = reporter;
        writeHeaders(dst, offset, primitive, collector, reporterIps[reporter], reporterMacs[reporter],
            reporterSeqnums, reporter);
    }

    private void beginSketchReport(final MutableDirectBuffer dst, final int offset, final int collector,
        final int switchId)
    {
        lastReporter = -1;
        writeHeaders(dst, offset, Primitive.SKETCH, collector, switchIps[switchId], switchMacs[switchId],
            switchSeqnums, switchId);
    }

    private void writeHeaders(
        final MutableDirectBuffer dst,
        final int offset,
        final Primitive primitive,
        final int collector,
        final int srcIp,
        final long srcMac,
        final int[] seqnums,
        final int seqnumIndex)
    {
        lastPrimitive = primitive;
        lastOpcode = null == primitive ? -1 : primitive.opcode();
        lastCollector = collector;

        ethernet.wrap(dst, offset)
            .dstMac(collectorMacs[collector])
            .srcMac(srcMac)
            .etherType(EthernetFlyweight.ETHER_TYPE_IPV4);
        ipv4.wrap(dst, offset + IP_OFFSET)
            .versionAndIhl(5)
            .tos(0)
            .identification((int)(lastIndex & 0xFFFF))
            .flagsAndFragmentOffset(0)
            .ttl(TTL)
            .protocol(Ipv4Flyweight.PROTOCOL_UDP)
            .src(srcIp)
            .dst(collectorIps[collector]);
        udp.wrap(dst, offset + UDP_OFFSET)
            .srcPort(GeneratorSettings.REPORT_SOURCE_PORT)
            .dstPort(dtaPort);

        lastEssential = essentialFraction > 0.0 &&
            (essentialFraction >= 1.0 || random.nextDouble() < essentialFraction);
        int flags = 0;
        if (retransmittable)
        {
            flags |= DtaBaseHeaderFlyweight.FLAG_RETRANSMITTABLE;
        }
        if (lastEssential)
        {
            flags |= DtaBaseHeaderFlyweight.FLAG_ESSENTIAL;
        }
        dtaBase.wrap(dst, offset + DTA_OFFSET, form).opcode(null == primitive ? 0 : primitive.opcode()).flags(flags);
        if (form == DtaBaseHeaderForm.THREE)
        {
            lastSeqnum = seqnums[seqnumIndex];
            seqnums[seqnumIndex] = (lastSeqnum + 1) & 0xFF;
            dtaBase.seqnum(lastSeqnum);
        }
        else
        {
            lastSeqnum = -1;
        }
    }

    private void finish(final MutableDirectBuffer dst, final int offset, final int payloadLength)
    {
        final int udpLength = UdpFlyweight.HEADER_LENGTH + payloadLength;
        ipv4.totalLength(Ipv4Flyweight.MIN_HEADER_LENGTH + udpLength).updateChecksum();
        udp.length(udpLength).checksum(0);
        udp.checksum(UdpFlyweight.computeIpv4Checksum(dst, offset + IP_OFFSET, offset + UDP_OFFSET, udpLength));

        lastFrameLength = DTA_OFFSET + payloadLength;
        reports++;
        if (lastReporter >= 0)
        {
            reporterCounts[lastReporter]++;
        }
        bytes += lastFrameLength;
        if (lastEssential)
        {
            essentialCount++;
        }
    }

    private void advanceFlow()
    {
        while (true)
        {
            if (!flowActive || flowNextHop > hops)
            {
                flowActive = true;
                flowKey = nextKey();
                flowCollector = pick(postcardCollectors);
                flowReporterBase = reporterIps.length == 1 ? 0 : random.nextInt(reporterIps.length);
                flowNextHop = 1;
                postcardFlows++;
            }
            while (flowNextHop <= hops && postcardLoss > 0.0 && random.nextDouble() < postcardLoss)
            {
                flowNextHop++;
                postcardHopsSkipped++;
            }
            if (flowNextHop <= hops)
            {
                return;
            }
        }
    }

    private Primitive pickPrimitive()
    {
        final int draw = random.nextInt(mixTotal);
        for (int i = 0; i < PRIMITIVES; i++)
        {
            if (draw < mixCumulative[i])
            {
                return PRIMITIVE_VALUES[i];
            }
        }
        throw new IllegalStateException("unreachable: draw " + draw + " outside mix total " + mixTotal);
    }

    private long nextKey()
    {
        switch (keyDistribution)
        {
            case SEQUENTIAL:
            {
                final long key = sequentialKey;
                sequentialKey = key + 1 == keySpace ? 0 : key + 1;
                return key;
            }
            case ZIPF:
                return zipf.sample(random) - 1;
            default:
                return random.nextLong(keySpace);
        }
    }

    private int pickRedundancy()
    {
        return redundancySpan == 1 ? redundancyMin : redundancyMin + random.nextInt(redundancySpan);
    }

    private int pickReporter()
    {
        return reporterIps.length == 1 ? 0 : random.nextInt(reporterIps.length);
    }

    private int pick(final int[] choices)
    {
        return choices.length == 1 ? choices[0] : choices[random.nextInt(choices.length)];
    }

    private boolean available(final Primitive primitive)
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

    private static String requirement(final Primitive primitive)
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
        final ApplianceConfig config, final List<CollectorConfig> selected, final GeneratorSettings settings)
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

    // ---------------------------------------------------------------------------------------------------------
    // The report just written.

    /**
     * @return index of the last report, 0-based (-1 before the first).
     */
    public long index()
    {
        return lastIndex;
    }

    /**
     * @return timestamp of the last report: start time + index x spacing, in nanoseconds since the epoch.
     */
    public long timestampNanos()
    {
        return startTimeNanos + lastIndex * spacingNanos;
    }

    /**
     * @return the primitive whose layout the last report has; null for an unknown-opcode report.
     */
    public Primitive primitive()
    {
        return lastPrimitive;
    }

    /**
     * @return the opcode of the last report.
     */
    public int opcode()
    {
        return lastOpcode;
    }

    /**
     * @return why the last report is invalid, or null if it is valid.
     */
    public BadKind badKind()
    {
        return lastBadKind;
    }

    /**
     * @return index of the last report's reporter, 0 .. reporters-1; -1 for a Sketch-Merge column (sent by a
     * switch, see {@link #switchId()}).
     */
    public int reporterIndex()
    {
        return lastReporter;
    }

    /**
     * @return IPv4 source of the last report (for a Sketch-Merge column, its switch's address).
     */
    public int reporterIp()
    {
        return lastReporter >= 0 ? reporterIps[lastReporter] : switchIps[lastSwitch];
    }

    /**
     * @return sketch id of the last Sketch-Merge column, -1 otherwise.
     */
    public long sketchId()
    {
        return lastSketchId;
    }

    /**
     * @return switch of the last Sketch-Merge column, -1 otherwise.
     */
    public int switchId()
    {
        return lastSwitch;
    }

    /**
     * @return epoch of the last Sketch-Merge column, -1 otherwise.
     */
    public long epoch()
    {
        return lastEpoch;
    }

    /**
     * @return column of the last Sketch-Merge column report, -1 otherwise.
     */
    public int column()
    {
        return lastColumn;
    }

    /**
     * @param index a selected collector's index.
     * @return its IPv4 address.
     */
    public int collectorIpOf(final int index)
    {
        return collectorIps[index];
    }

    /**
     * @return the sketch streams (one per selected sketch; none unless the mix names sketch).
     */
    public List<SketchTraffic> sketchTraffic()
    {
        return List.of(sketchTraffic);
    }

    /**
     * @return true when nothing is left to generate: the mix held only sketch and every sketch stream ended.
     */
    public boolean exhausted()
    {
        return 0 == mixTotal;
    }

    /**
     * @return IPv4 destination (collector) of the last report.
     */
    public int collectorIp()
    {
        return collectorIps[lastCollector];
    }

    /**
     * @return key (Key-Write, Key-Increment) or flow ID (Postcard) of the last report, -1 if none.
     */
    public long key()
    {
        return lastKey;
    }

    /**
     * @return redundancy N of the last Key-Write or Key-Increment, -1 otherwise.
     */
    public int redundancy()
    {
        return lastRedundancy;
    }

    /**
     * @return list ID of the last Append, -1 otherwise.
     */
    public long listId()
    {
        return lastListId;
    }

    /**
     * @return hop of the last Postcard, -1 otherwise.
     */
    public int hop()
    {
        return lastHop;
    }

    /**
     * @return first data word (Key-Write, Append, Postcard) or counter (Key-Increment) of the last report, -1 for an
     * unknown-opcode report.
     */
    public long data()
    {
        return lastData;
    }

    /**
     * @return seqnum of the last report, -1 in the 2-byte form.
     */
    public int seqnum()
    {
        return lastSeqnum;
    }

    /**
     * @return whether the last report is flagged essential.
     */
    public boolean essential()
    {
        return lastEssential;
    }

    /**
     * @return length of the last frame.
     */
    public int frameLength()
    {
        return lastFrameLength;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Configuration as resolved.

    /**
     * @return the base-header form in use.
     */
    public DtaBaseHeaderForm form()
    {
        return form;
    }

    /**
     * @return the number of reporters.
     */
    public int reporters()
    {
        return reporterIps.length;
    }

    /**
     * @param index reporter index.
     * @return its IPv4 address.
     */
    public int reporterIp(final int index)
    {
        return reporterIps[index];
    }

    /**
     * @param switchId a sketch switch, 0..255.
     * @return the IPv4 address it sends its Sketch-Merge columns from.
     */
    public int switchIp(final int switchId)
    {
        return switchIps[switchId];
    }

    /**
     * @return postcard hops per flow.
     */
    public int hops()
    {
        return hops;
    }

    /**
     * @return primitives of the default mix left out because the selected collectors cannot take them.
     */
    public List<Primitive> omittedPrimitives()
    {
        return omittedPrimitives;
    }

    /**
     * @param primitive a primitive.
     * @return its share of valid reports as configured, 0..1.
     */
    public double mixShare(final Primitive primitive)
    {
        final int i = primitive.ordinal();
        return (mixCumulative[i] - (i == 0 ? 0 : mixCumulative[i - 1])) / (double)mixTotal;
    }

    /**
     * @return the invalid-report kinds {@code --bad} draws from, uniformly.
     */
    public List<BadKind> badKinds()
    {
        return List.of(badKinds);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Totals so far.

    /**
     * @return reports written.
     */
    public long reports()
    {
        return reports;
    }

    /**
     * @param primitive a primitive.
     * @return valid reports of it written.
     */
    public long count(final Primitive primitive)
    {
        return primitiveCounts[primitive.ordinal()];
    }

    /**
     * @param kind an invalid kind.
     * @return invalid reports of that kind written.
     */
    public long badCount(final BadKind kind)
    {
        return badCounts[kind.ordinal()];
    }

    /**
     * @return invalid reports written.
     */
    public long badTotal()
    {
        long total = 0;
        for (final long count : badCounts)
        {
            total += count;
        }
        return total;
    }

    /**
     * @param index reporter index.
     * @return reports written by that reporter.
     */
    public long reporterCount(final int index)
    {
        return reporterCounts[index];
    }

    /**
     * @return reports flagged essential.
     */
    public long essentialCount()
    {
        return essentialCount;
    }

    /**
     * @return postcard flows started.
     */
    public long postcardFlows()
    {
        return postcardFlows;
    }

    /**
     * @return postcard hops left out by the configured loss.
     */
    public long postcardHopsSkipped()
    {
        return postcardHopsSkipped;
    }

    /**
     * @return sum of the frame lengths written.
     */
    public long frameBytes()
    {
        return bytes;
    }
}
