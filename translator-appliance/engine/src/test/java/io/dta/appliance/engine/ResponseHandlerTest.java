package io.dta.appliance.engine;

import io.dta.appliance.engine.QueuePairSender.State;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The responder's answers applied to a queue pair's policies, wired as the {@link QueuePairSender} wires them.
 */
class ResponseHandlerTest
{
    private static final long ACK_TIMEOUT = 1_000_000;
    private static final QpPath PATH = new QpPath("t/keyWrite", 0x02000a000033L, 0x0a000033, 0xC539, 0x539, 0x456,
        0x1234, 0x7f0000000000L, 1 << 20, 0x100, 1024);

    private final FrameCollector sink = new FrameCollector();
    private final EngineCounters counters = new EngineCounters();
    private final Delivery delivery = new Delivery(counters);
    private final PsnWindow window = new PsnWindow(PATH.startPsn(), ACK_TIMEOUT);
    private final AckRequestPolicy ackRequests = new AckRequestPolicy(8, 256);
    private final RecoveryPolicy recovery = new RecoveryPolicy(
        new SenderSettings(8, ACK_TIMEOUT, 0, 0, 100, 4, 4, 8, 0, 1_000_000, 256));
    private final AtomicCredits credits = new AtomicCredits(false, 4, 4);
    private final EssentialRing ring = new EssentialRing(8, 1024);
    private final FrameHold held = new FrameHold(sink, 2048, 100);
    private final QpTransmitter transmitter = new QpTransmitter(
        new RoceFrameBuilder(0x02000a000065L, 0x0a000065, 0x2a, 17, 0xffff, PATH), held,
        new QpOutput(sink, counters, delivery), window, ackRequests, recovery, credits, ring, false);
    private final ResponseHandler handler = new ResponseHandler(
        counters, delivery, window, ackRequests, recovery, credits, ring, held, transmitter);
    private final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);

    private void sendWrites(final int count, final int reportsEach)
    {
        for (int i = 0; i < count; i++)
        {
            transmitter.sendWrite(PATH.baseAddress() + 16L * i, payload, 0, 16, reportsEach, i);
        }
    }

    @Test
    void shouldAcknowledgeEssentialEntriesAndCreditsUpToTheAckedPsn()
    {
        ring.offerFetchAdd(PATH.baseAddress(), 1, 2);
        ring.offerFetchAdd(PATH.baseAddress() + 8, 1, 3);
        transmitter.drainEssentials(0);
        transmitter.releaseHeld(true, 1);
        assertEquals(2, credits.outstanding());
        handler.onAck(0x100, EngineCounter.ATOMIC_ACKS_IN, 2);
        assertEquals(1, credits.outstanding());
        assertEquals(2, counters.get(EngineCounter.REPORTS_DELIVERED), "the first entry's reports");
        handler.onAck(0x101, EngineCounter.ATOMIC_ACKS_IN, 3);
        assertEquals(0, credits.outstanding());
        assertEquals(5, counters.get(EngineCounter.REPORTS_DELIVERED));
        assertFalse(window.awaitingAck());
        assertEquals(2, counters.get(EngineCounter.ATOMIC_ACKS_IN));
    }

    @Test
    void shouldNeverMoveThePsnForAnAckOutsideTheWindow()
    {
        sendWrites(2, 1);
        handler.onAck(0x101, EngineCounter.ACKS_IN, 10);
        assertEquals(0xFF, window.lastAckedPsn(), "0x101 is still held: it has not left");
        assertEquals(1, counters.get(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW));
        assertEquals(0, counters.get(EngineCounter.ACKS_IN));
        handler.onAck(0x100, EngineCounter.ACKS_IN, 11);
        assertEquals(0x100, window.lastAckedPsn());
    }

    @Test
    void shouldResyncOnceForASequenceErrorAndDropItsDelayedCopy()
    {
        sendWrites(4, 1);
        transmitter.releaseHeld(true, 5);
        handler.onNak(0x60, 0x101, 6);
        assertEquals(1, recovery.resyncs());
        assertEquals(0x101, window.nextPsn(), "the responder expects 0x101 next");
        assertEquals(0x100, window.lastAckedPsn());
        handler.onNak(0x60, 0x101, 7);
        assertEquals(1, counters.get(EngineCounter.RESPONSE_DROP_DUPLICATE_NAK));
        assertEquals(1, recovery.resyncs());
    }

    @Test
    void shouldStopOnAFatalNakAndDropTheHeldFrameAsQpError()
    {
        sendWrites(2, 3);
        handler.onNak(0x61, 0x100, 10);
        assertEquals(State.ERROR, recovery.state());
        assertEquals(1, counters.get(EngineCounter.NAK_FATAL_IN));
        assertEquals(1, counters.get(EngineCounter.OPERATIONS_DROPPED_QP_ERROR));
        assertEquals(3, counters.get(EngineCounter.DROP_QP_ERROR), "the held frame's reports");
        assertEquals(0, sink.outstandingLoans(), "its lent memory given back");
        handler.onAck(0x100, EngineCounter.ACKS_IN, 11);
        assertEquals(1, counters.get(EngineCounter.RESPONSE_DROP_QP_ERROR));
        assertFalse(handler.stopDisconnected(), "already stopped");
    }

    @Test
    void shouldProbeOnTheLastAcknowledgedPsnWhenTheAckIsOverdue()
    {
        sendWrites(1, 1);
        transmitter.releaseHeld(true, 0);
        assertTrue(window.ackOverdue(ACK_TIMEOUT));
        sink.drain();
        handler.onAckTimeout(ACK_TIMEOUT);
        assertEquals(State.PROBING, recovery.state());
        assertEquals(1, counters.get(EngineCounter.PROBES_OUT));
        assertEquals(0xFF, sink.drainRequests().getFirst().psn(), "a duplicate of the last acknowledged PSN");
        handler.onAck(0x100, EngineCounter.ACKS_IN, ACK_TIMEOUT + 1);
        assertEquals(State.ACTIVE, recovery.state(), "the answer covers everything sent before the probe");
    }
}
