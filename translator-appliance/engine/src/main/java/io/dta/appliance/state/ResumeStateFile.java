package io.dta.appliance.state;

import io.dta.collector.layout.ListLayout;
import io.dta.config.ApplianceConfig;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a run of {@code dta run} stands, kept in a small memory-mapped file (the list state file) so that a restarted
 * translator continues where the previous run stopped: every Append list's batch numbering (and ring position)
 * instead of starting from batch 1 again, and every static QP's PSN (docs/layouts.md, "Append lists"). The engine
 * stores a list's next position into the mapped file each time it commits a batch for sending, before the batch's
 * WRITE reaches the sink; at start the appliance reads the file back and resumes every list whose region is
 * unchanged.
 * <p>
 * The layout is {@link ResumeStateLayout}'s. A file is never rewritten in place: {@link #create} writes a new file
 * next to it and moves it over the old one ({@link ResumeStateWriter}), so a crash during start leaves the old file
 * or the new one, never a mix. {@link #read} ({@link ResumeStateReader}) refuses a file a running translator still
 * writes ({@link WriterLiveness}) and one no translator could have written.
 * <p>
 * QP PSNs (static regions only; a negotiated region's PSNs are negotiated at connection set-up): the engine records
 * each QP's next PSN just before the file is closed ({@link #recordNextPsn}); the next run resumes a QP from it only
 * when the file was closed (a clean stop) and the QP is unchanged (key path, local QPN, collector QPN and IP,
 * configured startPsn). Otherwise the QP starts at its configured startPsn and the collector's first ACK
 * resynchronises it, as before. A version 1 file (lists only) is still read: its lists resume, its QPs start at
 * their configured startPsn.
 */
public final class ResumeStateFile implements AutoCloseable
{
    /** What to tell the operator about every refusal that is not a live owner. */
    public static final String WAY_OUT = "start with --fresh-lists to start every list from batch 1 again (and " +
        "restart list readers from cursor 0), or delete the file";

    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final Path path;
    private final FileChannel lock;
    private final MappedByteBuffer mapped;
    private final AtomicBuffer buffer;
    private final ListRegion[] regions;
    private final boolean[] resumed;
    private final List<String> notes;
    private final StaticQp[] qps;
    private final int[] startPsns;
    private final boolean[] psnResumed;
    private boolean closed;

    ResumeStateFile(final Path path, final FileChannel lock, final MappedByteBuffer mapped, final ResumePlan plan)
    {
        this.path = path;
        this.lock = lock;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
        this.regions = plan.regions();
        this.resumed = plan.resumed();
        this.notes = plan.notes();
        this.qps = plan.qps();
        this.startPsns = plan.startPsns();
        this.psnResumed = plan.psnResumed();
    }

    /**
     * The default location: next to the counters file, with its {@code .counters} suffix replaced by {@code .lists}
     * ({@code /dev/shm/dta/translator.lists} by default, which survives a restart of the process but not of the
     * host).
     *
     * @param countersFile the counters file of the run.
     * @return the path.
     */
    public static Path defaultPath(final Path countersFile)
    {
        final String name = countersFile.getFileName().toString();
        final String base = name.endsWith(".counters") ? name.substring(0, name.length() - ".counters".length()) :
            name;
        return countersFile.resolveSibling(base + ".lists");
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
    public static PreviousRun read(final Path path, final boolean fresh)
    {
        return ResumeStateReader.read(path, fresh);
    }

    /**
     * Creates the state file of a run: one entry per list, each at its recorded position when the previous run
     * recorded the list with the same region, else at its initial position. The new file replaces the old one
     * atomically (written next to it, then moved).
     *
     * @param previous  what {@link #read} found.
     * @param lists     the run's lists ({@link ListRegion#allOf(ApplianceConfig)}).
     * @param nowMillis creation time.
     * @return the file, mapped read-write, with {@link #notes()} saying what was resumed and what starts fresh.
     * @throws UncheckedIOException if the file cannot be written or mapped.
     */
    public static ResumeStateFile create(final PreviousRun previous, final List<ListRegion> lists, final long nowMillis)
    {
        return create(previous, lists, List.of(), nowMillis);
    }

    /**
     * Creates the state file of a run that also records its static QPs' PSNs: as
     * {@link #create(PreviousRun, List, long)}, and every QP the previous run recorded unchanged, with a next PSN, in
     * a file it closed (a clean stop) starts at that PSN ({@link #startPsn(int)}); any other QP at its configured
     * start PSN.
     *
     * @param previous  what {@link #read} found.
     * @param lists     the run's lists ({@link ListRegion#allOf(ApplianceConfig)}).
     * @param qps       the run's static QPs ({@link StaticQp#allOf(ApplianceConfig)}).
     * @param nowMillis creation time.
     * @return the file, mapped read-write, with {@link #notes()} saying what was resumed and what starts fresh.
     * @throws UncheckedIOException if the file cannot be written or mapped.
     */
    public static ResumeStateFile create(
        final PreviousRun previous, final List<ListRegion> lists, final List<StaticQp> qps, final long nowMillis)
    {
        return ResumeStateWriter.create(previous, ResumePlan.of(previous, lists, qps), nowMillis);
    }

    /**
     * @param layout   a list's layout.
     * @param position a recorded position.
     * @return whether an engine could have recorded it: a sequence from 1 whose low 32 bits are not 0, or a head
     * slot within the ring (at its end when the last batch filled it).
     */
    public static boolean validPosition(final ListLayout layout, final long position)
    {
        return ListLayout.Kind.SEQUENCED == layout.kind() ? position >= 1 && 0 != (int)position :
            position >= 0 && position <= layout.capacity();
    }

    /**
     * Stores a list's position: one release-ordered 8-byte store, no allocation. The engine calls it once per
     * batch, before the batch's WRITE is handed to the sink.
     *
     * @param buffer   the mapped file ({@link #buffer()}) or any buffer standing in for it.
     * @param offset   the list's position offset ({@link #positionOffset(int)}).
     * @param position the next batch sequence number (sequenced) or head slot (reference).
     */
    public static void storePosition(final AtomicBuffer buffer, final int offset, final long position)
    {
        buffer.putLongRelease(offset, NATIVE_LITTLE_ENDIAN ? position : Long.reverseBytes(position));
    }

    /**
     * @return the file's path.
     */
    public Path path()
    {
        return path;
    }

    /**
     * @return the mapped file.
     */
    public AtomicBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return the lists, in configuration order.
     */
    public int listCount()
    {
        return regions.length;
    }

    /**
     * @param listId a list id.
     * @return its entry index, or -1.
     */
    public int indexOf(final long listId)
    {
        for (int i = 0; i < regions.length; i++)
        {
            if (regions[i].listId() == listId)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param index entry index.
     * @return the region the entry is for.
     */
    public ListRegion region(final int index)
    {
        return regions[index];
    }

    /**
     * @param index entry index.
     * @return whether the list resumed a recorded position.
     */
    public boolean resumed(final int index)
    {
        return resumed[index];
    }

    /**
     * @param index entry index.
     * @return the offset of the list's position in {@link #buffer()}.
     */
    public int positionOffset(final int index)
    {
        return ResumeStateLayout.positionOffset(index);
    }

    /**
     * @param index entry index.
     * @return the list's position now (acquire load).
     */
    public long position(final int index)
    {
        final long raw = buffer.getLongVolatile(positionOffset(index));
        return NATIVE_LITTLE_ENDIAN ? raw : Long.reverseBytes(raw);
    }

    /**
     * @return the static QPs this file records, in configuration order.
     */
    public int qpCount()
    {
        return qps.length;
    }

    /**
     * @param localQpn the appliance's QPN.
     * @return its QP entry index, or -1 (a negotiated region's QP, or one this file was not created for).
     */
    public int qpIndexOf(final int localQpn)
    {
        for (int i = 0; i < qps.length; i++)
        {
            if (qps[i].localQpn() == localQpn)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param index QP entry index.
     * @return the QP the entry is for.
     */
    public StaticQp qp(final int index)
    {
        return qps[index];
    }

    /**
     * @param index QP entry index.
     * @return the PSN the QP starts at: the recorded next PSN when {@link #psnResumed(int)}, else the configured one.
     */
    public int startPsn(final int index)
    {
        return startPsns[index];
    }

    /**
     * @param index QP entry index.
     * @return whether the QP resumes the PSN the previous run recorded at its clean stop.
     */
    public boolean psnResumed(final int index)
    {
        return psnResumed[index];
    }

    /**
     * Records the PSN a static QP sends next, for the next run. Called once per QP at a clean stop, just before
     * {@link #close()} (nothing per frame); a QP this file has no entry for (a negotiated region's) is ignored.
     *
     * @param localQpn the appliance's QPN.
     * @param nextPsn  the PSN the QP would send next (24 bits).
     */
    public void recordNextPsn(final int localQpn, final int nextPsn)
    {
        final int index = qpIndexOf(localQpn);
        if (closed || index < 0)
        {
            return;
        }
        buffer.putInt(ResumeStateLayout.qpEntryOffset(regions.length, index) + ResumeStateLayout.QP_NEXT_PSN_OFFSET,
            nextPsn & ResumeStateLayout.PSN_MASK, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @return what the start did, one line each: a summary, then every list that starts from batch 1 although the
     * previous run recorded positions, and every recorded list no longer configured.
     */
    public List<String> notes()
    {
        return notes;
    }

    /**
     * Marks the file closed (its writer stopped; the positions, and the PSNs {@link #recordNextPsn} stored, stay for
     * the next run), writes it back and unmaps it. The closed mark is stored after the PSNs (release), so a file
     * marked closed holds the PSNs of that stop.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        final long now = System.currentTimeMillis();
        buffer.putLongRelease(ResumeStateLayout.CLOSED_OFFSET, NATIVE_LITTLE_ENDIAN ? now : Long.reverseBytes(now));
        mapped.force();
        IoUtil.unmap(mapped);
        CloseHelper.quietClose(lock);
    }
}
