package io.dta.dpdk;

import io.dta.dpdk.ffi.DpdkLayout;
import io.dta.dpdk.ffi.dpdk_h;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real EAL (in a JVM of its own) on a {@code net_ring} port, whose rx and tx share one ring: frames written into
 * fresh mbufs and transmitted come back on rx, byte for byte and in order; ring feeders, one per port or one per
 * queue of a port over several rings.
 */
class RingDeviceEalTest
{
    private static final long SEED = 0xBEEF_0042L;

    private static Eal eal;
    private static Path runtimeDirectory;

    @BeforeAll
    static void startEal()
    {
        eal = Eal.init(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("junit-ring"), 0, 256, "net_ring0"));
        runtimeDirectory = eal.runtimeDirectory();
    }

    @AfterAll
    static void stopEal()
    {
        eal.close();
        assertFalse(Files.exists(runtimeDirectory), "EAL runtime directory left behind: " + runtimeDirectory);
    }

    @Test
    void shouldLoopFramesBackInOrder()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        try (Mempool pool = Mempool.create("ring_pool", 4095, 0, Mempool.DEFAULT_DATA_ROOM);
            EthPort port = EthPort.open(eal.portId("net_ring0"), pool, 512, 512, false))
        {
            final MbufArray tx = new MbufArray(32);
            final MbufArray rx = new MbufArray(32);
            final Mbuf mbuf = new Mbuf();
            final UnsafeBuffer data = new UnsafeBuffer(0, 0);
            long sequence = 0;
            long expected = 0;
            for (int round = 0; round < 500; round++)
            {
                final int n = 1 + random.nextInt(32);
                assertTrue(pool.allocBulk(tx, n));
                for (int i = 0; i < n; i++)
                {
                    final int length = 60 + random.nextInt(1000);
                    mbuf.wrap(tx.get(i)).wrapRoom(data);
                    data.setMemory(0, length, (byte)length);
                    data.putLong(0, sequence++, ByteOrder.BIG_ENDIAN);
                    mbuf.length(length);
                }
                assertEquals(n, port.txBurstOrFree(tx, n), "seed " + SEED);
                int got = 0;
                while (got < n)
                {
                    final int r = port.rxBurst(rx, 32);
                    for (int i = 0; i < r; i++)
                    {
                        mbuf.wrap(rx.get(i)).wrapData(data);
                        assertEquals(expected++, data.getLong(0, ByteOrder.BIG_ENDIAN), "seed " + SEED);
                        assertEquals((byte)data.capacity(), data.getByte(data.capacity() - 1), "seed " + SEED);
                    }
                    Mempool.freeBulk(rx, r);
                    got += r;
                }
                assertEquals(n, got);
            }
            assertEquals(sequence, expected);
            assertEquals(0, pool.inUseCount());
        }
    }

    @Test
    void shouldRecycleTheFeedersMbufsInOrderWithoutCopyingOrLeaking()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final int count = 1000;
        try (Mempool pool = Mempool.create("feeder_pool", 2047, 0, Mempool.DEFAULT_DATA_ROOM))
        {
            final MbufArray source = new MbufArray(count);
            assertTrue(pool.allocBulk(source, count));
            final Mbuf mbuf = new Mbuf();
            final UnsafeBuffer data = new UnsafeBuffer(0, 0);
            final long[] dataAddresses = new long[count];
            for (int i = 0; i < count; i++)
            {
                final int length = 60 + random.nextInt(200);
                mbuf.wrap(source.get(i)).wrapRoom(data);
                data.setMemory(0, length, (byte)i);
                data.putInt(0, i, ByteOrder.BIG_ENDIAN);
                mbuf.length(length);
                dataAddresses[i] = mbuf.dataAddress();
            }
            final MbufArray rx = new MbufArray(32);
            final RxFrames frames = new RxFrames(32);
            long received = 0;
            try (RingFeeder feeder = RingFeeder.create("junit_feeder", source, count))
            {
                try (EthPort port = EthPort.open(feeder.portId(), pool, 512, 512, false))
                {
                    assertEquals(count, pool.inUseCount(), "every source mbuf taken, nothing else");
                    while (received < 5L * count + 17)
                    {
                        final int n = port.rxBurst(rx, frames, 1 + random.nextInt(32));
                        for (int i = 0; i < n; i++)
                        {
                            final int expected = (int)(received++ % count);
                            // The very mbuf, at the very address: nothing was copied.
                            assertEquals(source.get(expected), rx.get(i), "seed " + SEED);
                            assertEquals(dataAddresses[expected], frames.address(i), "seed " + SEED);
                            data.wrap(frames.address(i), frames.length(i));
                            assertEquals(expected, data.getInt(0, ByteOrder.BIG_ENDIAN), "seed " + SEED);
                            assertEquals((byte)expected, data.getByte(data.capacity() - 1), "seed " + SEED);
                        }
                        Mempool.freeBulk(rx, n);
                        assertEquals(count, pool.inUseCount(), "the data plane's free left the mbufs alive");
                        assertEquals(n, feeder.feed());
                    }
                    assertEquals(0, feeder.dry());
                    assertTrue(feeder.lowest() >= count - 32, "lowest fill " + feeder.lowest());
                    assertEquals(received, feeder.fed());
                }
            }
            assertEquals(0, pool.inUseCount(), "closing the feeder gives every mbuf back");
        }
    }

    @Test
    void shouldCountAFeedThatFindsTheRingEmpty()
    {
        try (Mempool pool = Mempool.create("dry_pool", 255, 0, Mempool.DEFAULT_DATA_ROOM))
        {
            final MbufArray source = new MbufArray(8);
            assertTrue(pool.allocBulk(source, 8));
            for (int i = 0; i < 8; i++)
            {
                new Mbuf().wrap(source.get(i)).length(60);
            }
            final MbufArray rx = new MbufArray(32);
            try (RingFeeder feeder = RingFeeder.create("junit_dry", source, 8);
                EthPort port = EthPort.open(feeder.portId(), pool, 512, 512, false))
            {
                assertEquals(8, port.rxBurst(rx, 32));
                Mempool.freeBulk(rx, 8);
                assertEquals(8, feeder.feed());
                assertEquals(1, feeder.dry());
                assertEquals(0, feeder.lowest());
                assertEquals(5, port.rxBurst(rx, 5));
                Mempool.freeBulk(rx, 5);
                assertEquals(5, feeder.feed());
                assertEquals(1, feeder.dry());
            }
            assertEquals(0, pool.inUseCount());
        }
    }

    @Test
    void shouldLeaveNothingBehindWhenTheQueuesCannotBeMadeAndNameThePortAfterThem()
    {
        try (Mempool pool = Mempool.create("mq_fail_pool", 255, 0, Mempool.DEFAULT_DATA_ROOM))
        {
            final List<MbufArray> sources = List.of(lengthSixty(pool, 8), lengthSixty(pool, 5));
            final List<MemorySegment> mbufs = List.of(sources.get(0).segment(), sources.get(1).segment());
            try (Ring taken = Ring.create("junit_mq_q1", 64, 0))
            {
                // The second queue's ring name is in use: the first queue's ring must not stay behind.
                assertThrows(DpdkException.class, () -> RingFeeder.createQueues("junit_mq", mbufs, new int[] {8, 5}));
            }
            assertEquals(13, pool.inUseCount(), "the mbufs are the caller's still");
            assertEquals(1, refcnt(sources.get(0).get(7)));

            final List<RingFeeder> feeders = RingFeeder.createQueues("junit_mq", mbufs, new int[] {8, 5});
            try (EthPort port = EthPort.open(feeders.get(1).portId(), 2, pool, 64, 64, false, 0))
            {
                assertEquals("net_ring_junit_mq", port.name());
                assertEquals(List.of(0, 1), feeders.stream().map(RingFeeder::queue).toList());
                final MbufArray rx = new MbufArray(32);
                assertEquals(5, port.rxBurst(1, rx, 32));
                for (int i = 0; i < 5; i++)
                {
                    assertEquals(sources.get(1).get(i), rx.get(i), "queue 1 receives its own ring's mbufs in order");
                }
                Mempool.freeBulk(rx, 5);
                assertEquals(8, port.queue(0).rxBurst(rx, 32));
                Mempool.freeBulk(rx, 8);
            }
            finally
            {
                feeders.forEach(RingFeeder::close);
            }
            assertEquals(0, pool.inUseCount());
        }
    }

    @Test
    void shouldGiveTheMbufsBackUntouchedWhenAFeederIsReleased()
    {
        try (Mempool pool = Mempool.create("release_pool", 255, 0, Mempool.DEFAULT_DATA_ROOM);
            Ring ring = Ring.create("junit_release", 16, Ring.SINGLE_PRODUCER | Ring.SINGLE_CONSUMER))
        {
            final MbufArray source = lengthSixty(pool, 8);
            final MemorySegment feeder = dpdk_h.dta_ring_feeder_create(ring.segment(), source.segment(), 8);
            assertEquals(8, ring.count());
            assertEquals(2, refcnt(source.get(3)), "the feeder's reference and the ring's");
            dpdk_h.dta_ring_feeder_release(feeder);
            assertEquals(0, ring.count());
            for (int i = 0; i < 8; i++)
            {
                assertEquals(1, refcnt(source.get(i)));
            }
            assertEquals(8, pool.inUseCount());
            Mempool.freeBulk(source, 8);
            assertEquals(0, pool.inUseCount());
        }
    }

    private static MbufArray lengthSixty(final Mempool pool, final int count)
    {
        final MbufArray mbufs = new MbufArray(count);
        assertTrue(pool.allocBulk(mbufs, count));
        for (int i = 0; i < count; i++)
        {
            new Mbuf().wrap(mbufs.get(i)).length(60);
        }
        return mbufs;
    }

    private static int refcnt(final long mbuf)
    {
        return MemorySegment.ofAddress(mbuf).reinterpret(DpdkLayout.RTE_MBUF_SIZE)
            .get(ValueLayout.JAVA_SHORT, DpdkLayout.RTE_MBUF_REFCNT) & 0xFFFF;
    }
}
