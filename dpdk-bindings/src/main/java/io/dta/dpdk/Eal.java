package io.dta.dpdk;

import io.dta.dpdk.ffi.DpdkLayout;
import io.dta.dpdk.ffi.dpdk_h;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The DPDK Environment Abstraction Layer of this process.
 * <p>
 * DPDK allows one EAL per process, for the life of the process: a second {@code rte_eal_init} fails even after
 * {@code rte_eal_cleanup}. {@link #init(List)} therefore refuses a second call with an
 * {@link IllegalStateException}. Tests that start an EAL run each in a JVM of their own (a dedicated surefire
 * fork).
 * <p>
 * {@code rte_eal_init} pins the calling thread to the main lcore, and Java threads started from it later inherit
 * that mask: call it on the data-plane thread (for instance in the data-plane agent's {@code onStart}), after the
 * control threads are running. Each EAL needs its own {@code --file-prefix} when several DPDK processes share a
 * host; {@link #close()} removes the runtime directory ({@code /var/run/dpdk/<prefix>} for root) that EAL leaves
 * behind, and so does a JVM shutdown hook when the process ends without {@link #close()} (a replay or benchmark
 * stopped by Ctrl-C or SIGTERM), so that dead file prefixes do not pile up there.
 */
public final class Eal implements AutoCloseable
{
    /** The EAL option that runs on ordinary pages (with {@code -m}), as the virtual-device defaults do. */
    public static final String NO_HUGE = "--no-huge";

    /**
     * EAL options that only mean something with hugepages (EAL refuses most of them beside {@link #NO_HUGE}); one of
     * them among a user's arguments drops {@link #NO_HUGE} from the defaults.
     */
    public static final List<String> HUGEPAGE_OPTIONS = List.of("--huge-unlink", "--huge-dir", "--socket-mem",
        "--socket-limit", "--single-file-segments", "--match-allocations", "--in-memory");

    private static final String SOCKET_MEM = "--socket-mem";
    private static final int EINVAL = 22;
    private static final Object LOCK = new Object();
    private static volatile Eal current;
    private static boolean attempted;

    /** The {@code dpdk} directories above the runtime directory that this process's EAL start created. */
    private static volatile List<Path> createdParents = List.of();

    private final List<String> args;
    private final String filePrefix;
    private final Path runtimeDirectory;
    private volatile boolean closed;

    private Eal(final List<String> args, final String filePrefix, final Path runtimeDirectory)
    {
        this.args = List.copyOf(args);
        this.filePrefix = filePrefix;
        this.runtimeDirectory = runtimeDirectory;
    }

    /**
     * Starts the EAL with these arguments (without the program name), on the calling thread.
     *
     * @param args EAL arguments, e.g. {@code -l 0 --no-huge -m 256 --no-pci --file-prefix=x --vdev=net_null0}.
     * @return the EAL of this process.
     * @throws IllegalStateException    when an EAL was already started (or failed to start) in this process.
     * @throws DpdkUnavailableException when DPDK cannot be loaded.
     * @throws DpdkException            when {@code rte_eal_init} fails.
     */
    public static Eal init(final List<String> args)
    {
        synchronized (LOCK)
        {
            if (attempted)
            {
                throw new IllegalStateException("the DPDK EAL was already initialised in this process" +
                    (null == current ? " (and failed)" : " with " + current.args) +
                    "; DPDK allows one EAL per process, even after rte_eal_cleanup");
            }
            if (args.contains("-h") || args.contains("--help"))
            {
                // rte_eal_init prints its usage and calls exit(0) for these: the process would end mid-command.
                throw new DpdkException("EAL arguments " + args + " ask for the EAL's usage (-h, --help), which " +
                    "would end the process; see the DPDK documentation of the EAL options instead", EINVAL);
            }
            DpdkLibrary.lookup();
            attempted = true;
            try (Arena arena = Arena.ofConfined())
            {
                final List<String> all = new ArrayList<>(args.size() + 1);
                all.add("dta");
                all.addAll(args);
                // rte_eal_init may permute argv, so it gets a writable array of its own C strings.
                final MemorySegment argv = arena.allocate(ValueLayout.ADDRESS, all.size() + 1);
                for (int i = 0; i < all.size(); i++)
                {
                    argv.setAtIndex(ValueLayout.ADDRESS, i, arena.allocateFrom(all.get(i)));
                }
                argv.setAtIndex(ValueLayout.ADDRESS, all.size(), MemorySegment.NULL);
                dpdk_h.dta_log_to_stderr();
                final List<Path> candidates = runtimeDirectoryCandidates(filePrefix(args));
                final List<Path> existedBefore = candidates.stream().filter(Files::isDirectory).toList();
                createdParents = candidates.stream().map(Path::getParent).distinct()
                    .filter(parent -> !Files.isDirectory(parent)).toList();
                // Before the call: a signal during rte_eal_init must not leave the directory it is creating either.
                Runtime.getRuntime().addShutdownHook(new Thread(
                    () -> removeRuntimeDirectoryAtExit(candidates, existedBefore), "dta-eal-exit"));
                final int rc = dpdk_h.dta_eal_init(all.size(), argv);
                if (rc < 0)
                {
                    final int errno = dpdk_h.dta_errno();
                    removeFailedRuntimeDirectory(candidates, existedBefore);
                    removeEmptyCreatedParents();
                    // Some failures (the file prefix locked by another process) leave errno at 0: "Success".
                    throw new DpdkException("rte_eal_init failed: " + (0 == errno ? "see the EAL's messages above" :
                        strerror(errno)) + " (EAL arguments " + args + ")" + unwritableParentHint(candidates),
                        0 == errno ? EINVAL : errno);
                }
            }
            final String dir = dpdk_h.rte_eal_get_runtime_dir().reinterpret(4096).getString(0);
            current = new Eal(args, filePrefix(args), Path.of(dir));
            return current;
        }
    }

    /**
     * @param args EAL arguments (without the program name).
     * @return the EAL of this process.
     * @see #init(List)
     */
    public static Eal init(final String... args)
    {
        return init(List.of(args));
    }

    /**
     * @return the running EAL of this process, or null when none was started or it was closed.
     */
    public static Eal current()
    {
        synchronized (LOCK)
        {
            return null == current || current.closed ? null : current;
        }
    }

    /**
     * Arguments for an EAL on virtual devices only: no hugepages ({@code --no-huge -m MB}), no PCI scan.
     *
     * @param filePrefix unique per concurrently running DPDK process.
     * @param lcore      the core to run the main lcore (the calling thread) on.
     * @param memoryMb   memory for mempools; about 2 x 2.4 KB per mbuf + 64 MB.
     * @param vdevs      virtual device specifications, e.g. {@code net_pcap0,rx_pcap=in.pcap,tx_pcap=out.pcap}.
     * @return the arguments for {@link #init(List)}.
     */
    public static List<String> virtualDeviceArgs(
        final String filePrefix, final int lcore, final int memoryMb, final String... vdevs)
    {
        final List<String> args = new ArrayList<>(List.of(
            "-l", Integer.toString(lcore), NO_HUGE, "-m", Integer.toString(memoryMb), "--no-pci",
            "--file-prefix=" + filePrefix, "--log-level=lib.eal:warning", "--no-telemetry"));
        for (final String vdev : vdevs)
        {
            args.add("--vdev=" + vdev);
        }
        return args;
    }

    /**
     * Appends the user's EAL arguments to defaults, dropping the defaults the user overrides ({@code -l}, {@code -c},
     * {@code --lcores}, {@code -m}, {@code --file-prefix}), since EAL refuses most options given twice. An option
     * that only means something with hugepages ({@link #HUGEPAGE_OPTIONS}) drops the defaults' {@code --no-huge}: the
     * user asked for hugepages, which {@code --no-huge} would refuse or silently override; {@code --socket-mem}
     * drops their {@code -m} too, which EAL refuses beside it.
     *
     * @param defaults arguments such as {@link #virtualDeviceArgs}.
     * @param extra    the user's arguments.
     * @return the merged arguments.
     */
    public static List<String> mergeArgs(final List<String> defaults, final List<String> extra)
    {
        final List<String> overridden = new ArrayList<>();
        for (final String arg : extra)
        {
            final String name = optionName(arg);
            if ("-c".equals(name) || "--lcores".equals(name))
            {
                overridden.add("-l");
            }
            if (SOCKET_MEM.equals(name))
            {
                overridden.add("-m");
            }
            overridden.add(name);
        }
        if (asksForHugepages(extra))
        {
            overridden.add(NO_HUGE);
        }
        final List<String> merged = new ArrayList<>();
        for (int i = 0; i < defaults.size(); i++)
        {
            final String arg = defaults.get(i);
            final String name = optionName(arg);
            final boolean takesValue = "-l".equals(name) || "-m".equals(name);
            if (overridden.contains(name) && (takesValue || name.startsWith("--")))
            {
                i += takesValue ? 1 : 0;
                continue;
            }
            merged.add(arg);
        }
        merged.addAll(extra);
        return merged;
    }

    /**
     * @param args EAL arguments.
     * @return whether one of them only means something with hugepages ({@link #HUGEPAGE_OPTIONS}).
     */
    static boolean asksForHugepages(final List<String> args)
    {
        for (final String arg : args)
        {
            if (HUGEPAGE_OPTIONS.contains(optionName(arg)))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param args EAL arguments.
     * @return the memory they ask for in MB: {@code -m}, else the sum of {@code --socket-mem}, else 0 (unknown).
     */
    public static long memoryMegabytes(final List<String> args)
    {
        for (int i = 0; i < args.size(); i++)
        {
            final String name = optionName(args.get(i));
            final String value = !name.equals(args.get(i)) ? args.get(i).substring(name.length() + 1) :
                i + 1 < args.size() ? args.get(i + 1) : "";
            try
            {
                if ("-m".equals(name))
                {
                    return Long.parseLong(value);
                }
                if (SOCKET_MEM.equals(name))
                {
                    long sum = 0;
                    for (final String socket : value.split(","))
                    {
                        sum += Long.parseLong(socket.trim());
                    }
                    return sum;
                }
            }
            catch (final NumberFormatException ex)
            {
                return 0;
            }
        }
        return 0;
    }

    private static String optionName(final String arg)
    {
        return arg.startsWith("--") && arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
    }

    /**
     * @param base a readable name.
     * @return {@code base} followed by this process's id: unique among the processes on this host.
     */
    public static String uniqueFilePrefix(final String base)
    {
        return base + ProcessHandle.current().pid();
    }

    /**
     * @return the arguments the EAL was started with.
     */
    public List<String> args()
    {
        return args;
    }

    /**
     * @return the {@code --file-prefix} the EAL was started with, or {@code rte} (DPDK's default).
     */
    public String filePrefix()
    {
        return filePrefix;
    }

    /**
     * @return the runtime directory EAL created for this process.
     */
    public Path runtimeDirectory()
    {
        return runtimeDirectory;
    }

    /**
     * @return the number of ethdev ports available (physical and virtual).
     */
    public int portCount()
    {
        return Short.toUnsignedInt(dpdk_h.rte_eth_dev_count_avail());
    }

    /**
     * @return the number of lcores the EAL runs.
     */
    public int lcoreCount()
    {
        return dpdk_h.rte_lcore_count();
    }

    /**
     * @return the calling thread's lcore id, or {@link #LCORE_ID_ANY} for a thread EAL does not know.
     */
    public static int lcoreId()
    {
        return dpdk_h.dta_lcore_id();
    }

    /**
     * @return the main lcore's id: the thread that started the EAL runs on it.
     */
    public int mainLcore()
    {
        return dpdk_h.rte_get_main_lcore();
    }

    /**
     * @return the ids of the lcores the EAL runs besides the main one, ascending ({@code -l 0,1}: {@code [1]}): each
     *         has an EAL thread of its own, pinned to its CPU, waiting for {@link #launch(int, Runnable)}.
     */
    public int[] workerLcores()
    {
        final int[] lcores = new int[Math.max(0, lcoreCount() - 1)];
        int n = 0;
        for (int lcore = dpdk_h.rte_get_next_lcore(-1, 1, 0); lcore >= 0 && lcore < DpdkLayout.RTE_MAX_LCORE &&
            n < lcores.length; lcore = dpdk_h.rte_get_next_lcore(lcore, 1, 0))
        {
            lcores[n++] = lcore;
        }
        return Arrays.copyOf(lcores, n);
    }

    /**
     * Runs {@code body} on a worker lcore's EAL thread ({@code rte_eal_remote_launch} of an FFM upcall) and returns
     * at once. There the body has that lcore's id ({@link #lcoreId()}) and per-lcore mempool cache, on the lcore's
     * CPU; it may burst its own queues ({@link EthQueue}) while other lcores burst theirs. Whatever it throws is
     * kept, never crosses into DPDK, and is thrown by {@link #join(int)}. Call from the main lcore's thread (DPDK's
     * rule for launching and waiting), and join every launched lcore before {@link #close()}.
     *
     * @param lcore one of {@link #workerLcores()}.
     * @param body  what to run.
     * @throws IllegalArgumentException when {@code lcore} is not a worker lcore of this EAL.
     * @throws IllegalStateException    when a body launched there before was not joined yet.
     * @throws DpdkException            when EAL refuses the launch.
     */
    public void launch(final int lcore, final Runnable body)
    {
        Objects.requireNonNull(body, "body");
        LcoreLauncher.launch(checkWorker(lcore), body);
    }

    /**
     * Waits until the body launched on {@code lcore} has returned ({@code rte_eal_wait_lcore}, which spins on the
     * calling core meanwhile); returns at once when none was launched or it was joined already.
     *
     * @param lcore one of {@link #workerLcores()}.
     * @throws IllegalArgumentException                  when {@code lcore} is not a worker lcore of this EAL.
     * @throws java.util.concurrent.CompletionException when the body threw: what it threw is the cause.
     */
    public void join(final int lcore)
    {
        LcoreLauncher.join(checkWorker(lcore));
    }

    /**
     * @param lcore one of {@link #workerLcores()}.
     * @return true while a body launched there has not returned ({@code rte_eal_get_lcore_state}): a caller can poll
     *         this instead of spinning in {@link #join(int)}.
     * @throws IllegalArgumentException when {@code lcore} is not a worker lcore of this EAL.
     */
    public boolean running(final int lcore)
    {
        return LcoreLauncher.running(checkWorker(lcore));
    }

    private int checkWorker(final int lcore)
    {
        for (final int worker : workerLcores())
        {
            if (worker == lcore)
            {
                return lcore;
            }
        }
        throw new IllegalArgumentException("lcore " + lcore + " is not a worker lcore of this EAL (main lcore " +
            mainLcore() + ", worker lcores " + Arrays.toString(workerLcores()) + ")");
    }

    /** {@code RTE_CACHE_LINE_SIZE} on x86_64. */
    public static final int CACHE_LINE = 64;

    /**
     * @param bytes a size.
     * @return the size rounded up to whole cache lines, so that memory a data-plane lcore writes shares no line with
     * another lcore's.
     */
    public static long cacheLines(final long bytes)
    {
        return (bytes + CACHE_LINE - 1) & -CACHE_LINE;
    }

    /** {@code LCORE_ID_ANY} as an int: the lcore id of a thread EAL did not start or register. */
    public static final int LCORE_ID_ANY = -1;

    /**
     * Registers the calling thread with EAL so that it gets an lcore id and a per-lcore mempool cache.
     *
     * @throws DpdkException when no lcore is left.
     */
    public void registerThread()
    {
        if (dpdk_h.rte_thread_register() < 0)
        {
            final int errno = dpdk_h.dta_errno();
            throw new DpdkException("rte_thread_register failed: " + strerror(errno), errno);
        }
    }

    /**
     * @param name ethdev name, e.g. {@code net_pcap0}.
     * @return its port id.
     * @throws DpdkException when no such port exists.
     */
    public int portId(final String name)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment port = arena.allocate(ValueLayout.JAVA_SHORT);
            final int rc = dpdk_h.rte_eth_dev_get_port_by_name(arena.allocateFrom(name), port);
            if (rc < 0)
            {
                throw new DpdkException("no DPDK port named " + name + ": " + strerror(-rc), -rc);
            }
            return Short.toUnsignedInt(port.get(ValueLayout.JAVA_SHORT, 0));
        }
    }

    /**
     * Stops the EAL ({@code rte_eal_cleanup}) and removes its runtime directory. The process cannot start another
     * EAL afterwards.
     */
    @Override
    public void close()
    {
        synchronized (LOCK)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            dpdk_h.rte_eal_cleanup();
            deleteRecursively(runtimeDirectory);
            removeEmptyCreatedParents();
        }
    }

    /**
     * A non-root EAL puts its runtime directory under {@code $XDG_RUNTIME_DIR/dpdk} or {@code /tmp/dpdk}; one that
     * another user's EAL created (mode 0700) fails the start with no more than "Invalid argument".
     */
    private static String unwritableParentHint(final List<Path> candidates)
    {
        final boolean root = "root".equals(System.getProperty("user.name"));
        for (final Path candidate : candidates)
        {
            final Path parent = candidate.getParent();
            if ((root || !candidate.startsWith("/var/run")) && Files.isDirectory(parent) && !Files.isWritable(parent))
            {
                return "; " + parent + " is not writable by this user (another user's DPDK process made it): remove " +
                    "it, or set XDG_RUNTIME_DIR to a directory of your own";
            }
        }
        return "";
    }

    /**
     * The EAL creates the {@code dpdk} directory above the runtime directory with mode 0700 when it is missing; left
     * behind under {@code /tmp} it keeps every other non-root user's EAL from starting. Removed when this process
     * created it and nothing else is in it now (another process's runtime directory keeps it).
     */
    private static void removeEmptyCreatedParents()
    {
        for (final Path parent : createdParents)
        {
            try
            {
                Files.deleteIfExists(parent);
            }
            catch (final IOException ex)
            {
                // Not empty (another process's runtime directory) or not ours to remove: it stays.
            }
        }
    }

    /**
     * At JVM exit without {@link #close()}: removes the runtime directory only. No EAL call and no lock, because the
     * data-plane thread may still be inside DPDK (or inside {@code rte_eal_init}, holding the lock); the memory it
     * maps stays valid until the process is gone. Before the EAL started, the candidates that did not exist before
     * the call and that no other process holds are what it was creating.
     */
    private static void removeRuntimeDirectoryAtExit(final List<Path> candidates, final List<Path> existedBefore)
    {
        final Eal eal = current;
        if (null != eal && eal.closed)
        {
            return;
        }
        try
        {
            if (null != eal)
            {
                deleteRecursively(eal.runtimeDirectory);
            }
            else
            {
                for (final Path candidate : candidates)
                {
                    if (!existedBefore.contains(candidate) && Files.isDirectory(candidate) &&
                        !lockedByAnotherProcess(candidate))
                    {
                        deleteRecursively(candidate);
                    }
                }
            }
            removeEmptyCreatedParents();
        }
        catch (final UncheckedIOException ex)
        {
            System.err.println("dta: " + ex.getMessage() + ": " + ex.getCause().getMessage());
        }
    }

    /**
     * @param errno a positive DPDK or libc error number.
     * @return DPDK's text for it.
     */
    public static String strerror(final int errno)
    {
        return dpdk_h.rte_strerror(errno).reinterpret(1024).getString(0);
    }

    static void check(final int rc, final String what)
    {
        if (rc < 0)
        {
            throw new DpdkException(what + " failed: " + strerror(-rc), -rc);
        }
    }

    private static String filePrefix(final List<String> args)
    {
        String prefix = "rte";
        for (int i = 0; i < args.size(); i++)
        {
            final String arg = args.get(i);
            if (arg.startsWith("--file-prefix="))
            {
                prefix = arg.substring("--file-prefix=".length());
            }
            else if ("--file-prefix".equals(arg) && i + 1 < args.size())
            {
                prefix = args.get(i + 1);
            }
        }
        return prefix;
    }

    /**
     * Where the EAL puts the runtime directory of a file prefix: {@code /var/run/dpdk/<prefix>} for root, else under
     * {@code $XDG_RUNTIME_DIR/dpdk} or {@code /tmp/dpdk}.
     *
     * @param prefix the file prefix.
     * @return the candidate directories.
     */
    public static List<Path> runtimeDirectoryCandidates(final String prefix)
    {
        final List<Path> candidates = new ArrayList<>();
        candidates.add(Path.of("/var/run/dpdk", prefix));
        final String xdg = System.getenv("XDG_RUNTIME_DIR");
        if (null != xdg && !xdg.isBlank())
        {
            candidates.add(Path.of(xdg, "dpdk", prefix));
        }
        candidates.add(Path.of("/tmp/dpdk", prefix));
        return candidates;
    }

    /**
     * After a failed {@code rte_eal_init}: removes the runtime directory it created, if it created one (a bad
     * {@code --vdev} fails after the directory exists), so a failed start leaves nothing behind. A directory that
     * existed before the call is kept: it may be another running process's (the same {@code --file-prefix}).
     *
     * @param candidates    where the runtime directory of the file prefix may be; nothing else is removed.
     * @param existedBefore the candidates that existed before the call.
     */
    private static void removeFailedRuntimeDirectory(final List<Path> candidates, final List<Path> existedBefore)
    {
        final String dir = dpdk_h.rte_eal_get_runtime_dir().reinterpret(4096).getString(0);
        if (dir.isEmpty())
        {
            return;
        }
        final Path path = Path.of(dir);
        if (!candidates.contains(path) || existedBefore.contains(path) || lockedByAnotherProcess(path))
        {
            return;
        }
        try
        {
            deleteRecursively(path);
        }
        catch (final UncheckedIOException ex)
        {
            // The EAL's own failure is the one to report.
        }
    }

    /**
     * Whether a running primary holds the directory's {@code config} file locked (DPDK's primary takes an fcntl lock
     * on it for its whole life, and {@link FileChannel#tryLock()} is one on Linux): a process with the same file
     * prefix may have created the directory between the check of what existed and this process's failed start.
     */
    private static boolean lockedByAnotherProcess(final Path dir)
    {
        final Path config = dir.resolve("config");
        if (!Files.exists(config))
        {
            return false;
        }
        try (FileChannel channel = FileChannel.open(config, StandardOpenOption.WRITE))
        {
            // This process's own locks never conflict with it (fcntl locks are per process); closing drops them all.
            return null == channel.tryLock();
        }
        catch (final IOException | OverlappingFileLockException ex)
        {
            return true;
        }
    }

    private static void deleteRecursively(final Path dir)
    {
        if (!Files.isDirectory(dir))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir))
        {
            for (final Path p : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(p);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot remove the EAL runtime directory " + dir, ex);
        }
    }
}
