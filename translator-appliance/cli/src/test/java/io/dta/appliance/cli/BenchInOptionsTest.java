package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.bench.BenchCaptures;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ConfigDefaults;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta bench --in}: which options go with it, the file errors in {@code dta replay}'s words, and what it prints:
 * frames fed, the reports among them and the drops by reason, as {@code dta replay --json} names and counts them.
 */
class BenchInOptionsTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int REPORTS = 2000;

    @TempDir
    Path dir;

    @Test
    void shouldTakeExactlyOneOfPrimitiveAndIn() throws Exception
    {
        final String message = "give exactly one of --primitive (synthetic reports) and --in (a capture)";
        refused(message, "bench");
        refused(message, "bench", "--primitive", "keywrite", "--in", capture().toString());
    }

    @Test
    void shouldRefuseNegotiatedRegionsForSyntheticReportsAndCapturesAlike() throws Exception
    {
        // --primitive ended in the engine's IllegalArgumentException and its stack trace.
        final String config = Files.writeString(dir.resolve("negotiated.yaml"), ConnectionCliTest.NEGOTIATED)
            .toString();
        final String message = "the configuration has negotiated regions (servicePort); bench is open loop towards " +
            "the collectors and needs static regions (qpn, rkey and address configured)";
        refused(message, "bench", "--config", config, "--primitive", "keywrite", "--reports", "1000");
        refused(message, "bench", "--config", config, "--in", capture().toString());
    }

    @Test
    void shouldRefuseTheOptionsOfSyntheticReportsWithACapture() throws Exception
    {
        final String in = capture().toString();
        for (final String[] option : new String[][] { { "--redundancy", "2" }, { "--switches", "4" },
            { "--source-reports", "1000" } })
        {
            refused(option[0] + " shapes the synthetic reports of --primitive; with --in the capture's frames are " +
                "fed as they are", "bench", "--in", in, option[0], option[1]);
        }
    }

    @Test
    void shouldSayWhyAFileCannotBeBenchedInOneLineAsReplayDoes() throws Exception
    {
        final Path missing = dir.resolve("missing.pcap");
        oneLine(1, "dta bench: cannot read " + missing + ": no such file or directory",
            CliRunner.run("bench", "--in", missing.toString()));
        oneLine(1, "dta bench: cannot read " + dir + ": is a directory",
            CliRunner.run("bench", "--in", dir.toString()));
        final Path text = Files.writeString(dir.resolve("notes.txt"), "not a capture at all, just some words\n");
        final CliRunner.Result bench = CliRunner.run("bench", "--in", text.toString());
        final CliRunner.Result replay = CliRunner.run("replay", "--in", text.toString(), "--out",
            dir.resolve("out.pcap").toString());
        assertEquals(1, replay.exitCode(), replay.err());
        oneLine(1, replay.err().trim().replace("dta replay: ", "dta bench: "), bench);
        final Path empty = dir.resolve("empty.pcap");
        new PcapWriter(empty).close();
        oneLine(1, "dta bench: " + empty + " holds no frame: there is nothing to bench",
            CliRunner.run("bench", "--in", empty.toString()));
    }

    @Test
    void shouldPrintTheFramesFedTheReportsAmongThemAndTheDropsOfAsManyReplays() throws Exception
    {
        final Path in = capture();
        final CliRunner.Result replayRun = CliRunner.run("replay", "--in", in.toString(), "--out",
            dir.resolve("out.pcap").toString(), "--json");
        assertEquals(0, replayRun.exitCode(), replayRun.err());
        final JsonNode replay = JSON.readTree(replayRun.out());
        final long frames = replay.get("framesIn").asLong();
        final int passes = 4;

        final CliRunner.Result run = CliRunner.run("bench", "--in", in.toString(), "--warmup", "0", "--reports",
            Long.toString(passes * frames), "--json");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
        final JsonNode r = JSON.readTree(run.out());
        assertEquals(in.toString(), r.get("in").asText());
        assertFalse(r.has("primitive"), r.toString());
        assertEquals(frames, r.get("captureFrames").asLong());
        assertEquals(passes * frames, r.get("framesIn").asLong());
        assertEquals(passes * replay.get("reportsIn").asLong(), r.get("reports").asLong());
        assertEquals(passes * replay.get("reportsTranslated").asLong(), r.get("reportsTranslated").asLong());
        assertEquals(passes * replay.get("otherFrames").asLong(), r.get("otherFrames").asLong());
        // Reports per second counts the reports, not the ARP requests among the frames.
        final double share = (double)r.get("reports").asLong() / r.get("framesIn").asLong();
        assertTrue(share < 1, r.toString());
        assertEquals(share, (double)r.get("reportsPerSecond").asLong() / r.get("framesInPerSecond").asLong(), 1e-3);
        long drops = 0;
        int reasons = 0;
        for (final Iterator<Map.Entry<String, JsonNode>> it = replay.get("drops").fields(); it.hasNext();)
        {
            final Map.Entry<String, JsonNode> e = it.next();
            if (0 != e.getValue().asLong())
            {
                assertEquals(passes * e.getValue().asLong(), r.get("drops").get(e.getKey()).asLong(),
                    e.getKey());
                drops += passes * e.getValue().asLong();
                reasons++;
            }
        }
        assertTrue(reasons >= 3, replay.toString());
        assertEquals(reasons, r.get("drops").size(), "the non-zero reasons only: " + r);
        assertEquals(drops, r.get("totalDrops").asLong());
        assertTrue(r.get("openLoop").asBoolean());
        assertEquals(ConfigDefaults.load().append().batchSize(), r.get("batchSize").asInt(), "the configuration's");
    }

    @Test
    void shouldPrintTheDropsAsReplayListsThemAndTakeABatchSizeOrTheClosedLoop() throws Exception
    {
        final Path in = capture();
        final CliRunner.Result text = CliRunner.run("bench", "--in", in.toString(), "--warmup", "0", "--reports",
            "5000");
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().startsWith(in + " (open loop): "), text.out());
        assertTrue(text.out().contains(in + ": " + (REPORTS + REPORTS / BenchCaptures.ARP_EVERY) +
            " frames, fed 5000 of them round and round"), text.out());
        assertTrue(text.out().contains("\ndrops:\n  dropped: "), text.out());

        final CliRunner.Result batch = CliRunner.run("bench", "--in", in.toString(), "--warmup", "0", "--reports",
            "5000", "--batch", "2", "--closed-loop", "--json");
        assertEquals(0, batch.exitCode(), batch.err());
        final JsonNode r = JSON.readTree(batch.out());
        assertEquals(2, r.get("batchSize").asInt());
        assertFalse(r.get("openLoop").asBoolean());
        assertEquals(5000, r.get("framesIn").asLong());
    }

    @Test
    void shouldStillBenchSyntheticReportsWithAPrimitiveAndNoCaptureFields() throws Exception
    {
        final CliRunner.Result run = CliRunner.run("bench", "--primitive", "append", "--reports", "3200", "--warmup",
            "0", "--json");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("{\"primitive\":\"append\",\"reports\":3200,"), run.out());
        assertFalse(run.out().contains("framesIn"), run.out());
        // Drops by reason are in every JSON that has drops, synthetic reports' too (none here).
        assertTrue(run.out().contains("\"totalDrops\":0,\"drops\":{}"), run.out());
        // The batch the engine ran with: the default 16, not the embedded configuration's 4.
        final JsonNode r = JSON.readTree(run.out());
        assertEquals(16, r.get("batchSize").asInt(), run.out());
        // Full batches over the two lists, less each list's newest frame, held until its successor.
        assertEquals(3200 / 16 - 2, r.get("roceFramesOut").asLong(), run.out());

        final CliRunner.Result eight = CliRunner.run("bench", "--primitive", "append", "--batch", "8", "--reports",
            "3200", "--warmup", "0", "--json");
        assertEquals(0, eight.exitCode(), eight.err());
        assertEquals(8, JSON.readTree(eight.out()).get("batchSize").asInt(), eight.out());
        assertEquals(3200 / 8 - 2, JSON.readTree(eight.out()).get("roceFramesOut").asLong(), eight.out());
    }

    @Test
    void shouldWarnOfACaptureCutShortAsReplayWarns() throws Exception
    {
        // The last record loses its last 7 bytes: its header is whole, its data cut.
        final Path whole = capture();
        final byte[] bytes = Files.readAllBytes(whole);
        final Path cut = Files.write(dir.resolve("cut.pcap"), Arrays.copyOf(bytes, bytes.length - 7));
        final CliRunner.Result replay = CliRunner.run("replay", "--in", cut.toString(), "--out",
            dir.resolve("out.pcap").toString());
        assertEquals(0, replay.exitCode(), replay.err());
        final String warning = replay.err().lines().filter((l) -> l.startsWith("dta replay: warning: ")).findFirst()
            .orElseThrow(() -> new AssertionError("replay warned of no cut: " + replay.err()));
        assertTrue(warning.contains("cut short in the middle of a packet"), warning);

        final CliRunner.Result bench = CliRunner.run("bench", "--in", cut.toString(), "--warmup", "0", "--reports",
            "5000", "--json");
        assertEquals(0, bench.exitCode(), bench.err());
        assertEquals(warning.replace("dta replay: ", "dta bench: ") + System.lineSeparator(), bench.err());
        assertEquals(REPORTS + REPORTS / BenchCaptures.ARP_EVERY - 1,
            JSON.readTree(bench.out()).get("captureFrames").asInt(), "the whole records: " + bench.out());
    }

    @Test
    void shouldSayInOneLineThatTheFramesTakeMoreDirectMemoryThanTheJvmHas() throws Exception
    {
        // 200000 frames of 60 bytes take 12.2 MB, each padded to 64 bytes; the reader's buffer alone 4 MB.
        final Path in = dir.resolve("many.pcap");
        try (PcapWriter writer = new PcapWriter(in))
        {
            final UnsafeBuffer frame = new UnsafeBuffer(new byte[60]);
            frame.putShort(12, (short)0x0806, ByteOrder.BIG_ENDIAN);
            for (int i = 0; i < 200_000; i++)
            {
                writer.write(i * 1000L, frame, 0, 60);
            }
        }
        final List<String> command = ChildDta.command("bench", "--in", in.toString(), "--reports", "1000");
        command.add(1, "-XX:MaxDirectMemorySize=8m");
        final Path stdout = dir.resolve("oom.out");
        final Path stderr = dir.resolve("oom.err");
        final Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile()).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "dta bench did not finish");
        final String err = Files.readString(stderr);
        assertEquals(1, process.exitValue(), err);
        assertEquals("", Files.readString(stdout));
        assertEquals(1, err.lines().count(), err);
        // Read in one pass into a buffer that grows: the growth that does not fit is the one said.
        assertTrue(err.matches("(?s)dta bench: the first [0-9]+ frames of " + Pattern.quote(in.toString()) +
            " take [0-9]+ MB in memory \\(each padded to 64 bytes\\), more than this JVM can allocate \\(.*"), err);
    }

    private Path capture() throws Exception
    {
        final Path in = dir.resolve("mixed.pcap");
        if (!Files.exists(in))
        {
            BenchCaptures.write(in, ConfigDefaults.load(), BenchCaptures.mixed(17), REPORTS);
        }
        return in;
    }

    private static void refused(final String message, final String... args)
    {
        oneLine(2, "dta bench: " + message, CliRunner.run(args));
    }

    private static void oneLine(final int exitCode, final String line, final CliRunner.Result r)
    {
        assertEquals(exitCode, r.exitCode(), r.err());
        assertEquals(line + System.lineSeparator(), r.err());
        assertEquals("", r.out());
    }
}
