package io.dta.appliance.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta replay --workers W}: the frames of W workers (each region written through a QP per worker, listed in
 * {@code workerQueuePairs}), executed by {@code dta collector --in}, leave the lists, counters, postcards and sketches
 * of one worker's frames; the output is the same at every run; a static region without enough worker QPs is refused
 * with its key path.
 */
class ReplayWorkersTest
{
    private static final Pattern QPS = Pattern.compile(
        "(?m)^(\\s+)localQpn: 0x([0-9a-f]+)\\n\\s+qpn: 0x([0-9a-f]+)\\n");

    @TempDir
    Path dir;

    @Test
    void shouldGiveTheCollectorTheSameMemoryThroughAQueuePairPerWorker() throws Exception
    {
        final Path config = dir.resolve("workers.yaml");
        Files.writeString(config, withWorkerQueuePairs(defaultConfig(), 3));
        final Path capture = dir.resolve("reports.pcap");
        final CliRunner.Result gen = CliRunner.run("gen", "--config", config.toString(), "--out", capture.toString(),
            "--reports", "6000", "--reporters", "32", "--mix", "append=1,keyincrement=1,postcard=1",
            "--no-progress");
        assertEquals(0, gen.exitCode(), gen.err());

        final Path one = replayAndCollect(config, capture, 1);
        final Path three = replayAndCollect(config, capture, 3);
        final Path again = dir.resolve("again.pcap");
        assertEquals(0, CliRunner.run("replay", "--config", config.toString(), "--in", capture.toString(), "--out",
            again.toString(), "--workers", "3").exitCode());
        assertArrayEquals(Files.readAllBytes(dir.resolve("out-3.pcap")), Files.readAllBytes(again),
            "the same frames at every run");
        assertFalse(Arrays.equals(Files.readAllBytes(dir.resolve("out-1.pcap")),
            Files.readAllBytes(dir.resolve("out-3.pcap"))), "three workers send through QPs of their own");
        final List<Path> regions;
        try (Stream<Path> walk = Files.walk(one))
        {
            regions = walk.filter(p -> p.toString().endsWith(".region")).sorted().toList();
        }
        assertTrue(regions.size() >= 5, regions.toString());
        for (final Path region : regions)
        {
            assertArrayEquals(Files.readAllBytes(region), Files.readAllBytes(three.resolve(one.relativize(region))),
                one.relativize(region) + " differs");
        }
    }

    @Test
    void shouldRefuseStaticRegionsWithoutAQueuePairForEveryWorker() throws Exception
    {
        final Path config = dir.resolve("plain.yaml");
        Files.writeString(config, defaultConfig());
        final CliRunner.Result r = CliRunner.run("replay", "--config", config.toString(), "--in",
            config.toString(), "--out", dir.resolve("x.pcap").toString(), "--workers", "2");
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("dta replay: collectors[0].keyWrite.workerQueuePairs: 0 queue pair(s) for " +
            "workers 1..1"), r.err());
        assertFalse(Files.exists(dir.resolve("x.pcap")));
    }

    private Path replayAndCollect(final Path config, final Path capture, final int workers) throws IOException
    {
        final Path out = dir.resolve("out-" + workers + ".pcap");
        final CliRunner.Result replay = CliRunner.run("replay", "--config", config.toString(), "--in",
            capture.toString(), "--out", out.toString(), "--workers", Integer.toString(workers), "--json");
        assertEquals(0, replay.exitCode(), replay.err());
        assertTrue(replay.out().contains("\"workers\":" + workers), replay.out());
        final Path store = dir.resolve("store-" + workers);
        final CliRunner.Result collector = CliRunner.run("collector", "--config", config.toString(), "--in",
            out.toString(), "--out", dir.resolve("responses-" + workers + ".pcap").toString(), "--store",
            store.toString());
        assertEquals(0, collector.exitCode(), collector.err() + collector.out());
        return store;
    }

    private static String defaultConfig() throws IOException
    {
        try (InputStream in = ReplayWorkersTest.class.getClassLoader().getResourceAsStream("default-translator.yaml"))
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Every static region of a YAML configuration given QPs for workers 1..W-1: its QPNs plus {@code w << 16}.
     */
    static String withWorkerQueuePairs(final String yaml, final int workers)
    {
        final Matcher m = QPS.matcher(yaml);
        final StringBuilder out = new StringBuilder();
        while (m.find())
        {
            final String indent = m.group(1);
            final int local = Integer.parseInt(m.group(2), 16);
            final int remote = Integer.parseInt(m.group(3), 16);
            final StringBuilder pairs = new StringBuilder(m.group(0)).append(indent).append("workerQueuePairs:\n");
            for (int w = 1; w < workers; w++)
            {
                pairs.append(indent).append(String.format("  - { localQpn: 0x%06x, qpn: 0x%06x }%n",
                    local + (w << 16), remote + (w << 16)));
            }
            m.appendReplacement(out, Matcher.quoteReplacement(pairs.toString()));
        }
        m.appendTail(out);
        return out.toString();
    }
}
