package io.dta.appliance.cli;

import java.io.IOException;
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
        return new ProcessBuilder(command(args)).redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
            .start();
    }

    /**
     * @param args the {@code dta} command line.
     * @return the command that runs it in a JVM of its own (the program first).
     */
    public static List<String> command(final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        for (final String flag : System.getProperty("dta.jvm.flags", "").trim().split("\\s+"))
        {
            if (!flag.isEmpty())
            {
                command.add(flag);
            }
        }
        command.add("-Ddta.shim=" + System.getProperty("dta.shim"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(DtaCommand.class.getName());
        command.addAll(List.of(args));
        return command;
    }
}
