package io.dta.collector.store;

import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.FileErrors;
import io.dta.config.NetAddress;
import io.dta.config.RegionConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.Reader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

/**
 * The memory of one collector: each region a file {@code <dir>/<collector>/<region>.region} of exactly the
 * region's length, mapped into memory, plus {@code manifest.properties} describing every region (type, address,
 * length, R_Key, QPNs, layout) so a reader can tell that the files match its configuration.
 * <p>
 * The collector {@link #create creates} the store (fresh, zero-filled files, as registered RDMA memory starts)
 * and maps it read-write; a query {@link #openReadOnly opens} it read-only, so it can never disturb the writer.
 * Both see the same pages: what the collector writes is visible to a reader at once. Mappings are released by
 * {@link #close()}. One writer at a time: {@link #create} holds {@code store.lock} locked until {@link #close()}, and
 * refuses a store another process (or an unclosed store of this one) holds.
 */
public final class CollectorStore implements AutoCloseable
{
    /** Name of the manifest file in a collector's store directory. */
    public static final String MANIFEST = "manifest.properties";

    /** Manifest format tag. */
    public static final String FORMAT = "dta-collector-store/1";

    /** Suffix of region files. */
    public static final String REGION_SUFFIX = ".region";

    /** Name of the lock file a writer holds locked in a collector's store directory while the store is open. */
    public static final String LOCK = "store.lock";

    private final CollectorConfig collector;
    private final Path directory;
    private final Arena arena;
    private final List<MappedRegion> regions;
    private final FileChannel lock;

    private CollectorStore(
        final CollectorConfig collector,
        final Path directory,
        final Arena arena,
        final List<MappedRegion> regions,
        final FileChannel lock)
    {
        this.collector = collector;
        this.directory = directory;
        this.arena = arena;
        this.regions = Collections.unmodifiableList(regions);
        this.lock = lock;
    }

    /**
     * The directory of a collector's store.
     *
     * @param storeDir  the store root.
     * @param collector the collector.
     * @return {@code storeDir/<collector name>}.
     */
    public static Path directory(final Path storeDir, final CollectorConfig collector)
    {
        return storeDir.resolve(collector.name());
    }

    /**
     * Creates (or re-creates, zero-filled) a collector's store and maps it read-write: {@link #reserve} then {@link
     * Reservation#create()}.
     *
     * @param storeDir  the store root.
     * @param config    the configuration.
     * @param collector the collector.
     * @return the open store.
     * @throws StoreException if a file cannot be created or mapped, or a region is too large to map.
     */
    public static CollectorStore create(
        final Path storeDir, final ApplianceConfig config, final CollectorConfig collector) throws StoreException
    {
        try (Reservation reservation = reserve(storeDir, config, collector))
        {
            return reservation.create();
        }
    }

    /**
     * Takes a collector's store for writing without touching its data: checks that every region can be mapped,
     * creates the directory and takes the writer's lock. A process that may still fail to start (a live collector
     * before its EAL and port are up) reserves first and {@link Reservation#create() creates} only once nothing can
     * fail any more, so a failed start leaves the previous run's regions as they were, and a store another collector
     * holds is refused before anything else is started.
     *
     * @param storeDir  the store root.
     * @param config    the configuration.
     * @param collector the collector.
     * @return the reservation, holding the lock until it is closed or its store is.
     * @throws StoreException if a region is too large to map, the directory cannot be created, or another writer
     *                        holds the store.
     */
    public static Reservation reserve(
        final Path storeDir, final ApplianceConfig config, final CollectorConfig collector) throws StoreException
    {
        final Path dir = directory(storeDir, collector);
        final List<RegionDescriptor> descriptors = RegionDescriptor.of(config, collector);
        for (final RegionDescriptor d : descriptors)
        {
            checkedLength(d);
        }
        return new Reservation(collector, dir, descriptors, lock(dir));
    }

    /**
     * A store taken for writing by {@link #reserve} whose files are not touched yet. Closing it without {@link
     * #create()} releases the lock and leaves the files as they were.
     */
    public static final class Reservation implements AutoCloseable
    {
        private final CollectorConfig collector;
        private final Path dir;
        private final List<RegionDescriptor> descriptors;
        private FileChannel lock;

        private Reservation(
            final CollectorConfig collector,
            final Path dir,
            final List<RegionDescriptor> descriptors,
            final FileChannel lock)
        {
            this.collector = collector;
            this.dir = dir;
            this.descriptors = descriptors;
            this.lock = lock;
        }

        /**
         * @return the collector whose store this is.
         */
        public CollectorConfig collector()
        {
            return collector;
        }

        /**
         * Re-creates the regions zero-filled and maps them read-write; the store then holds the lock (this
         * reservation is used up, whether this succeeds or not: a failure releases the lock).
         *
         * @return the open store.
         * @throws StoreException        if a file cannot be created or mapped.
         * @throws IllegalStateException if called twice, or after {@link #close()}.
         */
        public CollectorStore create() throws StoreException
        {
            if (null == lock)
            {
                throw new IllegalStateException("store reservation " + dir + " already used or closed");
            }
            final FileChannel held = lock;
            lock = null;
            final Arena arena = Arena.ofShared();
            final List<MappedRegion> mapped = new ArrayList<>();
            try
            {
                // The manifest goes last, so a reader never accepts a half-created store.
                Files.deleteIfExists(dir.resolve(MANIFEST));
                for (final RegionDescriptor d : descriptors)
                {
                    final int length = checkedLength(d);
                    final Path file = dir.resolve(d.name() + REGION_SUFFIX);
                    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE,
                        StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING))
                    {
                        final MemorySegment segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
                        mapped.add(new MappedRegion(d, file, new UnsafeBuffer(segment.address(), length), true));
                    }
                }
                Files.writeString(dir.resolve(MANIFEST), manifest(collector, descriptors), StandardCharsets.UTF_8);
                return new CollectorStore(collector, dir, arena, mapped, held);
            }
            catch (final IOException | RuntimeException ex)
            {
                arena.close();
                closeQuietly(held);
                throw new StoreException("cannot create store " + dir + ": " + reason(dir, ex), ex);
            }
            catch (final StoreException ex)
            {
                arena.close();
                closeQuietly(held);
                throw ex;
            }
        }

        /**
         * Releases the lock unless {@link #create()} was called; the files are untouched.
         */
        @Override
        public void close()
        {
            if (null != lock)
            {
                closeQuietly(lock);
                lock = null;
            }
        }
    }

    /**
     * Takes the writer's exclusive lock on {@code <dir>/store.lock} (an advisory lock the kernel drops when the
     * process ends, however it ends). Without it a second collector given the same store (live or offline, or a
     * demo) would truncate the region files in place: the running collector's memory would turn to zeros under it,
     * and both would then write the same files.
     *
     * @param dir the collector's store directory (created when missing).
     * @return the locked channel; closing it releases the lock.
     * @throws StoreException when another writer holds the store, or the lock file cannot be opened.
     */
    private static FileChannel lock(final Path dir) throws StoreException
    {
        final Path lockPath = dir.resolve(LOCK);
        final FileChannel channel;
        try
        {
            Files.createDirectories(dir);
            channel = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        }
        catch (final IOException ex)
        {
            throw new StoreException("cannot create store " + dir + ": " + FileErrors.reason(dir, ex), ex);
        }
        try
        {
            if (null != channel.tryLock())
            {
                return channel;
            }
        }
        catch (final OverlappingFileLockException ex)
        {
            // Held by this very process: a store over the same directory that is not closed yet.
        }
        catch (final IOException ex)
        {
            closeQuietly(channel);
            throw new StoreException("cannot lock store " + dir + ": " + FileErrors.reason(dir, ex), ex);
        }
        closeQuietly(channel);
        throw new StoreException("store " + dir + " is in use by a running collector (" + lockPath + " is locked by " +
            "dta collector or dta demo): stop it or choose another --store; dta query reads a store while its " +
            "collector runs");
    }

    private static void closeQuietly(final FileChannel channel)
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // Closing releases the lock; nothing else to do.
        }
    }

    /**
     * Opens a collector's store read-only after checking that its manifest and files match the configuration.
     *
     * @param storeDir  the store root.
     * @param config    the configuration.
     * @param collector the collector.
     * @return the open store.
     * @throws StoreException if the store is missing or does not match (the message says which file and why).
     */
    public static CollectorStore openReadOnly(
        final Path storeDir, final ApplianceConfig config, final CollectorConfig collector) throws StoreException
    {
        final Path dir = directory(storeDir, collector);
        final Path manifestFile = dir.resolve(MANIFEST);
        final Properties manifest = new Properties();
        // Read rather than checked first: a file where the store or the manifest should be, or one this process may
        // not read, is then refused with its reason instead of as missing.
        try (Reader reader = Files.newBufferedReader(manifestFile, StandardCharsets.UTF_8))
        {
            manifest.load(reader);
        }
        catch (final NoSuchFileException ex)
        {
            throw new StoreException("no store for collector '" + collector.name() + "': " + manifestFile +
                " is missing", ex);
        }
        catch (final IOException ex)
        {
            throw new StoreException(FileErrors.cannotRead(manifestFile, ex), ex);
        }
        catch (final IllegalArgumentException ex)
        {
            // Properties.load's only refusal: a backslash-u not followed by four hexadecimal digits.
            throw new StoreException("cannot read " + manifestFile +
                ": not a store manifest (a \\u escape that is not four hexadecimal digits)", ex);
        }
        final List<RegionDescriptor> descriptors = RegionDescriptor.of(config, collector);
        final Properties expected = new Properties();
        try
        {
            expected.load(new java.io.StringReader(manifest(collector, descriptors)));
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
        final List<String> keys = new ArrayList<>(expected.stringPropertyNames());
        Collections.sort(keys);
        for (final String key : keys)
        {
            final String want = expected.getProperty(key);
            final String have = manifest.getProperty(key);
            if (!want.equals(have))
            {
                throw new StoreException("store " + dir + " does not match the configuration: " + key + " is " +
                    (null == have ? "missing" : have) + " in " + MANIFEST + ", the configuration says " + want);
            }
        }

        final Arena arena = Arena.ofShared();
        final List<MappedRegion> mapped = new ArrayList<>();
        try
        {
            for (final RegionDescriptor d : descriptors)
            {
                final int length = checkedLength(d);
                final Path file = dir.resolve(d.name() + REGION_SUFFIX);
                final String unreadable = FileErrors.unreadable(file);
                if (FileErrors.NO_SUCH_FILE.equals(unreadable))
                {
                    throw new StoreException("store " + dir + ": region file " + file + " is missing");
                }
                if (null != unreadable)
                {
                    throw new StoreException("cannot map store " + dir + ": " + file + ": " + unreadable);
                }
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
                {
                    if (channel.size() != length)
                    {
                        throw new StoreException("store " + dir + ": " + file + " has " + channel.size() +
                            " bytes, the region has " + length);
                    }
                    final MemorySegment segment = channel.map(FileChannel.MapMode.READ_ONLY, 0, length, arena);
                    mapped.add(new MappedRegion(d, file, new UnsafeBuffer(segment.address(), length), false));
                }
            }
            return new CollectorStore(collector, dir, arena, mapped, null);
        }
        catch (final IOException | RuntimeException ex)
        {
            arena.close();
            throw new StoreException("cannot map store " + dir + ": " + reason(dir, ex), ex);
        }
        catch (final StoreException ex)
        {
            arena.close();
            throw ex;
        }
    }

    // A file error in FileErrors' words; anything else (a mapping the JVM refuses) as it says it.
    private static String reason(final Path dir, final Exception ex)
    {
        return ex instanceof final IOException io ? FileErrors.reason(dir, io) : String.valueOf(ex.getMessage());
    }

    private static int checkedLength(final RegionDescriptor d) throws StoreException
    {
        final long length = d.region().length();
        if (length <= 0 || length > Integer.MAX_VALUE - 8)
        {
            throw new StoreException("region " + d.region().path() + " of " + length +
                " bytes cannot be mapped (limit 2 GiB)");
        }
        return (int)length;
    }

    /**
     * The manifest text for a collector: sorted {@code key=value} lines.
     *
     * @param collector   the collector.
     * @param descriptors its regions.
     * @return the manifest.
     */
    static String manifest(final CollectorConfig collector, final List<RegionDescriptor> descriptors)
    {
        final StringBuilder sb = new StringBuilder(256);
        sb.append("# DTA soft collector store: one mapped file per region\n");
        sb.append("format=").append(FORMAT).append('\n');
        sb.append("collector=").append(collector.name()).append('\n');
        sb.append("ip=").append(NetAddress.ipv4ToString(collector.ip())).append('\n');
        for (final RegionDescriptor d : descriptors)
        {
            final RegionConfig r = d.region();
            final String p = "region." + d.name() + '.';
            sb.append(p).append("type=").append(d.type()).append('\n');
            sb.append(p).append("address=0x").append(Long.toHexString(r.address())).append('\n');
            sb.append(p).append("length=").append(r.length()).append('\n');
            sb.append(p).append("rkey=0x").append(Long.toHexString(r.rkey())).append('\n');
            sb.append(p).append("qpn=0x").append(Integer.toHexString(r.qpn())).append('\n');
            sb.append(p).append("layout=").append(d.layout()).append('\n');
        }
        return sb.toString();
    }

    /**
     * @return the collector this store belongs to.
     */
    public CollectorConfig collector()
    {
        return collector;
    }

    /**
     * @return the collector's store directory.
     */
    public Path directory()
    {
        return directory;
    }

    /**
     * @return every mapped region, in {@link RegionDescriptor#of} order.
     */
    public List<MappedRegion> regions()
    {
        return regions;
    }

    /**
     * @param type region type.
     * @param id   list or sketch id (ignored for the stores).
     * @return the region, or null if the collector has none.
     */
    public MappedRegion region(final RegionType type, final long id)
    {
        for (final MappedRegion r : regions)
        {
            final RegionDescriptor d = r.descriptor();
            if (d.type() == type && (type != RegionType.LIST && type != RegionType.SKETCH || d.id() == id))
            {
                return r;
            }
        }
        return null;
    }

    /**
     * The memory of a configured region, found by identity of its configuration.
     *
     * @param region a region of this collector.
     * @return its buffer, or null if it is not one of this store's regions.
     */
    public UnsafeBuffer memory(final RegionConfig region)
    {
        for (final MappedRegion r : regions)
        {
            if (r.descriptor().region().equals(region))
            {
                return r.buffer();
            }
        }
        return null;
    }

    /**
     * Unmaps every region and, for a store {@link #create created} here, releases the writer's lock; buffers
     * obtained from this store must not be used afterwards.
     */
    @Override
    public void close()
    {
        arena.close();
        if (null != lock)
        {
            closeQuietly(lock);
        }
    }
}
