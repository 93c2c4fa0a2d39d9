package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.codec.ArpFlyweight;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.pcap.PcapWriter;
import io.dta.dpdk.Hugepages;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The live commands as an operator runs them (docs/dpdk.md, "The live commands at their edges"), each case a
 * {@code dta} process of its own (never more than two EALs at once). Guards against:
 * <ul>
 *     <li>a {@code dta run} started with SIGINT ignored (a shell script's background job) that says nothing and
 *     ignores {@code kill -INT}; a stop whose drain runs out with reports still waiting that says nothing of them;
 *     a second EAL on a file prefix in use that says {@code rte_eal_init failed: Success}; a bad {@code --vdev} that
 *     leaves its EAL runtime directory behind; a second SIGTERM during a drain that does nothing;</li>
 *     <li>a {@code net_memif} client started before its server that fails naming neither the port nor the
 *     cause;</li>
 *     <li>{@code dta collector --port --json} leaving out the ports and ARP counts its text summary prints, and a
 *     second collector given its store zeroing its memory.</li>
 * </ul>
 */
class LiveOperatorAuditEalTest extends LiveProcessTests
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TIMEOUT_MILLIS = 60_000;
    private static final int TRANSLATOR_IP = 0x0A000065;
    private static final int COLLECTOR_IP = 0x0A000033;

    @Test
    void shouldWarnOfAnIgnoredSigintAndOfReportsADrainLeftAndKeepAnotherProcesssEalDirectory() throws Exception
    {
        final Path reports = dir.resolve("reports.pcap");
        final CliRunner.Result gen = CliRunner.run("gen", "--out", reports.toString(), "--reports", "300");
        assertEquals(0, gen.exitCode(), gen.err());
        final Path counters = dir.resolve("run.counters");
        final String prefix = prefix("dta-audit-run-" + ProcessHandle.current().pid());
        // SIGINT ignored as a shell script's "dta run ... &" inherits it; the collector link a tx-only pcap, where
        // nobody answers, so FETCH_ADDs past the atomic credit wait for ever.
        final List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "trap '' INT; exec \"$@\"", "sh"));
        command.addAll(ChildDta.command("run", "--reports-port", "net_pcap0", "--collector-port", "net_pcap1",
            "--vdev", "net_pcap0,rx_pcap=" + reports + ",tx_pcap=" + dir.resolve("reports-port.pcap"),
            "--vdev", "net_pcap1,tx_pcap=" + dir.resolve("collector-link.pcap"), "-l", "0", "--file-prefix", prefix,
            "--counters", counters.toString(), "--drain-ms", "600000", "--json"));
        final Process run = killedAtEnd(new ProcessBuilder(command).redirectOutput(dir.resolve("run.out").toFile())
            .redirectError(dir.resolve("run.err").toFile()).start());
        awaitStat(counters, run, n -> 300 == n.get("counters").path("reportsIn").asLong());
        final Path runtime = Path.of("/var/run/dpdk", prefix);
        assertTrue(Files.isDirectory(runtime), runtime.toString());

        // A second EAL on the same file prefix fails; the running process's runtime directory must stay.
        final Process twin = start("twin", "run", "--vdev", "net_null0", "-l", "1", "--file-prefix", prefix,
            "--counters", dir.resolve("twin.counters").toString(),
            "--state-file", dir.resolve("twin.lists").toString());
        assertTrue(twin.waitFor(60, TimeUnit.SECONDS));
        final String twinErr = Files.readString(dir.resolve("twin.err"));
        assertEquals(1, twin.exitValue(), twinErr);
        assertFalse(twinErr.contains("failed: Success"), twinErr);
        assertTrue(twinErr.contains("rte_eal_init failed: see the EAL's messages above"), twinErr);
        assertTrue(Files.isDirectory(runtime), "the running translator's EAL directory is kept: " + twinErr);
        assertTrue(run.isAlive());

        final String err = Files.readString(dir.resolve("run.err"));
        assertTrue(err.contains("warning: SIGINT is ignored in this process") && err.contains("kill -TERM " +
            run.pid()), err);
        signal("INT", run.pid());
        assertFalse(run.waitFor(1500, TimeUnit.MILLISECONDS), "SIGINT is ignored, as the warning says");

        // Nobody answers: the drain would last its ten minutes; a second SIGTERM cuts it short.
        signal("TERM", run.pid());
        assertFalse(run.waitFor(1500, TimeUnit.MILLISECONDS), "draining");
        signal("TERM", run.pid());
        assertTrue(run.waitFor(30, TimeUnit.SECONDS), "a second SIGTERM stops it at once");
        final String stderr = Files.readString(dir.resolve("run.err"));
        assertEquals(0, run.exitValue(), stderr);
        final JsonNode summary = JSON.readTree(Files.readString(dir.resolve("run.out")));
        assertFalse(summary.get("drainComplete").asBoolean(), summary.toString());
        final long pending = summary.get("reportsPending").asLong();
        assertTrue(pending > 0, summary.toString());
        assertTrue(stderr.contains("warning: a second stop signal ended the drain before the collectors " +
            "acknowledged everything: " + pending + " report(s)"), stderr);
        assertTrue(stderr.contains("demo-collector/keyIncrement PROBING"), stderr);
        assertFalse(Files.exists(runtime), "removed at the stop");
    }

    @Test
    void shouldSayWhichHugepagesAreMissingWhenTheEalLineAsksForThem() throws Exception
    {
        // An --eal line without --no-huge runs on hugepages; this host (and CI) has none reserved. EAL alone says
        // "Cannot get hugepage information"; the failure now says what is missing and how to provide it.
        final String prefix = prefix("dta-audit-huge-" + ProcessHandle.current().pid());
        final List<String> eal = List.of("-l", "0", "--no-pci", "--vdev=net_null0", "--file-prefix=" + prefix);
        final String missing = Hugepages.shortfallFor(eal);
        assumeTrue(null != missing, "this host has hugepages: the EAL would start");
        final Process run = start("huge", "run", "--eal", String.join(" ", eal), "--counters",
            dir.resolve("huge.counters").toString());
        assertTrue(run.waitFor(60, TimeUnit.SECONDS));
        final String err = Files.readString(dir.resolve("huge.err"));
        assertEquals(1, run.exitValue(), err);
        assertTrue(err.contains("rte_eal_init failed"), err);
        assertTrue(err.contains("; hugepages: " + missing), err);
        assertFalse(Files.exists(Path.of("/var/run/dpdk", prefix)), "a failed EAL start leaves nothing: " + err);
    }

    @Test
    void shouldLeaveNoEalDirectoryAfterABadVdevAndExplainAMemifClientWithoutItsServer() throws Exception
    {
        final String prefix = prefix("dta-audit-bad-" + ProcessHandle.current().pid());
        final Process bad = start("bad", "run", "--vdev", "net_no_such_driver0", "-l", "0", "--file-prefix", prefix,
            "--counters", dir.resolve("bad.counters").toString());
        assertTrue(bad.waitFor(60, TimeUnit.SECONDS));
        final String badErr = Files.readString(dir.resolve("bad.err"));
        assertEquals(1, bad.exitValue(), badErr);
        assertTrue(badErr.contains("rte_eal_init failed"), badErr);
        assertFalse(Files.exists(Path.of("/var/run/dpdk", prefix)), "a failed EAL start leaves nothing: " + badErr);

        final Process client = start("client", "run", "--reports-port", "net_null0", "--collector-port",
            "net_memif0", "--vdev", "net_null0", "--vdev", "net_memif0,role=client,socket=" +
            dir.resolve("nobody.sock") + ",socket-abstract=no", "-l", "0", "--file-prefix",
            prefix("dta-audit-memif-" + ProcessHandle.current().pid()),
            "--counters", dir.resolve("client.counters").toString());
        assertTrue(client.waitFor(60, TimeUnit.SECONDS));
        final String clientErr = Files.readString(dir.resolve("client.err"));
        assertEquals(1, client.exitValue(), clientErr);
        assertTrue(clientErr.contains("dta run: cannot open the collector link port 1 (net_memif0): " +
            "rte_eth_dev_start(1) failed"), clientErr);
        assertTrue(clientErr.contains("start the server first"), clientErr);
    }

    @Test
    void shouldPrintTheCollectorsPortsAndArpInJsonAndRefuseASecondCollectorOnItsStore() throws Exception
    {
        final Path arp = dir.resolve("arp.pcap");
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[64]);
        try (PcapWriter writer = new PcapWriter(arp, true))
        {
            for (int i = 0; i < 3; i++)
            {
                final int length = arpRequest(frame, 0x02AABBCCDD00L + i, 0x0A000007 + i, COLLECTOR_IP);
                writer.write(1_000L * i, frame, 0, length);
            }
            // For the translator's address: not the collector's to answer.
            writer.write(9_000L, frame, 0, arpRequest(frame, 0x02AABBCCDD10L, 0x0A000011, TRANSLATOR_IP));
        }
        final Path store = dir.resolve("store");
        final Path counters = dir.resolve("collector.counters");
        final Path replies = dir.resolve("replies.pcap");
        final Process collector = start("collector", "collector", "--store", store.toString(), "--port", "0",
            "--vdev", "net_pcap0,rx_pcap=" + arp + ",tx_pcap=" + replies, "-l", "1", "--file-prefix",
            prefix("dta-audit-col-" + ProcessHandle.current().pid()), "--counters", counters.toString(), "--json");
        awaitStat(counters, collector, n -> 3 == n.get("counters").path("arpRequestsAnswered").asLong());

        final CliRunner.Result second = CliRunner.run("collector", "--in", arp.toString(), "--out",
            dir.resolve("second.pcap").toString(), "--store", store.toString());
        assertEquals(1, second.exitCode(), second.err());
        assertTrue(second.err().contains("is in use by a running collector"), second.err());

        collector.destroy();
        assertTrue(collector.waitFor(30, TimeUnit.SECONDS));
        final String out = Files.readString(dir.resolve("collector.out"));
        assertEquals(0, collector.exitValue(), out + Files.readString(dir.resolve("collector.err")));
        final JsonNode summary = JSON.readTree(out);
        assertEquals(3, summary.get("arpRequestsAnswered").asLong(), out);
        assertEquals(0, summary.get("framesDroppedPoolEmpty").asLong(), out);
        final JsonNode port = summary.get("ports").get(0);
        assertEquals("net_pcap0", port.get("name").asText(), out);
        assertEquals(4, port.get("rxPackets").asLong(), out);
        assertEquals(3, port.get("txPackets").asLong(), out);
        assertTrue(summary.has("counters") && summary.has("queuePairs"), out);
    }

    private static int arpRequest(final UnsafeBuffer frame, final long senderMac, final int senderIp, final int target)
    {
        frame.setMemory(0, frame.capacity(), (byte)0);
        final EthernetFlyweight eth = new EthernetFlyweight().wrap(frame, 0);
        eth.dstMac(0xFFFF_FFFF_FFFFL).srcMac(senderMac).etherType(EthernetFlyweight.ETHER_TYPE_ARP);
        new ArpFlyweight().wrap(frame, EthernetFlyweight.HEADER_LENGTH).ethernetIpv4()
            .operation(ArpFlyweight.OPERATION_REQUEST).senderMac(senderMac).senderIp(senderIp).targetMac(0).targetIp(target);
        return 60;
    }

    private static void signal(final String signal, final long pid) throws Exception
    {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, kill.exitValue());
    }

    private JsonNode awaitStat(final Path counters, final Process process, final Predicate<JsonNode> done)
        throws Exception
    {
        return LiveStat.await(counters, process, dir, TIMEOUT_MILLIS, done);
    }
}
