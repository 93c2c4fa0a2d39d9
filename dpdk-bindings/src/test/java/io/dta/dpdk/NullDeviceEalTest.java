package io.dta.dpdk;

import io.dta.dpdk.ffi.DpdkLayout;
import io.dta.dpdk.ffi.dpdk_h;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real EAL (in a JVM of its own) on three {@code net_null} ports: mempool, mbuf access, rx and tx bursts, stats,
 * a port's restart, and the one-EAL-per-process rule.
 */
class NullDeviceEalTest
{
    private static Eal eal;
    private static Mempool pool;
    private static Path runtimeDirectory;

    @BeforeAll
    static void startEal()
    {
        eal = Eal.init(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("junit-null"), 0, 256, "net_null0", "net_null1",
            "net_null2"));
        runtimeDirectory = eal.runtimeDirectory();
        pool = Mempool.create("null_pool", 8191, 256, Mempool.DEFAULT_DATA_ROOM);
    }

    @AfterAll
    static void stopEal()
    {
        pool.close();
        eal.close();
        assertFalse(Files.exists(runtimeDirectory), "EAL runtime directory left behind: " + runtimeDirectory);
        assertEquals(null, Eal.current());
    }

    @Test
    void shouldRefuseSecondEal()
    {
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> Eal.init("--no-huge", "--file-prefix=again"));
        assertTrue(ex.getMessage().contains("one EAL per process"), ex.getMessage());
    }

    @Test
    void shouldKnowPortsPrefixAndLcore()
    {
        assertEquals(3, eal.portCount());
        assertEquals(0, eal.portId("net_null0"));
        assertEquals(1, eal.portId("net_null1"));
        assertThrows(DpdkException.class, () -> eal.portId("net_nothing7"));
        assertTrue(eal.filePrefix().startsWith("junit-null"));
        assertTrue(runtimeDirectory.endsWith(eal.filePrefix()), runtimeDirectory.toString());
        assertEquals(0, Eal.lcoreId(), "the EAL main lcore is the thread that called rte_eal_init");
        assertEquals(42, dpdk_h.dta_noop(41));
    }

    @Test
    void shouldCreateASmallPoolWithTheDataPlanesCacheSizeAsked()
    {
        // rte_pktmbuf_pool_create refuses a 256-mbuf cache for pools under 384 mbufs (EINVAL): the cache shrinks.
        for (final int size : new int[] { 64, 383, 1 })
        {
            try (Mempool small = Mempool.create("small_pool_" + size, size, 256, Mempool.DEFAULT_DATA_ROOM))
            {
                final MbufArray mbufs = new MbufArray(size);
                assertTrue(small.allocBulk(mbufs, size), "every mbuf of a pool of " + size + " can be taken");
                assertEquals(size, small.inUseCount());
                Mempool.freeBulk(mbufs, size);
                assertEquals(0, small.inUseCount());
            }
        }
    }

    @Test
    void shouldAllocateWriteAndFreeMbufs()
    {
        final int before = pool.availableCount();
        final MbufArray mbufs = new MbufArray(32);
        assertTrue(pool.allocBulk(mbufs, 32));
        assertEquals(32, pool.inUseCount());
        final Mbuf mbuf = new Mbuf();
        final UnsafeBuffer data = new UnsafeBuffer(0, 0);
        for (int i = 0; i < 32; i++)
        {
            mbuf.wrap(mbufs.get(i));
            assertEquals(DpdkLayout.RTE_PKTMBUF_HEADROOM, mbuf.dataOffset());
            assertEquals(0, mbuf.dataLength());
            assertEquals(1, mbuf.segments());
            assertEquals(Mempool.DEFAULT_DATA_ROOM - DpdkLayout.RTE_PKTMBUF_HEADROOM, mbuf.room());
            mbuf.wrapRoom(data).putInt(0, 0xCAFE0000 | i, ByteOrder.BIG_ENDIAN);
            mbuf.length(64);
            assertEquals(64, mbuf.dataLength());
            assertEquals(64, mbuf.packetLength());
            assertEquals(0xCAFE0000 | i, mbuf.wrapData(data).getInt(0, ByteOrder.BIG_ENDIAN));
            assertEquals(64, data.capacity());
        }
        Mempool.freeBulk(mbufs, 32);
        assertEquals(0, pool.inUseCount());
        assertEquals(before, pool.availableCount());
        final long one = pool.alloc();
        assertNotEquals(0, one);
        Mempool.free(one);
        assertEquals(0, pool.inUseCount());
    }

    @Test
    void shouldForwardBurstsFromNullToNull()
    {
        try (EthPort in = EthPort.open(0, pool, 512, 512, false);
            EthPort out = EthPort.open(1, pool, 512, 512, false))
        {
            assertEquals("net_null0", in.name());
            final MbufArray burst = new MbufArray(32);
            final Mbuf mbuf = new Mbuf();
            assertThrows(IllegalArgumentException.class, () -> in.rxBurst(burst, 33), "more than the array holds");
            assertThrows(IllegalArgumentException.class, () -> in.rxBurst(burst, new RxFrames(16), 32));
            long forwarded = 0;
            for (int round = 0; round < 1000; round++)
            {
                final int n = in.rxBurst(burst, 32);
                assertTrue(n > 0 && n <= 32, "rx " + n);
                for (int i = 0; i < n; i++)
                {
                    mbuf.wrap(burst.get(i));
                    assertEquals(0, mbuf.port());
                    assertTrue(mbuf.dataLength() > 0);
                }
                forwarded += out.txBurstOrFree(burst, n);
            }
            assertTrue(forwarded > 0);
            assertEquals(forwarded, out.stats().outPackets());
            assertTrue(in.stats().inPackets() >= forwarded);
        }
        assertEquals(0, pool.inUseCount(), "every mbuf went back to the pool");
    }

    @Test
    void shouldRestartAPortAndKnowItsDriver()
    {
        // Left open: a closed virtual device's port id is gone, and the EAL's clean-up closes it.
        final EthPort port = EthPort.open(2, pool, 512, 512, false);
        assertEquals("net_null", port.driver());
        assertTrue(port.started());
        assertEquals(0, port.restart(false), "stopped and started again");
        assertTrue(port.started());
        assertEquals(0, port.restart(true));
        final MbufArray burst = new MbufArray(8);
        final int n = port.rxBurst(burst, 8);
        assertTrue(n > 0, "a restarted port bursts");
        Mempool.freeBulk(burst, n);
        port.stop();
        assertFalse(port.started());
        assertEquals(0, port.restart(false), "a stopped port is only started");
        assertTrue(port.started());
    }

    @Test
    void shouldPassPointersThroughRing()
    {
        try (Ring ring = Ring.create("junit_ring", 1024, Ring.SINGLE_PRODUCER | Ring.SINGLE_CONSUMER))
        {
            final MbufArray objects = new MbufArray(8);
            for (int i = 0; i < 8; i++)
            {
                objects.set(i, 0x1000L * (i + 1));
            }
            assertEquals(8, ring.enqueueBurst(objects, 8));
            assertEquals(8, ring.count());
            final MbufArray back = new MbufArray(8);
            assertEquals(8, ring.dequeueBurst(back, 8));
            for (int i = 0; i < 8; i++)
            {
                assertEquals(0x1000L * (i + 1), back.get(i));
            }
            assertEquals(0, ring.count());
        }
    }
}
