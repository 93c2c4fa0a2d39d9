package io.dta.appliance.cli;

import io.dta.dpdk.Eal;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;

/**
 * The EAL options of the live commands ({@code dta run}, {@code dta collector --port}): either the whole EAL command
 * line with {@code --eal "..."}, or the common pieces as options of their own ({@code --vdev}, {@code -l},
 * {@code --file-prefix}, {@code -m}), which also complete an {@code --eal} line.
 */
final class EalOptions
{
    /** Memory for the mempools with --no-huge, in MB, when not given. */
    static final int DEFAULT_MEMORY_MB = 256;

    @Option(names = "--eal", paramLabel = "ARGS", preprocessor = EalLinePreprocessor.class,
        description = "EAL arguments, separated by spaces (e.g. \"-l 1 -a 0000:3b:00.0 --file-prefix=dta\"); " +
            "without it the EAL runs on virtual devices only: -l 0 --no-huge -m 256 --no-pci")
    String eal = "";

    @Option(names = "--vdev", paramLabel = "SPEC",
        description = "a DPDK virtual device, e.g. net_memif0,role=client,socket=/tmp/dta.sock (repeatable)")
    List<String> vdevs = new ArrayList<>();

    @Option(names = { "-l", "--lcores" }, paramLabel = "CORES",
        description = "EAL core list; the first core runs the data plane (default 0). A list that maps lcores to " +
            "CPUs (e.g. 0@0,1@1,2@0,3@1: four workers on two CPUs) is given to the EAL as --lcores")
    String lcores;

    @Option(names = "--file-prefix", paramLabel = "NAME",
        description = "EAL file prefix, distinct per DPDK process on a host (default: dta-ROLE-PID)")
    String filePrefix;

    @Option(names = { "-m", "--memory" }, paramLabel = "MB",
        description = "EAL memory in MB with --no-huge (default " + DEFAULT_MEMORY_MB + "; about 2.4 KB per mbuf + 64)")
    Integer memoryMb;

    /**
     * @return true when any EAL option was given.
     */
    boolean given()
    {
        return !eal.isBlank() || !vdevs.isEmpty() || null != lcores || null != filePrefix || null != memoryMb;
    }

    /**
     * An option that says again what the {@code --eal} line says (a file prefix, cores, memory) would leave the EAL
     * to take whichever comes last: refused instead.
     *
     * @return what contradicts, or null.
     */
    String contradiction()
    {
        final List<String> line = eal.isBlank() ? List.of() : List.of(eal.trim().split("\\s+"));
        if (null != filePrefix && line.stream().anyMatch(a -> a.startsWith("--file-prefix")))
        {
            return "--file-prefix and a --file-prefix in --eal contradict each other: give one";
        }
        if (null != lcores && line.stream().anyMatch(a -> a.equals("-l") || a.startsWith("-l") && a.length() > 2 ||
            a.startsWith("--lcores") || a.equals("-c") || a.startsWith("--main-lcore")))
        {
            return "-l/--lcores and the cores in --eal contradict each other: give one";
        }
        if (null != memoryMb && line.stream().anyMatch(a -> a.equals("-m") || a.startsWith("--socket-mem")))
        {
            return "-m/--memory and the memory in --eal contradict each other: give one";
        }
        return null;
    }

    /**
     * @return {@code -l} for a plain core list; {@code --lcores} for one that maps lcores to CPUs ({@code @}) or
     * groups them ({@code (...)}), which {@code -l} does not take.
     */
    private String coreOption()
    {
        return null != lcores && (lcores.indexOf('@') >= 0 || lcores.indexOf('(') >= 0) ? "--lcores" : "-l";
    }

    /**
     * The EAL arguments: the {@code --eal} line (or the virtual-device defaults), completed by the other options, and
     * a file prefix unique to this process when none is given.
     *
     * @param role "run" or "collector", for the default file prefix.
     * @return the arguments, without the program name.
     */
    List<String> args(final String role)
    {
        final List<String> args = new ArrayList<>();
        final List<String> line = eal.isBlank() ? List.of() : List.of(eal.trim().split("\\s+"));
        if (line.isEmpty())
        {
            args.addAll(List.of(coreOption(), null == lcores ? "0" : lcores, "--no-huge", "-m",
                Integer.toString(null == memoryMb ? DEFAULT_MEMORY_MB : memoryMb), "--no-pci",
                "--log-level=lib.eal:warning", "--no-telemetry"));
        }
        else
        {
            args.addAll(line);
            if (null != lcores)
            {
                args.addAll(List.of(coreOption(), lcores));
            }
            if (null != memoryMb)
            {
                args.addAll(List.of("-m", Integer.toString(memoryMb)));
            }
        }
        final boolean prefixGiven = line.stream().anyMatch(a -> a.startsWith("--file-prefix"));
        if (null != filePrefix)
        {
            args.add("--file-prefix=" + filePrefix);
        }
        else if (!prefixGiven)
        {
            args.add("--file-prefix=" + Eal.uniqueFilePrefix("dta-" + role + "-"));
        }
        for (final String vdev : vdevs)
        {
            args.add("--vdev=" + vdev);
        }
        return args;
    }
}
