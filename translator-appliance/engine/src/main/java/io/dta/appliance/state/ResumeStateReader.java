package io.dta.appliance.state;

import io.dta.collector.layout.ListLayout;
import io.dta.config.FileErrors;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.dta.appliance.state.ResumeStateLayout.ADDRESS_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.BATCH_SIZE_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.CLOSED_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.COUNT_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.CRC_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.ENTRY_LENGTH;
import static io.dta.appliance.state.ResumeStateLayout.ENTRY_LENGTH_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.HEADER_LENGTH;
import static io.dta.appliance.state.ResumeStateLayout.LAYOUT_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.LAYOUT_REFERENCE;
import static io.dta.appliance.state.ResumeStateLayout.LAYOUT_SEQUENCED;
import static io.dta.appliance.state.ResumeStateLayout.LENGTH_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.LIST_ID_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.MAGIC;
import static io.dta.appliance.state.ResumeStateLayout.MAGIC_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.NO_PSN;
import static io.dta.appliance.state.ResumeStateLayout.POSITION_OFFSET;
import static io.dta.appliance.state.ResumeStateLayout.PSN_MASK;
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
import static io.dta.appliance.state.ResumeStateLayout.VERSION_LISTS_ONLY;
import static io.dta.appliance.state.ResumeStateLayout.VERSION_OFFSET;

/**
 * Reads what a previous run left in a resume state file, refusing a file that a running translator still writes and
 * one whose bytes no translator could have written (another version, truncated, a bad checksum, an impossible
 * position or PSN, an entry recorded twice).
 */
final class ResumeStateReader
{
    private ResumeStateReader()
    {
    }

    /**
     * Reads what a previous run recorded. A missing file is nothing to resume; a file of another version, a
     * truncated or corrupt one, and one a running translator still writes are refused.
     *
     * @param path  the state file.
     * @param fresh true ({@code --fresh-lists}) to ignore what the file holds; a live writer is still refused.
     * @return what to resume from.
     * @throws IllegalStateException with a message naming the file and what is wrong.
     * @throws UncheckedIOException  when the file exists but cannot be read.
     */
    static PreviousRun read(final Path path, final boolean fresh)
    {
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(path);
        }
        catch (final NoSuchFileException ex)
        {
            return new PreviousRun(path, null, "no list state file " + path + " yet" + ResumePlan.EVERY_LIST_FRESH);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(
                "cannot read list state file " + path + ": " + FileErrors.reason(path, ex), ex);
        }
        final UnsafeBuffer b = new UnsafeBuffer(bytes);
        final boolean header =
            bytes.length >= HEADER_LENGTH && MAGIC == b.getLong(MAGIC_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (header)
        {
            WriterLiveness.refuseLiveWriter(path, b);
        }
        // Released at once: create() takes it for the run. This only refuses early, before the EAL starts.
        try (FileChannel probe = WriterLiveness.lock(path))
        {
            // Nothing to do: free.
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(
                "cannot lock list state file " + path + ": " + FileErrors.reason(path, ex), ex);
        }
        if (fresh)
        {
            return new PreviousRun(path, null, "--fresh-lists" + ResumePlan.EVERY_LIST_FRESH +
                " (list state file " + path + " replaced)");
        }
        if (header)
        {
            WriterLiveness.refuseWriterOfAnEarlierBoot(path, b, WriterLiveness.bootMillis());
        }
        return parse(path, b, bytes.length);
    }

    /**
     * @param path the file.
     * @param what what is wrong with it.
     * @return the refusal, with the way out.
     */
    static IllegalStateException refusal(final Path path, final String what)
    {
        return new IllegalStateException("list state file " + path + " " + what + "; " + ResumeStateFile.WAY_OUT);
    }

    private static PreviousRun parse(final Path path, final DirectBuffer b, final int fileLength)
    {
        final int version = checkHeader(path, b, fileLength);
        final int entryLength = b.getInt(ENTRY_LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final int count = b.getInt(COUNT_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (ENTRY_LENGTH != entryLength || count < 0 || count > (Integer.MAX_VALUE - HEADER_LENGTH) / ENTRY_LENGTH)
        {
            throw refusal(path, "is corrupt: entry length " + entryLength + ", list count " + count);
        }
        final int qpCount = VERSION == version ? b.getInt(QP_COUNT_OFFSET, ByteOrder.LITTLE_ENDIAN) : 0;
        final int qpEntryLength = VERSION == version ? b.getInt(QP_ENTRY_LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN) :
            QP_ENTRY_LENGTH;
        if (QP_ENTRY_LENGTH != qpEntryLength || qpCount < 0 || qpCount > Integer.MAX_VALUE / QP_ENTRY_LENGTH)
        {
            throw refusal(path, "is corrupt: QP entry length " + qpEntryLength + ", QP count " + qpCount);
        }
        final long expected = HEADER_LENGTH + (long)count * ENTRY_LENGTH + (long)qpCount * QP_ENTRY_LENGTH;
        if (fileLength != expected)
        {
            throw refusal(path, (fileLength < expected ? "is truncated: " : "is corrupt: ") + fileLength +
                " bytes for " + count + " list(s) and " + qpCount + " QP(s), which take " + expected);
        }
        if (ResumeStateLayout.crc(b, version, count, qpCount) != b.getInt(CRC_OFFSET, ByteOrder.LITTLE_ENDIAN))
        {
            throw refusal(path, "is corrupt: its checksum does not match its contents");
        }
        return new PreviousRun(path, readLists(path, b, count), null, readQps(path, b, count, qpCount),
            0 != b.getLong(CLOSED_OFFSET, ByteOrder.LITTLE_ENDIAN));
    }

    /**
     * @return the file's layout version, once its length, magic and version are those of a file this dta reads.
     */
    private static int checkHeader(final Path path, final DirectBuffer b, final int fileLength)
    {
        if (fileLength < HEADER_LENGTH)
        {
            throw refusal(path, "is truncated: " + fileLength + " bytes, shorter than its " + HEADER_LENGTH +
                "-byte header");
        }
        final long magic = b.getLong(MAGIC_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (MAGIC != magic)
        {
            throw refusal(path, String.format("is not a list state file (magic 0x%016x)", magic));
        }
        final int version = b.getInt(VERSION_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (VERSION != version && VERSION_LISTS_ONLY != version)
        {
            throw refusal(path, "has layout version " + version + "; this dta reads versions " +
                VERSION_LISTS_ONLY + " and " + VERSION);
        }
        return version;
    }

    private static List<RecordedList> readLists(final Path path, final DirectBuffer b, final int count)
    {
        final List<RecordedList> lists = new ArrayList<>(count);
        final Set<Long> ids = new HashSet<>();
        for (int i = 0; i < count; i++)
        {
            final int entry = ResumeStateLayout.listEntryOffset(i);
            final long listId = b.getLong(entry + LIST_ID_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int layoutCode = b.getInt(entry + LAYOUT_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final ListLayout.Kind kind = LAYOUT_REFERENCE == layoutCode ? ListLayout.Kind.REFERENCE :
                LAYOUT_SEQUENCED == layoutCode ? ListLayout.Kind.SEQUENCED : null;
            if (null == kind)
            {
                throw refusal(path, "is corrupt: list " + listId + " has layout code " + layoutCode);
            }
            if (!ids.add(listId))
            {
                throw refusal(path, "is corrupt: list " + listId + " is recorded twice");
            }
            final ListRegion region = new ListRegion(listId, null,
                b.getLong(entry + ADDRESS_OFFSET, ByteOrder.LITTLE_ENDIAN),
                b.getLong(entry + LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN), kind,
                b.getInt(entry + BATCH_SIZE_OFFSET, ByteOrder.LITTLE_ENDIAN));
            final ListLayout layout;
            try
            {
                layout = region.layout();
            }
            catch (final IllegalArgumentException ex)
            {
                throw refusal(path, "is corrupt: list " + listId + ": " + ex.getMessage());
            }
            final long position = b.getLong(entry + POSITION_OFFSET, ByteOrder.LITTLE_ENDIAN);
            if (!ResumeStateFile.validPosition(layout, position))
            {
                throw refusal(path, "is corrupt: list " + listId + " has position " + position + ", impossible for " +
                    "its " + kind.name().toLowerCase() + " layout of " + layout.capacity() +
                    (ListLayout.Kind.SEQUENCED == kind ? " records" : " slots"));
            }
            lists.add(new RecordedList(region, position));
        }
        return lists;
    }

    private static List<RecordedQp> readQps(final Path path, final DirectBuffer b, final int count, final int qpCount)
    {
        final List<RecordedQp> qps = new ArrayList<>(qpCount);
        final Set<Integer> qpns = new HashSet<>();
        for (int i = 0; i < qpCount; i++)
        {
            final int entry = ResumeStateLayout.qpEntryOffset(count, i);
            final RecordedQp qp = new RecordedQp(
                b.getInt(entry + QP_NAME_HASH_OFFSET, ByteOrder.LITTLE_ENDIAN),
                b.getInt(entry + QP_LOCAL_QPN_OFFSET, ByteOrder.LITTLE_ENDIAN),
                b.getInt(entry + QP_REMOTE_QPN_OFFSET, ByteOrder.LITTLE_ENDIAN),
                b.getInt(entry + QP_COLLECTOR_IP_OFFSET, ByteOrder.LITTLE_ENDIAN),
                b.getInt(entry + QP_START_PSN_OFFSET, ByteOrder.LITTLE_ENDIAN),
                b.getInt(entry + QP_NEXT_PSN_OFFSET, ByteOrder.LITTLE_ENDIAN));
            if (!qpns.add(qp.localQpn()))
            {
                throw refusal(path, String.format("is corrupt: QP 0x%x is recorded twice", qp.localQpn()));
            }
            if (NO_PSN != qp.nextPsn() && (qp.nextPsn() & ~PSN_MASK) != 0)
            {
                throw refusal(path, String.format("is corrupt: QP 0x%x has next PSN 0x%x, more than 24 bits",
                    qp.localQpn(), qp.nextPsn()));
            }
            qps.add(qp);
        }
        return qps;
    }
}
