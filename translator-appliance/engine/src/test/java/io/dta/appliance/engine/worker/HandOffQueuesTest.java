package io.dta.appliance.engine.worker;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hand-off queues keep each sender's order, say when full, and the owners spread ids over the workers.
 */
class HandOffQueuesTest
{
    @Test
    void shouldDeliverFramesInOrderPerSenderAndRefuseWhenFull()
    {
        final HandOffQueues queues = new HandOffQueues(3, 4096);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[100]);
        for (int i = 0; i < 5; i++)
        {
            frame.putInt(0, i);
            assertTrue(queues.offer(0, 2, HandOffQueues.REPORT, frame, 0, 100));
            frame.putInt(0, 100 + i);
            assertTrue(queues.offer(1, 2, HandOffQueues.RESPONSE, frame, 0, 100));
        }
        assertTrue(queues.isEmpty(0));
        assertFalse(queues.isEmpty(2));
        final List<Integer> seen = new ArrayList<>();
        final int taken = queues.drain(2, (type, buffer, index, length) ->
        {
            assertEquals(100, length);
            assertEquals(buffer.getInt(index) >= 100 ? HandOffQueues.RESPONSE : HandOffQueues.REPORT, type);
            seen.add(buffer.getInt(index));
        }, 64);
        assertEquals(10, taken);
        assertEquals(List.of(0, 1, 2, 3, 4, 100, 101, 102, 103, 104), seen);
        assertTrue(queues.isEmpty(2));

        int offered = 0;
        while (queues.offer(0, 1, HandOffQueues.REPORT, frame, 0, 100))
        {
            offered++;
        }
        assertTrue(offered > 0 && offered < 4096 / 100, "a 4 KiB ring takes fewer than 41 frames: " + offered);
    }

    @Test
    void shouldSpreadListsFlowsAndSketchesOverEveryWorker()
    {
        for (int workers = 1; workers <= 4; workers++)
        {
            final int[] lists = new int[workers];
            final int[] flows = new int[workers];
            for (int id = 0; id < 4000; id++)
            {
                lists[scaled(WorkerOwnership.mix(id), workers)]++;
                flows[scaled(WorkerOwnership.mix(id * 7919 + 1), workers)]++;
            }
            for (int w = 0; w < workers; w++)
            {
                assertTrue(lists[w] > 4000 / workers * 0.8, "worker " + w + " of " + workers + ": " + lists[w]);
                assertTrue(flows[w] > 4000 / workers * 0.8, "worker " + w + " of " + workers + ": " + flows[w]);
            }
        }
    }

    private static int scaled(final int hash, final int workers)
    {
        return (int)(((hash & 0xFFFF_FFFFL) * workers) >>> 32);
    }
}
