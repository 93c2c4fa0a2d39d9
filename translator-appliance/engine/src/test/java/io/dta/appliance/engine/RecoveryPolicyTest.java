package io.dta.appliance.engine;

import io.dta.appliance.engine.QueuePairSender.State;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecoveryPolicyTest
{
    private static final long ACK_TIMEOUT = 1_000;

    private static RecoveryPolicy policy(final long graceNanos, final long gracePackets, final long silenceNanos)
    {
        return new RecoveryPolicy(new SenderSettings(
            8, ACK_TIMEOUT, graceNanos, gracePackets, 100, 4, 4, 16, silenceNanos, 500_000_000L, 256));
    }

    @Test
    void shouldEndAGracePeriodByTime()
    {
        final RecoveryPolicy r = policy(5_000, 0, 0);
        r.resynced(0x10, 0, 1_000);
        assertEquals(State.GRACE, r.state());
        assertEquals(6_000, r.graceEndNanos());
        assertFalse(r.endGraceIfDue(5_999));
        assertFalse(r.holdsEssentials(5_999), "essential operations go out in a grace period");
        assertTrue(r.endGraceIfDue(6_000));
        assertEquals(State.ACTIVE, r.state());
        assertEquals(Long.MIN_VALUE, r.graceEndNanos());
        assertEquals(1, r.resyncs());
    }

    @Test
    void shouldEndAGracePeriodByPacketsButNotBeforeAnRnrPause()
    {
        final RecoveryPolicy r = policy(0, 2, 0);
        r.resynced(0x10, 3_000, 1_000);
        assertEquals(Long.MIN_VALUE, r.graceEndNanos(), "counted in packets: no end by time yet");
        assertTrue(r.holdsEssentials(3_999), "not while the RNR timer runs");
        assertFalse(r.countGracePacket());
        assertTrue(r.countGracePacket(), "the second packet reaches the count");
        assertFalse(r.countGracePacket(), "counted once");
        assertFalse(r.endGraceIfDue(3_999), "the pause is not over");
        assertEquals(4_000, r.graceEndNanos());
        assertTrue(r.endGraceIfDue(4_000));
        assertFalse(r.holdsEssentials(4_000));
    }

    @Test
    void shouldGoActiveAtOnceWithoutGraceOrPause()
    {
        final RecoveryPolicy r = policy(0, 0, 0);
        r.resynced(0x10, 0, 1_000);
        assertEquals(State.ACTIVE, r.state());
        assertTrue(r.isSending());
        assertTrue(r.isDuplicateNak(0x60, 0x10), "the episode still tells a delayed copy of its NAK");
        assertTrue(r.isDuplicateNak(0x60, 0x0F));
        assertFalse(r.isDuplicateNak(0x60, 0x11), "a NAK past it is about a new loss");
        assertFalse(r.isDuplicateNak(0x61, 0x10), "a fatal NAK is never a copy");
        assertTrue(r.isDuplicateNak(0x20, 0x10), "an RNR NAK of the episode");
        r.acknowledged(0x10);
        assertFalse(r.isDuplicateNak(0x60, 0x10), "the responder executed the PSN it asked for: the episode is over");
    }

    @Test
    void shouldProbeThenResyncToAnAnswerBelowTheMark()
    {
        final RecoveryPolicy r = policy(0, 0, 0);
        assertEquals(RecoveryPolicy.Timeout.PROBE, r.ackTimedOut(10_000, ACK_TIMEOUT, 0x20));
        assertEquals(State.PROBING, r.state());
        assertTrue(r.isSending(), "a probe is one more frame");
        assertFalse(r.acknowledged(0x1E), "below mark - 1: the answer, decided at the next timeout");
        assertEquals(RecoveryPolicy.Timeout.PROBE_RESYNC, r.ackTimedOut(11_000, ACK_TIMEOUT, 0x20));
    }

    @Test
    void shouldGoActiveWhenTheAnswerReachesTheMark()
    {
        final RecoveryPolicy r = policy(0, 0, 0);
        r.ackTimedOut(10_000, ACK_TIMEOUT, 0x20);
        assertFalse(r.acknowledged(0x1E));
        assertTrue(r.acknowledged(0x1F), "everything sent before the probe was executed");
        assertEquals(State.ACTIVE, r.state());
        assertFalse(r.acknowledged(0x20), "no probe out any more");
    }

    @Test
    void shouldStopAfterTheSilenceTimeoutCountedFromTheLastChanceToAnswer()
    {
        final RecoveryPolicy r = policy(0, 0, 5_000);
        assertEquals(RecoveryPolicy.Timeout.PROBE, r.ackTimedOut(10_000, ACK_TIMEOUT, 1));
        assertEquals(9_000, r.silentSinceNanos(), "heard from one timeout ago at the latest");
        assertEquals(RecoveryPolicy.Timeout.PROBE, r.ackTimedOut(13_999, ACK_TIMEOUT, 1));
        assertEquals(RecoveryPolicy.Timeout.SILENT_STOP, r.ackTimedOut(14_000, ACK_TIMEOUT, 1));
        r.stop(7);
        assertTrue(r.isStopped());
        assertEquals(RecoveryPolicy.Timeout.STOPPED, r.ackTimedOut(20_000, ACK_TIMEOUT, 1));
        assertEquals(7, r.firstNotExecuted(3), "the stop's PSN, not the one after the last acknowledged");
        assertTrue(r.firstStopReport());
        assertFalse(r.firstStopReport(), "one line per stop");
        assertTrue(r.holdsEssentials(20_000));
        r.restart();
        assertEquals(State.ACTIVE, r.state());
        assertEquals(4, r.firstNotExecuted(3));
        assertTrue(r.firstStopReport(), "a new connection may report its own stop");
    }

    @Test
    void shouldTellReservedAndRnrSyndromesApart()
    {
        for (int syndrome = 0; syndrome < 256; syndrome++)
        {
            final int type = (syndrome >> 5) & 3;
            final boolean rnr = 1 == type;
            final boolean definedNak = syndrome >= 0x60 && syndrome <= 0x63;
            assertEquals(rnr, RecoveryPolicy.isRnr(syndrome), "syndrome " + syndrome);
            assertEquals(!rnr && !definedNak, RecoveryPolicy.isReservedNak(syndrome), "syndrome " + syndrome);
        }
    }

    @Test
    void shouldCapTheRnrPause()
    {
        final RecoveryPolicy r = policy(0, 0, 0);
        assertEquals(10_000, r.rnrPauseNanos(0x21), "code 1 is 0.01 ms");
        assertEquals(491_520_000L, r.rnrPauseNanos(0x3F), "code 31 is 491.52 ms");
        assertEquals(500_000_000L, r.rnrPauseNanos(0x20), "code 0 (655.36 ms) is capped");
    }

    @Test
    void shouldNeverEndAGracePeriodBeforeItsTimeOrCount()
    {
        for (int run = 0; run < 300; run++)
        {
            final SplittableRandom random = new SplittableRandom(0x6E_0000L + run);
            final long graceNanos = random.nextInt(3) * 1_000L;
            final long gracePackets = random.nextInt(3);
            final long pause = random.nextBoolean() ? 0 : 1 + random.nextInt(2_000);
            final RecoveryPolicy r = policy(graceNanos, gracePackets, 0);
            final long start = random.nextLong(1L << 40);
            r.resynced(1, pause, start);
            long now = start;
            long packets = 0;
            final String ctx = "run " + run + " grace " + graceNanos + " ns " + gracePackets + " packets, pause " +
                pause;
            while (State.GRACE == r.state())
            {
                if (random.nextBoolean())
                {
                    packets++;
                    if (r.countGracePacket())
                    {
                        r.endGraceIfDue(now);
                    }
                }
                else
                {
                    now += random.nextInt(400);
                    r.endGraceIfDue(now);
                }
                if (State.ACTIVE == r.state())
                {
                    assertTrue(now - start >= pause, ctx);
                    assertTrue(0 == graceNanos && 0 == gracePackets || graceNanos > 0 && now - start >= graceNanos ||
                        gracePackets > 0 && packets >= gracePackets, ctx);
                }
            }
        }
    }
}
