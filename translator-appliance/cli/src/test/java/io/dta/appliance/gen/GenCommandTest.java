package io.dta.appliance.gen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.cli.GenCommand;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.replay.Replay;
import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GenCommandTest
{
    @TempDir
    Path dir;

    private String stdout;
    private String stderr;

    @Test
    void shouldWriteACaptureWhoseFramesAllDecodeAsDta() throws IOException
    {
        final Path out = dir.resolve("reports.pcap");
        assertEquals(0, run("--out", out.toString(), "--reports", "3000", "--retransmittable", "--essential", "0.1"),
            stderr);
        final FrameDecoder decoder = new FrameDecoder().verifyUdpChecksum(true);
        long frames = 0;
        try (PcapReader reader = PcapReader.open(out))
        {
            while (reader.next())
            {
                assertEquals(FrameKind.DTA, decoder.decode(reader.buffer(), reader.offset(), reader.capturedLength()),
                    "frame " + frames + ": " + decoder.malformedReason());
                assertTrue(decoder.ipChecksumValid(), "frame " + frames);
                assertTrue(decoder.dtaBase().retransmittable(), "frame " + frames);
                assertEquals(GeneratorSettings.DEFAULT_START_TIME_SECONDS * 1_000_000_000L + frames * 1000,
                    reader.timestampNanos(), "frame " + frames);
                frames++;
            }
            assertFalse(reader.nanosecondResolution());
        }
        assertEquals(3000, frames);
        assertTrue(stdout.contains("wrote 3,000 reports"), stdout);
        assertTrue(stdout.contains("keywrite"), stdout);
        assertTrue(stdout.contains("10.0.1.4"), stdout);
        assertTrue(stdout.contains(String.format("%,d bytes", Files.size(out))), stdout);
        assertEquals("", stderr, "no progress bar for a short run off a terminal");
    }

    @Test
    void shouldWriteIdenticalFilesForTheSameSeed() throws IOException
    {
        final Path a = dir.resolve("a.pcap");
        final Path b = dir.resolve("b.pcap");
        final Path c = dir.resolve("c.pcap");
        final String[] common = { "--reports", "5000", "--keys", "zipf", "--redundancy", "1-4", "--bad", "0.05",
            "--essential", "0.3", "--retransmittable", "--reporters", "9", "--postcard-loss", "0.1" };
        assertEquals(0, run(concat(common, "--out", a.toString(), "--seed", "42")), stderr);
        assertEquals(0, run(concat(common, "--out", b.toString(), "--seed", "42")), stderr);
        assertEquals(0, run(concat(common, "--out", c.toString(), "--seed", "43")), stderr);
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        assertFalse(Arrays.equals(Files.readAllBytes(a), Files.readAllBytes(c)));
    }

    @Test
    void shouldPrintAJsonSummary() throws IOException
    {
        final Path out = dir.resolve("j.pcap");
        assertEquals(0, run("--out", out.toString(), "--reports", "4000", "--bad", "0.1", "--reporters", "3",
            "--json"), stderr);
        final JsonNode json = new ObjectMapper().readTree(stdout);
        assertEquals(4000, json.get("reports").asLong());
        assertEquals(Files.size(out), json.get("fileBytes").asLong());
        // JSON keys are camelCase (docs/naming.md): the primitives as the configuration names them.
        final String[] primitiveKeys = { "keyWrite", "append", "keyIncrement", "postcard", "sketch" };
        assertEquals(Primitive.values().length, primitiveKeys.length);
        assertEquals(Primitive.values().length, json.get("primitives").size(), stdout);
        long sum = 0;
        for (final String key : primitiveKeys)
        {
            sum += json.get("primitives").get(key).asLong();
        }
        final String[] badKeys =
            { "unknownOpcode", "redundancyZero", "redundancyAboveMax", "truncated", "unknownListId" };
        assertEquals(BadKind.values().length, badKeys.length);
        long bad = 0;
        for (final String kind : badKeys)
        {
            final long count = json.get("bad").get(kind).asLong();
            assertTrue(count > 0, kind + " missing: " + stdout);
            bad += count;
        }
        assertEquals(4000, sum + bad);
        assertEquals(sum, json.get("valid").asLong());
        assertEquals(3, json.get("reporters").size());
        long perReporter = 0;
        for (final JsonNode reporter : json.get("reporters"))
        {
            perReporter += reporter.get("reports").asLong();
        }
        assertEquals(4000, perReporter);
        assertEquals("10.0.1.1", json.get("reporters").get(0).get("ip").asText());
    }

    @Test
    void shouldWriteTheTwoByteFormAndNanosecondTimestamps() throws IOException
    {
        final Path out = dir.resolve("two.pcap");
        // The demo configuration translates only the 3-byte form; "auto" takes either.
        final Path config = dir.resolve("auto.yaml");
        Files.writeString(config, GenTestConfigs.demoYaml("auto"));
        assertEquals(0, run("--out", out.toString(), "--config", config.toString(), "--reports", "500",
            "--base-header", "2", "--spacing-nanos", "250", "--start-time", "1000"), stderr);
        final FrameDecoder decoder = new FrameDecoder().baseHeaderForm(DtaBaseHeaderForm.AUTO);
        long frames = 0;
        try (PcapReader reader = PcapReader.open(out))
        {
            assertTrue(reader.nanosecondResolution());
            while (reader.next())
            {
                assertEquals(FrameKind.DTA, decoder.decode(reader.buffer(), reader.offset(), reader.capturedLength()));
                assertEquals(DtaBaseHeaderForm.TWO, decoder.dtaBaseHeaderForm());
                assertEquals(1000_000_000_000L + 250 * frames, reader.timestampNanos());
                frames++;
            }
        }
        assertEquals(500, frames);
    }

    @Test
    void shouldUseAConfigurationFile() throws IOException
    {
        final Path config = dir.resolve("two.yaml");
        Files.writeString(config, GenTestConfigs.TWO_COLLECTORS);
        final Path out = dir.resolve("cfg.pcap");
        assertEquals(0, run("--out", out.toString(), "--config", config.toString(), "--reports", "200"), stderr);
        assertTrue(stderr.contains("postcard"), "the note on the left-out primitive: " + stderr);
        final FrameDecoder decoder = new FrameDecoder().dtaPort(40050).baseHeaderForm(DtaBaseHeaderForm.TWO)
            .keyWriteDataLength(12);
        try (PcapReader reader = PcapReader.open(out))
        {
            while (reader.next())
            {
                assertEquals(FrameKind.DTA, decoder.decode(reader.buffer(), reader.offset(), reader.capturedLength()));
            }
        }
    }

    @Test
    void shouldExitTwoNamingTheOptionOnBadArguments()
    {
        final String out = dir.resolve("x.pcap").toString();
        assertUsageError("--retransmittable", "--out", out, "--base-header", "2", "--retransmittable");
        assertUsageError("--essential", "--out", out, "--base-header", "2", "--essential", "0.5");
        assertUsageError("--mix", "--out", out, "--mix", "keywrite=1,sketchy=1");
        assertUsageError("--sketches", "--out", out, "--mix", "sketch=1", "--sketches", "9");
        assertUsageError("--switches", "--out", out, "--mix", "sketch=1", "--switches", "0");
        assertUsageError("--keys", "--out", out, "--keys", "pareto");
        assertUsageError("--essential", "--out", out, "--essential", "1.5");
        assertUsageError("--collector", "--out", out, "--collector", "10.9.9.9");
        assertUsageError("--collector", "--out", out, "--collector", "not-an-ip");
        assertUsageError("--lists", "--out", out, "--lists", "5");
        assertUsageError("--redundancy", "--out", out, "--redundancy", "9");
        assertUsageError("--hops", "--out", out, "--hops", "0");
        assertUsageError("--reports", "--out", out, "--reports", "-1");
        assertUsageError("--reports", "--out", out, "--reports", "many");
        assertUsageError("--out", "--reports", "10");
        // Worded as every command words a file it cannot read (ConfigOption, FileErrors), with the file's path.
        assertUsageError("cannot read " + dir.resolve("missing.yaml") + ": no such file or directory", "--out", out,
            "--config", dir.resolve("missing.yaml").toString());
        assertUsageError("--spacing-nanos", "--out", out, "--reports", "1000000", "--spacing-nanos",
            "3600000000000", "--start-time", "4294967000");
        assertFalse(Files.exists(dir.resolve("x.pcap")), "no file is written on a usage error");
    }

    @Test
    void shouldExitOneWhenTheFileCannotBeWritten()
    {
        assertEquals(1, run("--out", dir.resolve("no/such/dir/x.pcap").toString(), "--reports", "10"));
        assertTrue(stderr.contains("cannot write") && stderr.contains("no directory " + dir.resolve("no/such/dir")),
            stderr);
    }

    @Test
    void shouldRefuseWhatWouldBeSilentlyIgnoredOrMisread() throws IOException
    {
        final String out = dir.resolve("y.pcap").toString();
        assertUsageError("--mix: keywrite is named twice", "--out", out, "--mix", "keywrite=1,keywrite=0");
        assertUsageError("--mix: append is named twice", "--out", out, "--mix", "append=1,keywrite=1,append=2");
        assertUsageError("--sketches: needs sketch in --mix", "--out", out, "--sketches", "1");
        assertUsageError("--switches: needs sketch in --mix", "--out", out, "--mix", "keywrite=1", "--switches", "2");
        assertUsageError("--truth: would overwrite the capture", "--out", out, "--mix", "sketch=1", "--truth", out);
        // Through a symbolic link, also while the capture does not exist yet (the link dangles until it is written).
        final Path link = Files.createSymbolicLink(dir.resolve("truth-link.json"), dir.resolve("y.pcap"));
        assertUsageError("--truth: would overwrite the capture", "--out", out, "--mix", "sketch=1", "--truth",
            link.toString());
        assertFalse(Files.exists(dir.resolve("y.pcap")), "nothing written");
        assertUsageError("--epochs: 3 epochs from --first-epoch 4294967295 would pass", "--out", out, "--mix",
            "sketch=1", "--first-epoch", "4294967295", "--epochs", "3");
        assertFalse(Files.exists(dir.resolve("y.pcap")), "no file is written on a usage error");
    }

    @Test
    void shouldRefuseAListOrCollectorNamedTwiceAndQuoteTheRedundancyAsGiven()
    {
        final String out = dir.resolve("z.pcap").toString();
        // A repeated id was silently picked twice as often ("--lists 0,0,1" gave list 0 two thirds of the Appends),
        // while the options promise a uniform pick; --mix already refuses a name given twice.
        assertUsageError("--lists: list 0 is named twice", "--out", out, "--lists", "0,0x0,1");
        assertUsageError("--collector: 10.0.0.51 is named twice", "--out", out, "--collector", "10.0.0.51,10.0.0.51");
        // The message quoted "-1--1" and "0-0" for what was typed as -1 and 0.
        assertUsageError("--redundancy: must be N or MIN-MAX with 1 <= MIN <= MAX <= 255, not -1", "--out", out,
            "--redundancy", "-1");
        assertUsageError("--redundancy: must be N or MIN-MAX with 1 <= MIN <= MAX <= 255, not 0", "--out", out,
            "--redundancy", "0");
        assertUsageError("--redundancy: must be N or MIN-MAX with 1 <= MIN <= MAX <= 255, not 3-2", "--out", out,
            "--redundancy", "3-2");
        assertFalse(Files.exists(dir.resolve("z.pcap")), "no file is written on a usage error");
    }

    @Test
    void shouldRefuseHopsOrABaseHeaderTheConfiguredTranslatorWouldDrop() throws IOException
    {
        // "--mix postcard=1 --hops 8" reported 3000 valid reports, of which replay dropped 1125 as bad hops.
        final String out = dir.resolve("h.pcap").toString();
        assertUsageError("dta gen: --hops: 8 hops per flow exceed postcards.hops 5 of the configuration", "--out",
            out, "--mix", "postcard=1", "--hops", "8");
        assertUsageError("--hops: 6 hops per flow exceed postcards.hops 5", "--out", out, "--hops", "6");
        // A form the configured translator does not take: it would translate none of the "valid" reports.
        assertUsageError("dta gen: --base-header: form 2 does not match reports.baseHeader \"3\" of the " +
            "configuration", "--out", out, "--base-header", "2");
        final Path two = dir.resolve("two.yaml");
        Files.writeString(two, GenTestConfigs.TWO_COLLECTORS);
        assertUsageError("--base-header: form 3 does not match reports.baseHeader \"2\"", "--out", out,
            "--config", two.toString(), "--base-header", "3");
        assertFalse(Files.exists(dir.resolve("h.pcap")), "no file is written on a usage error");
        assertEquals(0, run("--out", out, "--reports", "100", "--mix", "postcard=1", "--hops", "5"), stderr);
        assertEquals(0, run("--out", out, "--reports", "100", "--config", two.toString(), "--base-header", "2"),
            stderr);
    }

    @Test
    void shouldReplayMoreReportersThanSketchSwitchAddressesWithoutSequenceGaps() throws IOException
    {
        // With 300 reporters, reporters 256 and up shared the addresses of sketch switches 0..43, each sender with
        // its own seqnum: replay dropped valid retransmittable reports as sequence gaps.
        final Path capture = dir.resolve("many.pcap");
        assertEquals(0, run("--out", capture.toString(), "--reports", "20000", "--reporters", "300", "--mix",
            "keywrite=1,sketch=1", "--retransmittable", "--json"), stderr);
        final JsonNode json = new ObjectMapper().readTree(stdout);
        assertEquals(300, json.get("reporters").size());
        assertTrue(json.get("reporters").get(299).get("reports").asLong() > 0, stdout);
        assertTrue(json.get("primitives").get("sketch").asLong() > 5000, stdout);
        final TranslatorEngine engine = Replay.run(ConfigDefaults.load(), capture, null, dir.resolve("out.pcap"));
        assertEquals(20000, engine.counters().get(EngineCounter.FRAMES_IN));
        assertEquals(0, engine.counters().get(EngineCounter.DROP_SEQUENCE_GAP));
    }

    @Test
    void shouldRefuseASketchOnlyRunThatWouldPassTheEndOfThePcapTimeRange()
    {
        // Without --reports a sketch-only run skipped the time-range check and died in the middle of writing with
        // an IllegalArgumentException stack trace, leaving a partial capture.
        final Path out = dir.resolve("late.pcap");
        assertUsageError("--spacing-nanos: the last of at least", "--out", out.toString(), "--mix", "sketch=1",
            "--start-time", "4294967295", "--spacing-nanos", "1000000000");
        assertFalse(stderr.contains("Exception"), stderr);
        assertFalse(Files.exists(out), "no file is written on a usage error");
        // Gaps add frames past the plain count: the check while writing catches them and removes the capture.
        // The demo configuration's sketches send 12,288 plain columns: one second apart, the last of them is stamped
        // in the last second of the range, so only the extra columns of the gaps pass it.
        final String start = Long.toString(4_294_967_295L - (12_288 - 1));
        assertEquals(0, run("--out", out.toString(), "--mix", "sketch=1", "--start-time", start,
            "--spacing-nanos", "1000000000", "--sketch-items", "10"), stderr);
        assertEquals(2, run("--out", out.toString(), "--mix", "sketch=1", "--sketch-gaps", "0.5",
            "--start-time", start, "--spacing-nanos", "1000000000", "--sketch-items", "10"), stderr);
        assertTrue(stderr.contains("--spacing-nanos: report ") && stderr.contains(out + " removed"), stderr);
        assertFalse(stderr.contains("Exception"), stderr);
        assertFalse(Files.exists(out), stderr);
    }

    @Test
    void shouldSayPlainlyThatTheOutputIsADirectory()
    {
        assertEquals(1, run("--out", dir.toString(), "--reports", "10"));
        assertEquals("dta gen: cannot write " + dir + ": is a directory", stderr.strip());
        assertEquals("", stdout);
    }

    @Test
    void shouldNameTheTruthFileItCannotWriteBeforeWritingTheCapture()
    {
        final Path out = dir.resolve("s.pcap");
        assertEquals(1, run("--out", out.toString(), "--mix", "sketch=1", "--truth",
            dir.resolve("no/such/dir/truth.json").toString()));
        assertTrue(stderr.contains("cannot write " + dir.resolve("no/such/dir/truth.json")) &&
            stderr.contains("no directory"), stderr);
        assertFalse(Files.exists(out), "the capture is not written when its truth cannot be");
    }

    @Test
    void shouldRenderTheProgressLine()
    {
        final String line = ProgressBar.render(250, 1000, 1_000_000_000L);
        assertTrue(line.startsWith("[#######......................."), line);
        assertTrue(line.contains("25.0%"), line);
        assertTrue(line.contains("250/1,000"), line);
        assertTrue(line.contains("ETA 3s"), line);
    }

    private void assertUsageError(final String option, final String... args)
    {
        assertEquals(2, run(args), "args " + Arrays.toString(args) + ": " + stderr);
        assertTrue(stderr.contains(option), "message should name " + option + ": " + stderr);
        assertEquals("", stdout, "nothing on stdout for a usage error");
    }

    private int run(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = new CommandLine(new GenCommand())
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true));
        final int exitCode = commandLine.execute(args);
        stdout = out.toString();
        stderr = err.toString();
        return exitCode;
    }

    private static String[] concat(final String[] first, final String... more)
    {
        final List<String> all = new ArrayList<>(Arrays.asList(first));
        all.addAll(Arrays.asList(more));
        return all.toArray(new String[0]);
    }
}
