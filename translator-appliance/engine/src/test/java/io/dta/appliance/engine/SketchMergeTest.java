package io.dta.appliance.engine;

import io.dta.codec.Ipv4Address;
import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Sketch-Merge in the engine (docs/sketch.md): batched column WRITEs and epoch headers, NACKs, timeouts,
 * saturation, epoch ring rules, the essential path through a resync, and a seeded property test comparing the
 * collector memory the WRITEs build with a plain element-wise merge. Expectations are written from the
 * documentation with plain arithmetic, not with the engine's classes.
 */
class SketchMergeTest
{
    private static final int SKETCH_ID = 5;
    private static final int LOCAL_QPN = 0x541;
    private static final int REMOTE_QPN = 0x471;
    private static final long BASE = 0x7f0000800000L;
    private static final int START_PSN = 0x100;

    private TranslatorEngine engine;
    private final FrameCollector out = new FrameCollector();
    private long now = 1_000_000;
    private byte[] memory;
    private int rows;
    private int columns;
    private int epochs;
    private String extraYaml = "";

    private void setUp(
        final String type, final int rows, final int columns, final int switches, final int batch, final int epochs,
        final long timeoutMicros, final boolean closedLoop)
    {
        this.rows = rows;
        this.columns = columns;
        this.epochs = epochs;
        final long length = (long)epochs * (64 + rows * columns * 4);
        memory = new byte[(int)length];
        final String yaml = """
            translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101}
            reports: {udpPort: 40040, baseHeader: "3"}
            acks: {requestInterval: 4, timeoutMicros: 500}
            resync: {graceMicros: 50}
            %s
            collectors:
              - name: a
                mac: "02:00:0a:00:00:33"
                ip: 10.0.0.51
                pathMtu: 4096
                sketches:
                  - {id: %d, type: %s, rows: %d, columns: %d, switches: %d, batchColumns: %d, epochs: %d,
                     epochTimeoutMicros: %d, localQpn: 0x%x, qpn: 0x%x, rkey: 0x77, address: 0x%x, length: %d,
                     startPsn: 0x%x}
            """.formatted(extraYaml, SKETCH_ID, type, rows, columns, switches, batch, epochs, timeoutMicros,
            LOCAL_QPN, REMOTE_QPN, BASE, length, START_PSN);
        engine = new TranslatorEngine(ConfigLoader.load(yaml), out, closedLoop);
    }

    private static int switchIp(final int switchId)
    {
        return Ipv4Address.parse("10.2.0." + (switchId + 1));
    }

    private static byte[] column(
        final int sketchId, final int switchId, final long epoch, final int column, final int[] counters)
    {
        final ByteBuffer b = ByteBuffer.allocate(12 + 4 * counters.length).order(ByteOrder.BIG_ENDIAN);
        b.putShort((short)sketchId).putShort((short)switchId).putInt((int)epoch).putShort((short)column)
            .put((byte)counters.length).put((byte)0);
        for (final int c : counters)
        {
            b.putInt(c);
        }
        return TestFrames.report(switchIp(switchId), TestFrames.COLLECTOR_A, 3, 0x05, 0, 0, b.array());
    }

    private void feed(final byte[] frame)
    {
        engine.pollNow(now);
        engine.onFrame(new UnsafeBuffer(frame), 0, frame.length, now);
    }

    private void send(final int switchId, final long epoch, final int c, final int... counters)
    {
        feed(column(SKETCH_ID, switchId, epoch, c, counters));
    }

    private void advance(final long nanos)
    {
        now += nanos;
        engine.pollNow(now);
    }

    private long count(final EngineCounter counter)
    {
        return engine.counters().get(counter);
    }

    /**
     * Lets held frames out, applies every WRITE to the simulated collector memory, returns them; NACK frames
     * (UDP to port 40044) are returned separately through {@link #nacks}.
     */
    private final List<byte[]> nacks = new ArrayList<>();

    private List<TestFrames.Request> settle()
    {
        advance(TranslatorEngine.HOLD_NANOS);
        return drain();
    }

    private List<TestFrames.Request> drain()
    {
        final List<TestFrames.Request> writes = new ArrayList<>();
        for (final FrameCollector.Frame f : out.drain())
        {
            final byte[] bytes = f.bytes();
            if (40044 == (((bytes[36] & 0xFF) << 8) | (bytes[37] & 0xFF)))
            {
                nacks.add(bytes);
                continue;
            }
            final TestFrames.Request r = TestFrames.parseRequest(bytes);
            assertTrue(r.isWrite(), "sketch QPs only WRITE");
            assertEquals(REMOTE_QPN, r.destQp());
            if (r.dmaLength() > 0)
            {
                final long offset = r.va() - BASE;
                assertTrue(offset >= 0 && offset + r.dmaLength() <= memory.length, "WRITE inside the region");
                System.arraycopy(r.payload(), 0, memory, (int)offset, r.dmaLength());
            }
            writes.add(r);
        }
        return writes;
    }

    private int cell(final long epoch, final int c, final int r)
    {
        return ByteBuffer.wrap(memory).order(ByteOrder.LITTLE_ENDIAN)
            .getInt(area(epoch) + 64 + (c * rows + r) * 4);
    }

    private int area(final long epoch)
    {
        return (int)(epoch % epochs) * (64 + rows * columns * 4);
    }

    private byte[] header(final long epoch)
    {
        return Arrays.copyOfRange(memory, area(epoch), area(epoch) + 64);
    }

    private static byte[] expectedHeader(
        final long epoch, final int state, final int type, final int rows, final int columns, final int switches,
        final int contributors, final int completeColumns, final int... bitmapSwitches)
    {
        final ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt((int)epoch).put((byte)state).put((byte)type).putShort((short)rows).putInt(columns)
            .putShort((short)switches).putShort((short)contributors).putInt(completeColumns);
        for (final int s : bitmapSwitches)
        {
            b.put(32 + s / 8, (byte)(b.get(32 + s / 8) | (1 << (s % 8))));
        }
        return b.array();
    }

    @Test
    void shouldWriteCompletedColumnsInBatchedRunsBetweenTheEpochHeaders()
    {
        setUp("count-min", 2, 4, 2, 2, 2, 1_000_000, false);
        send(0, 7, 0, 1, 2);
        send(0, 7, 1, 3, 4);
        send(1, 7, 0, 10, 20);
        assertEquals(0, count(EngineCounter.SKETCH_COLUMN_WRITES), "column 1 is not complete yet");
        send(1, 7, 1, 30, 40);
        send(1, 7, 2, 50, 60);
        send(1, 7, 3, 70, 80);
        send(0, 7, 2, 5, 6);
        send(0, 7, 3, 7, 8);
        final List<TestFrames.Request> writes = settle();

        final long area = BASE + 64 + 2 * 4 * 4;  // epoch 7 lives in area 1 of 2, after area 0's header and cells
        assertEquals(4, writes.size());
        assertEquals(area, writes.get(0).va());
        assertArrayEquals(expectedHeader(7, 1, 1, 2, 4, 2, 0, 0), writes.get(0).payload(), "open header");
        assertEquals(area + 64, writes.get(1).va());
        assertArrayEquals(le(11, 22, 33, 44), writes.get(1).payload(), "columns 0-1, column-major");
        assertEquals(area + 64 + 16, writes.get(2).va());
        assertArrayEquals(le(55, 66, 77, 88), writes.get(2).payload(), "columns 2-3");
        assertEquals(area, writes.get(3).va());
        assertArrayEquals(expectedHeader(7, 2, 1, 2, 4, 2, 2, 4, 0, 1), writes.get(3).payload(), "complete header");
        for (int i = 0; i < writes.size(); i++)
        {
            assertEquals(START_PSN + i, writes.get(i).psn());
        }
        assertTrue(writes.get(3).ackReq(), "the last frame before idle asks for an ACK");
        assertEquals(8, count(EngineCounter.SKETCH_COLUMNS_MERGED));
        assertEquals(8, count(EngineCounter.REPORTS_TRANSLATED));
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_COMPLETED));
        assertEquals(0, engine.counters().totalDrops());
    }

    @Test
    void shouldAnswerAGapWithOneNackPerEpisodeAndRearmOnProgressOrTime()
    {
        setUp("count-sketch", 1, 8, 1, 1, 2, 1_000_000, false);
        send(0, 0x01020304L, 0, -1);
        send(0, 0x01020304L, 2, 5);
        send(0, 0x01020304L, 3, 5);
        assertEquals(2, count(EngineCounter.DROP_SKETCH_GAP));
        assertEquals(1, count(EngineCounter.SKETCH_NACKS_OUT), "one NACK per gap episode");
        drain();
        assertEquals(1, nacks.size());
        final byte[] expected = HexFormat.of().parseHex(
            // Ethernet: to the switch's MAC, from the translator's
            "02000a010001" + "02000a000065" + "0800" +
            // IPv4: 20 + 8 + 15 bytes, DF, TTL 64, UDP, checksum, translator -> switch 0
            "4500002b" + "00004000" + "4011" + "265b" + "0a000065" + "0a020001" +
            // UDP 40040 -> 40044, length 23, checksum 0
            "9c68" + "9c6c" + "0017" + "0000" +
            // DTA base header: opcode 0x05, seqnum 0, NACK flag; sketch 5, switch 0, epoch, column 1, reserved
            "050080" + "0005" + "0000" + "01020304" + "0001" + "0000" +
            // padding to the 60-byte Ethernet minimum
            "000000");
        assertEquals(HexFormat.of().formatHex(expected), HexFormat.of().formatHex(nacks.get(0)));

        advance(SketchMergeHandlerTimes.REARM_NANOS);
        send(0, 0x01020304L, 4, 5);
        assertEquals(2, count(EngineCounter.SKETCH_NACKS_OUT), "re-armed after the re-arm time");
        send(0, 0x01020304L, 1, 9);
        send(0, 0x01020304L, 3, 5);
        assertEquals(3, count(EngineCounter.SKETCH_NACKS_OUT), "re-armed by progress");
        send(0, 0x01020304L, 0, 9);
        assertEquals(1, count(EngineCounter.DROP_SKETCH_DUPLICATE));
        assertEquals(2, count(EngineCounter.SKETCH_COLUMNS_MERGED));
        drain();
        assertEquals(3, nacks.size());
        assertEquals(2, nacks.get(2)[54] & 0xFF, "the third NACK asks for column 2");
    }

    /**
     * The sketch NACK goes back on the switch's VLAN: switch 0 reports untagged, switch 1 with one 802.1Q tag,
     * switch 2 with an 802.1ad outer and an 802.1Q inner tag; each NACK carries exactly the tags of its report.
     */
    @Test
    void shouldSendTheSketchNackWithTheTagsOfTheReport()
    {
        setUp("count-min", 1, 8, 3, 1, 2, 1_000_000, false);
        final int[][] tagStacks = {{}, {0x8100, 0xE3FF}, {0x88A8, 0x1064, 0x8100, 0x2007}};
        final long epoch = 0xA0B0C0D0L;
        final byte[][] gaps = new byte[3][];
        for (int s = 0; s < 3; s++)
        {
            feed(TestFrames.tagged(column(SKETCH_ID, s, epoch, 0, new int[] {1}), tagStacks[s]));
            gaps[s] = TestFrames.tagged(column(SKETCH_ID, s, epoch, 2, new int[] {1}), tagStacks[s]);
            feed(gaps[s]);
        }
        assertEquals(3, count(EngineCounter.SKETCH_NACKS_OUT));
        final List<byte[]> sent = out.drain().stream().map(FrameCollector.Frame::bytes)
            .filter(f -> NackFrameAssertions.isTo(f, new byte[] {2, 0, 10, 1, 0, 1})).toList();
        assertEquals(3, sent.size());
        for (int s = 0; s < 3; s++)
        {
            final byte[] body = ByteBuffer.allocate(15).put((byte)0x05).put((byte)0).put((byte)0x80)
                .putShort((short)SKETCH_ID).putShort((short)s).putInt((int)epoch).putShort((short)1)
                .putShort((short)0).array();
            NackFrameAssertions.assertNack(sent.get(s), gaps[s], tagStacks[s], TestFrames.APPLIANCE_IP, switchIp(s),
                body, "switch " + s + ", " + tagStacks[s].length / 2 + " tag(s): ");
        }
    }

    @Test
    void shouldCloseATimedOutEpochIncompleteWithItsContributors()
    {
        setUp("count-min", 1, 4, 3, 2, 2, 300, false);
        for (int c = 0; c < 4; c++)
        {
            send(0, 4, c, 1);
            send(2, 4, c, 100);
            advance(10_000);
        }
        send(1, 4, 0, 10);
        settle();
        assertEquals(0, count(EngineCounter.SKETCH_EPOCHS_TIMED_OUT));
        assertArrayEquals(expectedHeader(4, 1, 1, 1, 4, 3, 0, 0), header(4), "still open");

        advance(300_000);
        final List<TestFrames.Request> writes = settle();
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_TIMED_OUT));
        assertEquals(3, writes.size(), "the two unwritten runs, then the header");
        assertArrayEquals(expectedHeader(4, 3, 1, 1, 4, 3, 2, 1, 0, 2), header(4));
        assertArrayEquals(new int[] {111, 101, 101, 101}, new int[] {cell(4, 0, 0), cell(4, 1, 0), cell(4, 2, 0),
            cell(4, 3, 0)});

        send(1, 4, 1, 10);
        assertEquals(1, count(EngineCounter.DROP_SKETCH_EPOCH_CLOSED));
        assertTrue(settle().isEmpty());
    }

    @Test
    void shouldSaturateCountMinAndCountSketchSumsAndTakeTheMaxOfRegisters()
    {
        setUp("count-min", 2, 1, 2, 1, 1, 1_000_000, false);
        send(0, 1, 0, 0xFFFF_FFF0, 0xFFFF_FFF0);
        send(1, 1, 0, 0x20, 0x0F);
        settle();
        assertEquals(0xFFFF_FFFF, cell(1, 0, 0), "unsigned sum saturates at 2^32 - 1, never wraps");
        assertEquals(0xFFFF_FFFF, cell(1, 0, 1));
        assertEquals(1, count(EngineCounter.SKETCH_CELLS_SATURATED));

        out.drain();
        setUp("count-sketch", 3, 1, 3, 1, 1, 1_000_000, false);
        send(0, 1, 0, Integer.MAX_VALUE - 1, Integer.MIN_VALUE + 1, Integer.MAX_VALUE);
        send(1, 1, 0, 5, -5, Integer.MAX_VALUE);
        send(2, 1, 0, 0, 0, -Integer.MAX_VALUE);
        settle();
        assertEquals(Integer.MAX_VALUE, cell(1, 0, 0));
        assertEquals(Integer.MIN_VALUE, cell(1, 0, 1));
        assertEquals(Integer.MAX_VALUE, cell(1, 0, 2), "the exact sum is clamped, whatever the arrival order");
        assertEquals(2, count(EngineCounter.SKETCH_CELLS_SATURATED));

        setUp("hyperloglog", 1, 2, 3, 2, 1, 1_000_000, false);
        send(0, 1, 0, 3);
        send(1, 1, 0, 9);
        send(2, 1, 0, 4);
        send(0, 1, 1, 0);
        send(1, 1, 1, 1);
        send(2, 1, 1, 0);
        settle();
        assertEquals(9, cell(1, 0, 0));
        assertEquals(1, cell(1, 1, 0));
        assertArrayEquals(expectedHeader(1, 2, 3, 1, 2, 3, 3, 2, 0, 1, 2), header(1));
    }

    @Test
    void shouldKeepTheRingRulesForNewerStaleAndMalformedColumns()
    {
        setUp("count-min", 1, 2, 2, 1, 2, 1_000_000, false);
        send(0, 10, 0, 1);
        send(0, 11, 0, 2);
        assertEquals(2, count(EngineCounter.SKETCH_EPOCHS_OPENED), "epochs 10 and 11 share nothing");
        send(0, 12, 0, 3);
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_SUPERSEDED), "12 takes the area of open epoch 10");
        settle();
        assertArrayEquals(expectedHeader(12, 1, 1, 1, 2, 2, 0, 0), header(12));
        send(1, 10, 0, 1);
        assertEquals(1, count(EngineCounter.DROP_SKETCH_STALE_EPOCH));
        feed(column(SKETCH_ID, 1, 11, 0, new int[] {1, 2}));
        assertEquals(1, count(EngineCounter.DROP_SKETCH_BAD_ROWS));
        send(2, 11, 0, 1);
        assertEquals(1, count(EngineCounter.DROP_SKETCH_BAD_SWITCH));
        send(1, 11, 2, 1);
        assertEquals(1, count(EngineCounter.DROP_SKETCH_BAD_COLUMN));
        feed(column(SKETCH_ID + 1, 1, 11, 0, new int[] {1}));
        assertEquals(1, count(EngineCounter.DROP_NO_ROUTE));
        assertEquals(5, engine.counters().totalDrops());
        assertEquals(3, count(EngineCounter.REPORTS_TRANSLATED));

        engine.flush(now);
        settle();
        assertEquals(2, count(EngineCounter.SKETCH_EPOCHS_FLUSHED), "flush closes the open epochs incomplete");
        assertArrayEquals(expectedHeader(11, 3, 1, 1, 2, 2, 0, 0), header(11));
        assertArrayEquals(expectedHeader(12, 3, 1, 1, 2, 2, 0, 0), header(12));
        assertEquals(2, cell(11, 0, 0));
        assertEquals(3, cell(12, 0, 0));
    }

    @Test
    void shouldWaitForRoomInTheBacklogInsteadOfDroppingARun()
    {
        // A run dropped for a full ring would lose the merged columns (they exist nowhere else): it waits for an ACK.
        fillTheBacklogWithEpoch3();
        assertEquals(8, count(EngineCounter.REPORTS_TRANSLATED));
        assertEquals(0, count(EngineCounter.DROP_BACKLOG_FULL));
        assertEquals(0, count(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL));
        assertEquals(0, count(EngineCounter.SKETCH_EPOCHS_COMPLETED), "its final header waits too");
        assertFalse(engine.isQuiescent(), "WRITEs wait for room");
        feed(TestFrames.ack(LOCAL_QPN, START_PSN + 1));
        assertEquals(4, count(EngineCounter.REPORTS_DELIVERED), "the first run's reports, the header carries none");
        advance(1);  // the timer finds room: what waited goes, the last of it held until the QP is idle
        final List<TestFrames.Request> rest = settle();
        assertEquals(2, rest.size(), "the run of columns 2 and 3, then the complete header");
        assertEquals(START_PSN + 2, rest.get(0).psn());
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_COMPLETED));
        feed(TestFrames.ack(LOCAL_QPN, START_PSN + 3));
        assertEquals(8, count(EngineCounter.REPORTS_DELIVERED));
        assertArrayEquals(new int[] {3, 3, 3, 3}, new int[] {cell(3, 0, 0), cell(3, 1, 0), cell(3, 2, 0),
            cell(3, 3, 0)});
        assertArrayEquals(expectedHeader(3, 2, 1, 1, 4, 2, 2, 4, 0, 1), header(3));
        advance(1_000_000);
        assertTrue(engine.isQuiescent());
    }

    @Test
    void shouldTakeNoNewerEpochIntoAnAreaStillWritingTheOldOne()
    {
        fillTheBacklogWithEpoch3();
        send(0, 5, 0, 7);
        assertEquals(1, count(EngineCounter.DROP_SKETCH_AREA_BUSY), "epoch 5 shares epoch 3's area");
        assertEquals(0, count(EngineCounter.SKETCH_EPOCHS_OPENED) - 1, "epoch 5 did not open");
        feed(TestFrames.ack(LOCAL_QPN, START_PSN + 1));
        advance(1);
        settle();
        feed(TestFrames.ack(LOCAL_QPN, START_PSN + 3));
        assertEquals(2, header(3)[4], "epoch 3 complete in collector memory");
        send(0, 5, 1, 8);
        assertEquals(2, count(EngineCounter.SKETCH_EPOCHS_OPENED), "the area is free: epoch 5 opens");
        assertEquals(1, count(EngineCounter.DROP_SKETCH_GAP), "column 0 was dropped: a gap, NACKed from 0");
        settle();
        assertEquals(1, nacks.size());
        send(0, 5, 0, 7);
        send(0, 5, 1, 8);
        assertEquals(2, count(EngineCounter.SKETCH_COLUMNS_MERGED) - 8);
    }

    @Test
    void shouldCountWhatStillWaitsForRoomWhenTheRunEnds()
    {
        fillTheBacklogWithEpoch3();
        engine.abandonPendingWrites(now);
        assertEquals(4, count(EngineCounter.DROP_BACKLOG_FULL), "the run of columns 2 and 3, two switches each");
        assertEquals(2, count(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL), "that run and the complete header");
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_WRITE_LOST), "closed, but not complete in memory");
        assertEquals(0, settle().size());
        feed(TestFrames.ack(LOCAL_QPN, START_PSN + 1));
        assertEquals(count(EngineCounter.REPORTS_TRANSLATED),
            count(EngineCounter.REPORTS_DELIVERED) + count(EngineCounter.DROP_BACKLOG_FULL));
        assertTrue(engine.isQuiescent());
    }

    /**
     * Essential backlog 2, batchColumns 2, 2 switches: epoch 3 (area 1 of 2) completes; its open header and first
     * run fill the ring, which leaves its second run and final header waiting.
     */
    private void fillTheBacklogWithEpoch3()
    {
        extraYaml = "essential: {backlog: 2}";
        setUp("count-min", 1, 4, 2, 2, 2, 1_000_000, true);
        for (int c = 0; c < 4; c++)
        {
            send(0, 3, c, 1);
            send(1, 3, c, 2);
        }
        assertEquals(2, settle().size(), "open header and the run of columns 0 and 1");
        assertEquals(0, count(EngineCounter.REPORTS_DELIVERED));
    }

    @Test
    void shouldResendSketchWritesTheResponderMissedAfterAResync()
    {
        setUp("count-min", 1, 4, 1, 1, 1, 1_000_000, true);
        send(0, 3, 0, 1);
        send(0, 3, 1, 2);
        final List<TestFrames.Request> first = settle();
        assertEquals(3, first.size(), "header and two columns");
        // The responder lost column 0 (PSN + 1): it NAKs the next PSN it expects.
        feed(TestFrames.nak(LOCAL_QPN, 0x60, START_PSN + 1));
        send(0, 3, 2, 3);
        send(0, 3, 3, 4);
        assertEquals(0, count(EngineCounter.DROP_BACKLOG_FULL));
        advance(60_000);
        final List<TestFrames.Request> after = settle();
        assertTrue(after.size() >= 5, "columns 0 and 1 again, 2, 3 and the complete header: " + after.size());
        assertEquals(START_PSN + 1, after.get(0).psn(), "re-sent from the responder's expected PSN");
        assertEquals(1, count(EngineCounter.SKETCH_EPOCHS_COMPLETED));
        assertArrayEquals(new int[] {1, 2, 3, 4}, new int[] {cell(3, 0, 0), cell(3, 1, 0), cell(3, 2, 0),
            cell(3, 3, 0)});
        assertArrayEquals(expectedHeader(3, 2, 1, 1, 4, 1, 1, 4, 0), header(3));
    }

    @Test
    void shouldBuildTheElementWiseMergeInCollectorMemoryForRandomTraffic()
    {
        final long seed = Long.getLong("dta.test.seed", 0x10255973L);
        final SplittableRandom random = new SplittableRandom(seed);
        final String[] types = {"count-min", "count-sketch", "hyperloglog"};
        for (int run = 0; run < 300; run++)
        {
            final String ctx = "seed=" + seed + " run=" + run;
            try
            {
                randomRun(random, types[random.nextInt(3)], ctx);
            }
            catch (final AssertionError ex)
            {
                fail(ctx + ": " + ex.getMessage(), ex);
            }
        }
    }

    private void randomRun(final SplittableRandom random, final String type, final String ctx)
    {
        final int r = "hyperloglog".equals(type) ? 1 : 1 + random.nextInt(4);
        final int c = 1 << random.nextInt(6);
        final int s = 1 + random.nextInt(5);
        final int batch = 1 << random.nextInt(Integer.numberOfTrailingZeros(c) + 1);
        final int e = 1 + random.nextInt(3);
        setUp(type, r, c, s, batch, e, 1_000_000_000, false);
        nacks.clear();
        out.drain();
        final long firstEpoch = random.nextInt(1000);
        final int epochCount = 1 + random.nextInt(e);
        // per epoch, switch, column: the switch's counters; a switch may stop early (incomplete epoch)
        final int[][][][] sent = new int[epochCount][s][c][r];
        final int[][] stopAt = new int[epochCount][s];
        final List<int[]> cursors = new ArrayList<>();  // {epoch index, switch, next column}
        for (int ep = 0; ep < epochCount; ep++)
        {
            for (int sw = 0; sw < s; sw++)
            {
                stopAt[ep][sw] = random.nextInt(8) == 0 ? random.nextInt(c + 1) : c;
                for (int col = 0; col < c; col++)
                {
                    for (int row = 0; row < r; row++)
                    {
                        sent[ep][sw][col][row] = switch (type)
                        {
                            case "count-min" -> random.nextInt(10) == 0 ? -random.nextInt(1 << 20) :
                                random.nextInt(1000);
                            case "count-sketch" -> random.nextInt(10) == 0 ?
                                (random.nextBoolean() ? Integer.MAX_VALUE : Integer.MIN_VALUE) - random.nextInt(9) +
                                    4 : random.nextInt(-1000, 1000);
                            default -> random.nextInt(34);
                        };
                    }
                }
                cursors.add(new int[] {ep, sw, 0});
            }
        }
        while (!cursors.isEmpty())
        {
            final int i = random.nextInt(cursors.size());
            final int[] cur = cursors.get(i);
            final int ep = cur[0];
            final int sw = cur[1];
            if (cur[2] >= stopAt[ep][sw])
            {
                cursors.remove(i);
                continue;
            }
            final int col = random.nextInt(10) == 0 && cur[2] > 0 ? random.nextInt(cur[2]) : cur[2]++;
            send(sw, firstEpoch + ep, col, sent[ep][sw][col]);
            now += 1_000;
        }
        engine.flush(now);
        settle();
        assertEquals(0, engine.counters().get(EngineCounter.DROP_SKETCH_GAP), ctx);
        assertEquals(0, engine.counters().get(EngineCounter.DROP_BACKLOG_FULL), ctx);
        for (int ep = 0; ep < epochCount; ep++)
        {
            final long epoch = firstEpoch + ep;
            int contributors = 0;
            int complete = c;
            final List<Integer> bitmap = new ArrayList<>();
            for (int sw = 0; sw < s; sw++)
            {
                complete = Math.min(complete, stopAt[ep][sw]);
                if (stopAt[ep][sw] == c)
                {
                    contributors++;
                    bitmap.add(sw);
                }
            }
            final int typeCode = "count-min".equals(type) ? 1 : "count-sketch".equals(type) ? 2 : 3;
            if (Arrays.stream(stopAt[ep]).allMatch(stop -> 0 == stop))
            {
                assertArrayEquals(new byte[64], header(epoch), ctx + " epoch " + epoch + " never opened");
                continue;
            }
            assertArrayEquals(expectedHeader(epoch, contributors == s ? 2 : 3, typeCode, r, c, s, contributors,
                complete, bitmap.stream().mapToInt(Integer::intValue).toArray()), header(epoch),
                ctx + " header of epoch " + epoch);
            for (int col = 0; col < c; col++)
            {
                for (int row = 0; row < r; row++)
                {
                    long sum = 0;
                    long max = 0;
                    for (int sw = 0; sw < s; sw++)
                    {
                        if (col < stopAt[ep][sw])
                        {
                            final int v = sent[ep][sw][col][row];
                            sum += "count-sketch".equals(type) ? v : v & 0xFFFF_FFFFL;
                            max = Math.max(max, v & 0xFFFF_FFFFL);
                        }
                    }
                    final int want = switch (type)
                    {
                        case "count-min" -> (int)Math.min(sum, 0xFFFF_FFFFL);
                        case "count-sketch" -> (int)Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, sum));
                        default -> (int)max;
                    };
                    assertEquals(want, cell(epoch, col, row), ctx + " epoch " + epoch + " cell (" + row + ", " +
                        col + ")");
                }
            }
        }
    }

    private static byte[] le(final int... values)
    {
        final ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (final int v : values)
        {
            b.putInt(v);
        }
        return b.array();
    }

    /**
     * The NACK re-arm time, restated here from docs/sketch.md so a silent change of the constant fails a test.
     */
    private static final class SketchMergeHandlerTimes
    {
        static final long REARM_NANOS = 100_000;
    }
}
