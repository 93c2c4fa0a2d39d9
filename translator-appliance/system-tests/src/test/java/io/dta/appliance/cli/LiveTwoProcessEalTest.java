package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.replay.Replay;
import io.dta.appliance.state.RecordedList;
import io.dta.appliance.state.ResumeStateFile;
import io.dta.codec.ArpFlyweight;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import io.dta.collector.layout.ListLayout;
import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The live appliance as two processes over DPDK: {@code dta collector --port} (the soft collector, memif server)
 * and {@code dta run} (the translator: reports from a {@code net_pcap} capture, the collector link a memif client),
 * each a JVM of its own with its own EAL ({@code --file-prefix}, core). The reports are those of
 * {@link CollectorEndToEndTest} (exact expected answers) plus a few hundred seeded random Key-Writes (expected answers
 * from the offline pipeline: {@code Replay} and the offline collector), and an ARP request for the translator. While
 * both run, {@code dta stat} (this JVM) reads their counters files; then SIGTERM stops the translator (drain, final
 * counters), {@code dta query} reads the live collector's store, and SIGTERM stops the collector. A shorter case
 * stops them the other way round: the collector first, whose DREQs the running translator answers.
 */
class LiveTwoProcessEalTest extends LiveProcessTests
{
    private static final long SEED = 0x2_D7A_11FEL;
    private static final int RANDOM_KEY_WRITES = 400;
    private static final int COLLECTOR_IP = 0x0A000033;
    private static final int TRANSLATOR_IP = 0x0A000065;
    private static final long TRANSLATOR_MAC = 0x02000A000065L;
    private static final long TIMEOUT_MILLIS = 60_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ReportFrames reports = new ReportFrames(COLLECTOR_IP);

    /**
     * Three regions of {@link CollectorEndToEndTest#CONFIG} negotiated (Key-Write, Key-Increment, list 0), the
     * postcards and list 1 static.
     */
    static final String NEGOTIATED_CONFIG = CollectorEndToEndTest.CONFIG
        .replace("      qpn: 0x456\n      rkey: 0x1234\n      address: 0x00007f0000000000\n", "      servicePort: 1337\n")
        .replace("      qpn: 0x457\n      rkey: 0x1235\n      address: 0x00007f0000100000\n", "      servicePort: 1338\n")
        .replace("        qpn: 0x459\n        rkey: 0x1237\n        address: 0x00007f0000300000\n",
            "        servicePort: 1339\n");

    @Test
    void shouldTranslateLiveIntoALiveCollectorInAnotherProcess() throws Exception
    {
        runTwoProcesses(false);
    }

    /**
     * The same with negotiated regions: connection set-up across the two processes (REQ, REP, RTU, metadata SEND and
     * ACK over memif) before any report is read, then the data; the answers are those of the static run.
     */
    @Test
    void shouldConnectNegotiatedRegionsAcrossProcessesBeforeTranslating() throws Exception
    {
        runTwoProcesses(true);
    }

    /**
     * The other order: the collector ({@code --max-atomics 4}) stops while the translator runs. The translator runs
     * its Key-Increment QP with the 4 atomics granted; at the collector's SIGTERM every negotiated QP gets the
     * collector's DREQ, which the translator answers (DREP, QP stopped, one line each) and reconnects at once; the
     * stopping collector accepts no new connection, so each reconnection fails and, with {@code reconnectAttempts: 1},
     * the region stays in error. None of it waits for a silence timeout: the QPs are idle (nothing outstanding, no
     * probe), so without the DREQ the translator would not notice before its next report. Only the hand-made
     * reports: this case costs two JVM and EAL starts (4 to 9 s here; the full negotiated run 7 to 12 s).
     */
    @Test
    void shouldTellTheRunningTranslatorWithADreqWhenTheCollectorStopsFirst() throws Exception
    {
        collectorStopsFirst(1);
    }

    /**
     * The same with two workers: each worker's QP of each negotiated region was connected from worker 0, and worker
     * 0 answers all six DREQs; stopping worker 1's QPs is handed to worker 1's thread, and the reconnections of all
     * six are tried from worker 0.
     */
    @Test
    void shouldTellEveryWorkersQueuePairWhenTheCollectorStopsFirst() throws Exception
    {
        collectorStopsFirst(2);
    }

    private void collectorStopsFirst(final int workers) throws Exception
    {
        // Set-up timeouts long enough for two cold JVMs (134 ms, 6 retries), short enough that a reconnection to the
        // gone collector fails within a second.
        final Path config = dir.resolve("translator.yaml");
        Files.writeString(config, "acks:\n  timeoutMicros: 2000000\nconnection:\n  cmResponseTimeout: 15\n" +
            "  maxCmRetries: 6\n  reconnectAttempts: 1\n" + ReplayWorkersTest.withWorkerQueuePairs(NEGOTIATED_CONFIG,
            workers));
        final Path reportsPcap = writeReports(0);
        final int qps = 3 * workers;
        final Path socket = dir.resolve("memif.sock");
        final Path store = dir.resolve("store");
        final Path collectorCounters = dir.resolve("collector.counters");
        final Path translatorCounters = dir.resolve("translator.counters");
        final long pid = ProcessHandle.current().pid();
        final String memif = "net_memif0,socket=" + socket + ",socket-abstract=no,rsize=13";

        final Process collector = start("collector", "collector", "--config", config.toString(), "--store",
            store.toString(), "--port", "net_memif0", "--vdev", memif + ",role=server", "-l", "1",
            "--file-prefix", prefix("dta-e2e-col1-" + pid), "--counters", collectorCounters.toString(), "--json",
            "--max-atomics", "4", "--queues", Integer.toString(workers));
        awaitStat(collectorCounters, collector, n -> true);
        // With several workers, each reads the reports RSS would give it from a net_pcap queue of its own.
        final StringBuilder reportsPort = new StringBuilder("net_pcap0");
        for (final Path part : RssSplit.split(reportsPcap, workers, dir.resolve("reports-q")))
        {
            reportsPort.append(",rx_pcap=").append(part).append(",tx_pcap=").append(part.resolveSibling(
                part.getFileName() + "-tx.pcap"));
        }
        final Process translator = start("translator", "run", "--config", config.toString(),
            "--workers", Integer.toString(workers), "--reports-port", "net_pcap0", "--collector-port", "net_memif0",
            "--vdev", reportsPort.toString(), "--vdev", memif + ",role=client", "-l", 1 == workers ? "0" : "0,1",
            "--file-prefix", prefix("dta-e2e-run1-" + pid), "--counters", translatorCounters.toString(),
            "--drain-ms", "5000", "--json");

        final JsonNode running = awaitStat(translatorCounters, translator,
            n -> reports.size() == n.get("counters").path("reportsIn").asLong() &&
            qps == n.get("counters").path("connectionConnected").asLong());
        assertEquals(workers, running.get("counters").get("connectionAtomicsReduced").asLong(), running.toString());
        // Every request executed (12 FETCH_ADDs: redundancy 4 + 2 + 4 + 2) before the collector goes.
        final JsonNode executed = awaitStat(collectorCounters, collector,
            n -> 12 == n.get("counters").path("atomics").asLong());
        assertEquals(0, executed.get("counters").get("naksSent").asLong(), executed.toString());
        assertTrue(Files.readString(dir.resolve("translator.err")).contains("dta: collectors[0].keyIncrement: " +
            "collector grants 4 outstanding atomics, fewer than maxOutstandingAtomics 16: using 4"));

        final long stop = System.nanoTime();
        collector.destroy();
        assertTrue(collector.waitFor(30, TimeUnit.SECONDS), "collector stops on SIGTERM");
        final JsonNode told = awaitStat(translatorCounters, translator,
            n -> qps == n.get("counters").path("connectionReconnectsExhausted").asLong());
        final long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stop);
        final JsonNode c = told.get("counters");
        final String why = told + "\ntranslator: " + readQuietly(dir.resolve("translator.err")) + "\ncollector: " +
            readQuietly(dir.resolve("collector.err"));
        assertEquals("running", told.get("status").asText(), why);
        assertEquals(qps, c.get("connectionDreqsIn").asLong(), why);
        assertEquals(qps, c.get("connectionDrepsSent").asLong(), why);
        assertEquals(qps, c.get("connectionReconnectAttempts").asLong(), why);
        assertEquals(qps, c.get("connectionReconnectFailures").asLong(), why);
        assertEquals(0, c.get("connectionReconnects").asLong(), why);
        assertEquals(0, c.get("silentQpStops").asLong(), why);
        final String translatorErr = Files.readString(dir.resolve("translator.err"));
        assertEquals(qps, translatorErr.lines().filter(l -> l.contains("stopped: the collector disconnected (DREQ)"))
            .count(), translatorErr);
        assertEquals(qps, translatorErr.lines().filter(l -> l.contains("stays in the error state: 1 reconnection " +
            "attempt(s) in a row without progress")).count(), translatorErr);

        final String collectorOut = Files.readString(dir.resolve("collector.out"));
        assertEquals(0, collector.exitValue(), collectorOut + readQuietly(dir.resolve("collector.err")));
        assertTrue(Files.readString(dir.resolve("collector.err"))
            .contains("dta collector: disconnecting " + qps + " negotiated connection(s)"));
        final JsonNode counters = JSON.readTree(collectorOut.lines().filter(l -> l.startsWith("{")).findFirst()
            .orElseThrow()).get("counters");
        assertEquals(qps, counters.get("cmDreqsSent").asLong(), collectorOut);
        assertEquals(qps, counters.get("cmDrepsIn").asLong(),
            "the DREPs are awaited within the drain: " + collectorOut);
        assertEquals(0, counters.get("cmDisconnectTimeouts").asLong(), collectorOut);
        assertEquals(qps, counters.get("cmReqsAccepted").asLong(), "no reconnection accepted while stopping: " +
            collectorOut);
        System.out.printf("collector stopped first: translator told and given up %d ms after SIGTERM%n", tookMillis);

        translator.destroy();
        assertTrue(translator.waitFor(30, TimeUnit.SECONDS), "translator stops on SIGTERM");
        final String translatorOut = Files.readString(dir.resolve("translator.out"));
        final JsonNode summary = JSON.readTree(translatorOut.lines().filter(l -> l.startsWith("{")).findFirst()
            .orElseThrow());
        assertEquals(reports.size(), summary.get("reportsIn").asLong(), summary.toString());
        // The store outlives the collector: the FETCH_ADDs, at most 4 unanswered, all landed.
        assertEquals(42, query(config, store, "counter", "--key", "5", "--redundancy", "4", "--json").get(0)
            .get("value").asLong());
        assertEquals("9223372036854775811", query(config, store, "counter", "--key", "6", "--redundancy", "2",
            "--json").get(0).get("value").asText());
    }

    private void runTwoProcesses(final boolean negotiated) throws Exception
    {

        // Two cold JVMs sharing two cores, each parking up to 100 us when idle: ACK round trips are far longer than
        // the default 500 us ACK timeout, and a timeout's probe would re-synchronise QPs with frames still in flight.
        // Likewise the collector's metadata SEND: with the default local ACK timeout (67 ms, 7 re-sends) a translator
        // JVM still compiling its set-up path on a loaded machine answered after the collector had given up (seen
        // with another build running: every ACK 'stale', the regions failed); 2^18 x 4.096 us = 1.07 s each.
        final String acks = "acks:\n  timeoutMicros: 2000000\nconnection:\n  localAckTimeout: 18\n";
        final Path staticConfig = dir.resolve("static.yaml");
        Files.writeString(staticConfig, acks + CollectorEndToEndTest.CONFIG);
        final Path config = dir.resolve("translator.yaml");
        Files.writeString(config, acks + (negotiated ? NEGOTIATED_CONFIG : CollectorEndToEndTest.CONFIG));
        assertEquals(negotiated, ConfigLoader.load(config).hasNegotiatedRegions());
        final Path reportsPcap = writeReports(RANDOM_KEY_WRITES);
        // The offline pipeline is open loop and needs static regions; answers do not depend on where regions sit.
        final Path expectedStore = expectedStore(staticConfig, reportsPcap);

        final Path socket = dir.resolve("memif.sock");
        final Path store = dir.resolve("store");
        final Path collectorCounters = dir.resolve("collector.counters");
        final Path translatorCounters = dir.resolve("translator.counters");
        final Path replies = dir.resolve("reports-port-tx.pcap");
        final long pid = ProcessHandle.current().pid();
        final String memif = "net_memif0,socket=" + socket + ",socket-abstract=no,rsize=13";

        final Process collector = start("collector", "collector", "--config", config.toString(), "--store",
            store.toString(), "--port", "net_memif0", "--vdev", memif + ",role=server", "-l", "1",
            "--file-prefix", prefix("dta-e2e-col-" + pid), "--counters", collectorCounters.toString(), "--json");
        final JsonNode collectorStat = awaitStat(collectorCounters, collector, n -> true);
        assertEquals("collector", collectorStat.get("role").asText());
        assertEquals(collector.pid(), collectorStat.get("pid").asLong());

        final Process translator = start("translator", "run", "--config", config.toString(),
            "--reports-port", "net_pcap0", "--collector-port", "net_memif0",
            "--vdev", "net_pcap0,rx_pcap=" + reportsPcap + ",tx_pcap=" + replies,
            "--vdev", memif + ",role=client", "-l", "0", "--file-prefix", prefix("dta-e2e-run-" + pid),
            "--counters", translatorCounters.toString(), "--drain-ms", "5000", "--json");

        // dta stat, from this JVM, reads the running translator's counters until every report is in.
        final JsonNode running = awaitStat(translatorCounters, translator,
            n -> reports.size() == n.get("counters").path("reportsIn").asLong() &&
            n.get("counters").path("acksIn").asLong() > 0 &&
            reports.size() + 1 == n.get("counters").path("port0NetPcap0ReportsRxPackets").asLong());
        assertEquals("translator", running.get("role").asText());
        assertEquals("running", running.get("status").asText());
        assertEquals(translator.pid(), running.get("pid").asLong());
        assertEquals(1, running.get("counters").get("arpRequestsAnswered").asLong(), running.toString());
        final JsonNode collectorRunning = awaitStat(collectorCounters, collector,
            n -> n.get("counters").path("writePackets").asLong() > 0);
        assertEquals(0, collectorRunning.get("counters").get("naksSent").asLong(), collectorRunning.toString());
        if (negotiated)
        {
            final JsonNode c = running.get("counters");
            assertEquals(3, c.get("connectionConnected").asLong(), running.toString());
            assertEquals(0, c.get("connectionFailed").asLong(), running.toString());
            assertEquals(3, c.get("connectionReqsSent").asLong() - c.get("connectionReqTimeouts").asLong(),
                running.toString());
            assertEquals(0, c.get("framesDroppedConnectionSetUpInProgress").asLong(), running.toString());
            final JsonNode cc = collectorRunning.get("counters");
            assertEquals(3, cc.get("cmReqsAccepted").asLong(), collectorRunning.toString());
            assertEquals(3, cc.get("metadataAcked").asLong(), collectorRunning.toString());
            assertEquals(0, cc.get("notConnected").asLong(), "no request before its connection: " + collectorRunning);
        }
        else
        {
            assertTrue(running.get("counters").path("connectionConnected").isMissingNode(), running.toString());
        }

        translator.destroy();
        assertTrue(translator.waitFor(30, TimeUnit.SECONDS), "translator stops on SIGTERM");
        final String translatorOut = Files.readString(dir.resolve("translator.out"));
        assertEquals(0, translator.exitValue(), translatorOut + Files.readString(dir.resolve("translator.err")));
        final JsonNode summary = JSON.readTree(translatorOut.lines().filter(l -> l.startsWith("{")).findFirst()
            .orElseThrow());
        assertEquals(reports.size(), summary.get("reportsIn").asLong(), summary.toString());
        assertTrue(summary.get("drops").size() > 0, "every drop reason listed: " + summary);
        for (final JsonNode drops : summary.get("drops"))
        {
            assertEquals(0, drops.asLong(), "no drops: " + summary + "\ncollector: " +
                stat(collectorCounters) + "\n" + running);
        }
        for (final JsonNode qp : summary.get("queuePairs"))
        {
            assertEquals("ACTIVE", qp.get("state").asText(), summary.toString());
        }
        if (negotiated)
        {
            final JsonNode regions = summary.get("connections").get("regions");
            assertEquals(3, regions.size(), summary.toString());
            for (final JsonNode region : regions)
            {
                // Connected while running, disconnected (DREQ, DREP) at the stop after the drain.
                assertEquals("DISCONNECTED", region.get("state").asText(), summary.toString());
                assertTrue(region.get("collectorQpn").asLong() >= 0x100, summary.toString());
            }
            assertEquals(3, summary.get("connections").get("counters").get("dreps").asLong(), summary.toString());
            assertTrue(Files.readString(dir.resolve("translator.err"))
                .contains("3 negotiated region(s) disconnected: 3 by DREP, 0 without an answer"));
        }
        else
        {
            assertFalse(summary.has("connections"), summary.toString());
        }
        assertEquals(1, summary.get("arpRequestsAnswered").asLong());
        assertEquals(0, summary.get("framesDroppedPoolEmpty").asLong());
        // The list state file, next to the counters file: created at start (none before), closed at the stop with
        // each list's position after its 10 entries (the reference ring's head exactly, however they were batched).
        final Path listState = dir.resolve("translator.lists");
        assertTrue(Files.readString(dir.resolve("translator.err"))
            .contains("dta run: no list state file " + listState + " yet: every list starts from batch 1"));
        final List<RecordedList> lists = ResumeStateFile.read(listState, false).lists();
        assertEquals(2, lists.size(), lists.toString());
        assertEquals(ListLayout.Kind.REFERENCE, lists.get(0).region().kind());
        assertEquals(10, lists.get(0).position(), lists.toString());
        assertTrue(lists.get(1).position() >= 2, lists.toString());
        final JsonNode finalStat = stat(translatorCounters);
        assertTrue(finalStat.get("status").asText().startsWith("exited"), finalStat.toString());
        assertFalse(Files.exists(Path.of("/var/run/dpdk", "dta-e2e-run-" + pid)), "the EAL runtime dir is removed");
        assertArpReply(replies);

        // The collector still runs: its mapped store answers queries now.
        assertExactAnswers(config, store);
        assertSameAnswersAsOffline(config, store, staticConfig, expectedStore);

        collector.destroy();
        assertTrue(collector.waitFor(30, TimeUnit.SECONDS), "collector stops on SIGTERM");
        final String collectorOut = Files.readString(dir.resolve("collector.out"));
        assertEquals(0, collector.exitValue(), collectorOut + Files.readString(dir.resolve("collector.err")));
        final JsonNode counters = JSON.readTree(collectorOut.lines().filter(l -> l.startsWith("{")).findFirst()
            .orElseThrow()).get("counters");
        assertEquals(0, counters.get("naksSent").asLong(), collectorOut);
        assertEquals(0, counters.get("badIcrc").asLong(), collectorOut);
        assertEquals(0, counters.get("notConnected").asLong(), collectorOut);
        assertEquals(negotiated ? 3 : 0, counters.get("cmDreqsIn").asLong(), collectorOut);
        // At its own stop the collector ends connected QPs with a DREQ; the translator had already ended them all.
        assertEquals(0, counters.get("cmDreqsSent").asLong(), collectorOut);
        assertEquals(counters.get("framesIn").asLong(),
            counters.get("writePackets").asLong() + counters.get("atomics").asLong() +
            counters.get("cmMadsIn").asLong() + counters.get("metadataAcked").asLong() +
            counters.get("staleAcks").asLong(), collectorOut);
        assertFalse(Files.exists(socket), "memif removes its socket");
    }

    private static JsonNode stat(final Path counters) throws Exception
    {
        final CliRunner.Result result = CliRunner.run("stat", "--counters", counters.toString(), "--json", "--all");
        assertEquals(0, result.exitCode(), result.err());
        return JSON.readTree(result.out());
    }

    private JsonNode awaitStat(final Path counters, final Process process, final Predicate<JsonNode> done)
        throws Exception
    {
        return LiveStat.await(counters, process, dir, TIMEOUT_MILLIS, done);
    }

    private static String readQuietly(final Path path)
    {
        try
        {
            return Files.readString(path);
        }
        catch (final IOException ex)
        {
            return "(" + ex.getMessage() + ")";
        }
    }

    private Path writeReports(final int randomKeyWrites) throws IOException
    {
        // The random Key-Writes first: the hand-made reports after them are the last to write their slots.
        final SplittableRandom random = new SplittableRandom(SEED);
        final StringBuilder keys = new StringBuilder();
        for (int i = 0; i < randomKeyWrites; i++)
        {
            final int key = 1_000_000 + random.nextInt(1 << 20);
            reports.keyWrite(1 + random.nextInt(4), key, random.nextInt());
            keys.append(key).append('\n');
        }
        Files.writeString(dir.resolve("random-keys.txt"), keys);
        reports.keyWrite(4, 0x0A0B0C0D, 0xCAFEBABE);
        reports.keyWrite(1, 7, 1234);
        reports.keyWrite(3, 99, 1);
        reports.keyWrite(3, 99, 0xFFFFFFFF);
        reports.keyIncrement(4, 5, 10);
        reports.keyIncrement(2, 6, 1L << 63);
        reports.keyIncrement(4, 5, 32);
        reports.keyIncrement(2, 6, 3);
        for (int i = 1; i <= 10; i++)
        {
            reports.append(0, 100 + i);
            reports.append(1, 0xF0000000 + i);
        }
        for (int hop = 1; hop <= 5; hop++)
        {
            reports.postcard(0xABCD, hop, 1000 + hop);
        }

        final Path path = dir.resolve("reports.pcap");
        try (PcapWriter writer = new PcapWriter(path, true))
        {
            long t = 1_700_000_000_000_000_000L;
            final byte[] arp = arpRequest();
            writer.write(t, new UnsafeBuffer(arp), 0, arp.length);
            for (final byte[] frame : reports)
            {
                writer.write(t += 1_000, new UnsafeBuffer(frame), 0, frame.length);
            }
        }
        return path;
    }

    private static byte[] arpRequest()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[60]);
        new EthernetFlyweight().wrap(buffer, 0).dstMac(0xFFFF_FFFF_FFFFL).srcMac(0x02000A000001L)
            .etherType(EthernetFlyweight.ETHER_TYPE_ARP);
        new ArpFlyweight().wrap(buffer, EthernetFlyweight.HEADER_LENGTH).ethernetIpv4()
            .operation(ArpFlyweight.OPERATION_REQUEST).senderMac(0x02000A000001L).senderIp(0x0A000001)
            .targetMac(0).targetIp(TRANSLATOR_IP);
        return buffer.byteArray();
    }

    private static void assertArpReply(final Path replies) throws IOException
    {
        int arpReplies = 0;
        try (PcapReader reader = PcapReader.open(replies))
        {
            while (reader.next())
            {
                final EthernetFlyweight eth = new EthernetFlyweight().wrap(reader.buffer(), reader.offset());
                if (EthernetFlyweight.ETHER_TYPE_ARP != eth.etherType())
                {
                    continue;
                }
                final ArpFlyweight arp = new ArpFlyweight().wrap(reader.buffer(),
                    reader.offset() + EthernetFlyweight.HEADER_LENGTH);
                assertEquals(0x02000A000001L, eth.dstMac());
                assertEquals(TRANSLATOR_MAC, eth.srcMac());
                assertEquals(ArpFlyweight.OPERATION_REPLY, arp.operation());
                assertEquals(TRANSLATOR_MAC, arp.senderMac());
                assertEquals(TRANSLATOR_IP, arp.senderIp());
                assertEquals(0x0A000001, arp.targetIp());
                arpReplies++;
            }
        }
        assertEquals(1, arpReplies, "one ARP reply on the reports port");
    }

    /** The offline pipeline over the same reports: what the live store must hold. */
    private Path expectedStore(final Path config, final Path reportsPcap) throws Exception
    {
        final Path roce = dir.resolve("offline-roce.pcap");
        Replay.run(ConfigLoader.load(config), reportsPcap, null, roce);
        final Path store = dir.resolve("offline-store");
        final CliRunner.Result offline = CliRunner.run("collector", "--config", config.toString(), "--in",
            roce.toString(), "--out", dir.resolve("offline-responses.pcap").toString(), "--store", store.toString());
        assertEquals(0, offline.exitCode(), offline.err());
        return store;
    }

    private static List<JsonNode> query(final Path config, final Path store, final String... args) throws Exception
    {
        final List<String> all = new ArrayList<>(List.of("query", "--store", store.toString(), "--config",
            config.toString()));
        all.addAll(List.of(args));
        final CliRunner.Result result = CliRunner.run(all.toArray(new String[0]));
        assertEquals(0, result.exitCode(), result.err());
        final List<JsonNode> nodes = new ArrayList<>();
        for (final String line : result.out().split("\n"))
        {
            if (!line.isBlank())
            {
                nodes.add(JSON.readTree(line));
            }
        }
        return nodes;
    }

    private static void assertExactAnswers(final Path config, final Path store) throws Exception
    {
        final List<JsonNode> kw = query(config, store, "keywrite", "--key", "0x0a0b0c0d", "--key", "7", "--key", "99",
            "--json");
        assertEquals(0xCAFEBABEL, kw.get(0).get("value").asLong());
        assertEquals(1234, kw.get(1).get("value").asLong());
        assertEquals(0xFFFFFFFFL, kw.get(2).get("value").asLong());
        assertEquals(42, query(config, store, "counter", "--key", "5", "--redundancy", "4", "--json").get(0)
            .get("value").asLong());
        assertEquals("9223372036854775811", query(config, store, "counter", "--key", "6", "--redundancy", "2",
            "--json").get(0).get("value").asText());
        final JsonNode reference = query(config, store, "list", "--id", "0", "--json").get(0);
        assertEquals(10, reference.get("entries").size(), reference.toString());
        for (int i = 0; i < 10; i++)
        {
            assertEquals(101 + i, reference.get("entries").get(i).asLong());
        }
        final JsonNode sequenced = query(config, store, "list", "--id", "1", "--json").get(0);
        assertEquals(10, sequenced.get("entries").size(), sequenced.toString());
        assertEquals(0xF000000AL, sequenced.get("entries").get(9).asLong());
        final JsonNode postcard = query(config, store, "postcard", "--key", "0xabcd", "--json").get(0);
        assertTrue(postcard.get("found").asBoolean(), postcard.toString());
        for (int hop = 1; hop <= 5; hop++)
        {
            assertEquals(1000 + hop, postcard.get("hops").get(hop - 1).asLong());
        }
    }

    private void assertSameAnswersAsOffline(
        final Path config, final Path live, final Path offlineConfig, final Path offline) throws Exception
    {
        final String keys = dir.resolve("random-keys.txt").toString();
        final List<JsonNode> expected = query(offlineConfig, offline, "keywrite", "--keys", keys, "--json");
        final List<JsonNode> actual = query(config, live, "keywrite", "--keys", keys, "--json");
        assertEquals(RANDOM_KEY_WRITES, expected.size());
        final Map<String, Integer> found = new LinkedHashMap<>();
        for (int i = 0; i < expected.size(); i++)
        {
            assertEquals(expected.get(i), actual.get(i), "key " + i + ", seed " + SEED);
            found.merge(expected.get(i).get("found").asText(), 1, Integer::sum);
        }
        assertTrue(found.getOrDefault("true", 0) > RANDOM_KEY_WRITES / 2, "most keys are found: " + found +
            " " + HexFormat.of().toHexDigits(SEED));
    }
}
