package io.dta.appliance.engine;

import io.dta.appliance.engine.worker.HandOffBatches;
import io.dta.appliance.engine.worker.HandOffQueues;
import io.dta.appliance.engine.worker.WorkerLink;
import io.dta.appliance.engine.worker.WorkerOwnership;
import io.dta.codec.DtaOpcode;
import io.dta.codec.FrameDecoder;
import org.agrona.concurrent.MessageHandler;

/**
 * An engine's place among several workers: hands a report or response whose list, flow, sketch or QP another worker
 * owns to that worker, and takes what the others handed to this one. An engine that works alone has no link, and
 * hands nothing off.
 * <p>
 * Append entries and postcards cross as records of their fields, in batches (the owner need not decode them
 * again); a sketch column and a response cross as their whole frame, which is why the frame being decoded is kept
 * here ({@link #frame}).
 */
final class WorkerHandOffs
{
    private final FrameDecoder decoder;
    private final EngineCounters counters;
    private MessageHandler taker;
    private WorkerLink worker;
    private HandOffBatches batches;
    private long takeNanos;

    /**
     * @param decoder  the engine's decoder (the report or response just decoded).
     * @param counters where to count hand-offs and full queues.
     */
    WorkerHandOffs(final FrameDecoder decoder, final EngineCounters counters)
    {
        this.decoder = decoder;
        this.counters = counters;
    }

    /**
     * @param taker takes what other workers handed to this one ({@link HandOffTaker}).
     */
    void takeWith(final MessageHandler taker)
    {
        this.taker = taker;
    }

    void join(final WorkerLink link)
    {
        this.worker = link;
        this.batches = new HandOffBatches(link.ownership().workers());
    }

    WorkerLink worker()
    {
        return worker;
    }

    /**
     * @return whether this engine is one of several workers.
     */
    boolean joined()
    {
        return null != worker;
    }

    /**
     * Sends the batches of records that wait, then takes what the others handed to this one (at most a burst from
     * each), as if they had arrived here at {@code nowNanos}.
     *
     * @param nowNanos engine clock ({@link #takeNanos()} while the taker runs).
     * @return frames taken.
     */
    int take(final long nowNanos)
    {
        if (null == worker)
        {
            return 0;
        }
        takeNanos = nowNanos;
        flushBatches();
        return worker.drain(taker);
    }

    /**
     * @return the engine clock of the {@link #take} under way.
     */
    long takeNanos()
    {
        return takeNanos;
    }

    /**
     * @return whether nothing waits to be taken or sent.
     */
    boolean idle()
    {
        return null == worker || worker.inboxEmpty() && batches.isEmpty();
    }

    private void flushBatches()
    {
        if (batches.isEmpty())
        {
            return;
        }
        for (int owner = 0; owner < worker.ownership().workers(); owner++)
        {
            countBatch(batches.flush(worker, owner));
        }
    }

    private void countBatch(final int written)
    {
        if (written > 0)
        {
            counters.add(EngineCounter.REPORTS_HANDED_OFF, written);
        }
        else if (written < 0)
        {
            counters.add(EngineCounter.DROP_HAND_OFF_FULL, -written);
        }
    }

    /**
     * Hands the report just decoded to the worker that owns its list, flow or sketch, when that is another: an Append
     * entry or a postcard as a record of its fields ({@link HandOffQueues#APPEND}, {@link HandOffQueues#POSTCARD}), a
     * sketch column as its whole frame (a NACK to its switch needs the frame's addressing). Only when
     * {@link #joined()}.
     *
     * @return true when it is another's (handed off, or dropped because the queue to it is full).
     */
    boolean handedOff(final int opcode, final boolean essential)
    {
        final WorkerOwnership owners = worker.ownership();
        final int self = worker.index();
        final int owner;
        final boolean full;
        switch (opcode)
        {
            case DtaOpcode.APPEND ->
            {
                final var ap = decoder.append();
                owner = owners.ownerOfList((int)ap.listId());
                full = owner != self && batches.add(owner, HandOffQueues.APPEND, (int)ap.listId(),
                    (int)ap.data(), 0, 0, essential);
            }
            case DtaOpcode.POSTCARD ->
            {
                final var pc = decoder.postcard();
                owner = owners.ownerOfFlow((int)pc.key());
                full = owner != self && batches.add(owner, HandOffQueues.POSTCARD, (int)pc.key(),
                    (int)pc.data(), pc.hop(), decoder.ipv4().dst(), essential);
            }
            case DtaOpcode.SKETCH_MERGE ->
            {
                owner = owners.ownerOfSketch(decoder.sketchColumn().sketchId());
                if (owner != self)
                {
                    final boolean handed = worker.handOff(
                        owner, HandOffQueues.REPORT, decoder.buffer(), decoder.frameOffset(), decoder.frameLength());
                    counters.increment(handed ? EngineCounter.REPORTS_HANDED_OFF : EngineCounter.DROP_HAND_OFF_FULL);
                }
                return owner != self;
            }
            default ->
            {
                return false;
            }
        }
        if (full)
        {
            countBatch(batches.flush(worker, owner));
        }
        return owner != self;
    }

    /**
     * Hands the response just decoded to the worker whose QP it names, when that is another. Only when
     * {@link #joined()}.
     *
     * @return true when it is another's (handed off, or dropped because the queue to it is full).
     */
    boolean handedOffResponse(final int destQp)
    {
        final int owner = worker.ownership().ownerOfQpn(destQp);
        if (WorkerOwnership.NO_OWNER == owner || owner == worker.index())
        {
            return false;
        }
        counters.increment(worker.handOff(owner, HandOffQueues.RESPONSE, decoder.buffer(), decoder.frameOffset(),
            decoder.frameLength()) ?
            EngineCounter.RESPONSES_HANDED_OFF : EngineCounter.RESPONSE_DROP_HAND_OFF_FULL);
        return true;
    }
}
