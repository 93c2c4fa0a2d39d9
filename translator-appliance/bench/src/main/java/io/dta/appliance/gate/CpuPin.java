package io.dta.appliance.gate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The CPU every round of a gate runs on, both sides alike ({@code taskset -c CPU} before each side's launcher). On a
 * shared or virtual machine the CPUs need not run at one speed: on the 2-vCPU hosts these gates were built on, a
 * round that ran on one vCPU measured 13.5–14.2 M Key-Write reports per CPU second and on the other 18.7–20.3 M, for
 * minutes at a time, so that unpinned rounds fell into two modes by where the scheduler put them and the medians of
 * a few rounds could differ by 20 % between two identical builds. Pinned, both sides meet the same CPU.
 *
 * @param cpu the CPU, or -1 for none (rounds go where the scheduler puts them).
 */
public record CpuPin(int cpu)
{
    /** No pinning. */
    public static final CpuPin NONE = new CpuPin(-1);

    /**
     * @return the last CPU this process may run on (CPU 0 is the one most likely to take the machine's interrupts), or
     * {@link #NONE} when that cannot be read or {@code taskset} is not there.
     */
    public static CpuPin lastAllowed()
    {
        if (!tasksetAvailable())
        {
            return NONE;
        }
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("Cpus_allowed_list:"))
                {
                    return new CpuPin(lastOf(line.substring(line.indexOf(':') + 1).trim()));
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            return NONE;
        }
        return NONE;
    }

    /**
     * @param list a CPU list as the kernel writes it ({@code 0-3,8,10-11}).
     * @return its highest CPU.
     */
    static int lastOf(final String list)
    {
        int last = -1;
        for (final String part : list.split(","))
        {
            final String p = part.trim();
            final int dash = p.indexOf('-');
            last = Math.max(last, Integer.parseInt(dash >= 0 ? p.substring(dash + 1) : p));
        }
        if (last < 0)
        {
            throw new IllegalArgumentException("no CPU in '" + list + "'");
        }
        return last;
    }

    /**
     * @return whether util-linux's {@code taskset} can be run.
     */
    public static boolean tasksetAvailable()
    {
        for (final String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":"))
        {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "taskset")))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @return the words to put before a side's command.
     */
    public List<String> prefix()
    {
        return cpu < 0 ? List.of() : List.of("taskset", "-c", Integer.toString(cpu));
    }

    /**
     * @return the pinning as the result shows it: the CPU, or "none".
     */
    public Object describe()
    {
        return cpu < 0 ? "none" : (Object)cpu;
    }
}
