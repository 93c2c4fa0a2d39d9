package io.dta.appliance.engine;

import io.dta.codec.DtaOpcode;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * §7 for reports dropped for their shape (truncated, bad length, unknown opcode): one whose three-byte base header
 * is whole still takes its place in its reporter's sequence, so the reporter's next report is in order.
 */
class DamagedReportSequenceTest
{
    private static final int RETRANSMITTABLE = 0x40;
    private static final byte[] KEY_WRITE = keyWrite(1, 7, new byte[4]);

    /** The three shapes: a sub-header cut short, one byte too many, an opcode no primitive has. */
    private static final List<byte[]> DAMAGED = List.of(
        report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 11, RETRANSMITTABLE, keyWrite(1, 7, new byte[2])),
        report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.APPEND, 11, RETRANSMITTABLE,
            Arrays.copyOf(append(1, 5), append(1, 5).length + 1)),
        report(REPORTER_1, COLLECTOR_A, 3, 0x09, 11, RETRANSMITTABLE, KEY_WRITE));

    @Test
    void shouldKeepTheReporterInOrderAfterAReportDroppedForItsShape()
    {
        final EngineCounter[] reasons =
            { EngineCounter.DROP_TRUNCATED, EngineCounter.DROP_BAD_LENGTH, EngineCounter.DROP_UNKNOWN_OPCODE };
        for (int i = 0; i < DAMAGED.size(); i++)
        {
            final EngineHarness h = new EngineHarness(new Cfg());
            h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 10, RETRANSMITTABLE, KEY_WRITE));
            h.feed(DAMAGED.get(i));
            h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 12, RETRANSMITTABLE, KEY_WRITE));
            assertEquals(1, h.count(reasons[i]), "shape " + i);
            assertEquals(0, h.count(EngineCounter.DROP_SEQUENCE_GAP), "shape " + i + ": seqnum 12 follows 11");
            assertEquals(0, h.count(EngineCounter.REPORTER_NACKS_OUT), "shape " + i);
            assertEquals(2, h.count(EngineCounter.REPORTS_TRANSLATED), "shape " + i);
            assertEquals(3, h.count(EngineCounter.REPORTS_IN), "shape " + i);
            assertEquals(1, h.engine.counters().totalDrops(), "shape " + i + ": counted once, under its shape");
        }
    }

    @Test
    void shouldNackAGapThatADamagedReportRevealsAndCountItOnceUnderItsShape()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 10, RETRANSMITTABLE, KEY_WRITE));
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, 0x09, 12, RETRANSMITTABLE, KEY_WRITE));
        assertEquals(1, h.count(EngineCounter.REPORTER_NACKS_OUT));
        assertEquals(1, h.count(EngineCounter.DROP_UNKNOWN_OPCODE));
        assertEquals(0, h.count(EngineCounter.DROP_SEQUENCE_GAP));
        assertEquals(1, h.engine.counters().totalDrops());
        final byte[] nack = h.out.drain().stream().map(FrameCollector.Frame::bytes)
            .filter(f -> (((f[36] & 0xFF) << 8) | (f[37] & 0xFF)) == 40044).findFirst().orElseThrow();
        assertArrayEquals(new byte[] {10, (byte)0x80}, Arrays.copyOfRange(nack, 42, 44), "last in-order: 10");
    }

    @Test
    void shouldLeaveTheSequenceAloneForADamagedReportThatIsNotRetransmittable()
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 10, RETRANSMITTABLE, KEY_WRITE));
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, 0x09, 11, 0, KEY_WRITE));
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 12, RETRANSMITTABLE, KEY_WRITE));
        assertEquals(1, h.count(EngineCounter.DROP_SEQUENCE_GAP), "11 was never tracked: 12 is a gap");
        assertEquals(1, h.count(EngineCounter.REPORTER_NACKS_OUT));
    }

    @Test
    void shouldNotTrackADamagedReportUnderTheAutoFormWhereItsFormIsUnknown()
    {
        final Cfg cfg = new Cfg();
        cfg.baseHeader = "auto";
        final EngineHarness h = new EngineHarness(cfg);
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 10, RETRANSMITTABLE, KEY_WRITE));
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, 0x09, 11, RETRANSMITTABLE, KEY_WRITE));
        h.feed(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 12, RETRANSMITTABLE, KEY_WRITE));
        assertEquals(1, h.count(EngineCounter.DROP_UNKNOWN_OPCODE));
        assertEquals(1, h.count(EngineCounter.DROP_SEQUENCE_GAP));
    }
}
