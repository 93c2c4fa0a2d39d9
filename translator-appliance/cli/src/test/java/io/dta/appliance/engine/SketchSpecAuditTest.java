package io.dta.appliance.engine;

import io.dta.appliance.demo.ClosedLoopDemo;
import io.dta.codec.Ipv4Address;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.RegionType;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Rule-by-rule audit of Sketch-Merge against translation.md §1, §3 (Sketch-Merge), §6 and §7 and docs/sketch.md,
 * for the rules {@link SketchMergeTest} leaves uncovered (the "Spec audit" table of docs/sketch.md maps each rule
 * to its test). Expected cells, headers and addresses are computed here with plain arithmetic from the documents,
 * never with the production classes.
 */
class SketchSpecAuditTest
{
    private static final int SKETCH_ID = 9;
    private static final int LOCAL_QPN = 0x641;
    private static final int REMOTE_QPN = 0x571;
    private static final long BASE = 0x7f0000900000L;
    private static final int START_PSN = 0x200;
    private static final int NACK_PORT = 40044;

    @TempDir
    Path dir;

    private TranslatorEngine engine;
    private final FrameCollector out = new FrameCollector();
    private final List<byte[]> udpOut = new ArrayList<>();
    private long now = 5_000_000;
    private byte[] memory;
    private int rows;
    private int columns;
    private int epochs;

    private void setUp(
        final String type, final int rows, final int columns, final int switches, final int batch, final int epochs,
        final long timeoutMicros, final boolean closedLoop, final String extraYaml)
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
              - name: b
                mac: "02:00:0a:00:00:34"
                ip: 10.0.0.52
                sketches:
                  - {id: %d, type: count-min, rows: 1, columns: 4, localQpn: 0x651, qpn: 0x572, rkey: 0x78,
                     address: 0x7f0000a00000, length: 1024}
            """.formatted(extraYaml, SKETCH_ID, type, rows, columns, switches, batch, epochs, timeoutMicros,
            LOCAL_QPN, REMOTE_QPN, BASE, length, START_PSN, SKETCH_ID + 1);
        engine = new TranslatorEngine(ConfigLoader.load(yaml), out, closedLoop);
        udpOut.clear();
        out.drain();
    }

    private static int switchIp(final int switchId)
    {
        return Ipv4Address.parse("10.3.0." + (switchId % 200 + 1));
    }

    private static byte[] subHeader(
        final int sketchId, final int switchId, final long epoch, final int column, final int rowsByte,
        final int[] counters)
    {
        final ByteBuffer b = ByteBuffer.allocate(12 + 4 * counters.length).order(ByteOrder.BIG_ENDIAN);
        b.putShort((short)sketchId).putShort((short)switchId).putInt((int)epoch).putShort((short)column)
            .put((byte)rowsByte).put((byte)0);
        for (final int c : counters)
        {
            b.putInt(c);
        }
        return b.array();
    }

    private static byte[] frame(final int switchId, final int dstIp, final int seqnum, final int flags,
        final byte[] subHeader)
    {
        return TestFrames.report(switchIp(switchId), dstIp, 3, 0x05, seqnum, flags, subHeader);
    }

    private void feed(final byte[] frame)
    {
        engine.pollNow(now);
        engine.onFrame(new UnsafeBuffer(frame), 0, frame.length, now);
    }

    private void send(final int switchId, final long epoch, final int c, final int... counters)
    {
        feed(frame(switchId, TestFrames.COLLECTOR_A, 0, 0,
            subHeader(SKETCH_ID, switchId, epoch, c, counters.length, counters)));
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

    /** Lets held frames out; applies each WRITE to the simulated collector memory; UDP frames go to udpOut. */
    private List<TestFrames.Request> settle()
    {
        advance(TranslatorEngine.HOLD_NANOS);
        final List<TestFrames.Request> writes = new ArrayList<>();
        for (final FrameCollector.Frame f : out.drain())
        {
            final byte[] bytes = f.bytes();
            if (NACK_PORT == (((bytes[36] & 0xFF) << 8) | (bytes[37] & 0xFF)))
            {
                udpOut.add(bytes);
                continue;
            }
            final TestFrames.Request r = TestFrames.parseRequest(bytes);
            assertTrue(r.isWrite(), "sketch QPs only WRITE");
            if (r.destQp() != REMOTE_QPN)
            {
                continue;
            }
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

    /** docs/sketch.md: area E mod epochs, each 64 + rows x columns x 4 bytes. */
    private int areaOffset(final long epoch)
    {
        return (int)(epoch % epochs) * (64 + rows * columns * 4);
    }

    /** docs/sketch.md: cell (r, c) at 64 + (c x rows + r) x 4 in its area, little-endian. */
    private int cell(final long epoch, final int c, final int r)
    {
        return ByteBuffer.wrap(memory).order(ByteOrder.LITTLE_ENDIAN)
            .getInt(areaOffset(epoch) + 64 + (c * rows + r) * 4);
    }

    private int headerState(final long epoch)
    {
        return memory[areaOffset(epoch) + 4];
    }

    private long headerEpoch(final long epoch)
    {
        return ByteBuffer.wrap(memory).order(ByteOrder.LITTLE_ENDIAN).getInt(areaOffset(epoch)) & 0xFFFF_FFFFL;
    }

    private int headerInt(final long epoch, final int at)
    {
        return ByteBuffer.wrap(memory).order(ByteOrder.LITTLE_ENDIAN).getInt(areaOffset(epoch) + at);
    }

    private int headerShort(final long epoch, final int at)
    {
        return ByteBuffer.wrap(memory).order(ByteOrder.LITTLE_ENDIAN).getShort(areaOffset(epoch) + at) & 0xFFFF;
    }

    // ------------------------------------------------------------------------------------------------ §3 rules

    /**
     * §3 "NACKs a gap (the switch restarts from the missing column)": the switch resends from the NACKed column and
     * the epoch completes with exactly one contribution per (switch, column), as if nothing had been lost.
     */
    @Test
    void shouldCompleteTheEpochExactlyOnceTheSwitchRestartsFromTheNackedColumn()
    {
        setUp("count-min", 2, 8, 2, 4, 2, 1_000_000, false, "");
        final long epoch = 21;
        for (int c = 0; c < 8; c++)
        {
            send(1, epoch, c, 1000 + c, 2000 + c);
        }
        send(0, epoch, 0, 1, 2);
        send(0, epoch, 1, 3, 4);
        // column 2 of switch 0 is lost; columns 3 and 4 were in flight
        send(0, epoch, 3, 7, 8);
        send(0, epoch, 4, 9, 10);
        settle();
        assertEquals(1, udpOut.size(), "one NACK for the episode");
        final byte[] nack = udpOut.get(0);
        // NACK body after Ethernet 14, IPv4 20, UDP 8, base header 3: sketch, switch, epoch, column (big-endian)
        final ByteBuffer body = ByteBuffer.wrap(nack, 14 + 20 + 8 + 3, 12).order(ByteOrder.BIG_ENDIAN);
        assertEquals(SKETCH_ID, body.getShort() & 0xFFFF);
        assertEquals(0, body.getShort() & 0xFFFF);
        assertEquals(epoch, body.getInt() & 0xFFFF_FFFFL);
        assertEquals(2, body.getShort() & 0xFFFF, "resend from the first missing column");
        // the switch restarts from column 2
        for (int c = 2; c < 8; c++)
        {
            send(0, epoch, c, 2 * c + 1, 2 * c + 2);
        }
        settle();
        assertEquals(2, headerState(epoch), "complete");
        for (int c = 0; c < 8; c++)
        {
            assertEquals(1000 + c + 2 * c + 1, cell(epoch, c, 0), "row 0 column " + c);
            assertEquals(2000 + c + 2 * c + 2, cell(epoch, c, 1), "row 1 column " + c);
        }
        assertEquals(16, count(EngineCounter.SKETCH_COLUMNS_MERGED));
        assertEquals(2, count(EngineCounter.DROP_SKETCH_GAP));
    }

    /**
     * "Per-column contributor count": a column is written only once every switch contributed to it; the columns
     * that some switch still owes wait, even when other switches sent them long ago.
     */
    @Test
    void shouldWriteAColumnOnlyWhenEverySwitchContributed()
    {
        setUp("count-sketch", 1, 4, 3, 1, 1, 1_000_000, false, "");
        for (int c = 0; c < 4; c++)
        {
            send(0, 2, c, c + 1);
            send(1, 2, c, -(c + 1));
        }
        send(2, 2, 0, 100);
        send(2, 2, 1, 200);
        final List<TestFrames.Request> writes = settle();
        // open header, then columns 0 and 1 (one column per WRITE): columns 2 and 3 miss switch 2
        assertEquals(3, writes.size());
        assertEquals(BASE + 64, writes.get(1).va());
        assertEquals(BASE + 64 + 4, writes.get(2).va());
        assertEquals(1, headerState(2));
        send(2, 2, 2, 300);
        assertEquals(1, settle().size(), "column 2 alone");
        send(2, 2, 3, -400);
        assertEquals(2, settle().size(), "column 3, then the complete header");
        assertArrayEquals(new int[] {100, 200, 300, -400}, new int[] {cell(2, 0, 0), cell(2, 1, 0), cell(2, 2, 0),
            cell(2, 3, 0)});
        assertEquals(3, headerShort(2, 14), "contributors");
        assertEquals(4, headerInt(2, 16), "complete columns");
    }

    /**
     * "Written in batches of several columns per RDMA WRITE": a complete epoch is exactly columns / batchColumns
     * column WRITEs of batchColumns × rows × 4 bytes each, at consecutive addresses, plus the two headers.
     */
    @Test
    void shouldWriteACompleteEpochInColumnsOverBatchColumnsWritesOfWholeColumns()
    {
        final int r = 3;
        final int c = 32;
        final int batch = 8;
        setUp("count-min", r, c, 2, batch, 3, 1_000_000, false, "");
        final long epoch = 7;  // area 1 of 3
        for (int col = 0; col < c; col++)
        {
            for (int s = 0; s < 2; s++)
            {
                send(s, epoch, col, col, 100 * s, 1);
            }
        }
        final List<TestFrames.Request> writes = settle();
        assertEquals(2 + c / batch, writes.size());
        final long area = BASE + 64 + (long)r * c * 4;
        assertEquals(area, writes.get(0).va());
        assertEquals(64, writes.get(0).dmaLength());
        for (int w = 0; w < c / batch; w++)
        {
            final TestFrames.Request run = writes.get(1 + w);
            assertEquals(area + 64 + (long)w * batch * r * 4, run.va(), "run " + w);
            assertEquals(batch * r * 4, run.dmaLength(), "run " + w);
        }
        assertEquals(area, writes.get(writes.size() - 1).va());
        for (int col = 0; col < c; col++)
        {
            assertEquals(2 * col, cell(epoch, col, 0));
            assertEquals(100, cell(epoch, col, 1));
            assertEquals(2, cell(epoch, col, 2));
        }
    }

    /**
     * "Epochs start fresh sketches": an epoch reusing the area of an earlier, complete epoch starts from zero; the
     * columns nobody contributed to read zero, not the earlier epoch's values, and the merged ones do not include
     * them.
     */
    @Test
    void shouldStartAnEpochThatReusesAnAreaFromZero()
    {
        setUp("hyperloglog", 1, 4, 1, 2, 1, 1_000_000, false, "");
        for (int c = 0; c < 4; c++)
        {
            send(0, 30, c, 20 + c);
        }
        settle();
        assertEquals(2, headerState(30));
        assertEquals(23, cell(30, 3, 0));
        send(0, 31, 0, 5);
        engine.flush(now);
        settle();
        assertEquals(31, headerEpoch(31));
        assertEquals(3, headerState(31), "flushed incomplete");
        assertArrayEquals(new int[] {5, 0, 0, 0}, new int[] {cell(31, 0, 0), cell(31, 1, 0), cell(31, 2, 0),
            cell(31, 3, 0)}, "max with nothing of epoch 30");
    }

    /**
     * Duplicates: a repeat of any column already merged (whatever its counters) changes nothing and is counted,
     * also after the epoch closed (then under the closed-epoch reason), and nothing is written for it.
     */
    @Test
    void shouldIgnoreDuplicatesOfMergedColumnsWhateverTheirCounters()
    {
        setUp("count-min", 1, 4, 2, 4, 2, 1_000_000, false, "");
        send(0, 4, 0, 10);
        send(0, 4, 1, 11);
        send(0, 4, 0, 999);
        send(0, 4, 1, 999);
        send(0, 4, 0, 999);
        assertEquals(3, count(EngineCounter.DROP_SKETCH_DUPLICATE));
        for (int c = 0; c < 4; c++)
        {
            send(1, 4, c, 1);
        }
        send(0, 4, 2, 12);
        send(0, 4, 3, 13);
        settle();
        assertArrayEquals(new int[] {11, 12, 13, 14}, new int[] {cell(4, 0, 0), cell(4, 1, 0), cell(4, 2, 0),
            cell(4, 3, 0)});
        send(1, 4, 3, 999);
        assertEquals(1, count(EngineCounter.DROP_SKETCH_EPOCH_CLOSED));
        assertTrue(settle().isEmpty());
        assertEquals(14, cell(4, 3, 0));
        assertEquals(4, engine.counters().totalDrops());
    }

    /**
     * Late columns of an old epoch: once the epoch's area holds a newer epoch, columns of the old one are dropped as
     * stale and do not touch the newer epoch's cells or header. The ring rule is per area: a late epoch whose own
     * area is empty (or holds an older epoch) still opens there (docs/sketch.md, epoch ring).
     */
    @Test
    void shouldDropLateColumnsOfAnEpochWhoseAreaMovedOn()
    {
        setUp("count-min", 1, 2, 1, 2, 2, 1_000_000, false, "");
        send(0, 10, 0, 1);
        send(0, 10, 1, 2);
        send(0, 12, 0, 5);
        settle();
        send(0, 10, 1, 50);
        assertEquals(1, count(EngineCounter.DROP_SKETCH_STALE_EPOCH), "area 0 holds epoch 12 now");
        send(0, 8, 0, 50);
        assertEquals(2, count(EngineCounter.DROP_SKETCH_STALE_EPOCH), "epoch 8 is older still");
        assertTrue(settle().isEmpty(), "a stale column writes nothing");
        assertEquals(12, headerEpoch(12));
        assertEquals(1, headerState(12));
        send(0, 12, 1, 6);
        settle();
        assertEquals(2, headerState(12));
        assertArrayEquals(new int[] {5, 6}, new int[] {cell(12, 0, 0), cell(12, 1, 0)});
        // area 1 was never used: a late epoch 9 opens there, the ring's rule is per area
        send(0, 9, 0, 7);
        assertEquals(3, count(EngineCounter.SKETCH_EPOCHS_OPENED));
    }

    /**
     * A switch that never completes: the epoch closes incomplete at epochTimeoutMicros after it opened, not
     * before; several due epochs close oldest first (the header WRITE of the older epoch leaves first).
     */
    @Test
    void shouldTimeOutEpochsOfASilentSwitchOldestFirst()
    {
        setUp("count-min", 1, 2, 2, 1, 4, 200, false, "");
        send(0, 41, 0, 1);
        send(0, 40, 0, 1);
        send(0, 43, 0, 1);
        settle();
        advance(200_000 - TranslatorEngine.HOLD_NANOS - 1_000);
        assertEquals(0, count(EngineCounter.SKETCH_EPOCHS_TIMED_OUT), "not before the timeout");
        advance(2_000);
        final List<TestFrames.Request> writes = settle();
        assertEquals(3, count(EngineCounter.SKETCH_EPOCHS_TIMED_OUT));
        final List<Long> headerOrder = new ArrayList<>();
        for (final TestFrames.Request w : writes)
        {
            if (64 == w.dmaLength())
            {
                headerOrder.add(ByteBuffer.wrap(w.payload()).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xFFFF_FFFFL);
            }
        }
        assertEquals(List.of(40L, 41L, 43L), headerOrder);
        for (final long e : new long[] {40, 41, 43})
        {
            assertEquals(3, headerState(e));
            assertEquals(0, headerShort(e, 14), "no switch sent every column");
            assertEquals(1, cell(e, 0, 0));
        }
    }

    /** Out-of-range column index, wrong rows, unknown switch: dropped before anything opens or is written. */
    @Test
    void shouldDropMisshapenColumnsBeforeOpeningAnything()
    {
        setUp("count-min", 2, 4, 2, 2, 2, 1_000_000, false, "");
        send(0, 3, 4, 1, 1);
        send(0, 3, 0xFFFF, 1, 1);
        send(0, 3, 0, 1);
        send(0, 3, 0, 1, 1, 1);
        send(2, 3, 0, 1, 1);
        send(0xFFFF, 3, 0, 1, 1);
        assertEquals(2, count(EngineCounter.DROP_SKETCH_BAD_COLUMN));
        assertEquals(2, count(EngineCounter.DROP_SKETCH_BAD_ROWS));
        assertEquals(2, count(EngineCounter.DROP_SKETCH_BAD_SWITCH));
        assertEquals(0, count(EngineCounter.SKETCH_EPOCHS_OPENED));
        assertTrue(settle().isEmpty());
        send(0, 3, 3, 1, 1);
        assertEquals(1, count(EngineCounter.DROP_SKETCH_GAP), "columns - 1 is in range");
    }

    /**
     * Unknown sketch id: routing is by collector IP first (§2), so an id configured only on another collector is
     * "no route" too; a counters region shorter than the rows byte announces is truncated, a longer one a bad length
     * (§1).
     */
    @Test
    void shouldCountUnknownSketchIdsAndTruncatedColumnsUnderTheirReasons()
    {
        setUp("count-min", 2, 4, 1, 2, 2, 1_000_000, false, "");
        feed(frame(0, TestFrames.COLLECTOR_A, 0, 0, subHeader(SKETCH_ID + 1, 0, 1, 0, 2, new int[] {1, 1})));
        feed(frame(0, TestFrames.COLLECTOR_B, 0, 0, subHeader(SKETCH_ID, 0, 1, 0, 2, new int[] {1, 1})));
        feed(frame(0, TestFrames.COLLECTOR_A, 0, 0, subHeader(77, 0, 1, 0, 2, new int[] {1, 1})));
        assertEquals(3, count(EngineCounter.DROP_NO_ROUTE));
        feed(frame(0, TestFrames.COLLECTOR_A, 0, 0, subHeader(SKETCH_ID, 0, 1, 0, 2, new int[] {1})));
        assertEquals(1, count(EngineCounter.DROP_TRUNCATED));
        // One counter more than its rows byte says, within the UDP length: a bad length, as for every primitive.
        feed(frame(0, TestFrames.COLLECTOR_A, 0, 0, subHeader(SKETCH_ID, 0, 1, 0, 2, new int[] {1, 1, 1})));
        assertEquals(1, count(EngineCounter.DROP_BAD_LENGTH));
        assertEquals(5, count(EngineCounter.REPORTS_IN));
        assertEquals(5, engine.counters().totalDrops());
        assertEquals(0, count(EngineCounter.SKETCH_EPOCHS_OPENED));
    }

    // ---------------------------------------------------------------------------------------- §1, §6, §7 rules

    /**
     * §7 applies to sketch reports with the retransmittable flag: a seqnum gap is answered with the reporter NACK
     * (last in-order seqnum) and the column is not merged; the retransmitted column is then merged once.
     */
    @Test
    void shouldTrackTheSeqnumOfRetransmittableSketchReportsPerSwitch()
    {
        setUp("count-min", 1, 4, 2, 4, 2, 1_000_000, false, "");
        final int retransmittable = 0x40;
        feed(frame(0, TestFrames.COLLECTOR_A, 7, retransmittable, subHeader(SKETCH_ID, 0, 1, 0, 1, new int[] {1})));
        feed(frame(1, TestFrames.COLLECTOR_A, 200, retransmittable,
            subHeader(SKETCH_ID, 1, 1, 0, 1, new int[] {2})));
        feed(frame(0, TestFrames.COLLECTOR_A, 9, retransmittable, subHeader(SKETCH_ID, 0, 1, 1, 1, new int[] {3})));
        assertEquals(1, count(EngineCounter.DROP_SEQUENCE_GAP));
        assertEquals(0, count(EngineCounter.DROP_SKETCH_GAP), "not seen by the sketch: §7 comes first");
        assertEquals(2, count(EngineCounter.SKETCH_COLUMNS_MERGED));
        settle();
        assertEquals(1, udpOut.size());
        final byte[] nack = udpOut.get(0);
        assertEquals(switchIp(0), ByteBuffer.wrap(nack, 30, 4).getInt(), "to the reporter");
        // the reporter NACK (dta-reference.md §1.6): seqnum u8, then the NACK bit
        assertEquals(7, nack[14 + 20 + 8] & 0xFF, "seqnum = last in-order value");
        assertEquals(0x80, nack[14 + 20 + 8 + 1] & 0x80, "NACK bit");
        feed(frame(0, TestFrames.COLLECTOR_A, 8, retransmittable, subHeader(SKETCH_ID, 0, 1, 1, 1, new int[] {3})));
        assertEquals(3, count(EngineCounter.SKETCH_COLUMNS_MERGED));
    }

    /**
     * §5/§6: during a QP's grace period sketch column reports (not flagged essential) are still merged, none is
     * dropped for the grace period, and the WRITEs reach collector memory after it.
     */
    @Test
    void shouldMergeSketchColumnsDuringAGracePeriodAndDeliverThemAfterIt()
    {
        setUp("count-min", 1, 4, 1, 1, 1, 1_000_000, true, "");
        send(0, 3, 0, 1);
        settle();
        feed(TestFrames.nak(LOCAL_QPN, 0x60, START_PSN + 1));
        send(0, 3, 1, 2);
        send(0, 3, 2, 3);
        send(0, 3, 3, 4);
        assertEquals(0, count(EngineCounter.DROP_GRACE_PERIOD));
        assertEquals(4, count(EngineCounter.SKETCH_COLUMNS_MERGED));
        advance(60_000);
        settle();
        assertEquals(2, headerState(3));
        assertArrayEquals(new int[] {1, 2, 3, 4}, new int[] {cell(3, 0, 0), cell(3, 1, 0), cell(3, 2, 0),
            cell(3, 3, 0)});
        assertEquals(0, engine.counters().totalDrops());
    }

    /**
     * §1: every sketch report is either translated or dropped under exactly one named reason, whatever the mix of
     * valid, duplicate, gap, stale, misshapen, unroutable and truncated columns; nothing throws.
     */
    @Test
    void shouldAccountForEverySketchReportUnderTranslatedOrOneNamedDrop()
    {
        final long seed = Long.getLong("dta.test.seed", 0x3DA6F214L);
        final SplittableRandom random = new SplittableRandom(seed);
        for (int run = 0; run < 40; run++)
        {
            final String ctx = "seed=" + seed + " run=" + run;
            try
            {
                final int r = 1 + random.nextInt(3);
                final int c = 1 << random.nextInt(4);
                final int s = 1 + random.nextInt(3);
                setUp("count-min", r, c, s, 1 << random.nextInt(Integer.numberOfTrailingZeros(c) + 1),
                    1 + random.nextInt(3), 1 + random.nextInt(2_000), random.nextBoolean(), "");
                for (int i = 0; i < 300; i++)
                {
                    final int rowsByte = random.nextInt(10) == 0 ? random.nextInt(5) : r;
                    final int[] counters = new int[random.nextInt(12) == 0 ? random.nextInt(4) : rowsByte];
                    final int sketchId = random.nextInt(15) == 0 ? random.nextInt(12) : SKETCH_ID;
                    final int dst = random.nextInt(20) == 0 ? TestFrames.COLLECTOR_B : TestFrames.COLLECTOR_A;
                    final int sw = random.nextInt(s + 1);
                    feed(frame(sw, dst, random.nextInt(256), random.nextInt(4) << 5, subHeader(sketchId, sw,
                        random.nextInt(6), random.nextInt(c + 1), rowsByte, counters)));
                    now += random.nextInt(50_000);
                }
                engine.flush(now);
                settle();
                // QP-level drops count reports already translated (EngineCounter's accounting rule)
                final long qpDrops = count(EngineCounter.DROP_GRACE_PERIOD) + count(EngineCounter.DROP_QP_ERROR) +
                    count(EngineCounter.DROP_BACKLOG_FULL) + count(EngineCounter.DROP_ATOMIC_QUEUE_FULL);
                assertEquals(count(EngineCounter.REPORTS_IN), count(EngineCounter.REPORTS_TRANSLATED) +
                    engine.counters().totalDrops() - qpDrops, ctx);
                assertEquals(count(EngineCounter.SKETCH_COLUMNS_MERGED), count(EngineCounter.REPORTS_TRANSLATED),
                    ctx);
            }
            catch (final AssertionError ex)
            {
                fail(ctx + ": " + ex.getMessage(), ex);
            }
        }
    }

    // ------------------------------------------------------------------------------------- delivery of an epoch

    /**
     * A header must never claim more than collector memory holds: when a column-run WRITE of an epoch was dropped
     * (forced into a full essential backlog, which only the end of a run does), the collector's cells for those columns are not the merge, so the final header
     * says incomplete (state 3), even though every switch sent every column.
     */
    @Test
    void shouldNotCloseAnEpochCompleteWhenOneOfItsColumnWritesWasDropped()
    {
        setUp("count-min", 1, 8, 1, 2, 1, 1_000_000, true, "essential: {backlog: 3}");
        Arrays.fill(memory, (byte)0x5A);  // the area still holds an older epoch's cells
        send(0, 6, 0, 1);
        send(0, 6, 1, 2);
        send(0, 6, 2, 3);
        send(0, 6, 3, 4);
        settle();  // open header, columns 0-1, columns 2-3: the ring is full
        send(0, 6, 4, 5);
        send(0, 6, 5, 6);
        assertEquals(0, count(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL), "columns 4-5 wait for room");
        // Only the end of a run drops what waits; forced here, so that a lost run precedes the epoch's completion.
        engine.abandonPendingWrites(now);
        assertEquals(1, count(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL), "columns 4-5 dropped");
        feed(TestFrames.ack(LOCAL_QPN, START_PSN + 2));
        send(0, 6, 6, 7);
        send(0, 6, 7, 8);
        settle();
        assertEquals(1, count(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL), "columns 6-7 and header admitted");
        assertEquals(0x5A5A5A5A, cell(6, 4, 0), "columns 4-5 never reached the collector");
        assertEquals(6, headerEpoch(6));
        assertEquals(3, headerState(6), "not complete: the collector lacks columns 4 and 5");
    }

    /**
     * §6 for sketches: with loss on both directions of the collector link, every merged column still ends up in
     * collector memory (the sketch WRITEs take the essential path whatever the reports' flags), and every epoch's
     * final header says complete. The collector is the soft responder of the closed-loop demo; expected cells are
     * the plain sums of what the switches sent.
     */
    @Test
    void shouldLandEveryMergedColumnInCollectorMemoryWithLossOnBothDirections() throws Exception
    {
        final int r = 2;
        final int c = 64;
        final int switches = 3;
        final int epochCount = 6;
        final int ringEpochs = 8;
        final long seed = 11;
        final String yaml = """
            translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101}
            acks: {requestInterval: 4, timeoutMicros: 200}
            resync: {graceMicros: 20}
            collectors:
              - name: a
                mac: "02:00:0a:00:00:33"
                ip: 10.0.0.51
                sketches:
                  - {id: %d, type: count-min, rows: %d, columns: %d, switches: %d, batchColumns: 4, epochs: %d,
                     epochTimeoutMicros: 3600000000, localQpn: 0x641, qpn: 0x571, rkey: 0x77, address: 0x7f0000900000,
                     length: %d}
            """.formatted(SKETCH_ID, r, c, switches, ringEpochs, ringEpochs * (64 + r * c * 4));
        final ApplianceConfig config = ConfigLoader.load(yaml);
        final SplittableRandom random = new SplittableRandom(seed);
        final long[][] sums = new long[epochCount][r * c];
        final List<byte[]> frames = new ArrayList<>();
        for (int e = 0; e < epochCount; e++)
        {
            for (int col = 0; col < c; col++)
            {
                for (int sw = 0; sw < switches; sw++)
                {
                    final int[] counters = new int[r];
                    for (int row = 0; row < r; row++)
                    {
                        counters[row] = random.nextInt(1_000_000);
                        sums[e][col * r + row] += counters[row];
                    }
                    frames.add(frame(sw, TestFrames.COLLECTOR_A, 0, 0, subHeader(SKETCH_ID, sw, 100 + e, col, r,
                        counters)));
                }
            }
        }
        try (CollectorStore store = CollectorStore.create(dir, config, config.collectors().get(0)))
        {
            final ClosedLoopDemo demo = new ClosedLoopDemo(config, List.of(store), 0.05, seed);
            demo.run(new ListReportSource(frames));
            final String ctx = "seed=" + seed;
            assertTrue(demo.quiescent(), ctx);
            final TranslatorEngine engine = demo.engine();
            assertTrue(engine.counters().get(EngineCounter.NAK_SEQUENCE_ERRORS_IN) > 0 ||
                engine.counters().get(EngineCounter.ESSENTIAL_RESENT) > 0, ctx + ": the loss must cost re-sends");
            assertEquals(0, engine.counters().totalDrops(), ctx);
            assertEquals(epochCount, engine.counters().get(EngineCounter.SKETCH_EPOCHS_COMPLETED), ctx);
            final DirectBuffer region = store.region(RegionType.SKETCH, SKETCH_ID).buffer();
            for (int e = 0; e < epochCount; e++)
            {
                final int area = (100 + e) % ringEpochs * (64 + r * c * 4);
                assertEquals(100 + e, region.getInt(area, ByteOrder.LITTLE_ENDIAN), ctx + " epoch " + e);
                assertEquals(2, region.getByte(area + 4), ctx + " epoch " + e + " complete");
                for (int i = 0; i < r * c; i++)
                {
                    assertEquals(sums[e][i], region.getInt(area + 64 + i * 4, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL,
                        ctx + " epoch " + e + " cell " + i);
                }
            }
        }
    }
}
