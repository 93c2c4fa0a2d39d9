package io.dta.appliance.cli;

import io.dta.appliance.state.ListRegion;
import io.dta.appliance.state.PreviousRun;
import io.dta.appliance.state.ResumeStateFile;
import io.dta.appliance.state.ResumeStateLayout;
import io.dta.appliance.stat.CountersFile;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta run}'s list state file, without an EAL: where it is by default, and that a file it cannot resume from is
 * refused before anything starts (no counters file, no EAL), with the file named and the way out.
 */
class RunListStateTest
{
    @TempDir
    Path dir;

    @Test
    void shouldPlaceTheStateFileNextToTheCountersFileUnlessToldOtherwise()
    {
        final Path counters = dir.resolve("translator.counters");
        final PreviousRun next = RunCommand.readListState(counters, null, false);
        assertEquals(dir.resolve("translator.lists"), next.path());
        assertNull(next.lists(), "no file yet: nothing to resume");
        assertEquals(dir.resolve("mine.lists"),
            RunCommand.readListState(counters, dir.resolve("mine.lists"), false).path());
        assertEquals(CountersFile.defaultPath("translator").resolveSibling("translator.lists"),
            ResumeStateFile.defaultPath(CountersFile.defaultPath("translator")));
    }

    @Test
    void shouldRefuseATruncatedStateFileBeforeStartingAnything() throws Exception
    {
        final Path counters = dir.resolve("translator.counters");
        final Path state = dir.resolve("translator.lists");
        Files.write(state, new byte[] {0x44, 0x54, 0x41});
        final CliRunner.Result result = CliRunner.run("run", "--counters", counters.toString());
        assertEquals(1, result.exitCode(), result.err());
        assertEquals("dta run: list state file " + state + " is truncated: 3 bytes, shorter than its 64-byte " +
            "header; " + ResumeStateFile.WAY_OUT, result.err().strip());
        assertFalse(Files.exists(counters), "refused before the counters file is created");
    }

    @Test
    void shouldRefuseAStateFileOfAnotherVersionNamedWithStateFile() throws Exception
    {
        final Path state = dir.resolve("elsewhere.lists");
        try (ResumeStateFile file = ResumeStateFile.create(ResumeStateFile.read(state, false),
            ListRegion.allOf(ConfigDefaults.load()), 1))
        {
            assertTrue(file.listCount() > 0, "the demo configuration has lists");
        }
        final byte[] bytes = Files.readAllBytes(state);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(ResumeStateLayout.VERSION_OFFSET, 7);
        Files.write(state, bytes);
        final CliRunner.Result result = CliRunner.run("run", "--counters", dir.resolve("c.counters").toString(),
            "--state-file", state.toString());
        assertEquals(1, result.exitCode(), result.err());
        assertTrue(result.err().startsWith("dta run: list state file " + state + " has layout version 7; this dta " +
            "reads versions 1 and 2; start with --fresh-lists"), result.err());
    }

    @Test
    void shouldDocumentTheOptions()
    {
        final CliRunner.Result help = CliRunner.run("run", "--help");
        assertEquals(0, help.exitCode());
        assertTrue(help.out().contains("--state-file=FILE"), help.out());
        assertTrue(help.out().contains("--fresh-lists"), help.out());
        assertTrue(help.out().contains("/dev/shm/dta/translator.lists"), help.out());
    }
}
