package io.dta.appliance.engine;

import io.dta.codec.DtaOpcode;
import io.dta.codec.Psn;
import io.dta.collector.responder.ResponderCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stale or forged response never moves a PSN, a forged NAK never stops or long pauses a QP, and a delayed copy of
 * a NAK already acted on is not acted on again (translation.md §5). Each case ends with the collector's memory
 * checked for every essential report's value, not with the translator's own counters.
 */
class StaleResponseTest
{
    private static final int START = 0x100;

    private static byte[] essentialKw(final int key, final int value)
    {
        return report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 0, 0x20,
            keyWrite(1, key, ByteBuffer.allocate(4).putInt(value).array()));
    }

    private static int value(final int i)
    {
        return 0x5EED0000 + i;
    }

    /**
     * One stale ACK (the last acknowledged PSN less {@code offset}, or a PSN ahead when positive), then a collector
     * outage of several probe timeouts: the QP must not decide the responder restarted, and the essential Key-Writes
     * sent during and after the outage must land.
     */
    @ParameterizedTest
    @ValueSource(ints = {-1, -50, 5000})
    void shouldNotTakeAStaleAckFollowedByAnOutageForARestart(final int offset)
    {
        final CollectorLoop loop = new CollectorLoop(new Cfg());
        int reports = 0;
        for (; reports < 60; reports++)
        {
            loop.report(essentialKw(reports, value(reports)));
            loop.exchange();
        }
        final QueuePairSender qp = loop.h.sender(KW_QPN);
        final int lastAcked = qp.lastAckedPsn();
        assertEquals(Psn.add(START, reports - 1), lastAcked);
        loop.h.feed(ack(KW_QPN, Psn.add(lastAcked, offset)));
        loop.linkDown = true;
        loop.report(essentialKw(reports, value(reports)));
        reports++;
        loop.run(4 * 500_000);
        assertTrue(loop.h.count(EngineCounter.PROBES_OUT) >= 3, "probes went out into the outage");
        loop.linkDown = false;
        loop.exchange();
        for (int i = 0; i < 5; i++, reports++)
        {
            loop.report(essentialKw(reports, value(reports)));
            loop.exchange();
        }
        assertEquals(0, loop.h.count(EngineCounter.RESPONDER_RESTARTS));
        assertTrue(loop.responder.counter(ResponderCounter.DUPLICATES) <= loop.h.count(EngineCounter.PROBES_OUT),
            "no request but probes taken for a duplicate");
        for (int i = 0; i < reports; i++)
        {
            assertTrue(loop.holds(value(i)), "report " + i + " in the collector's memory");
        }
        assertEquals(reports, loop.h.count(EngineCounter.REPORTS_DELIVERED));
        assertEquals(Psn.add(START, reports - 1), qp.lastAckedPsn(), "no PSN skipped or used twice");
    }

    @Test
    void shouldNotJumpOnAForgedAckBeforeTheFirstGenuineResponse()
    {
        final CollectorLoop loop = new CollectorLoop(new Cfg());
        loop.report(essentialKw(1, value(1)));
        loop.h.out.frames();
        final QueuePairSender qp = loop.h.sender(KW_QPN);
        loop.h.feed(ack(KW_QPN, Psn.add(START, 5000)));
        assertEquals(Psn.next(START), qp.nextPsn(), "the forged ACK moved nothing");
        loop.exchange();
        for (int i = 2; i < 10; i++)
        {
            loop.report(essentialKw(i, value(i)));
            loop.exchange();
        }
        assertEquals(Psn.add(START, 8), qp.lastAckedPsn());
        assertEquals(0, loop.h.count(EngineCounter.RESPONDER_RESTARTS));
        for (int i = 1; i < 10; i++)
        {
            assertTrue(loop.holds(value(i)), "report " + i);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0x61, 0x62, 0x63, 0x20, 0x3F})
    void shouldNotStopOrPauseOnAFatalOrRnrNakForAPsnNotSent(final int syndrome)
    {
        final CollectorLoop loop = new CollectorLoop(new Cfg());
        for (int i = 0; i < 3; i++)
        {
            loop.report(essentialKw(i, value(i)));
        }
        final QueuePairSender qp = loop.h.sender(KW_QPN);
        // 0x100..0x102 sent, none acknowledged yet: one past the last sent is 0x103.
        loop.h.feed(nak(KW_QPN, syndrome, Psn.add(START, 3)));
        assertEquals(QueuePairSender.State.ACTIVE, qp.state());
        assertEquals(1, loop.h.count(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW));
        loop.exchange();
        loop.report(essentialKw(3, value(3)));
        loop.exchange();
        for (int i = 0; i < 4; i++)
        {
            assertTrue(loop.holds(value(i)), "report " + i);
        }
    }

    @Test
    void shouldCapAnInWindowRnrNaksPauseAtTheConfiguredMaximum()
    {
        final Cfg cfg = new Cfg();
        cfg.graceMicros = 0;
        cfg.maxRnrWaitMicros = 2_000;
        final EngineHarness h = new EngineHarness(cfg);
        for (int i = 0; i < 3; i++)
        {
            h.feed(essentialKw(i, value(i)));
        }
        h.settle();
        // Timer code 0: 655.36 ms asked for.
        h.feed(nak(KW_QPN, 0x20, Psn.add(START, 1)));
        final QueuePairSender qp = h.sender(KW_QPN);
        assertEquals(QueuePairSender.State.GRACE, qp.state());
        assertEquals(h.now + 2_000_000, qp.graceEndNanos(), "paused for resync.maxRnrWaitMicros, not 655 ms");
        h.advance(2_000_000);
        assertEquals(QueuePairSender.State.ACTIVE, qp.state());
    }

    @Test
    void shouldIgnoreADelayedCopyOfANakAlreadyActedOn()
    {
        final CollectorLoop loop = new CollectorLoop(new Cfg());
        for (int i = 0; i < 5; i++)
        {
            loop.report(essentialKw(i, value(i)));
        }
        loop.h.out.drain();
        // The collector lost 0x102: it executed 0x100, 0x101 and NAKs 0x102 (it got 0x103 and 0x104 out of order).
        final QueuePairSender qp = loop.h.sender(KW_QPN);
        final byte[] nak = nak(KW_QPN, 0x60, Psn.add(START, 2));
        loop.h.feed(nak);
        assertEquals(1, qp.resyncs());
        loop.h.advance(150_000);
        loop.h.feed(nak);
        assertEquals(1, qp.resyncs(), "the copy is not acted on");
        assertEquals(1, loop.h.count(EngineCounter.RESPONSE_DROP_DUPLICATE_NAK));
        assertEquals(Psn.add(START, 5), qp.nextPsn(), "no PSN handed out twice");
        loop.h.out.drain();
        // A later, genuine NAK beyond the episode's PSN is acted on.
        loop.h.feed(ack(KW_QPN, Psn.add(START, 4)));
        loop.report(essentialKw(5, value(5)));
        loop.report(essentialKw(6, value(6)));
        loop.h.feed(nak(KW_QPN, 0x60, Psn.add(START, 5)));
        assertEquals(2, qp.resyncs());
    }

    @Test
    void shouldNotTakeAFullTransmitRingForARestartedResponder()
    {
        final CollectorLoop loop = new CollectorLoop(new Cfg());
        for (int i = 0; i < 10; i++)
        {
            loop.report(essentialKw(i, value(i)));
            loop.exchange();
        }
        final PrintStream err = System.err;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try
        {
            loop.h.out.refuseClaims(true);
            loop.report(essentialKw(10, value(10)));
            // A stale NAK naming a PSN behind the window, then nothing leaves: the tx ring is full, probes too.
            loop.h.feed(nak(KW_QPN, 0x60, Psn.add(START, 3)));
            loop.run(20 * 500_000);
            loop.h.feed(nak(KW_QPN, 0x60, Psn.add(START, 3)));
            loop.run(20 * 500_000);
        }
        finally
        {
            System.setErr(err);
        }
        assertEquals(0, loop.h.count(EngineCounter.RESPONDER_RESTARTS));
        assertFalse(captured.toString(StandardCharsets.UTF_8).contains("collector expects PSN"), captured.toString());
        loop.h.out.refuseClaims(false);
        loop.run(1_000_000);
        loop.exchange();
        for (int i = 0; i <= 10; i++)
        {
            assertTrue(loop.holds(value(i)), "report " + i);
        }
    }
}
