package io.dta.appliance.engine;

import io.dta.codec.Psn;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PsnWindowTest
{
    private static final long TIMEOUT = 1_000;

    @Test
    void shouldBelieveOnlyResponsesForPsnsThatLeft()
    {
        final PsnWindow w = new PsnWindow(0xFF_FFFE, TIMEOUT);
        assertEquals(0xFF_FFFD, w.lastAckedPsn());
        assertEquals(0xFF_FFFE, w.assign());
        assertEquals(0xFF_FFFF, w.assign());
        assertEquals(0, w.nextPsn(), "PSNs wrap at 24 bits");
        assertFalse(w.acceptsAck(0xFF_FFFE, false), "assigned but held: not sent yet");
        w.sent(0xFF_FFFE, false, 0);
        assertTrue(w.acceptsAck(0xFF_FFFE, false));
        assertTrue(w.acceptsAck(0xFF_FFFD, false), "a duplicate's answer: the last acknowledged PSN");
        assertFalse(w.acceptsAck(0xFF_FFFC, false), "below the window");
        assertFalse(w.acceptsAck(0xFF_FFFF, false));
        assertTrue(w.acceptsNak(0xFF_FFFF, true), "a sequence error names the PSN after the last sent");
        assertFalse(w.acceptsNak(0xFF_FFFF, false), "an RNR or fatal NAK names a PSN that left");
        assertFalse(w.acceptsNak(0xFF_FFFD, true), "a NAK acknowledges what is before it: at least lastAcked + 1");
    }

    @Test
    void shouldAcceptAnyPsnEverSentWhileProbingAfterARewind()
    {
        final PsnWindow w = new PsnWindow(100, TIMEOUT);
        for (int i = 0; i < 5; i++)
        {
            w.sent(w.assign(), false, 0);
        }
        w.resync(101);
        assertFalse(w.acceptsAck(104, false));
        assertTrue(w.acceptsAck(104, true), "sent before the rewind");
        assertFalse(w.acceptsAck(105, true), "never sent");
        assertTrue(w.isAhead(104));
        assertFalse(w.isAhead(100));
        w.restart(500);
        assertFalse(w.acceptsAck(104, true), "a new PSN sequence forgets the old one");
    }

    @Test
    void shouldTimeAnAckReqdPsnFromTheFirstOneAwaited()
    {
        final PsnWindow w = new PsnWindow(0, TIMEOUT);
        w.sent(w.assign(), true, 10);
        w.sent(w.assign(), true, 500);
        assertEquals(10 + TIMEOUT, w.earliestTimer(Long.MAX_VALUE), "a later AckReq does not push the deadline");
        assertFalse(w.ackOverdue(10 + TIMEOUT - 1));
        assertTrue(w.ackOverdue(10 + TIMEOUT));
        assertTrue(w.advance(0));
        w.acknowledged(0, true, 700);
        assertEquals(700 + TIMEOUT, w.earliestTimer(Long.MAX_VALUE), "progress restarts the timer");
        assertFalse(w.advance(0), "no progress twice");
        w.acknowledged(1, w.advance(1), 800);
        assertFalse(w.awaitingAck(), "the awaited PSN answered");
        assertEquals(Long.MAX_VALUE, w.earliestTimer(Long.MAX_VALUE));
    }

    @Test
    void shouldAwaitWhatLeftWhenConfirmationIsNeededAndNothingIsAwaited()
    {
        final PsnWindow w = new PsnWindow(0, TIMEOUT);
        w.sent(w.assign(), false, 0);
        w.sent(w.assign(), false, 0);
        w.assign();
        w.awaitSentPast(1, 50);
        assertFalse(w.awaitingAck(), "nothing sent past the ACK");
        w.awaitSentPast(0, 50);
        assertTrue(w.awaitingAck());
        assertEquals(50 + TIMEOUT, w.earliestTimer(Long.MAX_VALUE));
        w.inStep(0, 60);
        assertTrue(w.awaitingAck(), "PSN 1 is still awaited");
        w.inStep(1, 70);
        assertFalse(w.awaitingAck());
    }

    @Test
    void shouldNeverTimeOutOnceTimeoutsStop()
    {
        final PsnWindow w = new PsnWindow(0, TIMEOUT);
        w.sent(w.assign(), true, 0);
        w.stopAckTimeouts();
        assertFalse(w.ackOverdue(Long.MAX_VALUE / 2));
        assertEquals(123, w.earliestTimer(123));
        w.stopWaiting();
        w.awaitTest(5);
        assertFalse(w.awaitingAck(), "a test is not awaited without timeouts");
    }

    @Test
    void shouldCountTheWindowAcrossThePsnWrap()
    {
        for (int run = 0; run < 200; run++)
        {
            final SplittableRandom random = new SplittableRandom(0x5A_0000L + run);
            final int start = random.nextInt(Psn.MASK + 1);
            final PsnWindow w = new PsnWindow(start, TIMEOUT);
            final int sent = 1 + random.nextInt(64);
            for (int i = 0; i < sent; i++)
            {
                w.sent(w.assign(), false, 0);
            }
            final int acked = random.nextInt(sent);
            w.advance(Psn.add(start, acked));
            final int inFlight = sent - acked - 1;
            final String ctx = "start 0x" + Integer.toHexString(start) + " sent " + sent + " acked " + acked;
            assertTrue(w.isFull(inFlight), ctx);
            assertFalse(w.isFull(inFlight + 1), ctx);
            assertEquals(Psn.add(start, sent), w.nextPsn(), ctx);
        }
    }
}
