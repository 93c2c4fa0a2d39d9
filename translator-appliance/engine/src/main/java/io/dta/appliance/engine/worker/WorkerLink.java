package io.dta.appliance.engine.worker;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.MessageHandler;

/**
 * One worker's place among {@code W}: its index, who owns what ({@link WorkerOwnership}) and the hand-off queues
 * ({@link HandOffQueues}) it sends to and drains. An engine joined to a link hands a report of a list, flow or sketch
 * it does not own, and a response to a QP it does not have, to the owner, and takes the frames handed to it in its
 * duty cycle. One worker's thread uses its link.
 */
public final class WorkerLink
{
    /** Frames taken from each other worker's ring in one drain: a burst, so a busy peer cannot starve the port. */
    public static final int DRAIN_LIMIT = 64;

    private final int index;
    private final WorkerOwnership ownership;
    private final HandOffQueues queues;

    /**
     * @param index     this worker's index, 0..W-1.
     * @param ownership who owns what.
     * @param queues    the queues between the workers.
     */
    public WorkerLink(final int index, final WorkerOwnership ownership, final HandOffQueues queues)
    {
        if (index < 0 || index >= ownership.workers() || queues.workers() != ownership.workers())
        {
            throw new IllegalArgumentException("worker " + index + " of " + ownership.workers() + " (queues for " +
                queues.workers() + ")");
        }
        this.index = index;
        this.ownership = ownership;
        this.queues = queues;
    }

    /**
     * @return this worker's index.
     */
    public int index()
    {
        return index;
    }

    /**
     * @return who owns what.
     */
    public WorkerOwnership ownership()
    {
        return ownership;
    }

    /**
     * Hands a frame to its owner.
     *
     * @param owner  the owner (not this worker).
     * @param kind   {@link HandOffQueues#REPORT} or {@link HandOffQueues#RESPONSE}.
     * @param buffer the frame's memory.
     * @param offset where it starts.
     * @param length its length.
     * @return false when the owner's queue from this worker is full.
     */
    public boolean handOff(
        final int owner, final int kind, final DirectBuffer buffer, final int offset, final int length)
    {
        return queues.offer(index, owner, kind, buffer, offset, length);
    }

    /**
     * Takes the frames handed to this worker.
     *
     * @param handler what takes each one.
     * @return frames taken.
     */
    public int drain(final MessageHandler handler)
    {
        return queues.drain(index, handler, DRAIN_LIMIT);
    }

    /**
     * @return true when no frame waits for this worker.
     */
    public boolean inboxEmpty()
    {
        return queues.isEmpty(index);
    }
}
