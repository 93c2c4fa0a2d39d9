package io.dta.perf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code dta} in a JVM of its own (DPDK allows one EAL per process), with this JVM's flags and the shim and C
 * reference loop this module's tests were given.
 */
final class ChildDta
{
    /**
     * What a run printed and how it ended.
     *
     * @param exitCode the exit status.
     * @param out      its stdout.
     * @param err      its stderr.
     */
    record Run(int exitCode, String out, String err)
    {
    }

    private ChildDta()
    {
    }

    /**
     * @param dir            where its stdout and stderr go ({@code name.out}, {@code name.err}).
     * @param name           the run's name, in the file names and in a failure.
     * @param timeoutSeconds how long it may take before it is killed and the test fails.
     * @param args           the {@code dta} arguments.
     * @return what it printed and its exit status.
     * @throws Exception if it cannot be started or its output read.
     */
    static Run run(final Path dir, final String name, final int timeoutSeconds, final String... args)
        throws Exception
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
        command.add("-Ddta.cref=" + System.getProperty("dta.cref"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("io.dta.appliance.cli.DtaCommand");
        command.addAll(List.of(args));
        final Path stdout = dir.resolve(name + ".out");
        final Path stderr = dir.resolve(name + ".err");
        final Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile()).start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError(name + ": dta did not finish in " + timeoutSeconds + " s\nstderr: " +
                Files.readString(stderr));
        }
        return new Run(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
    }
}
