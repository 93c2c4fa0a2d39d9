package io.dta.appliance.cli;

import io.dta.appliance.engine.TestFrames;
import io.dta.codec.DtaOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every subcommand says in one line of words which file it could not write and why (no Java exception text, no bare
 * path), and words an invalid configuration the same way.
 */
class FileErrorWordingTest
{
    private static final String BAD_CONFIG = """
        translator: {mac: "zz", ip: 1.2.3}
        collectors: []
        """;

    @TempDir
    Path dir;

    @Test
    void shouldSayInWordsWhyGenCannotWriteItsCapture()
    {
        // /proc refuses to create a file even for root: the exception's message was only the path.
        assertOneLine(1, "dta gen: cannot write /proc/x.pcap: no such file or directory",
            CliRunner.run("gen", "--reports", "10", "--out", "/proc/x.pcap"));
        assumeTrue(Files.exists(Path.of("/dev/full")), "a Linux /dev/full");
        assertOneLine(1, "dta gen: cannot write /dev/full: no space left on device",
            CliRunner.run("gen", "--reports", "10", "--out", "/dev/full"));
    }

    @Test
    void shouldSayInWordsWhyGenCannotWriteItsTruth()
    {
        assertOneLine(1, "dta gen: cannot write --truth /proc/t.json: no such file or directory",
            CliRunner.run("gen", "--mix", "sketch=1", "--sketch-items", "10", "--out",
                dir.resolve("s.pcap").toString(), "--truth", "/proc/t.json"));
    }

    @Test
    void shouldSayInWordsWhyReplayCannotWriteItsCapture() throws Exception
    {
        final Path in = reports();
        assertOneLine(1, "dta replay: cannot write /proc/x.pcap: no such file or directory",
            CliRunner.run("replay", "--in", in.toString(), "--out", "/proc/x.pcap"));
        assumeTrue(Files.exists(Path.of("/dev/full")), "a Linux /dev/full");
        assertOneLine(1, "dta replay: cannot write /dev/full: no space left on device",
            CliRunner.run("replay", "--in", in.toString(), "--out", "/dev/full"));
    }

    @Test
    void shouldSayInWordsWhyTheOfflineCollectorCannotWriteItsResponses() throws Exception
    {
        final Path in = reports();
        assertOneLine(1, "dta collector: cannot write /proc/x.pcap: no such file or directory",
            CliRunner.run("collector", "--in", in.toString(), "--out", "/proc/x.pcap", "--store",
                dir.resolve("store1").toString()));
        assumeTrue(Files.exists(Path.of("/dev/full")), "a Linux /dev/full");
        assertOneLine(1, "dta collector: cannot write /dev/full: no space left on device",
            CliRunner.run("collector", "--in", in.toString(), "--out", "/dev/full", "--store",
                dir.resolve("store2").toString()));
    }

    @Test
    void shouldSayInWordsWhyDecodeCannotReadADirectory()
    {
        assertOneLine(1, "dta decode: cannot read " + dir + ": is a directory",
            CliRunner.run("decode", dir.toString()));
    }

    @Test
    void shouldSayInWordsWhyAStoreCannotBeCreated() throws Exception
    {
        // Worded in collector-lib: was "cannot create store /proc/x/demo-collector: /proc/x", no reason.
        final String expected = "cannot create store /proc/x/demo-collector: /proc/x: no such file or directory";
        assertOneLine(1, "dta demo: " + expected, CliRunner.run("demo", "--store", "/proc/x"));
        assertOneLine(1, "dta collector: " + expected, CliRunner.run("collector", "--in", reports().toString(),
            "--out", dir.resolve("out.pcap").toString(), "--store", "/proc/x"));
        // A file where the store should be: was the path twice and "Not a directory".
        final Path file = Files.writeString(dir.resolve("file"), "x");
        assertOneLine(1, "dta demo: cannot create store " + file.resolve("demo-collector") + ": not a directory",
            CliRunner.run("demo", "--store", file.toString()));
    }

    @Test
    void shouldSayInWordsWhyAQueryCannotReadItsStore() throws Exception
    {
        // A file where the store should be: was "no store for collector ...: F/... is missing".
        final Path file = Files.writeString(dir.resolve("file"), "x");
        assertOneLine(1, "dta query keywrite: cannot read " +
            file.resolve("demo-collector").resolve("manifest.properties") + ": not a directory",
            CliRunner.run("query", "--store", file.toString(), "keywrite", "--key", "1"));
        // A missing store keeps its own words, which say what to do.
        final CliRunner.Result missing = CliRunner.run("query", "--store", dir.resolve("none").toString(),
            "keywrite", "--key", "1");
        assertEquals(1, missing.exitCode(), missing.err());
        assertTrue(missing.err().contains("no store for collector 'demo-collector'"), missing.err());
    }

    @Test
    void shouldSayInWordsWhyAnInputCannotBeRead() throws Exception
    {
        final Path missing = dir.resolve("missing");
        final String reason = ": no such file or directory";
        // Each was "no such file", ConfigLoader's own words, the bare path (collector) or (--keys) the path twice.
        assertOneLine(2, "dta replay: cannot read " + missing + reason,
            CliRunner.run("replay", "--config", missing.toString(), "--in", reports().toString(), "--out",
                dir.resolve("out.pcap").toString()));
        assertOneLine(1, "dta replay: cannot read " + missing + reason,
            CliRunner.run("replay", "--in", missing.toString(), "--out", dir.resolve("out.pcap").toString()));
        assertOneLine(1, "dta decode: cannot read " + missing + reason, CliRunner.run("decode", missing.toString()));
        assertOneLine(1, "dta collector: cannot read " + missing + reason, CliRunner.run("collector", "--in",
            missing.toString(), "--out", dir.resolve("out.pcap").toString(), "--store", dir.resolve("s").toString()));
        assertOneLine(1, "dta demo: cannot read --in " + missing + reason,
            CliRunner.run("demo", "--in", missing.toString()));
        assertOneLine(2, "dta query keywrite: cannot read " + missing + reason,
            CliRunner.run("query", "--store", dir.toString(), "keywrite", "--keys", missing.toString()));
    }

    @Test
    void shouldWordAnInvalidConfigurationAlikeInEveryCommand() throws Exception
    {
        final Path config = dir.resolve("bad.yaml");
        Files.writeString(config, BAD_CONFIG);
        final Path in = reports();
        final String out = dir.resolve("out.pcap").toString();
        final List<String[]> runs = new ArrayList<>();
        runs.add(new String[] { "gen", "--config", config.toString(), "--out", out });
        runs.add(new String[] { "replay", "--config", config.toString(), "--in", in.toString(), "--out", out });
        runs.add(new String[] { "demo", "--config", config.toString() });
        for (final String[] args : runs)
        {
            final CliRunner.Result r = CliRunner.run(args);
            assertEquals(2, r.exitCode(), args[0] + ": " + r.err());
            final String[] lines = r.err().strip().split("\\R");
            assertEquals("dta " + args[0] + ": " + config + ": invalid configuration (3 problems):", lines[0],
                r.err());
            assertEquals(4, lines.length, r.err());
            assertEquals("  collectors: empty; at least one collector is required", lines[3], r.err());
        }
    }

    private Path reports() throws Exception
    {
        final Path in = dir.resolve("reports.pcap");
        PcapFiles.write(in, TestFrames.report(DtaOpcode.KEY_WRITE, TestFrames.keyWrite(1, 7, new byte[4])));
        return in;
    }

    private static void assertOneLine(final int exitCode, final String expected, final CliRunner.Result r)
    {
        assertEquals(exitCode, r.exitCode(), r.err());
        assertEquals(expected, r.err().strip(), "one line, in words");
        assertFalse(r.err().contains("Exception"), r.err());
        assertTrue(r.out().isEmpty(), r.out());
    }
}
