package io.dta.appliance.dpdk;

import io.dta.appliance.engine.Delivery;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.SendOutcome;
import io.dta.dpdk.MbufArray;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The live tx queue against a fake device: what a tx burst does not take is freed, counted on the port, and given
 * back to the engine's counters as the engine's own {@code DROP_TX_FULL} path counts a frame its sink refuses.
 */
class TxQueueTest
{
    /**
     * A device that takes at most {@code room[i]} frames at its i-th tx burst (then nothing), remembering what it
     * took and what it was asked to free.
     */
    private static final class FakeDevice implements TxQueue.Device
    {
        final List<Long> taken = new ArrayList<>();
        final List<Long> freed = new ArrayList<>();
        int[] room = new int[0];
        int bursts;

        public int txBurst(final MbufArray mbufs, final int count)
        {
            final int n = Math.min(count, bursts < room.length ? room[bursts] : 0);
            bursts++;
            for (int i = 0; i < n; i++)
            {
                taken.add(mbufs.get(i));
            }
            return n;
        }

        public void free(final MbufArray mbufs, final int count)
        {
            for (int i = 0; i < count; i++)
            {
                freed.add(mbufs.get(i));
            }
        }
    }

    /**
     * The engine's bookkeeping of frames it committed: each RoCEv2 frame out, its reports delivered.
     */
    private static void committed(final EngineCounters counters, final OutFrameKind kind, final int reports)
    {
        new Delivery(counters).committed(kind, reports, SendOutcome.SENT);
    }

    @Test
    void shouldGiveEveryFrameALinkWithoutPeerRefusesBackToTheEngineCounters()
    {
        final FakeDevice device = new FakeDevice();
        final TxQueue queue = new TxQueue(null, device, 8);
        final EngineCounters counters = new EngineCounters();
        counters.add(EngineCounter.REPORTS_TRANSLATED, 6);
        queue.countEngineFramesIn(counters);
        final OutFrameKind[] kinds = {
            OutFrameKind.REQUEST, OutFrameKind.REQUEST, OutFrameKind.REQUEST, OutFrameKind.REPORTER_NACK,
            OutFrameKind.REQUEST};
        final int[] carried = {3, 0, 2, 0, 1};
        for (int i = 0; i < carried.length; i++)
        {
            committed(counters, kinds[i], carried[i]);
            queue.add(0x1000 + i, kinds[i], carried[i]);
        }
        queue.add(0x2000); // an ARP reply: the port's loss only
        assertEquals(0, queue.flush());
        assertEquals(1, device.bursts);
        assertEquals(6, device.freed.size());
        assertEquals(6, queue.notTaken());
        assertEquals(0, queue.sent());
        assertEquals(5, counters.get(EngineCounter.DROP_TX_FULL), "the engine's frames, not the ARP reply");
        assertEquals(0, counters.get(EngineCounter.ROCE_FRAMES_OUT));
        assertEquals(0, counters.get(EngineCounter.REPORTER_NACKS_OUT));
        assertEquals(0, counters.get(EngineCounter.REPORTS_DELIVERED));
        assertEquals(6, counters.get(EngineCounter.REPORTS_DROPPED_TX_FULL));
        assertEquals(0, counters.reportsPending(), "translated = delivered + dropped");
    }

    @Test
    void shouldDropOnlyTheTailOfAPartlyTakenBurstAndCountItsOwnReports()
    {
        final FakeDevice device = new FakeDevice();
        device.room = new int[] {4, 8};
        final TxQueue queue = new TxQueue(null, device, 8);
        final EngineCounters counters = new EngineCounters();
        queue.countEngineFramesIn(counters);
        for (int i = 0; i < 6; i++)
        {
            committed(counters, OutFrameKind.REQUEST, 10 + i);
            queue.add(0x1000 + i, OutFrameKind.REQUEST, 10 + i);
        }
        assertEquals(4, queue.flush());
        assertEquals(1, device.bursts, "one tx burst per flush: the live loop never waits on the ring");
        assertEquals(List.of(0x1000L, 0x1001L, 0x1002L, 0x1003L), device.taken);
        assertEquals(List.of(0x1004L, 0x1005L), device.freed);
        assertEquals(2, counters.get(EngineCounter.DROP_TX_FULL));
        assertEquals(14 + 15, counters.get(EngineCounter.REPORTS_DROPPED_TX_FULL), "the tail's own reports");
        assertEquals(10 + 11 + 12 + 13, counters.get(EngineCounter.REPORTS_DELIVERED));
        assertEquals(4, counters.get(EngineCounter.ROCE_FRAMES_OUT));

        committed(counters, OutFrameKind.REQUEST, 1);
        queue.add(0x3000, OutFrameKind.REQUEST, 1);
        assertEquals(1, queue.flush(), "the next burst starts clean");
        assertEquals(0x3000L, device.taken.getLast());
        assertEquals(2, queue.notTaken());
    }

    @Test
    void shouldKeepTheBalanceOfEveryFrameUnderRandomDeviceRoom()
    {
        for (int run = 0; run < 2000; run++)
        {
            final long seed = 0x7A_0000L + run;
            final SplittableRandom random = new SplittableRandom(seed);
            final String ctx = "seed 0x" + Long.toHexString(seed);
            final FakeDevice device = new FakeDevice();
            final int burst = 1 + random.nextInt(32);
            final TxQueue queue = new TxQueue(null, device, burst);
            final EngineCounters counters = new EngineCounters();
            queue.countEngineFramesIn(counters);
            device.room = new int[10_000];
            for (int i = 0; i < device.room.length; i++)
            {
                device.room[i] = random.nextInt(4) == 0 ? 0 : random.nextInt(burst + 1);
            }
            final int frames = random.nextInt(500);
            long reports = 0;
            long untracked = 0;
            for (int i = 0; i < frames; i++)
            {
                final int kind = random.nextInt(10);
                if (0 == kind)
                {
                    untracked++;
                    queue.add(i);
                }
                else
                {
                    final OutFrameKind frameKind = 1 == kind ? OutFrameKind.REPORTER_NACK : OutFrameKind.REQUEST;
                    final int carried = 1 == kind ? 0 : random.nextInt(17);
                    if (carried > 0)
                    {
                        reports += carried;
                        counters.add(EngineCounter.REPORTS_TRANSLATED, carried);
                    }
                    committed(counters, frameKind, carried);
                    queue.add(i, frameKind, carried);
                }
                if (random.nextInt(8) == 0)
                {
                    queue.flush();
                }
            }
            queue.flush();
            assertEquals(frames, device.taken.size() + device.freed.size(), ctx + ": every frame taken or freed");
            assertEquals(device.taken.size(), queue.sent(), ctx);
            assertEquals(device.freed.size(), queue.notTaken(), ctx);
            assertTrue(counters.get(EngineCounter.DROP_TX_FULL) <= queue.notTaken(), ctx);
            assertEquals(frames - untracked, counters.get(EngineCounter.DROP_TX_FULL) +
                counters.get(EngineCounter.ROCE_FRAMES_OUT) + counters.get(EngineCounter.REPORTER_NACKS_OUT), ctx +
                ": each engine frame out or dropped");
            assertEquals(reports, counters.get(EngineCounter.REPORTS_DELIVERED) +
                counters.get(EngineCounter.REPORTS_DROPPED_TX_FULL), ctx);
            assertEquals(0, counters.reportsPending(), ctx);
        }
    }
}
