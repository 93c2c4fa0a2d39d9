package io.dta.appliance.engine;

import io.dta.appliance.engine.worker.HandOffQueues;
import io.dta.codec.DtaBaseHeaderFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;

/**
 * Takes what other workers handed to this one, as if it had arrived here, without counting it in again or tracking
 * its reporter (the receiving worker did both): records of Append entries and postcards go straight to their list
 * or postcard cache, a sketch column's frame to its primitive, a response's frame to its QP.
 */
final class HandOffTaker implements MessageHandler
{
    private final FrameDecoder decoder;
    private final EngineCounters counters;
    private final WorkerHandOffs handOffs;
    private final PrimitiveRouter router;
    private final ResponseDispatch responses;

    HandOffTaker(
        final FrameDecoder decoder,
        final EngineCounters counters,
        final WorkerHandOffs handOffs,
        final PrimitiveRouter router,
        final ResponseDispatch responses)
    {
        this.decoder = decoder;
        this.counters = counters;
        this.handOffs = handOffs;
        this.router = router;
        this.responses = responses;
    }

    @Override
    public void onMessage(final int kind, final MutableDirectBuffer buffer, final int offset, final int length)
    {
        final long nowNanos = handOffs.takeNanos();
        if (HandOffQueues.RECORDS == kind)
        {
            int at = offset;
            while (at < offset + length)
            {
                final int recordKind = buffer.getByte(at + HandOffQueues.KIND_OFFSET);
                counters.increment(EngineCounter.REPORTS_TAKEN_OVER);
                if (router.takenOver(recordKind, buffer, at, nowNanos))
                {
                    counters.increment(EngineCounter.REPORTS_TRANSLATED);
                }
                at += HandOffQueues.recordLength(recordKind);
            }
            return;
        }
        final FrameKind decoded = decoder.decode(buffer, offset, length);
        if (HandOffQueues.REPORT == kind && FrameKind.DTA == decoded)
        {
            counters.increment(EngineCounter.REPORTS_TAKEN_OVER);
            final int flags = decoder.dtaBase().flags();
            final boolean essential = decoder.dtaBase().hasSeqnum() &&
                0 != (flags & DtaBaseHeaderFlyweight.FLAG_ESSENTIAL);
            router.translate(decoder, decoder.dtaOpcode(), essential, nowNanos);
        }
        else if (HandOffQueues.RESPONSE == kind && FrameKind.ROCE == decoded)
        {
            responses.onResponse(nowNanos);
        }
    }
}
