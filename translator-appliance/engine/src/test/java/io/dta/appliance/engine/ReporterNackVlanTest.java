package io.dta.appliance.engine;

import io.dta.codec.DtaOpcode;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.Ipv4Address;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.SplittableRandom;

import static io.dta.appliance.engine.NackFrameAssertions.assertNack;
import static io.dta.appliance.engine.NackFrameAssertions.isTo;
import static io.dta.appliance.engine.TestFrames.COLLECTOR_A;
import static io.dta.appliance.engine.TestFrames.Cfg;
import static io.dta.appliance.engine.TestFrames.REPORTER_1;
import static io.dta.appliance.engine.TestFrames.keyWrite;
import static io.dta.appliance.engine.TestFrames.report;
import static io.dta.appliance.engine.TestFrames.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A reporter's sequence gap is answered on the reporter's VLAN: the NACK carries the report's tags (TPIDs and
 * TCIs, outer first, as received), and is otherwise the frame an untagged report gets.
 */
class ReporterNackVlanTest
{
    private static final byte[] REPORTER_MAC = {2, 0, 10, 1, 0, 1};
    private static final byte[] SUB = keyWrite(1, 1, new byte[4]);

    @Test
    void shouldSendAnUntaggedNackForAnUntaggedReport()
    {
        assertGapAnsweredWith(new int[0]);
    }

    @Test
    void shouldCarryTheReportsSingleTagWithPriorityAndDropEligibility()
    {
        assertGapAnsweredWith(new int[] {0x8100, 0xB00C}); // PCP 5, DEI 1, VID 12
    }

    @Test
    void shouldCarryBothTagsOfAQinQReportOuterFirst()
    {
        assertGapAnsweredWith(new int[] {0x88A8, 0x0064, 0x8100, 0x2007});
    }

    /**
     * Random tag stacks (0 to 2 tags, either TPID at either place, any TCI), reporters and seqnums, one engine.
     */
    @Test
    void shouldCarryRandomTagStacksBack()
    {
        final long seed = Long.getLong("dta.test.seed", 0x9DC79C04L);
        final SplittableRandom random = new SplittableRandom(seed);
        final EngineHarness h = new EngineHarness(new Cfg());
        final int cases = 2000;
        for (int i = 0; i < cases; i++)
        {
            final String context = "seed " + seed + " case " + i + ": ";
            final int tags = random.nextInt(3);
            final int[] tpidAndTcis = new int[2 * tags];
            for (int t = 0; t < tags; t++)
            {
                tpidAndTcis[2 * t] = random.nextBoolean() ? 0x8100 : 0x88A8;
                tpidAndTcis[2 * t + 1] = random.nextInt(0x10000);
            }
            final int reporter = Ipv4Address.parse("10.3." + (i >> 8) + "." + (i & 0xFF));
            final int seqnum = random.nextInt(256);
            h.feed(tagged(report(reporter, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, seqnum, 0x40, SUB), tpidAndTcis));
            final byte[] gap = tagged(report(reporter, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, (seqnum + 2) & 0xFF, 0x40,
                SUB), tpidAndTcis);
            h.feed(gap);
            final List<byte[]> nacks = nacks(h);
            assertEquals(1, nacks.size(), context + "one NACK");
            assertNack(nacks.get(0), gap, tpidAndTcis, COLLECTOR_A, reporter, new byte[] {(byte)seqnum, (byte)0x80},
                context);
        }
        assertEquals(cases, h.count(EngineCounter.REPORTER_NACKS_OUT), "seed " + seed);
    }

    /**
     * Building a NACK allocates nothing, tagged or not: a tagged report's NACK is built many times over in a sink
     * that keeps nothing.
     */
    @Test
    void shouldNotAllocateWhileAnsweringTaggedReports()
    {
        final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        final long[] committed = new long[1];
        final FrameSink sink = new FrameSink()
        {
            public MutableDirectBuffer buffer()
            {
                return out;
            }

            public int claim(final int maxLength)
            {
                return maxLength <= 68 ? 0 : -1;
            }

            public SendOutcome commit(
                final int offset, final int length, final long timeNanos, final OutFrameKind kind, final int reports)
            {
                committed[0] += length;
                return SendOutcome.SENT;
            }
        };
        final EngineCounters counters = new EngineCounters();
        final ReporterNackSender sender = new ReporterNackSender(sink, counters, 0x02000a000065L,
            TestFrames.APPLIANCE_IP, 40040, 40044);
        final byte[] twoTags = tagged(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 9, 0x40, SUB),
            0x88A8, 0x0064, 0x8100, 0x2007);
        final FrameDecoder decoder = new FrameDecoder();
        assertEquals(FrameKind.DTA, decoder.decode(new UnsafeBuffer(twoTags), 0, twoTags.length));

        final int rounds = 100_000;
        for (int i = 0; i < rounds; i++)
        {
            sender.send(decoder, i & 0xFF, i);
            sender.sendSketch(decoder, 5, 0, i, i & 0xFFFF, i);
        }
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < rounds; i++)
        {
            sender.send(decoder, i & 0xFF, i);
            sender.sendSketch(decoder, 5, 0, i, i & 0xFFFF, i);
        }
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 10_000, "allocated " + allocated + " bytes for " + 2 * rounds + " NACKs");
        assertEquals(2L * rounds * (60 + 65), committed[0], "a 60-byte NACK and a 65-byte sketch NACK per round");
        assertEquals(2L * rounds, counters.get(EngineCounter.REPORTER_NACKS_OUT));
        assertEquals(2L * rounds, counters.get(EngineCounter.SKETCH_NACKS_OUT));
        assertEquals(0, counters.get(EngineCounter.DROP_TX_FULL), "a tagged NACK claims at most 68 bytes");
    }

    private static void assertGapAnsweredWith(final int[] tpidAndTcis)
    {
        final EngineHarness h = new EngineHarness(new Cfg());
        h.feed(tagged(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 10, 0x40, SUB), tpidAndTcis));
        h.feed(tagged(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 11, 0x40, SUB), tpidAndTcis));
        final byte[] gap = tagged(report(REPORTER_1, COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, 13, 0x40, SUB),
            tpidAndTcis);
        h.feed(gap);
        assertEquals(1, h.count(EngineCounter.DROP_SEQUENCE_GAP));
        assertEquals(2, h.count(EngineCounter.REPORTS_TRANSLATED), "tagged reports are translated");
        assertEquals(1, h.count(EngineCounter.REPORTER_NACKS_OUT));
        final List<byte[]> nacks = nacks(h);
        assertEquals(1, nacks.size());
        assertNack(nacks.get(0), gap, tpidAndTcis, COLLECTOR_A, REPORTER_1, new byte[] {11, (byte)0x80},
            tpidAndTcis.length / 2 + " tag(s): ");
    }

    private static List<byte[]> nacks(final EngineHarness h)
    {
        return h.out.drain().stream().map(FrameCollector.Frame::bytes).filter(f -> isTo(f, REPORTER_MAC)).toList();
    }
}
