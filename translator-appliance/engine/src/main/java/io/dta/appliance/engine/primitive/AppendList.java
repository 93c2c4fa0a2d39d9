package io.dta.appliance.engine.primitive;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.appliance.state.ResumeStateFile;
import io.dta.collector.layout.ListLayout;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One Append list (translation.md §3): entries gathered into batches of B, each entry stored little-endian,
 * one RDMA WRITE per batch, a partial batch flushed after {@code idleFlushNanos} without new entries and at
 * shutdown. Where a batch lands is {@link ListLayout}'s business; a batch the QP refuses (grace period) does
 * not move the head or consume a sequence number, so it leaves no hole. The batch WRITE carries its entries'
 * reports, so a refused batch counts each of its entries as a dropped report.
 * <p>
 * Its position (the next batch sequence number, or the reference ring's next head slot) can start where a previous
 * run stopped and is stored, once per batch, into a position word ({@link ResumeStateFile}): after the number or slot
 * is taken and before the batch's WRITE is handed to the QP, so a recorded position is never behind a batch that
 * reached the collector.
 */
public final class AppendList
{
    private final int listId;
    private final QueuePairSender sender;
    private final EngineCounters counters;
    private final ListLayout layout;
    private final long baseAddress;
    private final long idleFlushNanos;
    private final int batchSize;
    private final UnsafeBuffer batch;
    private int count;
    private boolean essential;
    private long lastEntryNanos;
    private final AtomicBuffer positions;
    private final int positionOffset;
    private int head;
    private long sequence = 1;

    /**
     * @param listId         the list id reports carry.
     * @param sender         the list's QP.
     * @param counters       engine counters.
     * @param layout         the list's layout.
     * @param baseAddress    region address.
     * @param idleFlushNanos idle time after which a partial batch goes out.
     */
    public AppendList(
        final int listId,
        final QueuePairSender sender,
        final EngineCounters counters,
        final ListLayout layout,
        final long baseAddress,
        final long idleFlushNanos)
    {
        this(listId, sender, counters, layout, baseAddress, idleFlushNanos,
            new UnsafeBuffer(new byte[Long.BYTES]), 0, ListLayout.Kind.SEQUENCED == layout.kind() ? 1 : 0);
    }

    /**
     * A list whose position is kept in a position word, for example a {@link ResumeStateFile} entry.
     *
     * @param listId         the list id reports carry.
     * @param sender         the list's QP.
     * @param counters       engine counters.
     * @param layout         the list's layout.
     * @param baseAddress    region address.
     * @param idleFlushNanos idle time after which a partial batch goes out.
     * @param positions      where the position word is.
     * @param positionOffset offset of the 8-byte position word in {@code positions}.
     * @param startPosition  the first batch's sequence number (sequenced) or head slot (reference).
     * @throws IllegalArgumentException when no engine could have reached {@code startPosition} in this layout.
     */
    public AppendList(
        final int listId,
        final QueuePairSender sender,
        final EngineCounters counters,
        final ListLayout layout,
        final long baseAddress,
        final long idleFlushNanos,
        final AtomicBuffer positions,
        final int positionOffset,
        final long startPosition)
    {
        if (!ResumeStateFile.validPosition(layout, startPosition))
        {
            throw new IllegalArgumentException("list " + listId + ": impossible start position " + startPosition);
        }
        this.positions = positions;
        this.positionOffset = positionOffset;
        if (ListLayout.Kind.SEQUENCED == layout.kind())
        {
            sequence = startPosition;
        }
        else
        {
            head = (int)startPosition;
        }
        this.listId = listId;
        this.sender = sender;
        this.counters = counters;
        this.layout = layout;
        this.baseAddress = baseAddress;
        this.idleFlushNanos = idleFlushNanos;
        this.batchSize = layout.batchSize();
        this.batch = new UnsafeBuffer(ByteBuffer.allocateDirect(ListLayout.recordLength(batchSize)));
    }

    /**
     * @return the list id.
     */
    public int listId()
    {
        return listId;
    }

    /**
     * @return the next batch's sequence number (sequenced) or head slot (reference): what the position word holds.
     */
    public long position()
    {
        return ListLayout.Kind.SEQUENCED == layout.kind() ? sequence : head;
    }

    /**
     * @return entries waiting in the current batch.
     */
    public int pending()
    {
        return count;
    }

    /**
     * Adds one entry, sending the batch when it is full.
     *
     * @param data           the entry as read from the wire (big-endian).
     * @param essentialEntry essential flag of the report.
     * @param nowNanos       engine clock.
     */
    public void onEntry(final int data, final boolean essentialEntry, final long nowNanos)
    {
        batch.putInt(count * ListLayout.ENTRY_LENGTH, data, ByteOrder.LITTLE_ENDIAN);
        count++;
        essential |= essentialEntry;
        lastEntryNanos = nowNanos;
        counters.increment(EngineCounter.APPEND_ENTRIES);
        if (count == batchSize)
        {
            flush(nowNanos);
        }
    }

    /**
     * When {@link #poll(long)} will next have work: the idle flush of the partial batch.
     *
     * @param limitNanos returned when no timer is due earlier.
     * @return the partial batch's idle flush time if it is before {@code limitNanos}, else {@code limitNanos}.
     */
    public long nextTimerNanos(final long limitNanos)
    {
        final long due = lastEntryNanos + idleFlushNanos;
        return count > 0 && due - limitNanos < 0 ? due : limitNanos;
    }

    /**
     * Sends a partial batch that has been idle long enough.
     *
     * @param nowNanos engine clock.
     * @return 1 when a batch went out.
     */
    public int poll(final long nowNanos)
    {
        if (count > 0 && nowNanos - lastEntryNanos >= idleFlushNanos)
        {
            counters.increment(EngineCounter.APPEND_PARTIAL_FLUSHES);
            flush(nowNanos);
            return 1;
        }
        return 0;
    }

    /**
     * Sends the current batch, full or not.
     *
     * @param nowNanos engine clock.
     */
    public void flush(final long nowNanos)
    {
        if (0 == count)
        {
            return;
        }
        final int entries = count;
        final boolean batchEssential = essential;
        count = 0;
        essential = false;
        if (!sender.admit(batchEssential, entries, nowNanos))
        {
            return;
        }
        if (ListLayout.Kind.REFERENCE == layout.kind())
        {
            final int slot = layout.referenceWriteSlot(head, entries);
            head = layout.referenceNextHead(slot, entries);
            ResumeStateFile.storePosition(positions, positionOffset, head);
            sender.write(baseAddress + (long)slot * ListLayout.ENTRY_LENGTH, batch, 0,
                entries * ListLayout.ENTRY_LENGTH, batchEssential, entries, nowNanos);
        }
        else
        {
            for (int i = entries; i < batchSize; i++)
            {
                batch.putInt(i * ListLayout.ENTRY_LENGTH, 0);
            }
            batch.putInt(layout.countOffsetInRecord(), entries, ByteOrder.LITTLE_ENDIAN);
            batch.putInt(layout.sequenceOffsetInRecord(), (int)sequence, ByteOrder.LITTLE_ENDIAN);
            final long address = baseAddress + layout.recordOffset(sequence);
            sequence = ListLayout.nextSequence(sequence);
            ResumeStateFile.storePosition(positions, positionOffset, sequence);
            sender.write(address, batch, 0, ListLayout.recordLength(batchSize), batchEssential, entries, nowNanos);
        }
    }
}
