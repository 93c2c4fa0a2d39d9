package io.dta.dpdk;

import io.dta.dpdk.ffi.dpdk_h;
import io.dta.dpdk.ffi.rte_eth_stats;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real EAL on two lcores ({@code -l 0,1}, in a JVM of its own): Java bodies launched on the worker lcore's EAL
 * thread, and two shared-nothing workers (the main lcore and the worker lcore) each bursting its own rx queue of a
 * two-queue {@code net_ring} port and its own tx queue of a two-queue {@code net_null} port.
 */
class LcoreWorkersEalTest
{
    private static final int WORKER = 1;
    private static final int ROUNDS = 7;

    private static Eal eal;

    @BeforeAll
    static void startEal()
    {
        eal = Eal.init(Eal.mergeArgs(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("junit-lcores"), 0, 256, "net_null0"),
            List.of("-l", "0,1")));
    }

    @AfterAll
    static void stopEal()
    {
        DpdkTestSupport.closeAndCheckRuntimeDirectory(eal);
    }

    @Test
    void shouldRunTheBodyOnTheWorkerLcoresOwnThread()
    {
        assertEquals(0, eal.mainLcore());
        assertArrayEquals(new int[] {WORKER}, eal.workerLcores());
        assertEquals(0, Eal.lcoreId(), "the thread that started the EAL is the main lcore");
        final AtomicInteger lcore = new AtomicInteger(-2);
        final AtomicReference<Thread> thread = new AtomicReference<>();
        eal.launch(WORKER, () ->
        {
            lcore.set(Eal.lcoreId());
            thread.set(Thread.currentThread());
        });
        eal.join(WORKER);
        assertEquals(WORKER, lcore.get());
        assertTrue(thread.get() != Thread.currentThread());
        assertFalse(eal.running(WORKER));
    }

    @Test
    void shouldReportWhatTheBodyThrewAtTheJoinAndLaunchAgainAfterwards()
    {
        final IllegalStateException thrown = new IllegalStateException("thrown on the worker lcore");
        eal.launch(WORKER, () ->
        {
            throw thrown;
        });
        final CompletionException ex = assertThrows(CompletionException.class, () -> eal.join(WORKER));
        assertSame(thrown, ex.getCause());
        assertTrue(ex.getMessage().contains("lcore " + WORKER), ex.getMessage());
        eal.join(WORKER);

        final AtomicInteger ran = new AtomicInteger();
        eal.launch(WORKER, ran::incrementAndGet);
        eal.join(WORKER);
        assertEquals(1, ran.get(), "the lcore runs the next body after a failed one");
    }

    @Test
    void shouldRefuseASecondLaunchBeforeTheJoinAndLcoresThatAreNotWorkers() throws Exception
    {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        eal.launch(WORKER, () ->
        {
            started.countDown();
            awaitQuietly(release);
        });
        started.await();
        assertTrue(eal.running(WORKER));
        final IllegalStateException busy = assertThrows(IllegalStateException.class, () -> eal.launch(WORKER, () ->
        {
        }));
        assertTrue(busy.getMessage().contains("join it first"), busy.getMessage());
        release.countDown();
        eal.join(WORKER);
        assertFalse(eal.running(WORKER));

        final IllegalArgumentException main = assertThrows(IllegalArgumentException.class, () -> eal.launch(0, () ->
        {
        }));
        assertTrue(main.getMessage().contains("main lcore 0, worker lcores [1]"), main.getMessage());
        assertThrows(IllegalArgumentException.class, () -> eal.join(5));
        assertThrows(IllegalArgumentException.class, () -> eal.running(-1));
    }

    @Test
    void shouldRunAnAgentRunnerOnTheWorkerLcoreUntilItsAgentTerminates()
    {
        // An EAL thread never ends, so AgentRunner.close() would wait for it for ever: the agent ends the run itself
        // (AgentTerminationException), the lcore is joined, and close() then finds the runner closed.
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicInteger startLcore = new AtomicInteger(-2);
        final AtomicInteger closeLcore = new AtomicInteger(-2);
        final AtomicLong cycles = new AtomicLong();
        final Agent agent = new Agent()
        {
            @Override
            public void onStart()
            {
                startLcore.set(Eal.lcoreId());
            }

            @Override
            public int doWork()
            {
                if (stop.get())
                {
                    throw new AgentTerminationException();
                }
                cycles.incrementAndGet();
                return 0;
            }

            @Override
            public void onClose()
            {
                closeLcore.set(Eal.lcoreId());
            }

            @Override
            public String roleName()
            {
                return "lcore-agent";
            }
        };
        final AgentRunner runner = new AgentRunner(new SleepingMillisIdleStrategy(1), ex ->
        {
        }, null, agent);
        eal.launch(WORKER, runner);
        while (cycles.get() < 3)
        {
            Thread.onSpinWait();
        }
        stop.set(true);
        eal.join(WORKER);
        assertTrue(runner.isClosed());
        runner.close();
        assertEquals(WORKER, startLcore.get());
        assertEquals(WORKER, closeLcore.get());
    }

    @Test
    void shouldLetEachWorkerBurstOnlyItsOwnQueues()
    {
        final int[] counts = {300, 200};
        try (Mempool pool = Mempool.create("lcores_pool", 2047, 32, Mempool.DEFAULT_DATA_ROOM))
        {
            final List<MemorySegment> mbufs = new ArrayList<>();
            for (int q = 0; q < counts.length; q++)
            {
                mbufs.add(markedFrames(pool, q, counts[q]).segment());
            }
            final List<RingFeeder> feeders = RingFeeder.createQueues("junit_mq", mbufs, counts);
            try (EthPort in = EthPort.open(feeders.get(0).portId(), 2, pool, 512, 512, false, 0);
                EthPort out = EthPort.open(eal.portId("net_null0"), 2, pool, 512, 512, false, 0))
            {
                assertEquals(2, in.queues());
                assertFalse(in.rss(), "net_ring has no RSS: each queue is its ring");
                assertTrue(out.rss(), "net_null advertises RSS");
                assertEquals(out.rssHashFunctions(), out.rssHashFunctionsInForce());

                final QueueWorker[] workers = new QueueWorker[2];
                for (int q = 0; q < 2; q++)
                {
                    workers[q] = new QueueWorker(q, counts[q], in.queue(q), out.queue(q), feeders.get(q));
                }
                eal.launch(WORKER, workers[1]);
                try
                {
                    workers[0].run();
                }
                finally
                {
                    eal.join(WORKER);
                }

                for (int q = 0; q < 2; q++)
                {
                    assertEquals(q, workers[q].lcore, "worker " + q + "'s lcore");
                    assertEquals((long)ROUNDS * counts[q], workers[q].received, "worker " + q);
                    assertEquals(workers[q].received, workers[q].sent, "worker " + q);
                    assertEquals(0, feeders.get(q).dry(), "worker " + q + " fed its ring between bursts");
                }
                assertEquals(workers[0].sent, queueOutPackets(out, 0), "net_null tx queue 0");
                assertEquals(workers[1].sent, queueOutPackets(out, 1), "net_null tx queue 1");
            }
            finally
            {
                feeders.forEach(RingFeeder::close);
            }
            assertEquals(0, pool.inUseCount(), "every mbuf back");
        }
    }

    /**
     * Frames of queue {@code q}: byte 0 the queue, bytes 4..8 the sequence number within the queue.
     */
    private static MbufArray markedFrames(final Mempool pool, final int q, final int count)
    {
        final MbufArray frames = new MbufArray(count);
        assertTrue(pool.allocBulk(frames, count));
        final Mbuf mbuf = new Mbuf();
        final UnsafeBuffer data = new UnsafeBuffer(0, 0);
        for (int i = 0; i < count; i++)
        {
            mbuf.wrap(frames.get(i)).wrapRoom(data);
            data.setMemory(0, 64, (byte)0);
            data.putByte(0, (byte)q);
            data.putInt(4, i, ByteOrder.BIG_ENDIAN);
            mbuf.length(64);
        }
        return frames;
    }

    private static long queueOutPackets(final EthPort port, final int q)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment stats = arena.allocate(rte_eth_stats.layout());
            assertEquals(0, dpdk_h.rte_eth_stats_get((short)port.portId(), stats));
            return stats.get(ValueLayout.JAVA_LONG, rte_eth_stats.q_opackets$offset() + 8L * q);
        }
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One shared-nothing worker: bursts its rx queue, checks every frame is its queue's and in order, sends the burst
     * on its tx queue, feeds its ring; nothing shared with the other worker.
     */
    private static final class QueueWorker implements Runnable
    {
        private final int queue;
        private final int count;
        private final EthQueue rx;
        private final EthQueue tx;
        private final RingFeeder feeder;
        private int lcore = -2;
        private long received;
        private long sent;

        QueueWorker(final int queue, final int count, final EthQueue rx, final EthQueue tx, final RingFeeder feeder)
        {
            this.queue = queue;
            this.count = count;
            this.rx = rx;
            this.tx = tx;
            this.feeder = feeder;
        }

        @Override
        public void run()
        {
            lcore = Eal.lcoreId();
            final MbufArray burst = new MbufArray(32);
            final RxFrames frames = new RxFrames(32);
            final UnsafeBuffer data = new UnsafeBuffer(0, 0);
            final long total = (long)ROUNDS * count;
            while (received < total)
            {
                final int n = rx.rxBurst(burst, frames, (int)Math.min(32, total - received));
                for (int i = 0; i < n; i++)
                {
                    data.wrap(frames.address(i), frames.length(i));
                    assertEquals(queue, data.getByte(0), "a frame of another queue on queue " + queue);
                    assertEquals((int)(received % count), data.getInt(4, ByteOrder.BIG_ENDIAN), "queue " + queue);
                    received++;
                }
                sent += tx.txBurstOrFree(burst, n);
                feeder.feed();
            }
        }
    }
}
