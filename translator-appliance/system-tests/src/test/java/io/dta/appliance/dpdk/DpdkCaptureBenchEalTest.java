package io.dta.appliance.dpdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.bench.BenchCaptures;
import io.dta.appliance.cli.ChildDta;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.replay.Replay;
import io.dta.codec.pcap.PcapFormat;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.dpdk.DpdkLibrary;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code dta bench --io dpdk --in}, in processes of their own (one EAL each): a mixed capture through {@code net_pcap}
 * ({@code infinite_rx}) and through the ring, counted as the engine counts it in a replay (the share of reports and of
 * each drop reason among the frames received), a ring of more frames than an {@code MbufArray} holds, the temporary
 * capture of {@code net_pcap} gone while the bench runs, and the captures refused before any EAL starts.
 */
class DpdkCaptureBenchEalTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int REPORTS = 2000;

    @TempDir
    Path dir;

    @BeforeAll
    static void needsDpdk()
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary.unavailableReason());
    }

    @Test
    void shouldBenchACaptureFromNetPcapAndFromTheRingAsAReplayCountsIt() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final Path capture = dir.resolve("mixed.pcap");
        final int frames = BenchCaptures.write(capture, config, BenchCaptures.mixed(21), REPORTS);
        final EngineCounters replay = Replay.run(config, capture, null, dir.resolve("out.pcap")).counters();
        for (final String input : new String[] { "pcap", "ring" })
        {
            final JsonNode r = bench(input, 0, "bench", "--io", "dpdk", "--input", input, "--in", capture.toString(),
                "--reports", "300000", "--warmup", "50000", "--json");
            final String ctx = input + ": " + r;
            assertEquals(input, r.get("input").asText(), ctx);
            assertEquals(frames, r.get("captureFrames").asInt(), ctx);
            assertEquals(frames, r.get("sourceFrames").asInt(), ctx);
            final long framesIn = r.get("framesIn").asLong();
            // Exactly: the last burst is partial (whole bursts of 32 made it 300 032).
            assertEquals(300_000, framesIn, ctx);
            // The frames received are the capture's in order, round after round, from wherever the warm-up ended:
            // each count is the replay's share of the frames, give or take one capture's worth of rounding.
            final double passes = (double)framesIn / frames;
            assertNear(passes * replay.get(EngineCounter.REPORTS_IN), r.get("reports").asLong(), ctx + " reports");
            assertNear(passes * replay.get(EngineCounter.OTHER_FRAMES), r.get("otherFrames").asLong(), ctx);
            assertNear(passes * replay.get(EngineCounter.REPORTS_TRANSLATED), r.get("reportsTranslated").asLong(),
                ctx);
            int reasons = 0;
            for (final Iterator<Map.Entry<String, JsonNode>> it = r.get("drops").fields(); it.hasNext();)
            {
                final Map.Entry<String, JsonNode> e = it.next();
                final EngineCounter reason = counter(e.getKey());
                assertTrue(replay.get(reason) > 0, ctx + ": " + reason + " that the replay has not");
                assertNear(passes * replay.get(reason), e.getValue().asLong(), ctx + " " + reason);
                reasons++;
            }
            assertTrue(reasons >= 3, ctx);
            assertEquals(0, r.get("txDropped").asLong(), ctx);
            assertTrue(r.get("reportsPerSecond").asLong() > 0, ctx);
            assertTrue(r.get("reportsPerSecond").asLong() < r.get("framesInPerSecond").asLong(), ctx);
            if ("ring".equals(input))
            {
                assertEquals(0, r.get("inputRingDry").asLong(), ctx);
            }
        }
    }

    @Test
    void shouldReceiveExactlyTheFramesAskedForWithTheLastBurstPartial() throws Exception
    {
        for (final String input : new String[] { "pcap", "ring" })
        {
            // Synthetic reports: --reports 1000 received 1024 (32 whole bursts).
            final JsonNode r = bench("exact-" + input, 0, "bench", "--io", "dpdk", "--input", input, "--primitive",
                "keywrite", "--reports", "1000", "--warmup", "1001", "--json");
            assertEquals(1000, r.get("reports").asLong(), input + ": " + r);
            assertEquals(1000, r.get("roceFramesOut").asLong(), input + ": " + r);
        }
    }

    @Test
    void shouldRepeatATinyCaptureWholeToFillTheInput() throws Exception
    {
        final Path capture = dir.resolve("tiny.pcap");
        final int frames = BenchCaptures.write(capture, ConfigDefaults.load(), BenchCaptures.mixed(2), 9);
        final JsonNode r = bench("tiny", 0, "bench", "--io", "dpdk", "--input", "ring", "--in", capture.toString(),
            "--reports", "100000", "--warmup", "10000", "--json");
        assertEquals(frames, r.get("captureFrames").asInt());
        assertEquals(frames * ((64 + frames - 1) / frames), r.get("sourceFrames").asInt(), r.toString());
        assertEquals(0, r.get("inputRingDry").asLong(), r.toString());
    }

    @Test
    void shouldFillTheRingWithMoreFramesThanAnMbufArrayHolds() throws Exception
    {
        // 65 600 frames: an MbufArray holds 65 535, so the ring is filled a chunk at a time.
        final Path capture = dir.resolve("large.pcap");
        final int frames = BenchCaptures.write(capture, ConfigDefaults.load(), BenchCaptures.mixed(5), 64_000);
        assertTrue(frames > 0xFFFF, "frames " + frames);
        final JsonNode r = bench("large", 0, "bench", "--io", "dpdk", "--input", "ring", "--in", capture.toString(),
            "--reports", "200000", "--warmup", "10000", "--json");
        assertEquals(frames, r.get("sourceFrames").asInt(), r.toString());
        assertTrue(r.get("framesIn").asLong() >= 200_000, r.toString());
        assertEquals(0, r.get("inputRingDry").asLong(), r.toString());
        assertTrue(r.get("inputRingLowest").asInt() >= frames - 32, r.toString());
    }

    @Test
    void shouldDeleteTheTemporaryCaptureOnceNetPcapHasLoadedIt() throws Exception
    {
        final Path capture = dir.resolve("mixed.pcap");
        BenchCaptures.write(capture, ConfigDefaults.load(), BenchCaptures.mixed(8), REPORTS);
        final Path tmp = Files.createDirectory(dir.resolve("tmp"));
        final List<String> command = ChildDta.command("bench", "--io", "dpdk", "--in", capture.toString(),
            "--reports", "1000000000000", "--warmup", "0");
        command.add(1, "-Djava.io.tmpdir=" + tmp);
        final Process process = new ProcessBuilder(command).redirectOutput(dir.resolve("long.out").toFile())
            .redirectError(dir.resolve("long.err").toFile()).start();
        try
        {
            // The capture net_pcap reads is written before the EAL starts (seconds), then deleted once the port
            // started: while the run goes on (a long one, ended by a signal), nothing is left of it.
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            boolean seen = false;
            boolean gone = false;
            while (!gone && process.isAlive() && System.nanoTime() < deadline)
            {
                final boolean present = temporaryCaptures(tmp) > 0;
                seen |= present;
                gone = seen && !present;
                Thread.sleep(10);
            }
            assertTrue(seen, "the temporary capture was written in " + tmp + ": " + Files.readString(dir.resolve(
                "long.err")));
            assertTrue(process.isAlive(), "the bench runs on: " + Files.readString(dir.resolve("long.err")));
            assertTrue(gone, "the temporary capture is deleted while the bench runs");
        }
        finally
        {
            process.destroy();
            assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        }
        assertEquals(0, temporaryCaptures(tmp), "nothing left after SIGTERM");
    }

    private static long temporaryCaptures(final Path tmp) throws Exception
    {
        try (Stream<Path> files = Files.list(tmp))
        {
            return files.filter((f) -> f.getFileName().toString().startsWith("dta-bench-")).count();
        }
    }

    @Test
    void shouldRefuseBeforeTheEalWhatMbufsCannotHold() throws Exception
    {
        final Path jumbo = dir.resolve("jumbo.pcap");
        try (PcapWriter writer = new PcapWriter(jumbo, true, PcapFormat.MAX_CAPTURED_LENGTH,
            2 * PcapFormat.MAX_CAPTURED_LENGTH))
        {
            writer.write(0, new UnsafeBuffer(new byte[100]), 0, 100);
            writer.write(1, new UnsafeBuffer(new byte[70_000]), 0, 70_000);
        }
        final String err = refused("jumbo", "bench", "--io", "dpdk", "--in", jumbo.toString());
        assertEquals("dta bench: frame 2 of " + jumbo + " is 70000 bytes, longer than an mbuf holds (65407 bytes; " +
            "net_pcap takes no mbuf chains there): bench it with --io java", err);

        final Path capture = dir.resolve("mixed.pcap");
        BenchCaptures.write(capture, ConfigDefaults.load(), BenchCaptures.mixed(4), 200);
        final String small = refused("memory", "bench", "--io", "dpdk", "--input", "ring", "--in",
            capture.toString(), "--eal", "-m 100");
        assertTrue(small.startsWith("dta bench: the 205 frames of " + capture + " (the longest "), small);
        assertTrue(small.endsWith("through net_ring, more than --eal gives (100 MB)"), small);
    }

    private String refused(final String name, final String... args) throws Exception
    {
        final Path stdout = dir.resolve(name + ".out");
        final Path stderr = dir.resolve(name + ".err");
        final Process process = ChildDta.start(stdout, stderr, args);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), name);
        final String err = Files.readString(stderr).trim();
        assertEquals(1, process.exitValue(), err);
        assertEquals("", Files.readString(stdout));
        assertTrue(!err.contains("EAL:"), "refused before the EAL starts (it says nothing): " + err);
        return err;
    }

    private static EngineCounter counter(final String camel)
    {
        for (final EngineCounter c : EngineCounter.values())
        {
            if (c.name().replace("_", "").equalsIgnoreCase(camel))
            {
                return c;
            }
        }
        throw new AssertionError("no counter " + camel);
    }

    private static void assertNear(final double expected, final long actual, final String message)
    {
        // At most a capture's worth of frames at either end of the measured window differs from the exact share.
        assertTrue(Math.abs(expected - actual) <= Math.max(expected * 0.02, 2.0 * REPORTS / 10),
            message + ": expected about " + expected + ", got " + actual);
    }

    private JsonNode bench(final String name, final int exitCode, final String... args) throws Exception
    {
        final Path stdout = dir.resolve(name + ".out");
        final Path stderr = dir.resolve(name + ".err");
        final Process process = ChildDta.start(stdout, stderr, args);
        if (!process.waitFor(120, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError(name + ": dta bench did not finish in 120 s\nstderr: " +
                Files.readString(stderr));
        }
        assertEquals(exitCode, process.exitValue(), name + ": " + Files.readString(stderr));
        final String out = Files.readString(stdout).trim();
        return JSON.readTree(out.substring(out.lastIndexOf('\n') + 1));
    }
}
