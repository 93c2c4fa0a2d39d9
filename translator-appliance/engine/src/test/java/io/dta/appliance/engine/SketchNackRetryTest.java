package io.dta.appliance.engine;

import io.dta.codec.Ipv4Address;
import io.dta.config.ConfigLoader;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The sketch NACK retry timer (docs/sketch.md, "NACK retries"): a switch whose gap NACK was lost is NACKed again
 * from the engine's timer, with the first NACK's addressing and VLAN tags, after {@code nackRetryMicros}, doubling,
 * up to {@code nackRetries} times, until the gap fills, the epoch closes or the retries run out. Times and
 * expectations are written from the documentation with plain arithmetic.
 */
class SketchNackRetryTest
{
    private static final int SKETCH_ID = 5;
    private static final long BASE = 0x7f0000800000L;
    private static final long MICROS = 1_000;
    private static final int NACK_PORT = 40044;

    private TranslatorEngine engine;
    private final FrameCollector out = new FrameCollector();
    private final List<byte[]> nacks = new ArrayList<>();
    private long now = 1_000_000_000;
    private byte[] memory;
    private int columns;
    private int epochs;

    private static String yaml(
        final int columns, final int switches, final int epochs, final long timeoutMicros, final String retryKeys)
    {
        final long length = (long)epochs * (64 + columns * 4);
        return """
            translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101}
            reports: {udpPort: 40040, baseHeader: "3"}
            collectors:
              - name: a
                mac: "02:00:0a:00:00:33"
                ip: 10.0.0.51
                pathMtu: 4096
                sketches:
                  - {id: %d, type: count-min, rows: 1, columns: %d, switches: %d, batchColumns: 1, epochs: %d,
                     epochTimeoutMicros: %d, %s localQpn: 0x541, qpn: 0x471, rkey: 0x77, address: 0x%x,
                     length: %d, startPsn: 0x100}
            """.formatted(SKETCH_ID, columns, switches, epochs, timeoutMicros, retryKeys, BASE, length);
    }

    private void setUp(
        final int columns, final int switches, final int epochs, final long timeoutMicros, final String retryKeys)
    {
        this.columns = columns;
        this.epochs = epochs;
        memory = new byte[epochs * (64 + columns * 4)];
        engine = new TranslatorEngine(ConfigLoader.load(yaml(columns, switches, epochs, timeoutMicros, retryKeys)),
            out, false);
    }

    private static int switchIp(final int switchId)
    {
        return Ipv4Address.parse("10.2.0." + (switchId + 1));
    }

    private static byte[] column(final int switchId, final long epoch, final int column, final int value)
    {
        final byte[] sub = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN).putShort((short)SKETCH_ID)
            .putShort((short)switchId).putInt((int)epoch).putShort((short)column).put((byte)1).put((byte)0)
            .putInt(value).array();
        return TestFrames.report(switchIp(switchId), TestFrames.COLLECTOR_A, 3, 0x05, 0, 0, sub);
    }

    private void feed(final byte[] frame)
    {
        engine.pollNow(now);
        engine.onFrame(new UnsafeBuffer(frame), 0, frame.length, now);
    }

    private void send(final int switchId, final long epoch, final int c, final int value)
    {
        feed(column(switchId, epoch, c, value));
    }

    private void advance(final long nanos)
    {
        now += nanos;
        engine.pollNow(now);
    }

    /**
     * Advances the clock one microsecond at a time, polling at each, as a running engine does.
     */
    private void advanceInSteps(final int micros)
    {
        for (int i = 0; i < micros; i++)
        {
            advance(MICROS);
        }
    }

    private long count(final EngineCounter counter)
    {
        return engine.counters().get(counter);
    }

    /**
     * Takes every frame out: NACKs (UDP to the NACK port) into {@link #nacks}, WRITEs applied to {@link #memory}.
     *
     * @return the NACKs of this drain.
     */
    private List<byte[]> drain()
    {
        final List<byte[]> fresh = new ArrayList<>();
        for (final FrameCollector.Frame f : out.drain())
        {
            final byte[] bytes = f.bytes();
            final int ip = 14 + 4 * vlanTags(bytes);
            if (NACK_PORT == NackFrameAssertions.u16(bytes, ip + 22))
            {
                fresh.add(bytes);
                continue;
            }
            final TestFrames.Request r = TestFrames.parseRequest(bytes);
            if (r.dmaLength() > 0)
            {
                System.arraycopy(r.payload(), 0, memory, (int)(r.va() - BASE), r.dmaLength());
            }
        }
        nacks.addAll(fresh);
        return fresh;
    }

    private static int vlanTags(final byte[] frame)
    {
        int tags = 0;
        while (tags < 2 && (0x8100 == NackFrameAssertions.u16(frame, 12 + 4 * tags) ||
            0x88A8 == NackFrameAssertions.u16(frame, 12 + 4 * tags)))
        {
            tags++;
        }
        return tags;
    }

    /** The NACK body's fields of an untagged NACK: switch, epoch, column. */
    private static int nackSwitch(final byte[] nack)
    {
        return NackFrameAssertions.u16(nack, 42 + 3 + 2);
    }

    private static int nackColumn(final byte[] nack)
    {
        return NackFrameAssertions.u16(nack, 42 + 3 + 8);
    }

    private int cell(final long epoch, final int c)
    {
        return ByteBuffer.wrap(memory).order(ByteOrder.LITTLE_ENDIAN).getInt(area(epoch) + 64 + c * 4);
    }

    private int area(final long epoch)
    {
        return (int)(epoch % epochs) * (64 + columns * 4);
    }

    private int headerState(final long epoch)
    {
        return memory[area(epoch) + 4];
    }

    private int headerContributors(final long epoch)
    {
        return ByteBuffer.wrap(memory).order(ByteOrder.LITTLE_ENDIAN).getShort(area(epoch) + 14);
    }

    /**
     * Switch 0 sends its whole sketch; switch 1 loses column 1 and sends its last columns, the NACK for column 1 is
     * lost too. Nothing more arrives from switch 1: only a timer can ask it again.
     *
     * @return the lost NACK.
     */
    private byte[] lastColumnSentAndNackLost(final long epoch)
    {
        for (int c = 0; c < 4; c++)
        {
            send(0, epoch, c, 1 + c);
        }
        send(1, epoch, 0, 10);
        send(1, epoch, 2, 30);
        send(1, epoch, 3, 40);
        assertEquals(2, count(EngineCounter.DROP_SKETCH_GAP));
        assertEquals(1, count(EngineCounter.SKETCH_NACKS_OUT), "one NACK for the gap episode");
        final List<byte[]> first = drain();
        assertEquals(1, first.size());
        nacks.clear();  // lost on the way to the switch
        return first.get(0);
    }

    @Test
    void shouldCompleteTheEpochWhenTheRetriedNackReachesASwitchThatHadSentItsLastColumn()
    {
        setUp(4, 2, 2, 10_000, "nackRetryMicros: 100, nackRetries: 3,");
        final byte[] lost = lastColumnSentAndNackLost(7);

        advance(99 * MICROS);
        assertTrue(drain().isEmpty(), "not before nackRetryMicros");
        advance(MICROS);
        final List<byte[]> retried = drain();
        assertEquals(1, retried.size(), "the timer NACKs switch 1 again");
        assertEquals(HexFormat.of().formatHex(lost), HexFormat.of().formatHex(retried.get(0)),
            "the same frame as the lost NACK: same switch, epoch and column 1");
        assertEquals(1, count(EngineCounter.SKETCH_NACK_RETRIES));
        assertEquals(2, count(EngineCounter.SKETCH_NACKS_OUT), "retries are NACKs out too");

        // The switch restarts from the NACKed column.
        send(1, 7, 1, 20);
        send(1, 7, 2, 30);
        send(1, 7, 3, 40);
        advance(TranslatorEngine.HOLD_NANOS);
        drain();
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_COMPLETED));
        assertEquals(2, headerState(7), "complete");
        assertEquals(2, headerContributors(7));
        assertArrayEquals(new int[] {11, 22, 33, 44}, new int[] {cell(7, 0), cell(7, 1), cell(7, 2), cell(7, 3)});

        advance(20_000 * MICROS);
        assertTrue(drain().isEmpty(), "nothing more once the epoch closed");
        assertEquals(1, count(EngineCounter.SKETCH_NACK_RETRIES));
        assertEquals(0, count(EngineCounter.SKETCH_NACK_GAPS_ABANDONED));
        assertEquals(0, count(EngineCounter.SKETCH_EPOCHS_TIMED_OUT));
    }

    /**
     * The same losses with the timer off: the gap stays open and the epoch times out without switch 1 (the
     * behaviour the retries fix, so the test above cannot pass by accident).
     */
    @Test
    void shouldLeaveTheEpochIncompleteWhenRetriesAreOff()
    {
        setUp(4, 2, 2, 10_000, "nackRetries: 0,");
        lastColumnSentAndNackLost(7);
        advance(10_000 * MICROS);
        advance(TranslatorEngine.HOLD_NANOS);
        drain();
        assertTrue(nacks.isEmpty());
        assertEquals(0, count(EngineCounter.SKETCH_NACK_RETRIES));
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_TIMED_OUT));
        assertEquals(3, headerState(7), "incomplete");
        assertEquals(1, headerContributors(7));
    }

    @Test
    void shouldDeriveTheDefaultRetryIntervalFromTheEpochTimeout()
    {
        setUp(4, 2, 2, 3_200, "");
        lastColumnSentAndNackLost(7);
        advance(99 * MICROS);
        assertTrue(drain().isEmpty());
        advance(MICROS);
        assertEquals(1, drain().size(), "3200 us / 32 = 100 us");
    }

    @Test
    void shouldStopRetryingOnceTheGapFillsAndRestartTheIntervalOnProgress()
    {
        setUp(4, 2, 2, 10_000, "nackRetryMicros: 100, nackRetries: 3,");
        // Switch 0 sends nothing, so the epoch stays open (a switch never heard from has no address to NACK).
        send(1, 7, 0, 10);
        send(1, 7, 3, 40);  // gap: columns 1 and 2 missing
        assertEquals(1, drain().size());
        nacks.clear();

        advance(50 * MICROS);
        send(1, 7, 1, 20);  // the switch answers, then its column 2 is lost
        advance(99 * MICROS);
        assertTrue(drain().isEmpty(), "progress restarted the interval");
        advance(MICROS);
        final List<byte[]> retried = drain();
        assertEquals(1, retried.size());
        assertEquals(2, nackColumn(retried.get(0)), "the retry asks for the column now expected");
        assertEquals(1, nackSwitch(retried.get(0)));

        send(1, 7, 2, 30);
        send(1, 7, 3, 40);  // the gap is filled: every column seen from switch 1 is merged
        advance(5_000 * MICROS);
        assertTrue(drain().isEmpty(), "no retry once the gap filled");
        assertEquals(1, count(EngineCounter.SKETCH_NACK_RETRIES));
        assertEquals(0, count(EngineCounter.SKETCH_NACK_GAPS_ABANDONED));
        assertEquals(0, count(EngineCounter.SKETCH_EPOCHS_TIMED_OUT), "the epoch is still open");
    }

    /**
     * Progress after a backed-off retry brings the next retry forward: one interval after the progress, not the
     * doubled interval after the retry (the interval restarts with the count).
     */
    @Test
    void shouldRetryOneIntervalAfterProgressEvenWhenTheBackedOffRetryWasDueLater()
    {
        setUp(4, 2, 2, 10_000, "nackRetryMicros: 100, nackRetries: 3,");
        send(1, 7, 0, 10);
        send(1, 7, 3, 40);
        assertEquals(1, drain().size());
        advance(100 * MICROS);
        assertEquals(1, drain().size(), "first retry; the second would be due 200 us later");
        advance(10 * MICROS);
        send(1, 7, 1, 20);
        advance(99 * MICROS);
        assertTrue(drain().isEmpty());
        advance(MICROS);
        final List<byte[]> retried = drain();
        assertEquals(1, retried.size(), "100 us after the progress");
        assertEquals(2, nackColumn(retried.get(0)));
        assertEquals(2, count(EngineCounter.SKETCH_NACK_RETRIES));
    }

    @Test
    void shouldGiveTheGapUpAfterNackRetriesDoublingTheInterval()
    {
        setUp(4, 2, 2, 10_000, "nackRetryMicros: 100, nackRetries: 3,");
        final long start = now;
        lastColumnSentAndNackLost(7);
        final List<Long> retryTimes = new ArrayList<>();
        long abandonedAt = -1;
        while (now - start < 3_000 * MICROS)
        {
            advance(10 * MICROS);
            for (final byte[] nack : drain())
            {
                assertEquals(1, nackColumn(nack));
                retryTimes.add((now - start) / MICROS);
            }
            if (abandonedAt < 0 && 1 == count(EngineCounter.SKETCH_NACK_GAPS_ABANDONED))
            {
                abandonedAt = (now - start) / MICROS;
            }
        }
        assertEquals(List.of(100L, 300L, 700L), retryTimes, "after 100 us, then 200, then 400");
        assertEquals(1500, abandonedAt, "given up 800 us after the third retry");
        assertEquals(3, count(EngineCounter.SKETCH_NACK_RETRIES));
        assertEquals(1, count(EngineCounter.SKETCH_NACK_GAPS_ABANDONED));

        // A gap column after the give-up is NACKed (the re-arm time passed) and arms the timer afresh.
        send(1, 7, 3, 40);
        assertEquals(1, drain().size());
        advance(100 * MICROS);
        assertEquals(1, drain().size(), "retried again");
        assertEquals(4, count(EngineCounter.SKETCH_NACK_RETRIES));

        advance(10_000 * MICROS);
        advance(TranslatorEngine.HOLD_NANOS);
        drain();
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_TIMED_OUT));
        assertEquals(3, headerState(7));
    }

    @Test
    void shouldNotRetryAfterTheEpochTimesOut()
    {
        setUp(4, 2, 2, 500, "nackRetryMicros: 200, nackRetries: 4,");
        lastColumnSentAndNackLost(7);
        advance(200 * MICROS);
        assertEquals(1, drain().size(), "the first retry is before the timeout");
        advance(300 * MICROS);
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_TIMED_OUT));
        advance(5_000 * MICROS);
        assertTrue(drain().isEmpty(), "the second retry (due at 600 us) never goes out");
        assertEquals(1, count(EngineCounter.SKETCH_NACK_RETRIES));
        assertEquals(0, count(EngineCounter.SKETCH_NACK_GAPS_ABANDONED), "a closed epoch gives nothing up");
    }

    @Test
    void shouldNotRetryAfterANewerEpochTakesTheArea()
    {
        setUp(4, 2, 1, 10_000, "nackRetryMicros: 100, nackRetries: 4,");
        lastColumnSentAndNackLost(7);
        for (int c = 0; c < 4; c++)
        {
            send(0, 8, c, 1);  // the whole sketch, so switch 0 has no tail to NACK in epoch 8
        }
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_SUPERSEDED));
        advance(5_000 * MICROS);
        assertTrue(drain().isEmpty());
        assertEquals(0, count(EngineCounter.SKETCH_NACK_RETRIES));
    }

    @Test
    void shouldNotRetryAfterAFlush()
    {
        setUp(4, 2, 2, 10_000, "nackRetryMicros: 100, nackRetries: 4,");
        lastColumnSentAndNackLost(7);
        engine.flush(now);
        advance(5_000 * MICROS);
        assertTrue(drain().isEmpty());
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_FLUSHED));
        assertEquals(0, count(EngineCounter.SKETCH_NACK_RETRIES));
    }

    /**
     * Each switch behind its own tag stack and MAC: untagged, one 802.1Q tag, 802.1ad outer and 802.1Q inner. The
     * retried NACK goes back to the MAC, VLAN tags and IP of the report that opened the gap, byte for byte the
     * NACK that was lost.
     */
    @Test
    void shouldSendRetriedNacksWithTheTagsAndAddressOfTheGapReport()
    {
        setUp(4, 3, 2, 10_000, "nackRetryMicros: 100, nackRetries: 2,");
        final int[][] tagStacks = {{}, {0x8100, 0xE3FF}, {0x88A8, 0x1064, 0x8100, 0x2007}};
        final long epoch = 0xA0B0C0D0L;
        final byte[][] gaps = new byte[3][];
        for (int s = 0; s < 3; s++)
        {
            final byte[] first = withSourceMac(TestFrames.tagged(column(s, epoch, 0, 1), tagStacks[s]), s);
            feed(first);
            gaps[s] = withSourceMac(TestFrames.tagged(column(s, epoch, 2, 1), tagStacks[s]), s);
            feed(gaps[s]);
        }
        final List<byte[]> lost = drain();
        assertEquals(3, lost.size());
        advance(100 * MICROS);
        final List<byte[]> retried = drain();
        assertEquals(3, retried.size());
        for (int s = 0; s < 3; s++)
        {
            final String ctx = "switch " + s + ", " + tagStacks[s].length / 2 + " tag(s): ";
            final byte[] body = ByteBuffer.allocate(15).put((byte)0x05).put((byte)0).put((byte)0x80)
                .putShort((short)SKETCH_ID).putShort((short)s).putInt((int)epoch).putShort((short)1)
                .putShort((short)0).array();
            NackFrameAssertions.assertNack(retried.get(s), gaps[s], tagStacks[s], TestFrames.APPLIANCE_IP,
                switchIp(s), body, ctx);
            assertArrayEquals(lost.get(s), retried.get(s), ctx + "the lost NACK again");
        }
        assertEquals(3, count(EngineCounter.SKETCH_NACK_RETRIES));
    }

    private static byte[] withSourceMac(final byte[] frame, final int switchId)
    {
        final byte[] copy = Arrays.copyOf(frame, frame.length);
        copy[10] = (byte)0x42;
        copy[11] = (byte)(0x10 + switchId);
        return copy;
    }

    /**
     * Switch 1 loses its last two columns: no later column shows a gap, but the sketch has 4 columns, so once a
     * look of the timer (every {@code nackRetryMicros}, on multiples of it) finds no progress since the previous one
     * it is NACKed from its next expected column, with the addressing of the report that opened its progress. It
     * restarts from there and the epoch completes exactly.
     */
    @Test
    void shouldNackASwitchThatLostItsLastColumnsAndCompleteTheEpoch()
    {
        setUp(4, 2, 2, 10_000, "nackRetryMicros: 100, nackRetries: 3,");
        assertEquals(0, now % (100 * MICROS), "the test starts on a look of the timer");
        for (int c = 0; c < 4; c++)
        {
            send(0, 7, c, 1 + c);
        }
        final byte[] opening = column(1, 7, 0, 10);
        feed(opening);
        send(1, 7, 1, 20);  // columns 2 and 3 are lost
        drain();
        assertTrue(nacks.isEmpty(), "no gap to see");

        advance(100 * MICROS);
        assertTrue(drain().isEmpty(), "the look at 100 us sees progress: column 1 came after the watch began");
        advance(99 * MICROS);
        assertTrue(drain().isEmpty());
        advance(MICROS);
        final List<byte[]> tail = drain();
        assertEquals(1, tail.size(), "the look at 200 us finds no progress since the one at 100 us");
        final byte[] body = ByteBuffer.allocate(15).put((byte)0x05).put((byte)0).put((byte)0x80)
            .putShort((short)SKETCH_ID).putShort((short)1).putInt(7).putShort((short)2).putShort((short)0).array();
        NackFrameAssertions.assertNack(tail.get(0), opening, new int[0], TestFrames.APPLIANCE_IP, switchIp(1), body,
            "tail NACK: ");
        assertEquals(1, count(EngineCounter.SKETCH_TAIL_NACKS));
        assertEquals(1, count(EngineCounter.SKETCH_NACKS_OUT));
        assertEquals(0, count(EngineCounter.SKETCH_NACK_RETRIES));

        send(1, 7, 2, 30);
        send(1, 7, 3, 40);
        advance(TranslatorEngine.HOLD_NANOS);
        drain();
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_COMPLETED));
        assertEquals(2, headerState(7));
        assertEquals(2, headerContributors(7));
        assertArrayEquals(new int[] {11, 22, 33, 44}, new int[] {cell(7, 0), cell(7, 1), cell(7, 2), cell(7, 3)});
        advance(20_000 * MICROS);
        assertTrue(drain().isEmpty(), "nothing more once the epoch closed");
        assertEquals(1, count(EngineCounter.SKETCH_TAIL_NACKS));
        assertEquals(0, count(EngineCounter.SKETCH_NACK_RETRIES));
    }

    /**
     * The tail NACK carries the MAC, VLAN tags and IP of the report that opened the switch's progress (802.1ad outer,
     * 802.1Q inner), and a switch whose first column arrives between two looks is looked at on the first multiple of
     * {@code nackRetryMicros} at least one interval later.
     */
    @Test
    void shouldSendTheTailNackWithTheTagsAndAddressOfTheReportThatOpenedTheSwitchsProgress()
    {
        setUp(4, 1, 2, 10_000, "nackRetryMicros: 100, nackRetries: 2,");
        final int[] tags = {0x88A8, 0x1064, 0x8100, 0x2007};
        final long start = now;
        advance(30 * MICROS);
        final byte[] opening = withSourceMac(TestFrames.tagged(column(0, 9, 0, 1), tags), 0);
        feed(opening);
        advance(169 * MICROS);
        assertTrue(drain().isEmpty(), "first look at 200 us: the first multiple of 100 us at least 100 us later");
        advance(MICROS);
        final List<byte[]> tail = drain();
        assertEquals(1, tail.size());
        assertEquals(200 * MICROS, now - start);
        final byte[] body = ByteBuffer.allocate(15).put((byte)0x05).put((byte)0).put((byte)0x80)
            .putShort((short)SKETCH_ID).putShort((short)0).putInt(9).putShort((short)1).putShort((short)0).array();
        NackFrameAssertions.assertNack(tail.get(0), opening, tags, TestFrames.APPLIANCE_IP, switchIp(0), body,
            "tagged tail NACK: ");
        advance(100 * MICROS);
        final List<byte[]> retried = drain();
        assertEquals(1, retried.size(), "retried like a gap's NACK");
        assertArrayEquals(tail.get(0), retried.get(0), "the same frame again");
        assertEquals(1, count(EngineCounter.SKETCH_NACK_RETRIES));
    }

    /**
     * A tail NACK nobody answers is retried like a gap's NACK: {@code nackRetryMicros} after it, the interval
     * doubling, {@code nackRetries} times, then given up (counted) and never asked again by the timer.
     */
    @Test
    void shouldRetryAnUnansweredTailNackWithTheGapBackOffAndGiveItUp()
    {
        setUp(4, 2, 2, 10_000, "nackRetryMicros: 100, nackRetries: 3,");
        final long start = now;
        for (int c = 0; c < 4; c++)
        {
            send(0, 7, c, 1 + c);
        }
        send(1, 7, 0, 10);
        drain();
        final List<Long> nackTimes = new ArrayList<>();
        long abandonedAt = -1;
        while (now - start < 5_000 * MICROS)
        {
            advance(10 * MICROS);
            for (final byte[] nack : drain())
            {
                assertEquals(1, nackSwitch(nack));
                assertEquals(1, nackColumn(nack));
                nackTimes.add((now - start) / MICROS);
            }
            if (abandonedAt < 0 && 1 == count(EngineCounter.SKETCH_NACK_GAPS_ABANDONED))
            {
                abandonedAt = (now - start) / MICROS;
            }
        }
        assertEquals(List.of(100L, 200L, 400L, 800L), nackTimes, "the tail NACK, then retries after 100, 200, 400 us");
        assertEquals(1600, abandonedAt, "given up 800 us after the third retry");
        assertEquals(1, count(EngineCounter.SKETCH_TAIL_NACKS));
        assertEquals(3, count(EngineCounter.SKETCH_NACK_RETRIES));
        assertEquals(4, count(EngineCounter.SKETCH_NACKS_OUT));
        assertEquals(1, count(EngineCounter.SKETCH_NACK_GAPS_ABANDONED));
        assertEquals(0, count(EngineCounter.SKETCH_EPOCHS_TIMED_OUT), "the epoch is still open");
    }

    /**
     * A slow switch is not harmed: a column every 90 us keeps it from ever being NACKed (each look sees progress);
     * when it pauses longer, the tail NACK crosses its next column in flight, it restarts from the NACKed column, and
     * the duplicate is dropped as any duplicate: the epoch completes exactly, with no retry.
     */
    @Test
    void shouldLeaveASlowSwitchAloneAndDropTheDuplicateOfItsRestart()
    {
        setUp(8, 2, 2, 10_000, "nackRetryMicros: 100, nackRetries: 3,");
        final long start = now;
        for (int c = 0; c < 8; c++)
        {
            send(0, 7, c, 100);
        }
        send(1, 7, 0, 1);
        for (int c = 1; c < 4; c++)
        {
            advanceInSteps(90);
            send(1, 7, c, 1 + c);
        }
        advanceInSteps(129);  // 399 us
        assertTrue(drain().isEmpty(), "a column every 90 us: progress at every look");
        advance(MICROS);
        final List<byte[]> tail = drain();
        assertEquals(1, tail.size(), "the look at 400 us finds no progress since 300 us");
        assertEquals(4, nackColumn(tail.get(0)));
        assertEquals(400 * MICROS, now - start);

        advance(5 * MICROS);
        send(1, 7, 4, 5);  // in flight when the NACK left
        advance(5 * MICROS);
        for (int c = 4; c < 8; c++)  // the switch restarts from column 4
        {
            send(1, 7, c, 1 + c);
        }
        advance(TranslatorEngine.HOLD_NANOS);
        drain();
        assertEquals(1, count(EngineCounter.DROP_SKETCH_DUPLICATE), "column 4 again");
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_COMPLETED));
        assertEquals(2, headerState(7));
        for (int c = 0; c < 8; c++)
        {
            assertEquals(101 + c, cell(7, c), "column " + c + " merged once");
        }
        assertEquals(1, count(EngineCounter.SKETCH_TAIL_NACKS));
        assertEquals(0, count(EngineCounter.SKETCH_NACK_RETRIES));
        advance(5_000 * MICROS);
        assertTrue(drain().isEmpty());
    }

    /**
     * A retry the output cannot take (transmit full, counted as {@code DROP_TX_FULL}) uses up no retry: it is tried
     * again after the same interval, and all {@code nackRetries} retries still go out before the gap is given up.
     */
    @Test
    void shouldNotUseUpAGapRetryThatCouldNotBeSent()
    {
        setUp(4, 2, 2, 10_000, "nackRetryMicros: 100, nackRetries: 3,");
        final long start = now;
        lastColumnSentAndNackLost(7);
        advance(99 * MICROS);
        assertTrue(drain().isEmpty());
        final long txFull = count(EngineCounter.DROP_TX_FULL);
        out.refuseClaims(true);
        advance(MICROS);
        out.refuseClaims(false);
        assertEquals(txFull + 1, count(EngineCounter.DROP_TX_FULL), "the first retry could not be sent");
        assertEquals(0, count(EngineCounter.SKETCH_NACK_RETRIES));
        assertEquals(1, count(EngineCounter.SKETCH_NACKS_OUT), "only the first NACK left");

        final List<Long> retryTimes = new ArrayList<>();
        long abandonedAt = -1;
        while (now - start < 3_000 * MICROS)
        {
            advance(10 * MICROS);
            for (final byte[] nack : drain())
            {
                assertEquals(1, nackColumn(nack));
                retryTimes.add((now - start) / MICROS);
            }
            if (abandonedAt < 0 && 1 == count(EngineCounter.SKETCH_NACK_GAPS_ABANDONED))
            {
                abandonedAt = (now - start) / MICROS;
            }
        }
        assertEquals(List.of(200L, 400L, 800L), retryTimes,
            "tried again 100 us after the unsent one, then after 200 and 400 us: three retries sent");
        assertEquals(1600, abandonedAt);
        assertEquals(3, count(EngineCounter.SKETCH_NACK_RETRIES));
        assertEquals(txFull + 1, count(EngineCounter.DROP_TX_FULL));
    }

    /**
     * A tail NACK the output cannot take counts for nothing: the switch stays watched and is NACKed at the next look
     * if still silent, and its retries then follow as usual.
     */
    @Test
    void shouldTryATailNackThatCouldNotBeSentAgainAtTheNextLook()
    {
        setUp(4, 1, 2, 10_000, "nackRetryMicros: 100, nackRetries: 1,");
        final long start = now;
        send(0, 7, 0, 1);
        advance(99 * MICROS);
        drain();
        final long txFull = count(EngineCounter.DROP_TX_FULL);
        out.refuseClaims(true);
        advance(MICROS);
        out.refuseClaims(false);
        assertEquals(txFull + 1, count(EngineCounter.DROP_TX_FULL));
        assertEquals(0, count(EngineCounter.SKETCH_TAIL_NACKS));
        final List<Long> nackTimes = new ArrayList<>();
        while (now - start < 1_000 * MICROS)
        {
            advance(10 * MICROS);
            for (final byte[] ignored : drain())
            {
                nackTimes.add((now - start) / MICROS);
            }
        }
        assertEquals(List.of(200L, 300L), nackTimes, "the tail NACK at the next look, its one retry 100 us later");
        assertEquals(1, count(EngineCounter.SKETCH_TAIL_NACKS));
        assertEquals(1, count(EngineCounter.SKETCH_NACK_RETRIES));
        assertEquals(1, count(EngineCounter.SKETCH_NACK_GAPS_ABANDONED));
    }

    /**
     * Random loss of columns and NACKs on several switches: the switches answer the NACKs that reach them; with
     * retries every epoch completes exactly, however many NACKs are lost (each NACK is lost with probability 1/4,
     * so 12 retries all lost, 4^-13, practically never happens). Any column may be lost, the last ones too (a lost
     * tail shows no gap: the tail NACK asks for it); only one random column per switch arrives the first time, since
     * the translator cannot NACK a switch it never heard from.
     */
    @Test
    void shouldCompleteEveryEpochExactlyThroughRandomColumnAndNackLoss()
    {
        final long seed = Long.getLong("dta.test.seed", 0x8FA3F092L);
        final SplittableRandom random = new SplittableRandom(seed);
        long tailNacks = 0;
        for (int run = 0; run < 200; run++)
        {
            final String ctx = "seed=" + seed + " run=" + run;
            try
            {
                tailNacks += randomLossRun(random);
            }
            catch (final AssertionError ex)
            {
                fail(ctx + ": " + ex.getMessage(), ex);
            }
        }
        assertTrue(tailNacks > 0, "seed=" + seed + ": some runs lost a tail and needed a tail NACK");
    }

    /**
     * @return tail NACKs of the run.
     */
    private long randomLossRun(final SplittableRandom random)
    {
        final int switches = 1 + random.nextInt(4);
        final int cols = 1 << (1 + random.nextInt(4));
        setUp(cols, switches, 2, 10_000_000, "nackRetryMicros: 50, nackRetries: 12,");
        nacks.clear();
        out.drain();
        final long epoch = random.nextInt(1 << 20);
        final int[][] values = new int[switches][cols];
        for (int s = 0; s < switches; s++)
        {
            for (int c = 0; c < cols; c++)
            {
                values[s][c] = random.nextInt(1000);
            }
        }
        final int[] kept = new int[switches];
        for (int s = 0; s < switches; s++)
        {
            kept[s] = random.nextInt(cols);
        }
        // Every switch streams its columns once, losing some; afterwards it only answers NACKs that reach it.
        for (int c = 0; c < cols; c++)
        {
            for (int s = 0; s < switches; s++)
            {
                if (random.nextInt(4) != 0 || c == kept[s])
                {
                    send(s, epoch, c, values[s][c]);
                }
            }
            now += MICROS;
        }
        for (int step = 0; step < 100_000 && 0 == count(EngineCounter.SKETCH_EPOCHS_COMPLETED); step++)
        {
            advance(10 * MICROS);
            for (final byte[] nack : drain())
            {
                if (0 == random.nextInt(4))
                {
                    continue;  // lost
                }
                final int s = nackSwitch(nack);
                for (int c = nackColumn(nack); c < cols; c++)
                {
                    if (random.nextInt(8) != 0)
                    {
                        send(s, epoch, c, values[s][c]);
                    }
                }
            }
        }
        advance(TranslatorEngine.HOLD_NANOS);
        drain();
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_COMPLETED), "retries: " +
            count(EngineCounter.SKETCH_NACK_RETRIES) + ", tail NACKs: " + count(EngineCounter.SKETCH_TAIL_NACKS) +
            ", abandoned: " + count(EngineCounter.SKETCH_NACK_GAPS_ABANDONED));
        assertEquals(2, headerState(epoch));
        for (int c = 0; c < cols; c++)
        {
            int sum = 0;
            for (int s = 0; s < switches; s++)
            {
                sum += values[s][c];
            }
            assertEquals(sum, cell(epoch, c), "column " + c);
        }
        return count(EngineCounter.SKETCH_TAIL_NACKS);
    }

    /**
     * Gaps, timer retries, tail watches, tail NACKs and completion epoch after epoch allocate nothing: prebuilt
     * frames (only their epoch field changes) into a sink that keeps nothing.
     */
    @Test
    void shouldNotAllocateWhileRetryingNacks()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
        final long[] nackFrames = new long[1];
        final FrameSink sink = new FrameSink()
        {
            public MutableDirectBuffer buffer()
            {
                return buffer;
            }

            public int claim(final int maxLength)
            {
                return 0;
            }

            public SendOutcome commit(
                final int offset, final int length, final long timeNanos, final OutFrameKind kind, final int reports)
            {
                if (NACK_PORT == (buffer.getShort(offset + 36, ByteOrder.BIG_ENDIAN) & 0xFFFF))
                {
                    nackFrames[0]++;
                }
                return SendOutcome.SENT;
            }
        };
        final TranslatorEngine quiet = new TranslatorEngine(
            ConfigLoader.load(yaml(4, 2, 2, 10_000, "nackRetryMicros: 100, nackRetries: 3,")), sink, false);
        final UnsafeBuffer[][] frames = new UnsafeBuffer[2][4];
        for (int s = 0; s < 2; s++)
        {
            for (int c = 0; c < 4; c++)
            {
                final byte[] frame = column(s, 0, c, c + 1);
                assertEquals(0, NackFrameAssertions.i32(frame, EPOCH_OFFSET), "epoch field where expected");
                frames[s][c] = new UnsafeBuffer(frame);
            }
        }
        final int rounds = 20_000;
        long epoch = 0;
        for (int i = 0; i < rounds; i++)
        {
            roundWithALostNack(quiet, frames, epoch++);
        }
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().threadId();
        final long before = threads.getThreadAllocatedBytes(threadId);
        for (int i = 0; i < rounds; i++)
        {
            roundWithALostNack(quiet, frames, epoch++);
        }
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
        assertTrue(allocated < 10_000, "allocated " + allocated + " bytes for " + rounds + " epochs with a retry");
        assertEquals(2L * rounds, quiet.counters().get(EngineCounter.SKETCH_NACK_RETRIES));
        assertEquals(2L * rounds, quiet.counters().get(EngineCounter.SKETCH_TAIL_NACKS));
        assertEquals(6L * rounds, nackFrames[0]);
        assertEquals(2L * rounds, quiet.counters().get(EngineCounter.SKETCH_EPOCHS_COMPLETED));
        assertEquals(0, quiet.counters().get(EngineCounter.SKETCH_EPOCHS_TIMED_OUT));
    }

    private static final int EPOCH_OFFSET = 14 + 20 + 8 + 3 + 4;

    private void roundWithALostNack(final TranslatorEngine quiet, final UnsafeBuffer[][] frames, final long epoch)
    {
        for (final UnsafeBuffer[] perSwitch : frames)
        {
            for (final UnsafeBuffer frame : perSwitch)
            {
                frame.putInt(EPOCH_OFFSET, (int)epoch, ByteOrder.BIG_ENDIAN);
            }
        }
        for (int c = 0; c < 4; c++)
        {
            onFrame(quiet, frames[0][c]);
        }
        onFrame(quiet, frames[1][0]);
        onFrame(quiet, frames[1][2]);  // its NACK is lost, and so is column 3
        now += 100 * MICROS;
        quiet.pollNow(now);  // the retry
        onFrame(quiet, frames[1][1]);
        onFrame(quiet, frames[1][2]);  // the gap is filled, column 3 is lost this time
        now += 200 * MICROS;
        quiet.pollNow(now);  // a look finds no progress: the tail NACK
        onFrame(quiet, frames[1][3]);
        now += TranslatorEngine.HOLD_NANOS;
        quiet.pollNow(now);
    }

    private void onFrame(final TranslatorEngine quiet, final UnsafeBuffer frame)
    {
        now += MICROS;
        quiet.pollNow(now);
        quiet.onFrame(frame, 0, frame.capacity(), now);
    }
}
