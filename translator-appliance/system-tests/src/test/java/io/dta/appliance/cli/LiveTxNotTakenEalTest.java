package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta run} whose collector link is a {@code net_memif} server that never gets a peer: its tx bursts take
 * nothing, and the engine's counters must say so (not {@code drops: none} with the reports those frames carried
 * counted as delivered). Every RoCEv2 frame the engine committed is in {@code dropTxFull},
 * the reports of the non-essential ones in {@code reportsDroppedTxFull}, none delivered.
 */
class LiveTxNotTakenEalTest extends LiveProcessTests
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldCountTheFramesALinkWithoutPeerDidNotTakeAsEngineDrops() throws Exception
    {
        final Path reports = dir.resolve("reports.pcap");
        final CliRunner.Result gen = CliRunner.run("gen", "--out", reports.toString(), "--reports", "300");
        assertEquals(0, gen.exitCode(), gen.err());
        final Path counters = dir.resolve("run.counters");
        final String prefix = prefix("dta-txacct-" + ProcessHandle.current().pid());
        final Process run = killedAtEnd(ChildDta.start(dir.resolve("run.out"), dir.resolve("run.err"), "run",
            "--reports-port", "net_pcap0", "--collector-port", "net_memif0",
            "--vdev", "net_pcap0,rx_pcap=" + reports + ",tx_pcap=" + dir.resolve("reports-port.pcap"),
            "--vdev", "net_memif0,role=server,socket=" + dir.resolve("x.sock") + ",socket-abstract=no",
            "--link-wait-ms", "500", "--drain-ms", "200", "-l", "0", "--file-prefix", prefix,
            "--counters", counters.toString(), "--state-file", dir.resolve("run.lists").toString(), "--json"));
        LiveStat.await(counters, run, dir, 60_000,
            n -> 300 == n.get("counters").path("reportsIn").asLong() &&
            n.get("counters").path("dropTxFull").asLong() > 0);
        run.destroy();
        assertTrue(run.waitFor(30, TimeUnit.SECONDS));
        final String out = Files.readString(dir.resolve("run.out"));
        assertEquals(0, run.exitValue(), out + Files.readString(dir.resolve("run.err")));
        final JsonNode summary = JSON.readTree(out);
        final JsonNode drops = summary.get("drops");
        final JsonNode engine = summary.get("counters");
        final long notTaken = summary.get("ports").get(1).get("txNotTaken").asLong();
        assertEquals("net_memif0", summary.get("ports").get(1).get("name").asText(), out);
        assertTrue(notTaken > 0, out);
        assertEquals(0, summary.get("roceFramesOut").asLong(), "nothing left: " + out);
        assertEquals(notTaken, drops.get("dropTxFull").asLong(), "every frame on the link was the engine's: " + out);
        assertEquals(0, engine.get("reportsDelivered").asLong(), out);
        assertTrue(engine.get("reportsDroppedTxFull").asLong() > 0, out);
        final long qpDrops = drops.get("dropGracePeriod").asLong() + drops.get("dropQpError").asLong() +
            drops.get("dropBacklogFull").asLong() + drops.get("dropAtomicQueueFull").asLong();
        assertEquals(summary.get("reportsTranslated").asLong(), engine.get("reportsDelivered").asLong() + qpDrops +
            engine.get("reportsDroppedTxFull").asLong() + summary.get("reportsPending").asLong(), out);
    }
}
