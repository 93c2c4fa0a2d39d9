package io.dta.appliance.state;

import io.dta.collector.layout.ListLayout;
import io.dta.config.FileErrors;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

import static io.dta.appliance.state.ResumeStateLayout.ADDRESS_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.BATCH_SIZE_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.COUNT_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.CREATED_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.CRC_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.ENTRY_LENGTH;
import static io.dta.appliance.state.ResumeStateLayout.ENTRY_LENGTH_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.LAYOUT_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.LAYOUT_REFERENCE;
import static io.dta.appliance.state.ResumeStateLayout.LAYOUT_SEQUENCED;
import static io.dta.appliance.state.ResumeStateLayout.LENGTH_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.LIST_ID_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.MAGIC;
import static io.dta.appliance.state.ResumeStateLayout.MAGIC_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.NO_PSN;
import static io.dta.appliance.state.ResumeStateLayout.POSITION_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.QP_COLLECTOR_IP_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.QP_COUNT_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.QP_ENTRY_LENGTH;
import static io.dta.appliance.state.ResumeStateLayout.QP_ENTRY_LENGTH_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.QP_LOCAL_QPN_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.QP_NAME_HASH_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.QP_NEXT_PSN_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.QP_REMOTE_QPN_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.QP_START_PSN_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.VERSION;
import static io.dta.appliance.state.ResumeStateLayout.VERSION_OFFSET;

/**
 * Writes the resume state file of a run: the plan's entries encoded in the current layout version, written next to
 * the old file and moved over it (so a crash during start leaves the old file or the new one, never a mix), then
 * mapped read-write for the run, under the run's lock.
 */
final class ResumeStateWriter
{
    private ResumeStateWriter()
    {
    }

    /**
     * @param previous  what {@link ResumeStateReader#read} found.
     * @param plan      what resumes ({@link ResumePlan#of}).
     * @param nowMillis creation time.
     * @return the file, mapped read-write.
     * @throws UncheckedIOException if the file cannot be written or mapped.
     */
    static ResumeStateFile create(final PreviousRun previous, final ResumePlan plan, final long nowMillis)
    {
        final Path path = previous.path();
        final UnsafeBuffer b = encode(plan, nowMillis);
        FileChannel lock = null;
        Path next = null;
        try
        {
            final Path parent = path.toAbsolutePath().getParent();
            if (null != parent)
            {
                Files.createDirectories(parent);
            }
            lock = WriterLiveness.lock(path);
            next = Files.createTempFile(path.toAbsolutePath().getParent(), path.getFileName() + ".", ".new");
            writeFully(next, b.byteArray());
            Files.move(next, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            next = null;
            final MappedByteBuffer mapped;
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, b.capacity());
            }
            final ResumeStateFile file = new ResumeStateFile(path, lock, mapped, plan);
            lock = null;
            return file;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(
                "cannot create list state file " + path + ": " + FileErrors.reason(path, ex), ex);
        }
        finally
        {
            deleteQuietly(next);
            CloseHelper.quietClose(lock);
        }
    }

    /**
     * @return the whole file: header, list entries at the plan's positions, QP entries with no PSN recorded yet.
     */
    static UnsafeBuffer encode(final ResumePlan plan, final long nowMillis)
    {
        final ListRegion[] regions = plan.regions();
        final StaticQp[] qps = plan.qps();
        final int count = regions.length;
        final int qpCount = qps.length;
        final UnsafeBuffer b = new UnsafeBuffer(new byte[ResumeStateLayout.fileLength(count, qpCount)]);
        for (int i = 0; i < count; i++)
        {
            final ListRegion region = regions[i];
            final int entry = ResumeStateLayout.listEntryOffset(i);
            b.putLong(entry + LIST_ID_OFFSET, region.listId(), ByteOrder.LITTLE_ENDIAN);
            b.putLong(entry + ADDRESS_OFFSET, region.address(), ByteOrder.LITTLE_ENDIAN);
            b.putLong(entry + LENGTH_OFFSET, region.length(), ByteOrder.LITTLE_ENDIAN);
            b.putInt(entry + LAYOUT_OFFSET, ListLayout.Kind.REFERENCE == region.kind() ? LAYOUT_REFERENCE :
                LAYOUT_SEQUENCED, ByteOrder.LITTLE_ENDIAN);
            b.putInt(entry + BATCH_SIZE_OFFSET, region.batchSize(), ByteOrder.LITTLE_ENDIAN);
            b.putLong(entry + POSITION_OFFSET, plan.position(i), ByteOrder.LITTLE_ENDIAN);
        }
        for (int i = 0; i < qpCount; i++)
        {
            final StaticQp qp = qps[i];
            final int entry = ResumeStateLayout.qpEntryOffset(count, i);
            b.putInt(entry + QP_LOCAL_QPN_OFFSET, qp.localQpn(), ByteOrder.LITTLE_ENDIAN);
            b.putInt(entry + QP_REMOTE_QPN_OFFSET, qp.remoteQpn(), ByteOrder.LITTLE_ENDIAN);
            b.putInt(entry + QP_COLLECTOR_IP_OFFSET, qp.collectorIp(), ByteOrder.LITTLE_ENDIAN);
            b.putInt(entry + QP_START_PSN_OFFSET, qp.startPsn(), ByteOrder.LITTLE_ENDIAN);
            b.putInt(entry + QP_NAME_HASH_OFFSET, qp.nameHash(), ByteOrder.LITTLE_ENDIAN);
            // Until a clean stop records where the QP stands, there is nothing to resume from.
            b.putInt(entry + QP_NEXT_PSN_OFFSET, NO_PSN, ByteOrder.LITTLE_ENDIAN);
        }
        b.putLong(MAGIC_OFFSET, MAGIC, ByteOrder.LITTLE_ENDIAN);
        b.putInt(VERSION_OFFSET, VERSION, ByteOrder.LITTLE_ENDIAN);
        b.putInt(ENTRY_LENGTH_OFFSET, ENTRY_LENGTH, ByteOrder.LITTLE_ENDIAN);
        b.putInt(COUNT_OFFSET, count, ByteOrder.LITTLE_ENDIAN);
        b.putInt(QP_COUNT_OFFSET, qpCount, ByteOrder.LITTLE_ENDIAN);
        b.putInt(QP_ENTRY_LENGTH_OFFSET, QP_ENTRY_LENGTH, ByteOrder.LITTLE_ENDIAN);
        b.putInt(CRC_OFFSET, ResumeStateLayout.crc(b, VERSION, count, qpCount), ByteOrder.LITTLE_ENDIAN);
        WriterLiveness.stampWriter(b);
        b.putLong(CREATED_OFFSET, nowMillis, ByteOrder.LITTLE_ENDIAN);
        return b;
    }

    private static void writeFully(final Path file, final byte[] bytes) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            final ByteBuffer content = ByteBuffer.wrap(bytes);
            while (content.hasRemaining())
            {
                channel.write(content);
            }
            channel.force(true);
        }
    }

    private static void deleteQuietly(final Path file)
    {
        // A leftover temporary file must not hide the outcome being reported.
        if (null != file)
        {
            IoUtil.delete(file.toFile(), true);
        }
    }
}
