package io.dta.dpdk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

    private Hugepages()
    {
    }

    /**
     * @return the free memory in hugepages of the default size, in MB (0 when unknown).
     */
    public static long freeMegabytes()
    {
        return freeMegabytes(read(MEMINFO));
    }

    /**
     * @param meminfo the lines of {@code /proc/meminfo}.
     * @return {@code HugePages_Free} times {@code Hugepagesize}, in MB (0 when either is missing).
     */
    static long freeMegabytes(final List<String> meminfo)
    {
        final long free = field(meminfo, "HugePages_Free:");
        final long pageKb = field(meminfo, "Hugepagesize:");
        return free * pageKb / 1024;
    }

    /**
     * @return whether a hugetlbfs is mounted.
     */
    public static boolean mounted()
    {
        return mounted(read(MOUNTS));
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

    /**
     * @param megabytes the memory the EAL will take ({@code -m}).
     * @return null when the host can give it, else what is missing and how an operator provides it.
     */
    public static String shortfall(final long megabytes)
    {
        return shortfall(megabytes, freeMegabytes(), mounted());
    }

    static String shortfall(final long megabytes, final long freeMegabytes, final boolean mounted)
    {
        if (freeMegabytes >= megabytes && mounted)
        {
            return null;
        }
        final StringBuilder what = new StringBuilder();
        if (freeMegabytes < megabytes)
        {
            what.append(megabytes).append(" MB of free hugepages are needed, the host has ").append(freeMegabytes)
                .append(" MB (HugePages_Free in /proc/meminfo)");
        }
        if (!mounted)
        {
            what.append(what.isEmpty() ? "" : " and ").append("no hugetlbfs is mounted");
        }
        return what + "; as root: echo " + (megabytes / 2 + 8) +
            " > /proc/sys/vm/nr_hugepages (2 MB pages) and mount -t hugetlbfs nodev /dev/hugepages";
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
