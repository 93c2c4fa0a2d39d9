package io.dta.appliance.engine;

import io.dta.codec.RoceOpcode;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The send path against its policies: frames built as the held frame, released with AckReq when the rules say so,
 * the essential ring drained within the window and the atomic credits.
 */
class QpTransmitterTest
{
    private static final int MTU = 256;
    private static final int BTH = 14 + 20 + 8;
    private static final QpPath PATH = new QpPath("t/keyWrite", 0x02000a000033L, 0x0a000033, 0xC539, 0x539, 0x456,
        0x1234, 0x7f0000000000L, 1 << 20, 0x100, MTU);

    private final FrameCollector sink = new FrameCollector();
    private final EngineCounters counters = new EngineCounters();
    private final PsnWindow window = new PsnWindow(PATH.startPsn(), 1_000_000);
    private final AtomicCredits credits = new AtomicCredits(false, 1, 4);
    private final EssentialRing ring = new EssentialRing(8, 4 * MTU);
    private final UnsafeBuffer payload = new UnsafeBuffer(new byte[4 * MTU]);

    private QpTransmitter transmitter(final int requestInterval, final int windowSize)
    {
        final RecoveryPolicy recovery = new RecoveryPolicy(
            new SenderSettings(requestInterval, 1_000_000, 0, 0, 100, 1, 4, 8, 0, 1_000_000, windowSize));
        return new QpTransmitter(
            new RoceFrameBuilder(0x02000a000065L, 0x0a000065, 0x2a, 17, 0xffff, PATH),
            new FrameHold(sink, 2048, 100), new QpOutput(sink, counters, new Delivery(counters)), window,
            new AckRequestPolicy(requestInterval, windowSize), recovery, credits, ring, false);
    }

    @Test
    void shouldHoldEachFrameUntilTheNextAndAskForAnAckWhenItLeavesIdle()
    {
        final QpTransmitter tx = transmitter(8, 256);
        tx.sendWrite(PATH.baseAddress(), payload, 0, 16, 1, 0);
        assertEquals(0, sink.size(), "held");
        tx.sendWrite(PATH.baseAddress() + 16, payload, 0, 16, 2, 1);
        tx.releaseHeld(true, 2);
        final List<TestFrames.Request> sent = sink.drainRequests();
        assertEquals(2, sent.size());
        assertEquals(0x100, sent.get(0).psn());
        assertFalse(sent.get(0).ackReq(), "let go by the next frame");
        assertEquals(0x101, sent.get(1).psn());
        assertTrue(sent.get(1).ackReq(), "the last before idle");
        assertEquals(3, counters.get(EngineCounter.REPORTS_DELIVERED));
        assertTrue(window.awaitingAck());
        assertEquals(0x101, window.highestSentPsn());
    }

    @Test
    void shouldLetTheNewestFrameGoWithAckReqWhenTheWindowIsFull()
    {
        final QpTransmitter tx = transmitter(8, 2);
        for (int i = 0; i < 3; i++)
        {
            ring.offerWrite(PATH.baseAddress() + 16L * i, payload, 0, 16, 1);
        }
        tx.drainEssentials(0);
        final List<TestFrames.Request> sent = sink.drainRequests();
        assertEquals(2, sent.size(), "two in flight");
        assertTrue(sent.get(1).ackReq(), "its ACK opens the window again");
        assertTrue(ring.hasUnsent(), "the third waits for the window");
        assertEquals(0, counters.get(EngineCounter.REPORTS_DELIVERED), "essential: delivered when acknowledged");
    }

    @Test
    void shouldKeepAnEssentialFetchAddUntilACreditComesBack()
    {
        final QpTransmitter tx = transmitter(8, 256);
        ring.offerFetchAdd(PATH.baseAddress(), 1, 1);
        ring.offerFetchAdd(PATH.baseAddress() + 8, 1, 1);
        tx.drainEssentials(0);
        assertEquals(1, credits.outstanding());
        assertTrue(ring.hasUnsent());
        credits.acknowledge(0x100);
        tx.drainEssentials(1);
        tx.releaseHeld(true, 2);
        final List<TestFrames.Request> sent = sink.drainRequests();
        assertEquals(2, sent.size());
        assertTrue(sent.get(0).isFetchAdd() && sent.get(1).isFetchAdd());
        assertFalse(ring.hasUnsent());
    }

    @Test
    void shouldCutALongWriteIntoPacketsAndDeliverItsReportsWithTheLast()
    {
        final QpTransmitter tx = transmitter(8, 256);
        tx.sendWrite(PATH.baseAddress(), payload, 0, 2 * MTU + 10, 5, 0);
        assertEquals(0, counters.get(EngineCounter.REPORTS_DELIVERED), "the Last is held");
        tx.releaseHeld(true, 1);
        final List<FrameCollector.Frame> sent = sink.drain();
        // The BTH follows Ethernet, IPv4 and UDP headers: opcode at byte 0, PSN in bytes 9..11.
        assertEquals(List.of(RoceOpcode.RC_RDMA_WRITE_FIRST, RoceOpcode.RC_RDMA_WRITE_MIDDLE,
            RoceOpcode.RC_RDMA_WRITE_LAST), sent.stream().map(f -> f.bytes()[BTH] & 0xFF).toList());
        assertEquals(List.of(0x100, 0x101, 0x102), sent.stream().map(f -> ((f.bytes()[BTH + 9] & 0xFF) << 16) |
            ((f.bytes()[BTH + 10] & 0xFF) << 8) | (f.bytes()[BTH + 11] & 0xFF)).toList());
        assertEquals(List.of(14 + 20 + 8 + 12 + 16 + MTU + 4, 14 + 20 + 8 + 12 + MTU + 4, 14 + 20 + 8 + 12 + 12 + 4),
            sent.stream().map(f -> f.bytes().length).toList(), "First with RETH, Middle, Last padded to 4 bytes");
        assertEquals(5, counters.get(EngineCounter.REPORTS_DELIVERED));
    }

    @Test
    void shouldSendAProbeOutsideTheSequenceWithoutTouchingTheHeldFrame()
    {
        final QpTransmitter tx = transmitter(8, 256);
        tx.sendWrite(PATH.baseAddress(), payload, 0, 16, 1, 0);
        tx.sendProbe(0xFF, 1);
        final List<TestFrames.Request> sent = sink.drainRequests();
        assertEquals(1, sent.size());
        assertEquals(0xFF, sent.getFirst().psn());
        assertTrue(sent.getFirst().ackReq());
        assertEquals(0, sent.getFirst().dmaLength());
        assertEquals(1, counters.get(EngineCounter.PROBES_OUT));
        assertEquals(0x101, window.nextPsn(), "the probe takes no PSN");
        tx.releaseHeld(false, 2);
        assertEquals(0x100, sink.drainRequests().getFirst().psn());
    }
}
