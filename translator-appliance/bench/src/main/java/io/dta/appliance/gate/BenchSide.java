package io.dta.appliance.gate;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One side of a gate: how to start {@code dta} for it, each round in a JVM of its own. The baseline is its
 * directory's launcher ({@code DIR/bin/dta}); this build is the JVM running the gate started again: the same java,
 * the same flags (those its launcher gave it) and the same jar or class path.
 *
 * @param name    "candidate" or "baseline".
 * @param command the program and the arguments before {@code dta}'s own.
 */
public record BenchSide(String name, List<String> command)
{
    /**
     * @param dir a directory with an executable {@code bin/dta}.
     * @return the baseline side.
     */
    public static BenchSide baseline(final Path dir)
    {
        return new BenchSide("baseline", List.of(dir.resolve("bin").resolve("dta").toAbsolutePath().toString()));
    }

    /**
     * @return this build as its launcher started it.
     */
    public static BenchSide thisBuild()
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        final String classPath = System.getProperty("java.class.path");
        final String started = System.getProperty("sun.java.command", "");
        if (classPath.endsWith(".jar") && !classPath.contains(java.io.File.pathSeparator) &&
            started.startsWith(classPath))
        {
            // Started with -jar: again so, for the manifest's Enable-Native-Access and Add-Opens.
            command.add("-jar");
            command.add(classPath);
        }
        else
        {
            command.add("-cp");
            command.add(classPath);
            command.add(started.split(" ", 2)[0]);
        }
        return new BenchSide("candidate", List.copyOf(command));
    }

    /**
     * @param pin the CPU every round of this side runs on.
     * @return this side, its rounds pinned.
     */
    public BenchSide pinned(final CpuPin pin)
    {
        final List<String> pinned = new ArrayList<>(pin.prefix());
        pinned.addAll(command);
        return new BenchSide(name, List.copyOf(pinned));
    }

    /**
     * Runs one round: {@code dta bench ARGS --json}.
     *
     * @param benchArgs the arguments after {@code bench}, without {@code --json}.
     * @param scratch   a directory for the child's standard error.
     * @return the round's JSON result.
     * @throws IOException          when the child cannot start.
     * @throws InterruptedException when interrupted while it runs.
     * @throws RoundFailed          when it exits other than 0 or prints no JSON object.
     */
    public Map<String, Object> round(final List<String> benchArgs, final Path scratch)
        throws IOException, InterruptedException, RoundFailed
    {
        final List<String> cmd = new ArrayList<>(command);
        cmd.add("bench");
        cmd.addAll(benchArgs);
        cmd.add("--json");
        final Path err = Files.createTempFile(scratch, name, ".err");
        final Path out = Files.createTempFile(scratch, name, ".out");
        final Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null")
            .toFile())).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        final int status = p.waitFor();
        final List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        final String errText = Files.readString(err, StandardCharsets.UTF_8).strip();
        if (0 != status)
        {
            throw new RoundFailed(name + " exited " + status + (errText.isEmpty() ? "" : ": " + errText));
        }
        for (int i = lines.size() - 1; i >= 0; i--)
        {
            if (lines.get(i).startsWith("{"))
            {
                return new ObjectMapper().readValue(lines.get(i), new TypeReference<Map<String, Object>>() { });
            }
        }
        throw new RoundFailed(name + " printed no JSON result" + (errText.isEmpty() ? "" : ": " + errText));
    }

    /**
     * A round that gave no result: the gate cannot judge.
     */
    public static final class RoundFailed extends Exception
    {
        private static final long serialVersionUID = 1L;

        RoundFailed(final String message)
        {
            super(message);
        }
    }
}
