package io.dta.dpdk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the host offers an EAL that runs on hugepages: the free hugepage memory of the default size
 * ({@code /proc/meminfo}) and whether a hugetlbfs is mounted ({@code /proc/mounts}), where EAL looks for it. Checked
 * before an EAL start so that a missing reservation is refused with what to do, not with EAL's "Cannot get hugepage
 * information".
 */
public final class Hugepages
{
    private static final Path MEMINFO = Path.of("/proc/meminfo");
    private static final Path MOUNTS = Path.of("/proc/mounts");
    private static final long DEFAULT_PAGE_KB = 2048;
    private static final long UNSIZED_ADVICE_MB = 256;

    private Hugepages()
    {
    }

    /**
     * The check for a whole EAL argument list, as {@link Eal#init} will be given it.
     *
     * @param ealArgs the EAL's arguments after {@link Eal#mergeArgs}.
     * @return null when the EAL runs on 4 KB pages ({@code --no-huge}), is pointed at a mount of its choice
     * ({@code --huge-dir}, whose page size this check cannot tell) or the host can give it its hugepages, else what is
     * missing and how an operator provides it.
     */
    public static String shortfallFor(final List<String> ealArgs)
    {
        return ealArgs.contains(Eal.NO_HUGE) ? null : shortfallFor(ealArgs, read(MEMINFO), read(MOUNTS));
    }

    /**
     * @param ealArgs the EAL's arguments after {@link Eal#mergeArgs}.
     * @param meminfo the lines of {@code /proc/meminfo}.
     * @param mounts  the lines of {@code /proc/mounts}.
     * @return as {@link #shortfallFor(List)}.
     */
    static String shortfallFor(final List<String> ealArgs, final List<String> meminfo, final List<String> mounts)
    {
        // With --huge-dir the EAL may use a mount of another page size (1 GB pages) than the default one that
        // /proc/meminfo counts: this check cannot see it, and must not refuse what EAL would accept.
        if (ealArgs.contains(Eal.NO_HUGE) || ealArgs.stream().anyMatch(a -> a.startsWith("--huge-dir")))
        {
            return null;
        }
        return shortfall(Eal.memoryMegabytes(ealArgs), !ealArgs.contains("--in-memory"), meminfo, mounts);
    }

    /**
     * @param megabytes  the memory the EAL will take ({@code -m} or {@code --socket-mem}), or 0 when its arguments do
     *                   not say (then at least one free page is needed).
     * @param needsMount false with {@code --in-memory}, where EAL maps hugepages without a hugetlbfs.
     * @return null when the host can give it, else what is missing and how an operator provides it.
     */
    public static String shortfall(final long megabytes, final boolean needsMount)
    {
        return shortfall(megabytes, needsMount, read(MEMINFO), read(MOUNTS));
    }

    /**
     * @param megabytes  the memory the EAL will take.
     * @param needsMount whether a hugetlbfs must be mounted.
     * @param meminfo    the lines of {@code /proc/meminfo}.
     * @param mounts     the lines of {@code /proc/mounts}.
     * @return null when the host can give it, else what is missing and how an operator provides it.
     */
    static String shortfall(
        final long megabytes, final boolean needsMount, final List<String> meminfo, final List<String> mounts)
    {
        final long pageKb = 0 == field(meminfo, "Hugepagesize:") ? DEFAULT_PAGE_KB : field(meminfo, "Hugepagesize:");
        final long total = field(meminfo, "HugePages_Total:");
        // Reserved pages are promised to a mapping already, though not yet faulted in.
        final long freePages = Math.max(0, field(meminfo, "HugePages_Free:") - field(meminfo, "HugePages_Rsvd:"));
        final long freeMegabytes = freePages * pageKb / 1024;
        final List<String> missing = new ArrayList<>();
        if (megabytes <= 0 && 0 == freePages)
        {
            // EAL was given no size (it grows its memory as the mempools need it), so only an empty reserve is sure
            // to fail; the advice is a size the appliance's defaults fit in.
            final long pages = (UNSIZED_ADVICE_MB * 1024 + pageKb - 1) / pageKb;
            missing.add("no free hugepages (HugePages_Free less HugePages_Rsvd in /proc/meminfo, pages of " + pageKb +
                " kB); for " + UNSIZED_ADVICE_MB + " MB, as root: echo " + (total + pages) +
                " > /proc/sys/vm/nr_hugepages");
        }
        else if (freeMegabytes < megabytes)
        {
            final long pagesMissing = ((megabytes - freeMegabytes) * 1024 + pageKb - 1) / pageKb;
            missing.add(megabytes + " MB of free hugepages are needed, the host has " + freeMegabytes + " MB (" +
                "HugePages_Free less HugePages_Rsvd in /proc/meminfo, pages of " + pageKb + " kB); as root: echo " +
                (total + pagesMissing) + " > /proc/sys/vm/nr_hugepages");
        }
        if (needsMount && !mounted(mounts))
        {
            missing.add("no hugetlbfs is mounted; as root: mkdir -p /dev/hugepages && mount -t hugetlbfs nodev " +
                "/dev/hugepages");
        }
        return missing.isEmpty() ? null : String.join("; and ", missing);
    }

    /**
     * @param mounts the lines of {@code /proc/mounts}.
     * @return whether one of them is a hugetlbfs.
     */
    static boolean mounted(final List<String> mounts)
    {
        for (final String line : mounts)
        {
            final String[] fields = line.trim().split("\\s+");
            if (fields.length > 2 && "hugetlbfs".equals(fields[2]))
            {
                return true;
            }
        }
        return false;
    }

    private static long field(final List<String> lines, final String name)
    {
        for (final String line : lines)
        {
            if (line.startsWith(name))
            {
                try
                {
                    return Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]);
                }
                catch (final NumberFormatException ex)
                {
                    return 0;
                }
            }
        }
        return 0;
    }

    private static List<String> read(final Path file)
    {
        try
        {
            return Files.readAllLines(file);
        }
        catch (final IOException ex)
        {
            return List.of();
        }
    }
}
