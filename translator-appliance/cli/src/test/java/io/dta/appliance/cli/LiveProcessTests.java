package io.dta.appliance.cli;

import io.dta.dpdk.DpdkLibrary;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the EAL tests that run {@code dta} in child processes share: they need DPDK and root (virtual devices), and
 * whatever they start is killed, and the runtime directories of the EAL file prefixes they name are removed, when the
 * test ends, passed or not.
 */
abstract class LiveProcessTests
{
    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();
    private final List<String> prefixes = new ArrayList<>();

    @BeforeEach
    void needDpdk()
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary::unavailableReason);
        assumeTrue("root".equals(System.getProperty("user.name")), "DPDK virtual devices need root here");
    }

    @AfterEach
    void cleanUp() throws IOException
    {
        for (final Process p : processes)
        {
            p.destroyForcibly();
        }
        for (final String prefix : prefixes)
        {
            deleteTree(Path.of("/var/run/dpdk", prefix));
        }
    }

    /**
     * @param prefix an EAL file prefix for a child process.
     * @return the prefix, whose runtime directory is removed when the test ends.
     */
    final String prefix(final String prefix)
    {
        prefixes.add(prefix);
        return prefix;
    }

    /**
     * @param name the process's name: its stdout and stderr go to {@code dir/NAME.out} and {@code dir/NAME.err}.
     * @param args the {@code dta} arguments.
     * @return {@code dta} started in a child process, killed when the test ends.
     * @throws IOException if it cannot be started.
     */
    final Process start(final String name, final String... args) throws IOException
    {
        return killedAtEnd(ChildDta.start(dir.resolve(name + ".out"), dir.resolve(name + ".err"), args));
    }

    /**
     * @param process a child process started otherwise.
     * @return the process, killed when the test ends.
     */
    final Process killedAtEnd(final Process process)
    {
        processes.add(process);
        return process;
    }

    private static void deleteTree(final Path root) throws IOException
    {
        if (!Files.isDirectory(root))
        {
            return;
        }
        try (Stream<Path> files = Files.walk(root))
        {
            for (final Path p : files.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(p);
            }
        }
    }
}
