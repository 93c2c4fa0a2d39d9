package io.dta.appliance.engine.worker;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The Append entries and postcards one worker is about to hand to each other worker, gathered into one
 * {@link HandOffQueues#RECORDS} message per owner (12 bytes an Append entry, 16 a postcard): written to the owner's queue when {@value #RECORDS_PER_BATCH}
 * are gathered or at the start of the worker's next duty cycle ({@link #flush(WorkerLink, int)}), so the owner's core
 * takes whole cache lines of records instead of pulling one line back and forth for every record, and the queue's
 * position moves once per batch. A batch keeps its records in the order they came. One worker's thread uses it.
 */
public final class HandOffBatches
{
    /** Records gathered for one owner before they are written at once. */
    public static final int RECORDS_PER_BATCH = 64;

    private final UnsafeBuffer[] batches;
    private final int[] counts;
    private final int[] bytes;
    private int pending;

    /**
     * @param workers how many workers there are.
     */
    public HandOffBatches(final int workers)
    {
        batches = new UnsafeBuffer[workers];
        counts = new int[workers];
        bytes = new int[workers];
        for (int w = 0; w < workers; w++)
        {
            batches[w] = new UnsafeBuffer(new byte[RECORDS_PER_BATCH * HandOffQueues.POSTCARD_RECORD_LENGTH]);
        }
    }

    /**
     * Gathers one record for an owner.
     *
     * @param owner     the owner.
     * @param kind      {@link HandOffQueues#APPEND} or {@link HandOffQueues#POSTCARD}.
     * @param id        the list id or the flow key.
     * @param data      the entry's or hop's data.
     * @param hop       a postcard's hop (0 for an Append entry).
     * @param collector a postcard's collector IPv4 address (0 for an Append entry).
     * @param essential the report's essential flag.
     * @return true when the owner's batch is full and must be flushed now.
     */
    public boolean add(
        final int owner,
        final int kind,
        final int id,
        final int data,
        final int hop,
        final int collector,
        final boolean essential)
    {
        final UnsafeBuffer batch = batches[owner];
        final int at = bytes[owner];
        batch.putByte(at + HandOffQueues.KIND_OFFSET, (byte)kind);
        batch.putByte(at + HandOffQueues.ESSENTIAL_OFFSET, (byte)(essential ? 1 : 0));
        batch.putShort(at + HandOffQueues.HOP_OFFSET, (short)hop);
        batch.putInt(at + HandOffQueues.ID_OFFSET, id);
        batch.putInt(at + HandOffQueues.DATA_OFFSET, data);
        if (HandOffQueues.POSTCARD == kind)
        {
            batch.putInt(at + HandOffQueues.COLLECTOR_OFFSET, collector);
        }
        bytes[owner] = at + HandOffQueues.recordLength(kind);
        pending++;
        return ++counts[owner] == RECORDS_PER_BATCH;
    }

    /**
     * Writes an owner's gathered records to its queue as one message.
     *
     * @param link  this worker's link.
     * @param owner the owner.
     * @return the records written, or minus the records dropped because the queue was full, or 0 when none waited.
     */
    public int flush(final WorkerLink link, final int owner)
    {
        final int n = counts[owner];
        if (0 == n)
        {
            return 0;
        }
        final int length = bytes[owner];
        counts[owner] = 0;
        bytes[owner] = 0;
        pending -= n;
        return link.handOff(owner, HandOffQueues.RECORDS, batches[owner], 0, length) ? n : -n;
    }

    /**
     * @return true when no record waits.
     */
    public boolean isEmpty()
    {
        return 0 == pending;
    }
}
