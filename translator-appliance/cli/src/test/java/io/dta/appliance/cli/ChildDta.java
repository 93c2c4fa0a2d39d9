package io.dta.appliance.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts {@code dta} in a JVM of its own, as tests that need a second EAL (DPDK allows one per process) or a process
 * that can be signalled: the test JVM's java, its flags ({@code dta.jvm.flags}), the shim it found and its class path.
 */
public final class ChildDta
{
    private ChildDta()
    {
    }

    /**
     * @param stdout where the child's standard output goes.
     * @param stderr where its standard error goes.
     * @param args   the {@code dta} command line, e.g. {@code "bench", "--io", "dpdk", ...}.
     * @return the started process.
     * @throws IOException if it cannot be started.
     */
    public static Process start(final Path stdout, final Path stderr, final String... args) throws IOException
    {
        return start(List.of(), stdout, stderr, args);
    }

    /**
     * @param jvmOptions more options for the child's JVM (e.g. {@code -Djava.io.tmpdir=...}).
     * @param stdout     where the child's standard output goes.
     * @param stderr     where its standard error goes.
     * @param args       the {@code dta} command line.
     * @return the started process.
     * @throws IOException if it cannot be started.
     */
    public static Process start(
        final List<String> jvmOptions, final Path stdout, final Path stderr, final String... args) throws IOException
    {
        return new ProcessBuilder(command(jvmOptions, args)).redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile()).start();
    }

    /**
     * @param args the {@code dta} command line.
     * @return the command that runs it in a JVM of its own (the program first).
     */
    public static List<String> command(final String... args)
    {
        return command(List.of(), args);
    }

    private static List<String> command(final List<String> jvmOptions, final String... args)
    {
        final List<String> command = new ArrayList<>();
        if (sigintIgnored())
        {
            // A test run started in the background by a script inherits SIGINT ignored, and so would the child: the
            // JVM installs no handler over an inherited SIG_IGN (LiveRunner warns of it). Reset it, as a shell
            // cannot, so that a test signalling the child sees what an interactive user sees.
            command.addAll(List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec { $ARGV[0] } @ARGV or die \"$!\\n\""));
        }
        command.add(ProcessHandle.current().info().command().orElseThrow());
        for (final String flag : System.getProperty("dta.jvm.flags", "").trim().split("\\s+"))
        {
            if (!flag.isEmpty())
            {
                command.add(flag);
            }
        }
        command.addAll(jvmOptions);
        command.add("-Ddta.shim=" + System.getProperty("dta.shim"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(DtaCommand.class.getName());
        command.addAll(List.of(args));
        return command;
    }

    private static boolean sigintIgnored()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("SigIgn:"))
                {
                    return 0 != (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & 2);
                }
            }
            return false;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }
}
