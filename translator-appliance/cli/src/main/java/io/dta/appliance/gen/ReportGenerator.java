package io.dta.appliance.gen;

import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.Ipv4Flyweight;
import io.dta.codec.UdpFlyweight;
import io.dta.config.ApplianceConfig;
import io.dta.config.BaseHeader;
import org.agrona.MutableDirectBuffer;

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

    private static final BadKind[] BAD_VALUES = BadKind.values();

    private final SplittableRandom random;
    private final double badFraction;
    private final long startTimeNanos;
    private final long spacingNanos;
    private final GeneratorTargets targets;
    private final TrafficShape shape;
    private final PrimitiveMix mix;
    private final ReportWriter writer;
    private final BadReports bad;
    private final SketchStreams sketches;

    private long reports;
    private final long[] primitiveCounts = new long[Primitive.values().length];
    private final long[] badCounts = new long[BAD_VALUES.length];
    private final long[] reporterCounts;
    private long essentialCount;
    private long bytes;

    private BadKind lastBadKind;

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
        final DtaBaseHeaderForm form = form(config, settings);
        badFraction = settings.badFraction();
        startTimeNanos = settings.startTimeNanos();
        spacingNanos = settings.spacingNanos();
        shape = new TrafficShape(random, config, settings);
        targets = new GeneratorTargets(config, settings);
        mix = new PrimitiveMix(settings, targets);
        writer = new ReportWriter(random, targets, form, config.reports().udpPort(), settings);
        sketches = new SketchStreams(random, targets.sketchTraffic, writer, mix);
        bad = new BadReports(random, config.redundancy().max(), targets, shape, writer, mix, this::writeValid);
        reporterCounts = new long[settings.reporters()];
    }

    /**
     * The base header's form: {@code --base-header}, else the configuration's, refused where the flags need the
     * 3-byte form or the configured translator decodes only the other.
     */
    private static DtaBaseHeaderForm form(final ApplianceConfig config, final GeneratorSettings settings)
    {
        final DtaBaseHeaderForm form;
        if (null != settings.baseHeader())
        {
            form = settings.baseHeader();
        }
        else
        {
            form = config.reports().baseHeader() == BaseHeader.TWO ? DtaBaseHeaderForm.TWO : DtaBaseHeaderForm.THREE;
        }
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
        return form;
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
        writer.reset(reports);
        lastBadKind = null;

        final int payloadLength;
        if (badFraction > 0.0 && (badFraction >= 1.0 || random.nextDouble() < badFraction))
        {
            final BadKind kind = bad.draw();
            payloadLength = bad.write(dst, offset, kind);
            lastBadKind = kind;
            badCounts[kind.ordinal()]++;
        }
        else
        {
            final Primitive primitive = mix.pick(random);
            payloadLength = writeValid(dst, offset, primitive, primitive == Primitive.POSTCARD ||
                primitive == Primitive.SKETCH);
            primitiveCounts[primitive.ordinal()]++;
        }

        final int frameLength = writer.finish(dst, offset, payloadLength);
        reports++;
        if (writer.reporter >= 0)
        {
            reporterCounts[writer.reporter]++;
        }
        bytes += frameLength;
        if (writer.essential)
        {
            essentialCount++;
        }
        return frameLength;
    }

    private int writeValid(
        final MutableDirectBuffer dst, final int offset, final Primitive primitive, final boolean continueFlow)
    {
        switch (primitive)
        {
            case KEY_WRITE:
            {
                final int collector = shape.pick(targets.keyWriteCollectors);
                return writer.keyWrite(dst, offset, collector, shape.pickReporter(), shape.nextKey(),
                    shape.pickRedundancy());
            }
            case KEY_INCREMENT:
            {
                final int collector = shape.pick(targets.keyIncrementCollectors);
                return writer.keyIncrement(dst, offset, collector, shape.pickReporter(), shape.nextKey(),
                    shape.pickRedundancy());
            }
            case APPEND:
            {
                final long[] listIds = targets.listIds;
                final int list = listIds.length == 1 ? 0 : random.nextInt(listIds.length);
                final int reporter = shape.pickReporter();
                return writer.append(dst, offset, targets.listCollectors[list], reporter, listIds[list]);
            }
            case SKETCH:
                return sketches.write(dst, offset, continueFlow);
            default:
                return writePostcard(dst, offset, continueFlow);
        }
    }

    private int writePostcard(final MutableDirectBuffer dst, final int offset, final boolean continueFlow)
    {
        final int collector;
        final int reporter;
        final long key;
        final int hop;
        if (continueFlow)
        {
            shape.advanceFlow(targets.postcardCollectors);
            collector = shape.flowCollector();
            hop = shape.takeHop();
            reporter = shape.flowReporter(hop);
            key = shape.flowKey();
        }
        else
        {
            // A truncated postcard must not disturb the flow in progress.
            collector = shape.pick(targets.postcardCollectors);
            reporter = shape.pickReporter();
            key = shape.nextKey();
            hop = 1 + random.nextInt(shape.hops());
        }
        return writer.postcard(dst, offset, collector, reporter, key, hop);
    }

    /**
     * @return index of the last report, 0-based (-1 before the first).
     */
    public long index()
    {
        return writer.index;
    }

    /**
     * @return timestamp of the last report: start time + index x spacing, in nanoseconds since the epoch.
     */
    public long timestampNanos()
    {
        return startTimeNanos + writer.index * spacingNanos;
    }

    /**
     * @return the primitive whose layout the last report has; null for an unknown-opcode report.
     */
    public Primitive primitive()
    {
        return writer.primitive;
    }

    /**
     * @return the opcode of the last report.
     */
    public int opcode()
    {
        return writer.opcode;
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
        return writer.reporter;
    }

    /**
     * @return IPv4 source of the last report (for a Sketch-Merge column, its switch's address).
     */
    public int reporterIp()
    {
        return writer.reporter >= 0 ? writer.reporterIps[writer.reporter] : writer.switchIps[writer.switchId];
    }

    /**
     * @return sketch id of the last Sketch-Merge column, -1 otherwise.
     */
    public long sketchId()
    {
        return writer.sketchId;
    }

    /**
     * @return switch of the last Sketch-Merge column, -1 otherwise.
     */
    public int switchId()
    {
        return writer.switchId;
    }

    /**
     * @return epoch of the last Sketch-Merge column, -1 otherwise.
     */
    public long epoch()
    {
        return writer.epoch;
    }

    /**
     * @return column of the last Sketch-Merge column report, -1 otherwise.
     */
    public int column()
    {
        return writer.column;
    }

    /**
     * @param index a selected collector's index.
     * @return its IPv4 address.
     */
    public int collectorIpOf(final int index)
    {
        return targets.collectorIps[index];
    }

    /**
     * @return the sketch streams (one per selected sketch; none unless the mix names sketch).
     */
    public List<SketchTraffic> sketchTraffic()
    {
        return List.of(targets.sketchTraffic);
    }

    /**
     * @return true when nothing is left to generate: the mix held only sketch and every sketch stream ended.
     */
    public boolean exhausted()
    {
        return mix.empty();
    }

    /**
     * @return IPv4 destination (collector) of the last report.
     */
    public int collectorIp()
    {
        return targets.collectorIps[writer.collector];
    }

    /**
     * @return key (Key-Write, Key-Increment) or flow ID (Postcard) of the last report, -1 if none.
     */
    public long key()
    {
        return writer.key;
    }

    /**
     * @return redundancy N of the last Key-Write or Key-Increment, -1 otherwise.
     */
    public int redundancy()
    {
        return writer.redundancy;
    }

    /**
     * @return list ID of the last Append, -1 otherwise.
     */
    public long listId()
    {
        return writer.listId;
    }

    /**
     * @return hop of the last Postcard, -1 otherwise.
     */
    public int hop()
    {
        return writer.hop;
    }

    /**
     * @return first data word (Key-Write, Append, Postcard) or counter (Key-Increment) of the last report, -1 for an
     * unknown-opcode report.
     */
    public long data()
    {
        return writer.data;
    }

    /**
     * @return seqnum of the last report, -1 in the 2-byte form.
     */
    public int seqnum()
    {
        return writer.seqnum;
    }

    /**
     * @return whether the last report is flagged essential.
     */
    public boolean essential()
    {
        return writer.essential;
    }

    /**
     * @return length of the last frame.
     */
    public int frameLength()
    {
        return writer.frameLength;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Configuration as resolved.

    /**
     * @return the base-header form in use.
     */
    public DtaBaseHeaderForm form()
    {
        return writer.form();
    }

    /**
     * @return the number of reporters.
     */
    public int reporters()
    {
        return writer.reporterIps.length;
    }

    /**
     * @param index reporter index.
     * @return its IPv4 address.
     */
    public int reporterIp(final int index)
    {
        return writer.reporterIps[index];
    }

    /**
     * @param switchId a sketch switch, 0..255.
     * @return the IPv4 address it sends its Sketch-Merge columns from.
     */
    public int switchIp(final int switchId)
    {
        return writer.switchIps[switchId];
    }

    /**
     * @return postcard hops per flow.
     */
    public int hops()
    {
        return shape.hops();
    }

    /**
     * @return primitives of the default mix left out because the selected collectors cannot take them.
     */
    public List<Primitive> omittedPrimitives()
    {
        return mix.omitted();
    }

    /**
     * @param primitive a primitive.
     * @return its share of valid reports as configured, 0..1.
     */
    public double mixShare(final Primitive primitive)
    {
        return mix.share(primitive);
    }

    /**
     * @return the invalid-report kinds {@code --bad} draws from, uniformly.
     */
    public List<BadKind> badKinds()
    {
        return bad.kinds();
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
        return shape.postcardFlows();
    }

    /**
     * @return postcard hops left out by the configured loss.
     */
    public long postcardHopsSkipped()
    {
        return shape.postcardHopsSkipped();
    }

    /**
     * @return sum of the frame lengths written.
     */
    public long frameBytes()
    {
        return bytes;
    }
}
