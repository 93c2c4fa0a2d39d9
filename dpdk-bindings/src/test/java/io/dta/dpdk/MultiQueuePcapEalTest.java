package io.dta.dpdk;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real EAL (in a JVM of its own) on {@code net_pcap} ports with two {@code rx_pcap=} files: a port opened with two
 * queues has no RSS and receives each file on its own queue, each queue from its own pool, and writes each tx queue
 * to its own {@code tx_pcap=} file; more queues than the device has are refused with the limits named.
 */
class MultiQueuePcapEalTest
{
    private static final long[] SEEDS = {0x0A11_CE00L, 0x0B0B_0001L};
    private static final int[] FRAMES = {700, 450};

    @TempDir
    static Path dir;

    private static Eal eal;
    private static final List<List<DpdkTestSupport.Frame>> FILES = new ArrayList<>();

    @BeforeAll
    static void startEal() throws Exception
    {
        for (int q = 0; q < 2; q++)
        {
            FILES.add(DpdkTestSupport.randomFrames(SEEDS[q], FRAMES[q]));
            DpdkTestSupport.writeNanoPcap(dir.resolve("in" + q + ".pcap"), FILES.get(q));
        }
        final String rx = "rx_pcap=" + dir.resolve("in0.pcap") + ",rx_pcap=" + dir.resolve("in1.pcap");
        eal = Eal.init(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("junit-mqpcap"), 0, 256,
            "net_pcap0," + rx + ",tx_pcap=" + dir.resolve("out0.pcap") + ",tx_pcap=" + dir.resolve("out1.pcap"),
            "net_pcap1," + rx + ",tx_pcap=" + dir.resolve("single.pcap")));
    }

    @AfterAll
    static void stopEal()
    {
        DpdkTestSupport.closeAndCheckRuntimeDirectory(eal);
    }

    @Test
    void shouldReceiveEachFileOnItsOwnQueueAndWriteEachTxQueueToItsOwnFile() throws Exception
    {
        try (Mempool pool0 = Mempool.create("mq_pool0", 1023, 32, Mempool.DEFAULT_DATA_ROOM);
            Mempool pool1 = Mempool.create("mq_pool1", 1023, 32, Mempool.DEFAULT_DATA_ROOM))
        {
            final EthPort port = EthPort.open(eal.portId("net_pcap0"), List.of(pool0, pool1), 512, 512, false, 0);
            assertEquals(2, port.queues());
            assertFalse(port.rss(), "net_pcap has no RSS");
            assertEquals(0, port.rssHashFunctions());
            final MbufArray burst = new MbufArray(32);
            final RxFrames frames = new RxFrames(32);
            final int[] received = new int[2];
            int idle = 0;
            while (idle < 1000)
            {
                int work = 0;
                for (int q = 0; q < 2; q++)
                {
                    final int n = port.rxBurst(q, burst, frames, 32);
                    assertEquals(n, (q == 0 ? pool0 : pool1).inUseCount(), "queue " + q + " takes its own pool");
                    for (int i = 0; i < n; i++)
                    {
                        final byte[] bytes = new byte[frames.length(i)];
                        MemorySegment.ofAddress(frames.address(i)).reinterpret(bytes.length)
                            .asByteBuffer().get(bytes);
                        assertArrayEquals(FILES.get(q).get(received[q] + i).data(), bytes,
                            "queue " + q + " frame " + (received[q] + i));
                    }
                    assertEquals(n, port.txBurstOrFree(q, burst, n));
                    received[q] += n;
                    work += n;
                }
                idle = 0 == work ? idle + 1 : 0;
            }
            assertArrayEquals(FRAMES, received);
            port.close();
            assertEquals(0, pool0.inUseCount() + pool1.inUseCount());
        }
        for (int q = 0; q < 2; q++)
        {
            final List<DpdkTestSupport.Frame> out = DpdkTestSupport.readPcap(dir.resolve("out" + q + ".pcap"));
            assertEquals(FRAMES[q], out.size(), "tx queue " + q);
            for (int i = 0; i < FRAMES[q]; i++)
            {
                assertArrayEquals(FILES.get(q).get(i).data(), out.get(i).data(), "out" + q + " frame " + i);
            }
        }
    }

    @Test
    void shouldRefuseMoreQueuesThanTheDeviceHasNamingPortDriverAndLimits()
    {
        try (Mempool pool = Mempool.create("mq_refused", 255, 0, Mempool.DEFAULT_DATA_ROOM))
        {
            final int portId = eal.portId("net_pcap1");
            final DpdkException ex = assertThrows(DpdkException.class,
                () -> EthPort.open(portId, 2, pool, 512, 512, false, 0));
            final String message = ex.getMessage();
            assertTrue(message.contains("port " + portId + " (net_pcap1, driver net_pcap) cannot have 2 queue pairs"),
                message);
            assertTrue(message.contains("max_rx_queues 2, max_tx_queues 1"), message);
            assertTrue(message.contains("one tx queue per tx_pcap="), message);
            assertEquals(22, ex.errorNumber());

            final EthDeviceInfo info = EthDeviceInfo.of(portId);
            assertEquals(2, info.maxRxQueues());
            assertEquals(0, info.flowTypeRssOffloads());
            try (EthPort one = EthPort.open(portId, 1, pool, 512, 512, false, 0))
            {
                assertEquals(1, one.queues());
                assertThrows(IllegalArgumentException.class, () -> one.queue(1));
                assertThrows(IllegalArgumentException.class, () -> one.rxBurst(1, new MbufArray(4), 4));
            }
        }
    }
}
