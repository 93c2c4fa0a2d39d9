package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.codec.pcap.PcapWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta collector} over a static region with {@code workerQueuePairs}: WRITEs through the region's own QP and
 * each worker's land in the one region file, each QP listed with its index; two QPs of one collector with one
 * collector QPN are refused before the store is touched.
 */
class CollectorWorkerQueuePairsCliTest
{
    private static final String CONFIG = """
        translator:
          mac: "02:00:0a:00:00:65"
          ip: 10.0.0.101
        collectors:
          - name: workers
            mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            keyWrite:
              localQpn: 0x539
              qpn: 0x456
              rkey: 0x1234
              address: 0x00007f0000000000
              length: 4096
              startPsn: 0x100
              workerQueuePairs:
                - localQpn: 0x10539
                  qpn: 0x556
                  startPsn: 0x200
                - localQpn: 0x20539
                  qpn: %s
                  startPsn: 0xffffff
        """;
    private static final int[] QPN = { 0x456, 0x556, 0x656 };
    private static final int[] START = { 0x100, 0x200, 0xFFFFFF };

    @TempDir
    Path dir;

    @Test
    void shouldLandTheWritesOfEveryWorkersQpInTheOneRegionFile() throws Exception
    {
        final Path config = Files.writeString(dir.resolve("c.yaml"), CONFIG.formatted("0x656"));
        final Path in = dir.resolve("roce.pcap");
        try (PcapWriter writer = new PcapWriter(in))
        {
            long t = 1_700_000_000_000_000_000L;
            for (int i = 0; i < 3; i++)
            {
                final byte[] frame = write(QPN[i], START[i], 8 * i, 0x1111_1111_1111_1111L * (i + 1));
                writer.write(t += 1_000, new UnsafeBuffer(frame), 0, frame.length);
            }
        }
        final Path store = dir.resolve("store");
        final CollectorEndToEndTest.Run run = CollectorEndToEndTest.run(new CollectorCommand(), "--config",
            config.toString(), "--in", in.toString(), "--out", dir.resolve("out.pcap").toString(), "--store",
            store.toString(), "--json");
        assertEquals(0, run.exitCode(), run.err());
        final JsonNode qps = run.json().get(0).get("queuePairs");
        assertEquals(3, qps.size(), run.out());
        for (int i = 0; i < 3; i++)
        {
            final JsonNode qp = qps.get(i);
            assertEquals("collectors[0].keyWrite", qp.get("region").asText());
            assertEquals(i, qp.get("index").asInt());
            assertEquals(QPN[i], qp.get("collectorQpn").asInt());
            assertEquals("READY", qp.get("state").asText());
            assertEquals(1, qp.get("msn").asInt());
            assertEquals((START[i] + 1) & 0xFFFFFF, qp.get("expectedPsn").asInt());
        }
        final ByteBuffer region = ByteBuffer.wrap(Files.readAllBytes(store.resolve("workers/keyWrite.region")))
            .order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 3; i++)
        {
            assertEquals(0x1111_1111_1111_1111L * (i + 1), region.getLong(8 * i));
        }
    }

    @Test
    void shouldRefuseTwoQpsWithOneCollectorQpnNamingTheKeyAndLeaveTheStoreAlone() throws Exception
    {
        final Path config = Files.writeString(dir.resolve("c.yaml"), CONFIG.formatted("0x456"));
        final Path store = dir.resolve("store");
        final CollectorEndToEndTest.Run run = CollectorEndToEndTest.run(new CollectorCommand(), "--config",
            config.toString(), "--in", dir.resolve("missing.pcap").toString(), "--out",
            dir.resolve("out.pcap").toString(), "--store", store.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("collectors[0].keyWrite.workerQueuePairs[1].qpn: collector QPN 0x456 is also " +
            "collectors[0].keyWrite.qpn"), run.err());
        assertFalse(Files.exists(store));
        assertEquals("", run.out());
    }

    private static byte[] write(final int qpn, final int psn, final int offset, final long value)
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[8]);
        payload.putLong(0, value, ByteOrder.LITTLE_ENDIAN);
        final RoceFrameEncoder encoder = new RoceFrameEncoder().srcMac(0x02000a000065L).dstMac(0x02000a000033L)
            .srcIp(0x0A000065).dstIp(0x0A000033).srcPort(0xC000).destQp(qpn).pKey(0xFFFF).migReq(true)
            .opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).psn(psn).ackReq(true).virtualAddress(0x00007f0000000000L + offset)
            .rKey(0x1234).dmaLength(-1).payload(payload, 0, 8);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[encoder.frameLength()]);
        encoder.encode(frame, 0);
        return frame.byteArray();
    }

    @Test
    void shouldRefuseQueuesOfferedOfflineOrOutsideTheRange() throws Exception
    {
        final Path config = Files.writeString(dir.resolve("c.yaml"), CONFIG.formatted("0x656"));
        final CliRunner.Result offline = CliRunner.run("collector", "--config", config.toString(), "--in",
            dir.resolve("none.pcap").toString(), "--out", dir.resolve("out.pcap").toString(), "--store",
            dir.resolve("s").toString(), "--queues", "2");
        assertEquals(2, offline.exitCode(), offline.err());
        assertTrue(offline.err().contains("dta collector: --queues needs --port (live)"), offline.err());
        for (final String value : new String[] { "0", "65" })
        {
            final CliRunner.Result r = CliRunner.run("collector", "--config", config.toString(), "--port",
                "net_null0", "--vdev", "net_null0", "--store", dir.resolve("s").toString(), "--queues", value);
            assertEquals(2, r.exitCode(), value + ": " + r.err());
            assertTrue(r.err().contains("dta collector: --queues must be 1..64, was " + value), r.err());
        }
        assertFalse(Files.exists(dir.resolve("s")), "nothing created before the arguments are checked");
    }
}
