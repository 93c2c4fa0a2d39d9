package io.dta.collector.query.bench;

import io.dta.collector.layout.ListLayout;
import io.dta.collector.query.ListEntries;
import io.dta.collector.query.ListReader;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * One thread reading a full sequenced list (every record written, the ring half-way into its second lap) from
 * cursor 0 into a caller-owned {@link ListEntries}: a round is one read of the whole ring, counted in entries.
 */
public final class ListPollWorker implements TimedThreads.Worker
{
    private final ListReader reader;
    private final ListEntries entries;
    private long sum;

    /**
     * @param regionBytes the list region's size.
     * @param batchSize   entries per record (1, 2, 4, 8, 16).
     */
    public ListPollWorker(final int regionBytes, final int batchSize)
    {
        final ListLayout layout = new ListLayout(ListLayout.Kind.SEQUENCED, batchSize, regionBytes);
        final UnsafeBuffer region = new UnsafeBuffer(new byte[regionBytes]);
        final int records = layout.capacity();
        long sequence = 0;
        for (int r = 0; r < records + records / 2; r++)
        {
            sequence = ListLayout.nextSequence(sequence);
            final int offset = (int)layout.recordOffset(sequence);
            for (int i = 0; i < batchSize; i++)
            {
                region.putInt(offset + i * ListLayout.ENTRY_LENGTH, (int)(sequence * batchSize + i),
                    ByteOrder.LITTLE_ENDIAN);
            }
            region.putInt(offset + layout.countOffsetInRecord(), batchSize, ByteOrder.LITTLE_ENDIAN);
            region.putInt(offset + layout.sequenceOffsetInRecord(), (int)sequence, ByteOrder.LITTLE_ENDIAN);
        }
        this.reader = new ListReader(region, layout);
        this.entries = reader.newEntries();
    }

    @Override
    public long round()
    {
        reader.read(0, entries);
        sum += entries.entry(entries.count() - 1);
        return entries.count();
    }

    /**
     * @return the last entries read, summed (keeps them observable).
     */
    public long sum()
    {
        return sum;
    }
}
