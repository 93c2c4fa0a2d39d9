package io.dta.appliance.engine;

import io.dta.appliance.engine.primitive.AppendList;
import io.dta.appliance.engine.primitive.SketchMergeHandler;
import io.dta.appliance.engine.worker.HandOffQueues;
import io.dta.codec.DtaOpcode;
import io.dta.codec.FrameDecoder;
import io.dta.codec.KeyWriteFlyweight;
import io.dta.codec.UdpFlyweight;
import org.agrona.DirectBuffer;

/**
 * Routes a report that passed its checks to its primitive's handler (translation.md §3): collector by IPv4
 * destination, list by id, sketch by id; checks what only the route can tell (redundancy, hop, Key-Write data
 * length) and, for an essential report, whether its QP has room, handing a retransmittable one back to its reporter
 * with a NACK when it has not. Every report it does not translate is counted under a named reason. The report is
 * read through the decoder it is given ({@link ReportIngress} says why).
 */
final class PrimitiveRouter
{
    private final EngineCounters counters;
    private final EngineRoutes routes;
    private final ReporterSequenceTracker sequenceTracker;
    private final ReporterNackSender nackSender;
    private final int redundancyMax;
    private final int postcardHops;
    // The report being translated carries the retransmittable flag (its reporter keeps it for a NACK).
    private boolean retransmittable;

    PrimitiveRouter(
        final EngineCounters counters,
        final EngineRoutes routes,
        final ReporterSequenceTracker sequenceTracker,
        final ReporterNackSender nackSender,
        final int redundancyMax,
        final int postcardHops)
    {
        this.counters = counters;
        this.routes = routes;
        this.sequenceTracker = sequenceTracker;
        this.nackSender = nackSender;
        this.redundancyMax = redundancyMax;
        this.postcardHops = postcardHops;
    }

    /**
     * @param retransmittable whether the report about to be translated carries the retransmittable flag.
     */
    void retransmittable(final boolean retransmittable)
    {
        this.retransmittable = retransmittable;
    }

    /**
     * Translates the report just decoded, counting it translated or dropped.
     */
    void translate(final FrameDecoder decoder, final int opcode, final boolean essential, final long nowNanos)
    {
        final boolean translated = switch (opcode)
        {
            case DtaOpcode.KEY_WRITE -> keyWrite(decoder, essential, nowNanos);
            case DtaOpcode.KEY_INCREMENT -> keyIncrement(decoder, essential, nowNanos);
            case DtaOpcode.APPEND -> append(decoder, essential, nowNanos);
            case DtaOpcode.POSTCARD -> postcard(decoder, essential, nowNanos);
            case DtaOpcode.SKETCH_MERGE -> sketchColumn(decoder, nowNanos);
            default -> dropped(EngineCounter.DROP_UNSUPPORTED_PRIMITIVE);
        };
        if (translated)
        {
            counters.increment(EngineCounter.REPORTS_TRANSLATED);
        }
    }

    /**
     * An Append entry or a postcard another worker took in and handed over as a record.
     *
     * @return whether it was translated (routed to its list or postcard cache).
     */
    boolean takenOver(final int kind, final DirectBuffer record, final int offset, final long nowNanos)
    {
        final boolean essential = 0 != record.getByte(offset + HandOffQueues.ESSENTIAL_OFFSET);
        final int id = record.getInt(offset + HandOffQueues.ID_OFFSET);
        final int data = record.getInt(offset + HandOffQueues.DATA_OFFSET);
        if (HandOffQueues.APPEND == kind)
        {
            final AppendList list = routes.listsById.get(id);
            if (null == list)
            {
                return dropped(EngineCounter.DROP_NO_ROUTE);
            }
            list.onEntry(data, essential, nowNanos);
            return true;
        }
        final EngineRoutes.CollectorRoutes collector =
            routes.collectorsByIp.get(record.getInt(offset + HandOffQueues.COLLECTOR_OFFSET));
        if (null == collector || null == collector.postcards)
        {
            return dropped(EngineCounter.DROP_NO_ROUTE);
        }
        final int hop = record.getShort(offset + HandOffQueues.HOP_OFFSET);
        if (hop < 1 || hop > postcardHops)
        {
            return dropped(EngineCounter.DROP_BAD_HOP);
        }
        collector.postcards.onReport(id, hop, data, essential, nowNanos);
        return true;
    }

    private EngineRoutes.CollectorRoutes collector(final FrameDecoder decoder)
    {
        return routes.collectorsByIp.get(decoder.ipv4().dst());
    }

    private boolean keyWrite(final FrameDecoder decoder, final boolean essential, final long nowNanos)
    {
        final EngineRoutes.CollectorRoutes collector = collector(decoder);
        if (null == collector || null == collector.keyWrite)
        {
            return dropped(EngineCounter.DROP_NO_ROUTE);
        }
        final KeyWriteFlyweight kw = decoder.keyWrite();
        final int n = kw.redundancy();
        if (n < 1 || n > redundancyMax)
        {
            return dropped(EngineCounter.DROP_BAD_REDUNDANCY);
        }
        final int carried = decoder.udpLength() - UdpFlyweight.HEADER_LENGTH - decoder.dtaBase().length() -
            KeyWriteFlyweight.FIXED_LENGTH;
        final int dataLength = collector.keyWrite.dataLength();
        if (carried != dataLength)
        {
            // Data shorter than the store's slot is a report cut short; longer, a report of another shape.
            return dropped(carried < dataLength ? EngineCounter.DROP_TRUNCATED : EngineCounter.DROP_BAD_LENGTH);
        }
        if (essential && noRoomFor(decoder, collector.keyWriteSender, n, nowNanos))
        {
            return false;
        }
        collector.keyWrite.onReport(n, (int)kw.key(), kw.buffer(), kw.dataOffset(), essential, nowNanos);
        return true;
    }

    /**
     * An essential report's QP cannot take its operations: a retransmittable one is handed back to its reporter with
     * a NACK (its seqnum taken back, so its resend is in order), counted as {@link EngineCounter#DROP_BACKLOG_FULL_NACKED};
     * any other goes on, to be refused and counted by its QP ({@link EngineCounter#DROP_BACKLOG_FULL}).
     *
     * @return true when the report was handed back.
     */
    private boolean noRoomFor(final FrameDecoder decoder, final QueuePairSender sender, final int operations, final long nowNanos)
    {
        if (!retransmittable || sender.hasEssentialRoom(operations))
        {
            return false;
        }
        final int seqnum = decoder.dtaBase().seqnum();
        sequenceTracker.refuse(decoder.ipv4().src(), seqnum);
        nackSender.send(decoder, (seqnum - 1) & 0xFF, nowNanos);
        counters.increment(EngineCounter.DROP_BACKLOG_FULL_NACKED);
        return true;
    }

    private boolean dropped(final EngineCounter reason)
    {
        counters.increment(reason);
        return false;
    }

    private boolean keyIncrement(final FrameDecoder decoder, final boolean essential, final long nowNanos)
    {
        final EngineRoutes.CollectorRoutes collector = collector(decoder);
        if (null == collector || null == collector.keyIncrement)
        {
            return dropped(EngineCounter.DROP_NO_ROUTE);
        }
        final var ki = decoder.keyIncrement();
        final int n = ki.redundancy();
        if (n < 1 || n > redundancyMax)
        {
            return dropped(EngineCounter.DROP_BAD_REDUNDANCY);
        }
        if (essential && noRoomFor(decoder, collector.keyIncrementSender, n, nowNanos))
        {
            return false;
        }
        collector.keyIncrement.onReport(n, (int)ki.key(), ki.counter(), essential, nowNanos);
        return true;
    }

    private boolean append(final FrameDecoder decoder, final boolean essential, final long nowNanos)
    {
        final var ap = decoder.append();
        // Ids are u32 on the wire and in the configuration, kept here by their 32-bit pattern: ids from 2^31 on are
        // negative ints, and must route like any other.
        final AppendList list = routes.listsById.get((int)ap.listId());
        if (null == list)
        {
            return dropped(EngineCounter.DROP_NO_ROUTE);
        }
        // The batch this entry completes (if it does) is the one WRITE its QP must take.
        if (essential && noRoomFor(decoder, routes.listSendersById.get((int)ap.listId()), 1, nowNanos))
        {
            return false;
        }
        list.onEntry((int)ap.data(), essential, nowNanos);
        return true;
    }

    private boolean postcard(final FrameDecoder decoder, final boolean essential, final long nowNanos)
    {
        final EngineRoutes.CollectorRoutes collector = collector(decoder);
        if (null == collector || null == collector.postcards)
        {
            return dropped(EngineCounter.DROP_NO_ROUTE);
        }
        final var pc = decoder.postcard();
        final int hop = pc.hop();
        if (hop < 1 || hop > postcardHops)
        {
            return dropped(EngineCounter.DROP_BAD_HOP);
        }
        // The record it completes and one a cache collision may push out.
        if (essential && noRoomFor(decoder, collector.postcardSender, 2, nowNanos))
        {
            return false;
        }
        collector.postcards.onReport((int)pc.key(), hop, (int)pc.data(), essential, nowNanos);
        return true;
    }

    private boolean sketchColumn(final FrameDecoder decoder, final long nowNanos)
    {
        final EngineRoutes.CollectorRoutes collector = collector(decoder);
        final var column = decoder.sketchColumn();
        final SketchMergeHandler handler = null == collector ? null : collector.sketches.get(column.sketchId());
        if (null == handler)
        {
            return dropped(EngineCounter.DROP_NO_ROUTE);
        }
        // Sketch WRITEs are always essential (the merged column is the only copy); the report's own flag is moot.
        final int outcome = handler.onColumn(column, nowNanos);
        if (SketchMergeHandler.MERGED == outcome)
        {
            return true;
        }
        if (SketchMergeHandler.NACK == outcome)
        {
            // The handler keeps the addressing to NACK the switch again from its timer if the gap stays open.
            final long mac = decoder.ethernet().srcMac();
            final int ip = decoder.ipv4().src();
            final int tagCount = decoder.vlanTagCount();
            final long tags = ReporterNackSender.vlanTags(decoder);
            nackSender.sendSketchNack(mac, ip, tagCount, tags, column.sketchId(), column.switchId(), column.epoch(),
                handler.nackColumn(), nowNanos);
            handler.armNackRetry(mac, ip, tagCount, tags, nowNanos);
            return false;
        }
        if (SketchMergeHandler.MERGED_FIRST == outcome)
        {
            // Once per switch and epoch: the addressing to NACK the switch if it stops short of its last column.
            handler.watchTail(decoder.ethernet().srcMac(), decoder.ipv4().src(), decoder.vlanTagCount(),
                ReporterNackSender.vlanTags(decoder), nowNanos);
            return true;
        }
        return false;
    }
}
