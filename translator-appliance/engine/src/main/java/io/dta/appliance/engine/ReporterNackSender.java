package io.dta.appliance.engine;

import io.dta.appliance.engine.primitive.SketchNackSink;
import io.dta.codec.DtaNackFlyweight;
import io.dta.codec.DtaOpcode;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.Ipv4Flyweight;
import io.dta.codec.SketchNackFlyweight;
import io.dta.codec.UdpFlyweight;
import org.agrona.MutableDirectBuffer;

/**
 * Answers a reporter's sequence gap with a DTA NACK (translation.md §7, dta-reference.md §1.6): a UDP datagram
 * to the reporter on the NACK port carrying {@code seqnum = last in-order value} and the NACK bit. It comes
 * from the address the report was sent to (the collector's), as in the reference, so a reporter that talks to
 * its collector recognises the answer; unlike the reference, MACs, ports and lengths are all set correctly.
 * <p>
 * Both NACK kinds carry the report's VLAN tags (TPIDs and TCIs, outer first, as received), so the answer goes back
 * on the reporter's VLAN even when the reporter sits behind a trunk port; an untagged report gets an untagged NACK.
 * A sketch NACK can also be addressed from what a {@link io.dta.appliance.engine.primitive.SketchMergeHandler} kept
 * of the report (its retry timer): the frame is the same.
 */
final class ReporterNackSender implements SketchNackSink
{
    private static final int NACK_FRAME_MIN = 60;
    // Offsets from the IPv4 header: the Ethernet header before it is 14 bytes plus 4 per VLAN tag of the report.
    private static final int UDP_OFFSET = Ipv4Flyweight.MIN_HEADER_LENGTH;
    private static final int NACK_OFFSET = UDP_OFFSET + UdpFlyweight.HEADER_LENGTH;
    private static final int UDP_LENGTH = UdpFlyweight.HEADER_LENGTH + DtaNackFlyweight.LENGTH;
    private static final int SKETCH_BASE_LENGTH = 3;
    private static final int SKETCH_UDP_LENGTH = UdpFlyweight.HEADER_LENGTH + SKETCH_BASE_LENGTH +
        SketchNackFlyweight.LENGTH;

    private final FrameSink sink;
    private final Delivery delivery;
    private final long sourceMac;
    private final int sourceIp;
    private final int reportPort;
    private final int nackPort;
    private final EthernetFlyweight ethernet = new EthernetFlyweight();
    private final Ipv4Flyweight ipv4 = new Ipv4Flyweight();
    private final UdpFlyweight udp = new UdpFlyweight();
    private final DtaNackFlyweight nack = new DtaNackFlyweight();
    private final SketchNackFlyweight sketchNack = new SketchNackFlyweight();

    ReporterNackSender(
        final FrameSink sink, final EngineCounters counters, final long sourceMac, final int sourceIp,
        final int reportPort, final int nackPort)
    {
        this.sink = sink;
        this.delivery = new Delivery(counters);
        this.sourceMac = sourceMac;
        this.sourceIp = sourceIp;
        this.reportPort = reportPort;
        this.nackPort = nackPort;
    }

    void send(final FrameDecoder report, final int lastInOrderSeqnum, final long nowNanos)
    {
        final int ipOffset = ethernetLength(report);
        final int length = frameLength(ipOffset + Ipv4Flyweight.MIN_HEADER_LENGTH + UDP_LENGTH);
        final int offset = sink.claim(length);
        if (offset < 0)
        {
            delivery.refused(OutFrameKind.REPORTER_NACK, 0);
            return;
        }
        final MutableDirectBuffer out = sink.buffer();
        out.setMemory(offset, length, (byte)0);
        putEthernet(out, offset, report.ethernet().srcMac(), report.vlanTagCount(), vlanTags(report));
        final int ip = offset + ipOffset;
        ipv4.wrap(out, ip)
            .versionAndIhl(5)
            .tos(0)
            .totalLength(Ipv4Flyweight.MIN_HEADER_LENGTH + UDP_LENGTH)
            .identification(0)
            .flagsAndFragmentOffset(0x4000)
            .ttl(64)
            .protocol(Ipv4Flyweight.PROTOCOL_UDP)
            .headerChecksum(0)
            .src(report.ipv4().dst())
            .dst(report.ipv4().src())
            .updateChecksum();
        udp.wrap(out, ip + UDP_OFFSET).srcPort(reportPort).dstPort(nackPort).length(UDP_LENGTH).checksum(0);
        nack.wrap(out, ip + NACK_OFFSET).seqnum(lastInOrderSeqnum).nack(true);
        delivery.committed(OutFrameKind.REPORTER_NACK, 0,
            sink.commit(offset, length, nowNanos, OutFrameKind.REPORTER_NACK, 0));
    }

    /**
     * Asks a switch to resend its sketch columns from {@code column} (docs/sketch.md): UDP from the translator's
     * own address to the report's source, NACK port, payload a 3-byte DTA base header (opcode 0x05, seqnum 0,
     * NACK flag) and the sketch NACK body, padded to the Ethernet minimum (a report with two VLAN tags needs no
     * padding: its NACK is 65 bytes).
     */
    void sendSketch(
        final FrameDecoder report, final int sketchId, final int switchId, final long epoch, final int column,
        final long nowNanos)
    {
        sendSketchNack(report.ethernet().srcMac(), report.ipv4().src(), report.vlanTagCount(), vlanTags(report),
            sketchId, switchId, epoch, column, nowNanos);
    }

    /**
     * {@inheritDoc}
     * <p>
     * The frame {@link #sendSketch} builds from a report, built from the report's source MAC, source IP and VLAN
     * tags.
     */
    public boolean sendSketchNack(
        final long mac, final int ip, final int vlanTagCount, final long vlanTags, final int sketchId,
        final int switchId, final long epoch, final int column, final long nowNanos)
    {
        final int ipOffset = EthernetFlyweight.HEADER_LENGTH + EthernetFlyweight.VLAN_TAG_LENGTH * vlanTagCount;
        final int length = frameLength(ipOffset + Ipv4Flyweight.MIN_HEADER_LENGTH + SKETCH_UDP_LENGTH);
        final int offset = sink.claim(length);
        if (offset < 0)
        {
            delivery.refused(OutFrameKind.SKETCH_NACK, 0);
            return false;
        }
        final MutableDirectBuffer out = sink.buffer();
        out.setMemory(offset, length, (byte)0);
        putEthernet(out, offset, mac, vlanTagCount, vlanTags);
        final int ipHeader = offset + ipOffset;
        ipv4.wrap(out, ipHeader)
            .versionAndIhl(5)
            .tos(0)
            .totalLength(Ipv4Flyweight.MIN_HEADER_LENGTH + SKETCH_UDP_LENGTH)
            .identification(0)
            .flagsAndFragmentOffset(0x4000)
            .ttl(64)
            .protocol(Ipv4Flyweight.PROTOCOL_UDP)
            .headerChecksum(0)
            .src(sourceIp)
            .dst(ip)
            .updateChecksum();
        udp.wrap(out, ipHeader + UDP_OFFSET).srcPort(reportPort).dstPort(nackPort).length(SKETCH_UDP_LENGTH)
            .checksum(0);
        out.putByte(ipHeader + NACK_OFFSET, (byte)DtaOpcode.SKETCH_MERGE);
        out.putByte(ipHeader + NACK_OFFSET + 2, (byte)DtaNackFlyweight.NACK_FLAG);
        sketchNack.wrap(out, ipHeader + NACK_OFFSET + SKETCH_BASE_LENGTH).sketchId(sketchId).switchId(switchId)
            .epoch(epoch).column(column).reserved(0);
        delivery.committed(OutFrameKind.SKETCH_NACK, 0,
            sink.commit(offset, length, nowNanos, OutFrameKind.SKETCH_NACK, 0));
        return true;
    }

    /**
     * The report's VLAN tags as received (TPID and whole TCI, outer first), packed as {@link SketchNackSink}
     * describes.
     */
    static long vlanTags(final FrameDecoder report)
    {
        final EthernetFlyweight received = report.ethernet();
        long tags = 0;
        for (int i = 0, n = report.vlanTagCount(); i < n; i++)
        {
            tags |= SketchNackSink.packVlanTag(i, received.vlanTpid(i), received.vlanTci(i));
        }
        return tags;
    }

    private static int ethernetLength(final FrameDecoder report)
    {
        return EthernetFlyweight.HEADER_LENGTH + EthernetFlyweight.VLAN_TAG_LENGTH * report.vlanTagCount();
    }

    /**
     * The Ethernet minimum is 60 bytes (FCS excluded) whether or not the frame is tagged: a bridge that strips a
     * tag pads again (802.1Q), so tags are not padded for here.
     */
    private static int frameLength(final int contentLength)
    {
        return Math.max(NACK_FRAME_MIN, contentLength);
    }

    /**
     * Ethernet header back to the reporter: its MAC, then the report's VLAN tags copied verbatim (TPID and whole
     * TCI, so PCP and DEI come back too), then IPv4. Expects the frame zeroed, as the tag count of the flyweight
     * is read back from the bytes written.
     */
    private void putEthernet(
        final MutableDirectBuffer out, final int offset, final long dstMac, final int vlanTagCount, final long vlanTags)
    {
        ethernet.wrap(out, offset).dstMac(dstMac).srcMac(sourceMac);
        for (int i = 0; i < vlanTagCount; i++)
        {
            final int tci = SketchNackSink.vlanTci(vlanTags, i);
            ethernet.vlanTag(i, SketchNackSink.vlanTpid(vlanTags, i), tci >>> 13, (tci & 0x1000) != 0, tci & 0x0FFF);
        }
        ethernet.innerEtherType(EthernetFlyweight.ETHER_TYPE_IPV4);
    }
}
