package io.dta.appliance.state;

import io.dta.collector.layout.ListLayout;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.FileErrors;
import io.dta.config.ListConfig;
import io.dta.config.RegionConfig;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * Where each Append list of {@code dta run} stands, kept in a small memory-mapped file so that a restarted translator
 * continues every list's batch numbering (and ring position) instead of starting from batch 1 again
 * (docs/layouts.md, "Append lists"). The engine stores a list's next position into the mapped file each time it
 * commits a batch for sending, before the batch's WRITE reaches the sink; at start the appliance reads the file back
 * and resumes every list whose region is unchanged.
 * <p>
 * Layout (little-endian, fixed offsets, as {@code CountersFile}): a {@value #HEADER_LENGTH}-byte header, then one
 * {@value #ENTRY_LENGTH}-byte entry per list, in configuration order, then (version 2) one
 * {@value #QP_ENTRY_LENGTH}-byte entry per static QP, in configuration order.
 * <pre>
 * header  0 magic u64 "DTALIST1"       entry  0 list id i64
 *         8 version i32                       8 region address i64
 *        12 entry length i32 (64)            16 region length i64
 *        16 list count i32                   24 layout i32 (1 reference, 2 sequenced)
 *        20 CRC-32 i32 (see below)           28 batch size i32
 *        24 writer pid i64                   32 position i64: sequenced, the next batch sequence number;
 *        32 writer process start (epoch ms)     reference, the next head slot (release-stored per batch)
 *        40 created (epoch ms)               40 reserved (a position per cache line)
 *        48 closed (epoch ms, 0 while the writer runs)
 *        56 QP count i32 (version 2)      QP entry  0 local QPN i32       4 collector QPN i32
 *        60 QP entry length i32 (32)               8 collector IP i32    12 configured startPsn i32
 *                                                 16 CRC-32 of the region's key path (UTF-8)   20 reserved
 *                                                 24 next PSN i32: -1 none, else the PSN the QP sends next
 *                                                    (stored only by {@link #close}: a clean stop)
 * </pre>
 * The CRC covers header bytes 0..19, every list entry's bytes 0..31, and (version 2) header bytes 56..63 and every
 * QP entry's bytes 0..23: everything but the positions, the PSNs and the writer fields, which change while the file
 * is in use. A file is never rewritten in place: {@link #create} writes a new file next to it and moves it over the
 * old one, so a crash during start leaves the old file or the new one, never a mix.
 * <p>
 * QP PSNs (static regions only; a negotiated region's PSNs are negotiated at connection set-up): the engine records
 * each QP's next PSN just before the file is closed ({@link #recordNextPsn}); the next run resumes a QP from it only
 * when the file was closed (a clean stop) and the QP is unchanged (key path, local QPN, collector QPN and IP,
 * configured startPsn). Otherwise the QP starts at its configured startPsn and the collector's first ACK
 * resynchronises it, as before. A version 1 file (lists only) is still read: its lists resume, its QPs start at
 * their configured startPsn.
 */
public final class ListStateFile implements AutoCloseable
{
    /** "DTALIST1" read as a little-endian long. */
    public static final long MAGIC = 0x315453494C415444L;
    /** Layout version: 2 adds the QP entries. */
    public static final int VERSION = 2;
    /** The earlier layout version, still read (lists only). */
    public static final int VERSION_LISTS_ONLY = 1;
    /** Header bytes before the first entry. */
    public static final int HEADER_LENGTH = 64;
    /** Bytes per list entry. */
    public static final int ENTRY_LENGTH = 64;
    /** Offset of the magic. */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the version. */
    public static final int VERSION_OFFSET = 8;
    /** Offset of the entry length. */
    public static final int ENTRY_LENGTH_OFFSET = 12;
    /** Offset of the list count. */
    public static final int COUNT_OFFSET = 16;
    /** Offset of the CRC-32. */
    public static final int CRC_OFFSET = 20;
    /** Offset of the writer's pid. */
    public static final int PID_OFFSET = 24;
    /** Offset of the writer's process start time. */
    public static final int PROCESS_START_OFFSET = 32;
    /** Offset of the creation time. */
    public static final int CREATED_OFFSET = 40;
    /** Offset of the closed time. */
    public static final int CLOSED_OFFSET = 48;
    /** Offset of the QP count (version 2). */
    public static final int QP_COUNT_OFFSET = 56;
    /** Offset of the QP entry length (version 2). */
    public static final int QP_ENTRY_LENGTH_OFFSET = 60;
    /** Bytes per QP entry. */
    public static final int QP_ENTRY_LENGTH = 32;
    /** Offset of the local QPN within a QP entry. */
    public static final int QP_LOCAL_QPN_OFFSET = 0;
    /** Offset of the collector QPN within a QP entry. */
    public static final int QP_REMOTE_QPN_OFFSET = 4;
    /** Offset of the collector IP within a QP entry. */
    public static final int QP_COLLECTOR_IP_OFFSET = 8;
    /** Offset of the configured start PSN within a QP entry. */
    public static final int QP_START_PSN_OFFSET = 12;
    /** Offset of the CRC-32 of the region's key path within a QP entry. */
    public static final int QP_NAME_HASH_OFFSET = 16;
    /** Offset of the next PSN within a QP entry. */
    public static final int QP_NEXT_PSN_OFFSET = 24;
    /** Bytes of a QP entry the CRC covers. */
    public static final int QP_ENTRY_STATIC_LENGTH = 24;
    /** Next PSN of a QP for which nothing was recorded. */
    public static final int NO_PSN = -1;
    /** The 24 bits of a PSN. */
    private static final int PSN_MASK = 0xFF_FFFF;
    /** Offset of the list id within an entry. */
    public static final int LIST_ID_OFFSET = 0;
    /** Offset of the region address within an entry. */
    public static final int ADDRESS_OFFSET = 8;
    /** Offset of the region length within an entry. */
    public static final int LENGTH_OFFSET = 16;
    /** Offset of the layout within an entry. */
    public static final int LAYOUT_OFFSET = 24;
    /** Offset of the batch size within an entry. */
    public static final int BATCH_SIZE_OFFSET = 28;
    /** Offset of the position within an entry. */
    public static final int POSITION_OFFSET = 32;
    /** Bytes of an entry the CRC covers. */
    public static final int ENTRY_STATIC_LENGTH = 32;
    /** Layout code of {@link ListLayout.Kind#REFERENCE}. */
    public static final int LAYOUT_REFERENCE = 1;
    /** Layout code of {@link ListLayout.Kind#SEQUENCED}. */
    public static final int LAYOUT_SEQUENCED = 2;

    /** What to tell the operator about every refusal that is not a live owner. */
    public static final String WAY_OUT = "start with --fresh-lists to start every list from batch 1 again (and " +
        "restart list readers from cursor 0), or delete the file";

    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /**
     * One list as the configuration places it: what must be unchanged for a recorded position to be resumed.
     *
     * @param listId    the list id.
     * @param name      the configuration key path (for messages; not recorded).
     * @param address   region base address.
     * @param length    region length in bytes.
     * @param kind      layout.
     * @param batchSize entries per batch.
     */
    public record Region(long listId, String name, long address, long length, ListLayout.Kind kind, int batchSize)
    {
        /**
         * @param other another region.
         * @return true when address, length, layout and batch size are the same (the name does not count).
         */
        public boolean sameAs(final Region other)
        {
            return address == other.address && length == other.length && kind == other.kind &&
                batchSize == other.batchSize;
        }

        /**
         * @return the list's layout.
         */
        public ListLayout layout()
        {
            return new ListLayout(kind, batchSize, length);
        }

        /**
         * @return the position of a list that never wrote a batch: sequence 1, or head slot 0.
         */
        public long initialPosition()
        {
            return ListLayout.Kind.SEQUENCED == kind ? 1 : 0;
        }

        /**
         * @param other the region recorded before.
         * @return what differs, e.g. {@code "address 0x10 (was 0x20)"}.
         */
        String differences(final Region other)
        {
            final List<String> changes = new ArrayList<>();
            if (address != other.address)
            {
                changes.add(String.format("address 0x%x (was 0x%x)", address, other.address));
            }
            if (length != other.length)
            {
                changes.add("length " + length + " (was " + other.length + ")");
            }
            if (kind != other.kind)
            {
                changes.add("layout " + kind.name().toLowerCase() + " (was " + other.kind.name().toLowerCase() + ")");
            }
            if (batchSize != other.batchSize)
            {
                changes.add("batch size " + batchSize + " (was " + other.batchSize + ")");
            }
            return String.join(", ", changes);
        }
    }

    /**
     * A list's entry as read from a file.
     *
     * @param region   the region it was recorded for (no name).
     * @param position the next batch sequence number (sequenced) or head slot (reference).
     */
    public record Recorded(Region region, long position)
    {
    }

    /**
     * One static QP as the configuration places it: what must be unchanged for a recorded PSN to be resumed.
     *
     * @param name        the region's configuration key path.
     * @param localQpn    the appliance's QPN.
     * @param remoteQpn   the collector's QPN.
     * @param collectorIp the collector's IPv4 address.
     * @param startPsn    the configured start PSN.
     */
    public record Qp(String name, int localQpn, int remoteQpn, int collectorIp, int startPsn)
    {
        /**
         * @return the CRC-32 of the key path in UTF-8, as recorded.
         */
        public int nameHash()
        {
            final CRC32 crc = new CRC32();
            crc.update(name.getBytes(StandardCharsets.UTF_8));
            return (int)crc.getValue();
        }

        /**
         * @param recorded a recorded QP.
         * @return true when it was recorded for this QP.
         */
        public boolean sameAs(final RecordedQp recorded)
        {
            return nameHash() == recorded.nameHash() && localQpn == recorded.localQpn() &&
                remoteQpn == recorded.remoteQpn() && collectorIp == recorded.collectorIp() &&
                startPsn == recorded.startPsn();
        }

        String differences(final RecordedQp recorded)
        {
            final List<String> changes = new ArrayList<>();
            if (nameHash() != recorded.nameHash())
            {
                changes.add("another key path");
            }
            if (remoteQpn != recorded.remoteQpn())
            {
                changes.add(String.format("collector QPN 0x%x (was 0x%x)", remoteQpn, recorded.remoteQpn()));
            }
            if (collectorIp != recorded.collectorIp())
            {
                changes.add("collector IP " + ip(collectorIp) + " (was " + ip(recorded.collectorIp()) + ")");
            }
            if (startPsn != recorded.startPsn())
            {
                changes.add(String.format("startPsn 0x%x (was 0x%x)", startPsn, recorded.startPsn()));
            }
            return String.join(", ", changes);
        }

        private static String ip(final int ip)
        {
            return (ip >>> 24) + "." + ((ip >>> 16) & 0xFF) + "." + ((ip >>> 8) & 0xFF) + "." + (ip & 0xFF);
        }
    }

    /**
     * A static QP's entry as read from a file.
     *
     * @param nameHash    CRC-32 of the region's key path.
     * @param localQpn    the appliance's QPN.
     * @param remoteQpn   the collector's QPN.
     * @param collectorIp the collector's IPv4 address.
     * @param startPsn    the configured start PSN.
     * @param nextPsn     the PSN the QP would have sent next, or {@link #NO_PSN}.
     */
    public record RecordedQp(int nameHash, int localQpn, int remoteQpn, int collectorIp, int startPsn, int nextPsn)
    {
    }

    /**
     * What a start found: the recorded lists to resume from, or none.
     *
     * @param path   the state file.
     * @param lists  the recorded lists; null when there is nothing to resume (no file, or {@code --fresh-lists}).
     * @param why    when {@code lists} is null, why (for the start-up line).
     * @param qps    the recorded static QPs (empty for a version 1 file, or when {@code lists} is null).
     * @param closed whether the previous writer marked the file closed (a clean stop): only then are PSNs resumed.
     */
    public record Previous(Path path, List<Recorded> lists, String why, List<RecordedQp> qps, boolean closed)
    {
        /**
         * Nothing about QPs: every QP starts at its configured start PSN.
         *
         * @param path  the state file.
         * @param lists the recorded lists, or null.
         * @param why   when {@code lists} is null, why.
         */
        public Previous(final Path path, final List<Recorded> lists, final String why)
        {
            this(path, lists, why, List.of(), false);
        }
    }

    private final Path path;
    private final FileChannel lock;
    private final MappedByteBuffer mapped;
    private final AtomicBuffer buffer;
    private final Region[] regions;
    private final boolean[] resumed;
    private final List<String> notes;
    private static final String EVERY_LIST_FRESH = ": every list starts from batch 1";
    private final Qp[] qps;
    private final int[] startPsns;
    private final boolean[] psnResumed;
    private boolean closed;

    private ListStateFile(
        final Path path,
        final FileChannel lock,
        final MappedByteBuffer mapped,
        final Region[] regions,
        final boolean[] resumed,
        final List<String> notes,
        final Qp[] qps,
        final int[] startPsns,
        final boolean[] psnResumed)
    {
        this.path = path;
        this.lock = lock;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
        this.regions = regions;
        this.resumed = resumed;
        this.notes = notes;
        this.qps = qps;
        this.startPsns = startPsns;
        this.psnResumed = psnResumed;
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
     * The lists of a configuration, in configuration order.
     *
     * @param config a configuration whose regions are connected (addresses known).
     * @return one region per list.
     */
    public static List<Region> regions(final ApplianceConfig config)
    {
        final List<Region> regions = new ArrayList<>();
        for (final CollectorConfig collector : config.collectors())
        {
            for (final ListConfig list : collector.lists())
            {
                regions.add(region(list, config.append().batchSize()));
            }
        }
        return regions;
    }

    /**
     * @param list      a list of a configuration.
     * @param batchSize the configuration's Append batch size.
     * @return the list's region as this file records it.
     */
    public static Region region(final ListConfig list, final int batchSize)
    {
        return new Region(list.id(), list.region().path(), list.region().address(), list.region().length(),
            kindOf(list.layout()), batchSize);
    }

    /**
     * The static QPs of a configuration (negotiated regions, whose PSNs connection set-up negotiates, are left out),
     * in configuration order.
     *
     * @param config a configuration.
     * @return one QP per static region.
     */
    public static List<Qp> qps(final ApplianceConfig config)
    {
        final List<Qp> qps = new ArrayList<>();
        for (final CollectorConfig collector : config.collectors())
        {
            for (final RegionConfig region : collector.regions())
            {
                if (!region.negotiated())
                {
                    qps.add(qp(collector, region));
                }
            }
        }
        return qps;
    }

    /**
     * @param collector a collector.
     * @param region    one of its regions.
     * @return the region's QP as recorded.
     */
    public static Qp qp(final CollectorConfig collector, final RegionConfig region)
    {
        return new Qp(region.path(), region.localQpn(), region.qpn(), collector.ip(), region.startPsn());
    }

    /**
     * @param layout a configured layout.
     * @return the collector layout kind.
     */
    public static ListLayout.Kind kindOf(final io.dta.config.ListLayout layout)
    {
        return io.dta.config.ListLayout.REFERENCE == layout ? ListLayout.Kind.REFERENCE : ListLayout.Kind.SEQUENCED;
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
    public static Previous read(final Path path, final boolean fresh)
    {
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(path);
        }
        catch (final NoSuchFileException ex)
        {
            return new Previous(path, null, "no list state file " + path + " yet" + EVERY_LIST_FRESH);
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
            refuseLiveWriter(path, b);
        }
        // Released at once: create() takes it for the run. This only refuses early, before the EAL starts.
        try (FileChannel probe = lock(path))
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
            return new Previous(path, null, "--fresh-lists" + EVERY_LIST_FRESH + " (list state file " +
                path + " replaced)");
        }
        if (header)
        {
            refuseWriterOfAnEarlierBoot(path, b, bootMillis());
        }
        return parse(path, b, bytes.length);
    }

    /**
     * A writer that never marked the file closed and started before the host last booted stopped with the host
     * (a crash or a power loss): the kernel may not have written its last stores back, so its positions can lie
     * behind batches the collector already holds, and resuming them would reuse their numbers. (A process that
     * crashed on a running host leaves its stores in the page cache: those positions are whole.)
     *
     * @param bootMillis when the host booted, or 0 when unknown (then nothing is refused).
     */
    static void refuseWriterOfAnEarlierBoot(final Path path, final UnsafeBuffer b, final long bootMillis)
    {
        final long processStart = b.getLong(PROCESS_START_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (0 == b.getLong(CLOSED_OFFSET, ByteOrder.LITTLE_ENDIAN) && bootMillis > 0 && processStart > 0 &&
            processStart < bootMillis)
        {
            throw refusal(path, "was left by a writer (pid " + b.getLong(PID_OFFSET, ByteOrder.LITTLE_ENDIAN) +
                ") that never stopped cleanly and ran before this host last booted, so its last positions may not " +
                "have reached the disk");
        }
    }

    /**
     * @return when the host booted ({@code btime} of /proc/stat), in milliseconds since the epoch, or 0.
     */
    static long bootMillis()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/stat")))
            {
                if (line.startsWith("btime "))
                {
                    return Long.parseLong(line.substring(6).trim()) * 1000L;
                }
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            // Unknown: the check is skipped.
        }
        return 0;
    }

    /**
     * Takes the run's exclusive lock on {@code <file>.lock} (an advisory lock the kernel drops when the process
     * ends, however it ends): two translators given the same state file would otherwise both map it, and the second
     * one's replacement would silently take every later store of the first.
     *
     * @return the locked channel; closing it releases the lock.
     */
    private static FileChannel lock(final Path path) throws IOException
    {
        final Path lockPath = path.resolveSibling(path.getFileName() + ".lock");
        final FileChannel channel = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try
        {
            if (null != channel.tryLock())
            {
                return channel;
            }
        }
        catch (final java.nio.channels.OverlappingFileLockException ex)
        {
            // Held by this very process (another state file over the same path, not closed).
        }
        channel.close();
        throw new IllegalStateException("list state file " + path + " is in use by another running translator (" +
            lockPath + " is locked); stop it or choose another --state-file");
    }

    private static void refuseLiveWriter(final Path path, final UnsafeBuffer b)
    {
        final long pid = b.getLong(PID_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final long processStart = b.getLong(PROCESS_START_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (0 != b.getLong(CLOSED_OFFSET, ByteOrder.LITTLE_ENDIAN))
        {
            return;
        }
        // The process start time tells a live writer from an unrelated process that reuses its pid (after a reboot,
        // a file on a persistent file system).
        final boolean alive = ProcessHandle.of(pid)
            .filter(ProcessHandle::isAlive)
            .map(p -> 0 == processStart || p.info().startInstant().map(Instant::toEpochMilli).orElse(0L) ==
                processStart)
            .orElse(false);
        if (alive)
        {
            throw new IllegalStateException("list state file " + path + " belongs to a running translator (pid " +
                pid + "); stop it or choose another --state-file");
        }
    }

    private static Previous parse(final Path path, final UnsafeBuffer b, final int fileLength)
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
        if (crc(b, version, count, qpCount) != b.getInt(CRC_OFFSET, ByteOrder.LITTLE_ENDIAN))
        {
            throw refusal(path, "is corrupt: its checksum does not match its contents");
        }
        final List<Recorded> lists = new ArrayList<>(count);
        final Set<Long> ids = new HashSet<>();
        for (int i = 0; i < count; i++)
        {
            final int entry = HEADER_LENGTH + i * ENTRY_LENGTH;
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
            final Region region = new Region(listId, null, b.getLong(entry + ADDRESS_OFFSET, ByteOrder.LITTLE_ENDIAN),
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
            if (!validPosition(layout, position))
            {
                throw refusal(path, "is corrupt: list " + listId + " has position " + position + ", impossible for " +
                    "its " + kind.name().toLowerCase() + " layout of " + layout.capacity() +
                    (ListLayout.Kind.SEQUENCED == kind ? " records" : " slots"));
            }
            lists.add(new Recorded(region, position));
        }
        final List<RecordedQp> qps = new ArrayList<>(qpCount);
        final Set<Integer> qpns = new HashSet<>();
        for (int i = 0; i < qpCount; i++)
        {
            final int entry = qpEntryOffset(count, i);
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
        return new Previous(path, lists, null, qps, 0 != b.getLong(CLOSED_OFFSET, ByteOrder.LITTLE_ENDIAN));
    }

    private static int qpEntryOffset(final int listCount, final int index)
    {
        return HEADER_LENGTH + listCount * ENTRY_LENGTH + index * QP_ENTRY_LENGTH;
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

    private static IllegalStateException refusal(final Path path, final String what)
    {
        return new IllegalStateException("list state file " + path + " " + what + "; " + WAY_OUT);
    }

    private static int crc(final UnsafeBuffer b, final int version, final int count, final int qpCount)
    {
        final CRC32 crc = new CRC32();
        final byte[] header = new byte[CRC_OFFSET];
        b.getBytes(0, header);
        crc.update(header);
        final byte[] entry = new byte[ENTRY_STATIC_LENGTH];
        for (int i = 0; i < count; i++)
        {
            b.getBytes(HEADER_LENGTH + i * ENTRY_LENGTH, entry);
            crc.update(entry);
        }
        if (VERSION == version)
        {
            final byte[] qpHeader = new byte[HEADER_LENGTH - QP_COUNT_OFFSET];
            b.getBytes(QP_COUNT_OFFSET, qpHeader);
            crc.update(qpHeader);
            final byte[] qpEntry = new byte[QP_ENTRY_STATIC_LENGTH];
            for (int i = 0; i < qpCount; i++)
            {
                b.getBytes(qpEntryOffset(count, i), qpEntry);
                crc.update(qpEntry);
            }
        }
        return (int)crc.getValue();
    }

    /**
     * Creates the state file of a run: one entry per list, each at its recorded position when the previous run
     * recorded the list with the same region, else at its initial position. The new file replaces the old one
     * atomically (written next to it, then moved).
     *
     * @param previous  what {@link #read} found.
     * @param lists     the run's lists ({@link #regions(ApplianceConfig)}).
     * @param nowMillis creation time.
     * @return the file, mapped read-write, with {@link #notes()} saying what was resumed and what starts fresh.
     * @throws UncheckedIOException if the file cannot be written or mapped.
     */
    public static ListStateFile create(final Previous previous, final List<Region> lists, final long nowMillis)
    {
        return create(previous, lists, List.of(), nowMillis);
    }

    /**
     * Creates the state file of a run that also records its static QPs' PSNs: as
     * {@link #create(Previous, List, long)}, and every QP the previous run recorded unchanged, with a next PSN, in a
     * file it closed (a clean stop) starts at that PSN ({@link #startPsn(int)}); any other QP at its configured
     * start PSN.
     *
     * @param previous  what {@link #read} found.
     * @param lists     the run's lists ({@link #regions(ApplianceConfig)}).
     * @param qps       the run's static QPs ({@link #qps(ApplianceConfig)}).
     * @param nowMillis creation time.
     * @return the file, mapped read-write, with {@link #notes()} saying what was resumed and what starts fresh.
     * @throws UncheckedIOException if the file cannot be written or mapped.
     */
    public static ListStateFile create(
        final Previous previous, final List<Region> lists, final List<Qp> qps, final long nowMillis)
    {
        final Path path = previous.path();
        final Map<Long, Recorded> recorded = new HashMap<>();
        if (null != previous.lists())
        {
            for (final Recorded r : previous.lists())
            {
                recorded.put(r.region().listId(), r);
            }
        }
        final List<String> notes = new ArrayList<>();
        final int count = lists.size();
        final Region[] regions = lists.toArray(new Region[0]);
        final boolean[] resumed = new boolean[count];
        final int qpCount = qps.size();
        final UnsafeBuffer b = new UnsafeBuffer(new byte[HEADER_LENGTH + count * ENTRY_LENGTH +
            qpCount * QP_ENTRY_LENGTH]);
        int resumedCount = 0;
        final Set<Long> configured = new HashSet<>();
        for (int i = 0; i < count; i++)
        {
            final Region region = regions[i];
            if (!configured.add(region.listId()))
            {
                throw new IllegalArgumentException("list " + region.listId() + " appears twice");
            }
            final Recorded r = recorded.get(region.listId());
            long position = region.initialPosition();
            if (null != r && region.sameAs(r.region()))
            {
                position = r.position();
                resumed[i] = true;
                resumedCount++;
            }
            else if (null != previous.lists())
            {
                notes.add("list " + region.listId() + " (" + region.name() + ") starts from batch 1: " +
                    (null == r ? "it is not in the list state file" : "its region changed: " + region.differences(
                    r.region())));
            }
            final int entry = HEADER_LENGTH + i * ENTRY_LENGTH;
            b.putLong(entry + LIST_ID_OFFSET, region.listId(), ByteOrder.LITTLE_ENDIAN);
            b.putLong(entry + ADDRESS_OFFSET, region.address(), ByteOrder.LITTLE_ENDIAN);
            b.putLong(entry + LENGTH_OFFSET, region.length(), ByteOrder.LITTLE_ENDIAN);
            b.putInt(entry + LAYOUT_OFFSET, ListLayout.Kind.REFERENCE == region.kind() ? LAYOUT_REFERENCE :
                LAYOUT_SEQUENCED, ByteOrder.LITTLE_ENDIAN);
            b.putInt(entry + BATCH_SIZE_OFFSET, region.batchSize(), ByteOrder.LITTLE_ENDIAN);
            b.putLong(entry + POSITION_OFFSET, position, ByteOrder.LITTLE_ENDIAN);
        }
        if (null != previous.lists())
        {
            for (final Recorded r : previous.lists())
            {
                if (!configured.contains(r.region().listId()))
                {
                    notes.add("list " + r.region().listId() + " is no longer configured: its recorded position " +
                        "is forgotten");
                }
            }
            notes.addFirst("list state " + path + ": " + resumedCount + " of " + count + " list(s) resume where " +
                "the previous run stopped");
        }
        else
        {
            // A configuration without lists has nothing to start from batch 1: the note says only what happened.
            notes.addFirst(0 == count ? previous.why().replace(EVERY_LIST_FRESH, "") : previous.why());
        }
        final Qp[] qpArray = qps.toArray(new Qp[0]);
        final int[] startPsns = new int[qpCount];
        final boolean[] psnResumed = new boolean[qpCount];
        qpNotes(previous, qpArray, startPsns, psnResumed, notes);
        for (int i = 0; i < qpCount; i++)
        {
            final Qp qp = qpArray[i];
            final int entry = qpEntryOffset(count, i);
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
        b.putInt(CRC_OFFSET, crc(b, VERSION, count, qpCount), ByteOrder.LITTLE_ENDIAN);
        final ProcessHandle self = ProcessHandle.current();
        b.putLong(PID_OFFSET, self.pid(), ByteOrder.LITTLE_ENDIAN);
        b.putLong(PROCESS_START_OFFSET, self.info().startInstant().map(Instant::toEpochMilli).orElse(0L),
            ByteOrder.LITTLE_ENDIAN);
        b.putLong(CREATED_OFFSET, nowMillis, ByteOrder.LITTLE_ENDIAN);
        FileChannel lock = null;
        Path next = null;
        try
        {
            final Path parent = path.toAbsolutePath().getParent();
            if (null != parent)
            {
                Files.createDirectories(parent);
            }
            lock = lock(path);
            next = Files.createTempFile(path.toAbsolutePath().getParent(), path.getFileName() + ".", ".new");
            try (FileChannel channel = FileChannel.open(next, StandardOpenOption.WRITE))
            {
                final ByteBuffer content = ByteBuffer.wrap(b.byteArray());
                while (content.hasRemaining())
                {
                    channel.write(content);
                }
                channel.force(true);
            }
            Files.move(next, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            next = null;
            final MappedByteBuffer mapped;
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, b.capacity());
            }
            final ListStateFile file = new ListStateFile(path, lock, mapped, regions, resumed, List.copyOf(notes),
                qpArray, startPsns, psnResumed);
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
     * Decides each QP's start PSN and says, one line each, why a QP does not resume a recorded PSN (nothing when
     * there was no previous file or it was ignored: the lists' line says so).
     */
    private static void qpNotes(
        final Previous previous,
        final Qp[] qps,
        final int[] startPsns,
        final boolean[] psnResumed,
        final List<String> notes)
    {
        for (int i = 0; i < qps.length; i++)
        {
            startPsns[i] = qps[i].startPsn();
        }
        if (null == previous.lists() || 0 == qps.length)
        {
            return;
        }
        if (previous.qps().isEmpty())
        {
            notes.add("the list state file records no QP PSNs: every QP starts at its configured startPsn (the " +
                "collector's first ACK resynchronises it)");
            return;
        }
        if (!previous.closed())
        {
            notes.add("the previous run did not stop cleanly: every QP starts at its configured startPsn (the " +
                "collector's first ACK resynchronises it)");
            return;
        }
        final Map<Integer, RecordedQp> recorded = new HashMap<>();
        for (final RecordedQp r : previous.qps())
        {
            recorded.put(r.localQpn(), r);
        }
        final List<String> qpLines = new ArrayList<>();
        int resumedCount = 0;
        for (int i = 0; i < qps.length; i++)
        {
            final Qp qp = qps[i];
            final RecordedQp r = recorded.get(qp.localQpn());
            if (null != r && qp.sameAs(r) && NO_PSN != r.nextPsn())
            {
                startPsns[i] = r.nextPsn();
                psnResumed[i] = true;
                resumedCount++;
            }
            else
            {
                qpLines.add(String.format("QP 0x%x (%s) starts at its configured startPsn 0x%x: %s", qp.localQpn(),
                    qp.name(), qp.startPsn(), null == r ? "it is not in the list state file" :
                    !qp.sameAs(r) ? "it changed: " + qp.differences(r) : "the previous run recorded no PSN for it"));
            }
        }
        notes.add(resumedCount + " of " + qps.length + " static QP(s) resume at the PSN where the previous run " +
            "stopped");
        notes.addAll(qpLines);
    }

    private static void deleteQuietly(final Path file)
    {
        // A leftover temporary file must not hide the outcome being reported.
        if (null != file)
        {
            IoUtil.delete(file.toFile(), true);
        }
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
    public Region region(final int index)
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
        return HEADER_LENGTH + index * ENTRY_LENGTH + POSITION_OFFSET;
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
    public Qp qp(final int index)
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
        buffer.putInt(qpEntryOffset(regions.length, index) + QP_NEXT_PSN_OFFSET, nextPsn & PSN_MASK,
            ByteOrder.LITTLE_ENDIAN);
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
        buffer.putLongRelease(CLOSED_OFFSET,
            NATIVE_LITTLE_ENDIAN ? System.currentTimeMillis() : Long.reverseBytes(System.currentTimeMillis()));
        mapped.force();
        IoUtil.unmap(mapped);
        CloseHelper.quietClose(lock);
    }
}
