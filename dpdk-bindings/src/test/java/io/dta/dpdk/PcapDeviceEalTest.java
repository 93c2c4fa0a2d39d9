package io.dta.dpdk;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * A real EAL (in a JVM of its own) on a {@code net_pcap} port: every frame of a capture comes in, with its
 * capture time as the Rx timestamp, and goes out unchanged to the tx capture.
 */
class PcapDeviceEalTest
{
    private static final long SEED = 0x5EED_DA7AL;
    private static final int FRAMES = 3000;

    @TempDir
    static Path dir;

    private static Eal eal;
    private static Path runtimeDirectory;
    private static List<DpdkTestSupport.Frame> frames;

    @BeforeAll
    static void startEal() throws Exception
    {
        frames = DpdkTestSupport.randomFrames(SEED, FRAMES);
        DpdkTestSupport.writeNanoPcap(dir.resolve("in.pcap"), frames);
        eal = Eal.init(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("junit-pcap"), 0, 256,
            "net_pcap0,rx_pcap=" + dir.resolve("in.pcap") + ",tx_pcap=" + dir.resolve("out.pcap")));
        runtimeDirectory = eal.runtimeDirectory();
    }

    @AfterAll
    static void stopEal()
    {
        eal.close();
        assertFalse(Files.exists(runtimeDirectory), "EAL runtime directory left behind: " + runtimeDirectory);
    }

    @Test
    void shouldPassEveryFrameThroughWithItsCaptureTime() throws Exception
    {
        try (Mempool pool = Mempool.create("pcap_pool", 4095, 128, Mempool.DEFAULT_DATA_ROOM))
        {
            final EthPort port = EthPort.open(eal.portId("net_pcap0"), pool, 512, 512, true);
            assertNotEquals(-1, port.rxTimestampOffset(), "Rx timestamp field registered");
            final MbufArray burst = new MbufArray(32);
            final RxFrames rxFrames = new RxFrames(32);
            final Mbuf mbuf = new Mbuf();
            final UnsafeBuffer data = new UnsafeBuffer(0, 0);
            int received = 0;
            int idle = 0;
            while (idle < 1000)
            {
                final int n = port.rxBurst(burst, rxFrames, 32);
                idle = 0 == n ? idle + 1 : 0;
                for (int i = 0; i < n; i++)
                {
                    final DpdkTestSupport.Frame expected = frames.get(received + i);
                    mbuf.wrap(burst.get(i));
                    mbuf.wrapData(data);
                    assertEquals(mbuf.dataAddress(), rxFrames.address(i), "the burst's own view of the data");
                    assertEquals(mbuf.dataLength(), rxFrames.length(i));
                    final byte[] bytes = new byte[data.capacity()];
                    data.getBytes(0, bytes);
                    assertArrayEquals(expected.data(), bytes, "frame " + (received + i) + " seed " + SEED);
                    assertNotEquals(0, mbuf.offloadFlags() & port.rxTimestampFlag());
                    // net_pcap opens captures at microsecond precision: the nanoseconds are truncated.
                    assertEquals(expected.timestampNanos() / 1000, mbuf.dynamicField64(port.rxTimestampOffset()),
                        "frame " + (received + i) + ": timestamp in microseconds");
                }
                assertEquals(n, port.txBurstOrFree(burst, n), "net_pcap writes every frame");
                received += n;
            }
            assertEquals(FRAMES, received);
            assertEquals(FRAMES, port.stats().inPackets());
            port.close();
            assertEquals(0, pool.inUseCount());
        }
        final List<DpdkTestSupport.Frame> out = DpdkTestSupport.readPcap(dir.resolve("out.pcap"));
        assertEquals(FRAMES, out.size());
        for (int i = 0; i < FRAMES; i++)
        {
            assertArrayEquals(frames.get(i).data(), out.get(i).data(), "out frame " + i + " seed " + SEED);
        }
    }
}
