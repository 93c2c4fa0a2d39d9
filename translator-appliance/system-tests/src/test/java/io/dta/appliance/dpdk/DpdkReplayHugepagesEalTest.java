package io.dta.appliance.dpdk;

import io.dta.appliance.cli.ChildDta;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.replay.Replay;
import io.dta.config.ConfigDefaults;
import io.dta.dpdk.Eal;
import io.dta.dpdk.Hugepages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta replay --io dpdk --eal "--huge-unlink"}: a hugepage option drops the defaults' {@code --no-huge}, so
 * the EAL asks the host for hugepages. Where the host has them, the replay runs on them and gives the Java replay's
 * frames; where it lacks them, the replay is refused before the EAL starts, saying what is missing and how to
 * provide it (EAL itself only says "Cannot get hugepage information"). A child process: one EAL per process.
 */
class DpdkReplayHugepagesEalTest
{
    private static final long SEED = 0x4A6E_2026L;
    private static final int REPORTS = 2000;

    @TempDir
    Path dir;

    @Test
    void shouldReplayOnHugepagesOrSayWhatTheHostLacks() throws Exception
    {
        final Path reports = GeneratedReports.write(dir.resolve("reports.pcap"), ConfigDefaults.load(),
            new GeneratorSettings().seed(SEED).mix("keywrite=50,append=50").spacingNanos(500), REPORTS);
        final Path dpdkOut = dir.resolve("dpdk.pcap");
        // An earlier result of that name: replaced by a run, kept by a refusal that never touched it.
        Files.writeString(dpdkOut, "earlier result");
        final Path stdout = dir.resolve("replay.out");
        final Path stderr = dir.resolve("replay.err");
        final List<String> ealArgs = Eal.mergeArgs(Eal.virtualDeviceArgs("x", 0, 256), List.of("--huge-unlink"));
        assertFalse(ealArgs.contains(Eal.NO_HUGE), ealArgs.toString());
        final String missing = Hugepages.shortfallFor(ealArgs);

        final Process process = ChildDta.start(stdout, stderr, "replay", "--io", "dpdk", "--eal=--huge-unlink",
            "--in", reports.toString(), "--out", dpdkOut.toString(), "--json");
        if (!process.waitFor(120, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError("dta replay --io dpdk did not finish in 120 s: " + Files.readString(stderr));
        }
        final String err = Files.readString(stderr);
        if (null == missing)
        {
            assertEquals(0, process.exitValue(), err);
            final Path javaOut = dir.resolve("java.pcap");
            Replay.run(ConfigDefaults.load(), reports, null, javaOut);
            assertTrue(Files.size(javaOut) > REPORTS * 20L, "the Java replay wrote frames");
            assertEquals(-1L, Files.mismatch(javaOut, dpdkOut), "the replay on hugepages differs from the Java one");
            return;
        }
        assertEquals(1, process.exitValue(), err);
        assertTrue(err.contains("dta replay: hugepages: " + missing), err);
        assertTrue(err.contains("as root: "), err);
        assertEquals("earlier result", Files.readString(dpdkOut),
            "a refusal before the EAL leaves the output as it was");
        assertFalse(err.contains("removed"), err);
    }
}
