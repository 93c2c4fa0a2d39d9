package io.dta.appliance.cli;

import io.dta.dpdk.DpdkLibrary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Bad EAL arguments: the EAL prints its usage text with printf, and it must not reach a command's stdout (where a
 * {@code --json} consumer reads). A process of its own, since an EAL can be initialised once per process.
 */
class BadEalArgsEalTest
{
    @TempDir
    Path dir;

    @Test
    void shouldKeepTheEalUsageTextOffStdout() throws Exception
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary::unavailableReason);
        assumeTrue("root".equals(System.getProperty("user.name")), "DPDK virtual devices need root here");

        final Path out = dir.resolve("bench.out");
        final Path err = dir.resolve("bench.err");
        final Process process = ChildDta.start(out, err, "bench", "--io", "dpdk", "--primitive", "keywrite",
            "--reports", "64", "--warmup", "0", "--json", "--eal", "--no-such-eal-option");
        if (!process.waitFor(60, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError("bench did not end");
        }
        final String stderr = Files.readString(err);
        assertEquals(1, process.exitValue(), stderr);
        assertEquals("", Files.readString(out), "stdout must stay clean for --json consumers; stderr: " + stderr);
        assertTrue(stderr.contains("rte_eal_init failed"), stderr);
        assertTrue(stderr.contains("EAL common options"), "the EAL's usage text goes to stderr: " + stderr);
    }
}
