package io.dta.appliance.gen;

import io.dta.codec.AppendFlyweight;
import io.dta.codec.DtaBaseHeaderFlyweight;
import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.Ipv4Flyweight;
import io.dta.codec.KeyIncrementFlyweight;
import io.dta.codec.KeyWriteFlyweight;
import io.dta.codec.PostcardFlyweight;
import io.dta.codec.SketchColumnFlyweight;
import io.dta.codec.UdpFlyweight;
import io.dta.config.SketchConfig;
import org.agrona.MutableDirectBuffer;

import java.util.SplittableRandom;

/**
 * Writes one report frame of each primitive, given its fields, and records what it wrote: the Ethernet, IPv4 and UDP
 * headers (from a reporter, or a sketch switch, to a selected collector), the base header with its flags and the
 * sender's next seqnum, then the primitive's body. The essential flag, the data words and a stray column's counters
 * are drawn from the generator's random source. Allocates nothing. Not thread-safe.
 */
final class ReportWriter
{
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
    private final GeneratorTargets targets;
    private final DtaBaseHeaderForm form;
    private final int baseLength;
    private final int dtaPort;
    private final boolean retransmittable;
    private final double essentialFraction;

    final int[] reporterIps;
    private final long[] reporterMacs;
    private final int[] reporterSeqnums;
    final int[] switchIps = new int[GeneratorSettings.MAX_SWITCHES];
    private final long[] switchMacs = new long[GeneratorSettings.MAX_SWITCHES];
    private final int[] switchSeqnums = new int[GeneratorSettings.MAX_SWITCHES];

    // The report just written.
    long index = -1;
    Primitive primitive;
    int opcode;
    int reporter;
    int collector;
    long key;
    int redundancy;
    long listId;
    int hop;
    long data;
    int seqnum;
    boolean essential;
    int frameLength;
    long sketchId = -1;
    int switchId = -1;
    long epoch = -1;
    int column = -1;

    /**
     * @param random            the generator's random source.
     * @param targets           the selected collectors.
     * @param form              the base header's form.
     * @param dtaPort           {@code reports.udpPort}.
     * @param settings          reporters, flags.
     */
    ReportWriter(
        final SplittableRandom random,
        final GeneratorTargets targets,
        final DtaBaseHeaderForm form,
        final int dtaPort,
        final GeneratorSettings settings)
    {
        this.random = random;
        this.targets = targets;
        this.form = form;
        this.baseLength = form.length();
        this.dtaPort = dtaPort;
        this.retransmittable = settings.retransmittable();
        this.essentialFraction = settings.essentialFraction();
        for (int s = 0; s < switchIps.length; s++)
        {
            switchIps[s] = GeneratorSettings.switchIp(s);
            switchMacs[s] = ReportGenerator.reporterMac(switchIps[s]);
        }
        final int reporterCount = settings.reporters();
        reporterIps = new int[reporterCount];
        reporterMacs = new long[reporterCount];
        reporterSeqnums = new int[reporterCount];
        for (int i = 0; i < reporterCount; i++)
        {
            reporterIps[i] = GeneratorSettings.reporterIp(i);
            reporterMacs[i] = ReportGenerator.reporterMac(reporterIps[i]);
        }
    }

    /**
     * @return the base header's form.
     */
    DtaBaseHeaderForm form()
    {
        return form;
    }

    /**
     * @return the base header's length.
     */
    int baseLength()
    {
        return baseLength;
    }

    /**
     * Forgets the fields of the last report before the next.
     *
     * @param next the index of the report about to be written.
     */
    void reset(final long next)
    {
        index = next;
        primitive = null;
        key = -1;
        redundancy = -1;
        listId = -1;
        hop = -1;
        data = -1;
        sketchId = -1;
        switchId = -1;
        epoch = -1;
        column = -1;
    }

    int keyWrite(
        final MutableDirectBuffer dst,
        final int offset,
        final int collector,
        final int reporter,
        final long key,
        final int redundancy)
    {
        beginReport(dst, offset, Primitive.KEY_WRITE, collector, reporter);
        final int dataLength = targets.collectorKeyWriteDataLength[collector];
        keyWrite.wrap(dst, offset + ReportGenerator.DTA_OFFSET + baseLength, dataLength).redundancy(redundancy)
            .key(key);
        for (int word = 0, words = dataLength / 4; word < words; word++)
        {
            keyWrite.dataWord(word, random.nextInt() & 0xFFFF_FFFFL);
        }
        this.key = key;
        this.redundancy = redundancy;
        data = keyWrite.data();
        return baseLength + KeyWriteFlyweight.FIXED_LENGTH + dataLength;
    }

    int keyIncrement(
        final MutableDirectBuffer dst,
        final int offset,
        final int collector,
        final int reporter,
        final long key,
        final int redundancy)
    {
        beginReport(dst, offset, Primitive.KEY_INCREMENT, collector, reporter);
        this.key = key;
        this.redundancy = redundancy;
        data = 1 + random.nextInt(1000);
        keyIncrement.wrap(dst, offset + ReportGenerator.DTA_OFFSET + baseLength).redundancy(redundancy).key(key)
            .counter(data);
        return baseLength + KeyIncrementFlyweight.LENGTH;
    }

    int append(
        final MutableDirectBuffer dst, final int offset, final int collector, final int reporter, final long listId)
    {
        beginReport(dst, offset, Primitive.APPEND, collector, reporter);
        this.listId = listId;
        data = random.nextInt() & 0xFFFF_FFFFL;
        append.wrap(dst, offset + ReportGenerator.DTA_OFFSET + baseLength).listId(listId).data(data);
        return baseLength + AppendFlyweight.LENGTH;
    }

    int postcard(
        final MutableDirectBuffer dst,
        final int offset,
        final int collector,
        final int reporter,
        final long key,
        final int hop)
    {
        beginReport(dst, offset, Primitive.POSTCARD, collector, reporter);
        this.key = key;
        this.hop = hop;
        data = random.nextInt() & 0xFFFF_FFFFL;
        postcard.wrap(dst, offset + ReportGenerator.DTA_OFFSET + baseLength).key(key).hop(hop).data(data);
        return baseLength + PostcardFlyweight.LENGTH;
    }

    /**
     * A Sketch-Merge column from {@code switchId}: the stream's counters, or random ones for a stray column.
     */
    int sketchColumn(
        final MutableDirectBuffer dst,
        final int offset,
        final SketchTraffic traffic,
        final int switchId,
        final long epoch,
        final int column,
        final boolean fromStream)
    {
        final SketchConfig sketch = traffic.sketch();
        reporter = -1;
        writeHeaders(dst, offset, Primitive.SKETCH, traffic.collectorIndex(), switchIps[switchId],
            switchMacs[switchId], switchSeqnums, switchId);
        sketchColumn.wrap(dst, offset + ReportGenerator.DTA_OFFSET + baseLength).sketchId((int)sketch.id())
            .switchId(switchId).epoch(epoch).column(column).rows(sketch.rows()).reserved(0);
        for (int r = 0; r < sketch.rows(); r++)
        {
            sketchColumn.counter(r, fromStream ? traffic.counter(r) : random.nextInt());
        }
        sketchId = sketch.id();
        this.switchId = switchId;
        this.epoch = epoch;
        this.column = column;
        return baseLength + SketchColumnFlyweight.length(sketch.rows());
    }

    /**
     * A report of an opcode no primitive has, with a body of random bytes.
     */
    int unknownOpcode(
        final MutableDirectBuffer dst, final int offset, final int opcode, final int collector, final int reporter)
    {
        beginReport(dst, offset, null, collector, reporter);
        dtaBase.opcode(opcode);
        this.opcode = opcode;
        final int subOffset = offset + ReportGenerator.DTA_OFFSET + baseLength;
        for (int i = 0; i < ReportGenerator.UNKNOWN_OPCODE_BODY_LENGTH; i++)
        {
            dst.putByte(subOffset + i, (byte)random.nextInt());
        }
        return baseLength + ReportGenerator.UNKNOWN_OPCODE_BODY_LENGTH;
    }

    /**
     * The IPv4 total length, UDP length and both checksums, once the payload is written.
     *
     * @return the frame's length.
     */
    int finish(final MutableDirectBuffer dst, final int offset, final int payloadLength)
    {
        final int udpLength = UdpFlyweight.HEADER_LENGTH + payloadLength;
        ipv4.totalLength(Ipv4Flyweight.MIN_HEADER_LENGTH + udpLength).updateChecksum();
        udp.length(udpLength).checksum(0);
        udp.checksum(UdpFlyweight.computeIpv4Checksum(dst, offset + ReportGenerator.IP_OFFSET,
            offset + ReportGenerator.UDP_OFFSET, udpLength));
        frameLength = ReportGenerator.DTA_OFFSET + payloadLength;
        return frameLength;
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
        this.reporter = reporter;
        writeHeaders(dst, offset, primitive, collector, reporterIps[reporter], reporterMacs[reporter],
            reporterSeqnums, reporter);
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
        this.primitive = primitive;
        opcode = null == primitive ? -1 : primitive.opcode();
        this.collector = collector;

        ethernet.wrap(dst, offset)
            .dstMac(targets.collectorMacs[collector])
            .srcMac(srcMac)
            .etherType(EthernetFlyweight.ETHER_TYPE_IPV4);
        ipv4.wrap(dst, offset + ReportGenerator.IP_OFFSET)
            .versionAndIhl(5)
            .tos(0)
            .identification((int)(index & 0xFFFF))
            .flagsAndFragmentOffset(0)
            .ttl(ReportGenerator.TTL)
            .protocol(Ipv4Flyweight.PROTOCOL_UDP)
            .src(srcIp)
            .dst(targets.collectorIps[collector]);
        udp.wrap(dst, offset + ReportGenerator.UDP_OFFSET)
            .srcPort(GeneratorSettings.REPORT_SOURCE_PORT)
            .dstPort(dtaPort);

        essential = essentialFraction > 0.0 &&
            (essentialFraction >= 1.0 || random.nextDouble() < essentialFraction);
        int flags = 0;
        if (retransmittable)
        {
            flags |= DtaBaseHeaderFlyweight.FLAG_RETRANSMITTABLE;
        }
        if (essential)
        {
            flags |= DtaBaseHeaderFlyweight.FLAG_ESSENTIAL;
        }
        dtaBase.wrap(dst, offset + ReportGenerator.DTA_OFFSET, form).opcode(null == primitive ? 0 : primitive.opcode())
            .flags(flags);
        if (form == DtaBaseHeaderForm.THREE)
        {
            seqnum = seqnums[seqnumIndex];
            seqnums[seqnumIndex] = (seqnum + 1) & 0xFF;
            dtaBase.seqnum(seqnum);
        }
        else
        {
            seqnum = -1;
        }
    }
}
