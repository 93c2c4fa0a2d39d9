package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;

/**
 * Polls a live child process's counters through {@code dta stat --json --all}, as an operator would, for the EAL tests
 * that start {@code dta run} or {@code dta collector} in JVMs of their own ({@link ChildDta}).
 */
final class LiveStat
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private LiveStat()
    {
    }

    /**
     * Waits until the counters satisfy {@code done}, the process ends or the time is up.
     *
     * @param counters      the process's counters file.
     * @param process       the process writing it.
     * @param logs          directory of the process's {@code NAME.out} and {@code NAME.err} (NAME from the counters
     *                      file's name), shown when the wait fails.
     * @param timeoutMillis how long to wait.
     * @param done          what to wait for.
     * @return the first sample that satisfied {@code done}.
     * @throws AssertionError when none did, with the last sample and the process's output.
     * @throws Exception      when interrupted or a sample is not JSON.
     */
    static JsonNode await(
        final Path counters,
        final Process process,
        final Path logs,
        final long timeoutMillis,
        final Predicate<JsonNode> done) throws Exception
    {
        final long deadline = System.currentTimeMillis() + timeoutMillis;
        JsonNode last = null;
        while (System.currentTimeMillis() < deadline && process.isAlive())
        {
            if (Files.isRegularFile(counters))
            {
                final CliRunner.Result result =
                    CliRunner.run("stat", "--counters", counters.toString(), "--json", "--all");
                if (0 == result.exitCode())
                {
                    last = JSON.readTree(result.out());
                    if (done.test(last))
                    {
                        return last;
                    }
                }
            }
            Thread.sleep(50);
        }
        final String name = counters.getFileName().toString().replace(".counters", "");
        throw new AssertionError("waiting on " + counters + " (alive " + process.isAlive() + "), last " + last +
            "\nout: " + readQuietly(logs.resolve(name + ".out")) + "\nerr: " + readQuietly(logs.resolve(name + ".err")));
    }

    private static String readQuietly(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
    }
}
