package io.dta.appliance.engine;

import io.dta.codec.DtaOpcode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Rules of translation.md §4–§7 (frames out, responses and resynchronisation, essential reports, reporter sequence
 * tracking) that no other engine test could fail on, each checked from the text of the specification with plain
 * byte arithmetic; docs/engine.md "Spec audit (§4–§7)" maps every rule to its test.
 */
class PsnSpecAuditTest
{
    private static byte[] essentialKw(final int key)
    {
        return report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 0, 0x20, keyWrite(1, key, new byte[4]));
    }

    private static long slotVa(final int key)
    {
        return KW_BASE + (slotHash(key, 0) & 255) * 8;
    }

    /**
     * §5/§6: a grace period by packets only (resync.graceMicros 0) on a QP that carries essential reports alone
     * must end: the essential operations offered during it are its packets. Counting only refused ones kept the QP
     * in its grace period for ever and filled the essential ring until it dropped what §6 says must arrive.
     */
    @Test
    void shouldEndAPacketCountedGraceOnEssentialTrafficAlone()
    {
        final Cfg cfg = new Cfg();
        cfg.graceMicros = 0;
        cfg.gracePackets = 3;
        final EngineHarness h = new EngineHarness(cfg);
        for (int key = 0; key < 4; key++)
        {
            h.feed(essentialKw(key));
        }
        assertEquals(List.of(0x100, 0x101, 0x102, 0x103), h.settle().stream().map(Request::psn).toList());
        h.feed(nak(KW_QPN, 0x60, 0x102));
        h.feed(essentialKw(10));
        h.feed(essentialKw(11));
        assertEquals(QueuePairSender.State.GRACE, h.sender(KW_QPN).state(), "two packets of three");
        h.feed(essentialKw(12));
        assertEquals(QueuePairSender.State.ACTIVE, h.sender(KW_QPN).state(), "the third ends the grace period");
        final List<Request> after = h.settle();
        assertEquals(List.of(0x102, 0x103, 0x104, 0x105, 0x106), after.stream().map(Request::psn).toList());
        assertEquals(List.of(slotVa(2), slotVa(3), slotVa(10), slotVa(11), slotVa(12)),
            after.stream().map(Request::va).toList(), "the unexecuted ones again, then the new ones, in order");
        assertEquals(0, h.count(EngineCounter.DROP_GRACE_PERIOD));
        assertEquals(0, h.count(EngineCounter.DROP_BACKLOG_FULL));
    }
}
