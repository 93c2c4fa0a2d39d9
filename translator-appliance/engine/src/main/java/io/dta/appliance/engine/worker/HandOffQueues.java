package io.dta.appliance.engine.worker;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;

/**
 * The hand-off queues between {@code W} workers: one bounded single-producer single-consumer ring (Agrona's
 * {@link OneToOneRingBuffer}, lock-free, allocation-free) for every ordered pair of distinct workers, so each ring has
 * exactly one writer thread and one reader thread. A frame crosses whole, with its kind as the message type; a full
 * ring refuses it (the sender counts the drop). Frames from one worker to another keep their order, so a reporter's
 * reports, which RSS keeps on one worker, reach their owner in the order they were sent. Append entries and postcards
 * cross as records of their fields, gathered in batches ({@link #RECORDS}, {@link HandOffBatches}: the owner does not
 * decode the frame again); a sketch column or a response as its whole frame ({@link #REPORT}, {@link #RESPONSE}).
 */
public final class HandOffQueues
{
    /** Message type of a DTA report handed to the owner of its list, flow or sketch. */
    public static final int REPORT = 1;
    /** Message type of a collector's response handed to the owner of its QP. */
    public static final int RESPONSE = 2;
    /** Kind of an Append entry's record. */
    public static final int APPEND = 3;
    /** Kind of a postcard record. */
    public static final int POSTCARD = 4;
    /** Message type of a batch of Append and postcard records ({@link HandOffBatches}). */
    public static final int RECORDS = 5;

    /** Record offset of the record's kind, {@link #APPEND} or {@link #POSTCARD} (one byte). */
    public static final int KIND_OFFSET = 0;
    /** Record offset of the essential flag (one byte, 0 or 1). */
    public static final int ESSENTIAL_OFFSET = 1;
    /** Record offset of a postcard's hop (two bytes). */
    public static final int HOP_OFFSET = 2;
    /** Record offset of a list id or a flow key (int, native order). */
    public static final int ID_OFFSET = 4;
    /** Record offset of the entry's or hop's 32-bit data. */
    public static final int DATA_OFFSET = 8;
    /** Record offset of a postcard's collector (IPv4 destination of the report). */
    public static final int COLLECTOR_OFFSET = 12;
    /** Length of an {@link #APPEND} record: kind, flag, (no hop), list id, data. */
    public static final int APPEND_RECORD_LENGTH = 12;
    /** Length of a {@link #POSTCARD} record: kind, flag, hop, flow key, data, collector. */
    public static final int POSTCARD_RECORD_LENGTH = 16;

    /**
     * @param kind {@link #APPEND} or {@link #POSTCARD}.
     * @return the length of a record of that kind.
     */
    public static int recordLength(final int kind)
    {
        return APPEND == kind ? APPEND_RECORD_LENGTH : POSTCARD_RECORD_LENGTH;
    }

    private final int workers;
    private final OneToOneRingBuffer[] rings;

    /**
     * @param workers       how many workers, 1 or more.
     * @param capacityBytes data capacity of each ring, a power of two.
     */
    public HandOffQueues(final int workers, final int capacityBytes)
    {
        if (Integer.bitCount(capacityBytes) != 1)
        {
            throw new IllegalArgumentException("hand-off queue capacity must be a power of two: " + capacityBytes);
        }
        this.workers = workers;
        this.rings = new OneToOneRingBuffer[workers * workers];
        for (int from = 0; from < workers; from++)
        {
            for (int to = 0; to < workers; to++)
            {
                if (from != to)
                {
                    rings[from * workers + to] = new OneToOneRingBuffer(new UnsafeBuffer(ByteBuffer.allocateDirect(
                        capacityBytes + RingBufferDescriptor.TRAILER_LENGTH)));
                }
            }
        }
    }

    /**
     * @return how many workers the queues join.
     */
    public int workers()
    {
        return workers;
    }

    /**
     * Puts a frame on the ring from one worker to another; called by {@code from}'s thread only.
     *
     * @param from   the sending worker.
     * @param to     the owner (not {@code from}).
     * @param kind   {@link #REPORT} or {@link #RESPONSE}.
     * @param buffer the frame's memory.
     * @param offset where it starts.
     * @param length its length.
     * @return false when the ring is full (nothing written).
     */
    public boolean offer(
        final int from, final int to, final int kind, final DirectBuffer buffer, final int offset, final int length)
    {
        return rings[from * workers + to].write(kind, buffer, offset, length);
    }

    /**
     * Takes the frames waiting for one worker, from every other worker's ring in turn; called by {@code to}'s thread
     * only.
     *
     * @param to      the receiving worker.
     * @param handler what takes each frame (its message type is the kind).
     * @param limit   the most frames to take from each ring.
     * @return frames taken.
     */
    public int drain(final int to, final org.agrona.concurrent.MessageHandler handler, final int limit)
    {
        int taken = 0;
        for (int from = 0; from < workers; from++)
        {
            if (from != to)
            {
                taken += rings[from * workers + to].read(handler, limit);
            }
        }
        return taken;
    }

    /**
     * @param to the receiving worker.
     * @return true when nothing waits for it.
     */
    public boolean isEmpty(final int to)
    {
        for (int from = 0; from < workers; from++)
        {
            if (from != to && rings[from * workers + to].size() > 0)
            {
                return false;
            }
        }
        return true;
    }
}
