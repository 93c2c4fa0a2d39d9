package io.dta.appliance.engine;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class QpOutputTest
{
    private final FrameCollector sink = new FrameCollector();
    private final EngineCounters counters = new EngineCounters();
    private final QpOutput output = new QpOutput(sink, counters, new Delivery(counters));

    private FrameHold heldFrame(final int reports)
    {
        final FrameHold hold = new FrameHold(sink, 2048, 100);
        hold.claim(64);
        hold.buffer().setMemory(hold.offset(), 64, (byte)0x5A);
        hold.hold(9, 64, reports, false, 0);
        hold.release();
        return hold;
    }

    @Test
    void shouldSendAHeldFrameFromLentMemoryAndDeliverItsReports()
    {
        output.sendHeld(heldFrame(3), 10);
        assertEquals(1, sink.size());
        assertEquals(0x5A, sink.frames().getFirst().bytes()[63]);
        assertEquals(0, sink.outstandingLoans());
        assertEquals(1, output.framesOut());
        assertEquals(64, output.bytesOut());
        assertEquals(1, counters.get(EngineCounter.ROCE_FRAMES_OUT));
        assertEquals(3, counters.get(EngineCounter.REPORTS_DELIVERED));
    }

    @Test
    void shouldCopyAStagedFrameAndDropItsReportsWhenTheClaimIsRefused()
    {
        final FrameHold hold = new FrameHold(sink, 2048, 100);
        sink.refuseClaims(true);
        hold.claim(64);
        hold.hold(9, 64, 3, false, 0);
        hold.release();
        output.sendHeld(hold, 10);
        assertEquals(0, sink.size());
        assertEquals(0, output.framesOut(), "a refused claim sent nothing");
        assertEquals(1, counters.get(EngineCounter.DROP_TX_FULL));
        assertEquals(3, counters.get(EngineCounter.REPORTS_DROPPED_TX_FULL));
        assertEquals(0, counters.get(EngineCounter.ROCE_FRAMES_OUT));
    }

    @Test
    void shouldCountAFrameTheSinkLostAsDroppedButAsBuiltForTheQueuePair()
    {
        sink.loseCommitted(true);
        output.sendHeld(heldFrame(2), 10);
        output.transmit(new UnsafeBuffer(new byte[64]), 0, 60, 0, 11);
        output.probeSent();
        assertEquals(2, sink.lost());
        assertEquals(2, output.framesOut(), "the QP's table counts frames handed to the output");
        assertEquals(2, counters.get(EngineCounter.DROP_TX_FULL));
        assertEquals(2, counters.get(EngineCounter.REPORTS_DROPPED_TX_FULL));
        assertEquals(0, counters.get(EngineCounter.REPORTS_DELIVERED));
        assertEquals(0, counters.get(EngineCounter.ROCE_FRAMES_OUT));
        assertEquals(1, counters.get(EngineCounter.PROBES_OUT));
    }
}
