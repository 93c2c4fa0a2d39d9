package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta run --workers 2} on two EAL lcores: each worker reads its own rx queue of the reports port (a
 * {@code net_pcap} queue per capture, the reports split as RSS would split them) and sends on its own tx queue of the
 * collector link through QPs of its own (the configuration's {@code workerQueuePairs}); Append entries and postcards
 * of lists and flows the other worker owns are handed over; {@code dta stat} shows the totals and, with
 * {@code --per-worker}, each worker's counters; SIGINT drains both workers.
 */
class LiveWorkersEalTest extends LiveProcessTests
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TIMEOUT_MILLIS = 60_000;

    @Test
    void shouldTranslateOnTwoWorkersEachOnItsOwnQueuesAndQueuePairs() throws Exception
    {
        final Path config = dir.resolve("workers.yaml");
        final String yaml;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("default-translator.yaml"))
        {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Files.writeString(config, ReplayWorkersTest.withWorkerQueuePairs(yaml, 2));
        final Path capture = dir.resolve("reports.pcap");
        final CliRunner.Result gen = CliRunner.run("gen", "--config", config.toString(), "--out", capture.toString(),
            "--reports", "2000", "--reporters", "32", "--mix", "append=1,postcard=1", "--no-progress");
        assertEquals(0, gen.exitCode(), gen.err());
        final List<Path> parts = RssSplit.split(capture, 2, dir.resolve("q"));
        final long[] split = { RssSplit.count(parts.get(0)), RssSplit.count(parts.get(1)) };
        assertTrue(split[0] > 0 && split[1] > 0, "both queues get reports: " + split[0] + " / " + split[1]);
        // Two rx queues on the collector link, nobody answering.
        new PcapWriter(dir.resolve("none0.pcap")).close();
        new PcapWriter(dir.resolve("none1.pcap")).close();

        final Path counters = dir.resolve("run.counters");
        final Process run = start("run", "run", "--config", config.toString(), "--workers", "2",
            "--reports-port", "net_pcap0", "--collector-port", "net_pcap1",
            "--vdev", "net_pcap0,rx_pcap=" + dir.resolve("q0.pcap") + ",rx_pcap=" + dir.resolve("q1.pcap") +
                ",tx_pcap=" + dir.resolve("back0.pcap") + ",tx_pcap=" + dir.resolve("back1.pcap"),
            "--vdev", "net_pcap1,rx_pcap=" + dir.resolve("none0.pcap") + ",rx_pcap=" + dir.resolve("none1.pcap") +
                ",tx_pcap=" + dir.resolve("link0.pcap") + ",tx_pcap=" + dir.resolve("link1.pcap"),
            "-l", "0,1", "--file-prefix", prefix("dta-workers-run-" + ProcessHandle.current().pid()),
            "--counters", counters.toString(), "--state-file", dir.resolve("run.lists").toString(),
            "--drain-ms", "500", "--json");
        final JsonNode totals = LiveStat.await(counters, run, dir, TIMEOUT_MILLIS,
            n -> 2000 == n.get("counters").path("reportsIn").asLong());
        final CliRunner.Result perWorker = CliRunner.run("stat", "--counters", counters.toString(), "--per-worker",
            "--json");
        assertEquals(0, perWorker.exitCode(), perWorker.err());
        final JsonNode each = JSON.readTree(perWorker.out()).get("counters");
        assertEquals(split[0], each.path("worker0ReportsIn").asLong(), perWorker.out());
        assertEquals(split[1], each.path("worker1ReportsIn").asLong(), perWorker.out());
        assertTrue(each.path("worker0ReportsHandedOff").asLong() > 0, perWorker.out());
        assertTrue(each.path("worker1ReportsHandedOff").asLong() > 0, perWorker.out());
        assertTrue(!totals.get("counters").has("worker0ReportsIn"), "totals only, unless asked");

        final Process kill = new ProcessBuilder("kill", "-INT", Long.toString(run.pid())).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS));
        assertTrue(run.waitFor(60, TimeUnit.SECONDS));
        final String err = Files.readString(dir.resolve("run.err"));
        assertEquals(0, run.exitValue(), err);
        final JsonNode summary = JSON.readTree(Files.readString(dir.resolve("run.out")));
        assertEquals(2, summary.get("workers").asInt(), summary.toString());
        assertEquals(2000, summary.get("reportsIn").asLong(), summary.toString());
        assertEquals(2000, summary.get("reportsTranslated").asLong(), summary.toString());

        // Each worker's frames leave on its own tx queue, through its own QPs.
        final Set<Integer> qpns0 = destinationQpns(dir.resolve("link0.pcap"));
        final Set<Integer> qpns1 = destinationQpns(dir.resolve("link1.pcap"));
        assertTrue(!qpns0.isEmpty() && !qpns1.isEmpty(), qpns0 + " / " + qpns1);
        assertTrue(qpns0.stream().allMatch(q -> q < 0x10000), "worker 0's QPs: " + qpns0);
        assertTrue(qpns1.stream().allMatch(q -> q >= 0x10000 && q < 0x20000), "worker 1's QPs: " + qpns1);
    }

    private static Set<Integer> destinationQpns(final Path capture) throws IOException
    {
        final Set<Integer> qpns = new HashSet<>();
        final FrameDecoder decoder = new FrameDecoder();
        try (PcapReader in = PcapReader.open(capture))
        {
            while (in.next())
            {
                if (FrameKind.ROCE == decoder.decode(in.buffer(), in.offset(), in.capturedLength()))
                {
                    qpns.add(decoder.bth().destQp());
                }
            }
        }
        return qpns;
    }
}
