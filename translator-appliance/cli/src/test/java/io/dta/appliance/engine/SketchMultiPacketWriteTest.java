package io.dta.appliance.engine;

import io.dta.appliance.demo.ClosedLoopDemo;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.Icrc;
import io.dta.codec.Ipv4Address;
import io.dta.codec.pcap.PcapWriter;
import io.dta.collector.responder.ResponderCounter;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.RegionType;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sketch-Merge with a run of columns longer than the collector's path MTU (docs/sketch.md, translation.md §4): 5 rows
 * x 32 columns x 4 = 640 bytes per run on a 256-byte path MTU, so every run is one WRITE First (RETH, 256 bytes),
 * Middle (256) and Last (128) on consecutive PSNs. Frames are checked byte for byte against frames built from the
 * spec with plain arithmetic ({@link TestFrames#write}, ICRC with java.util.zip.CRC32), and against the codec's
 * decoder and {@link Icrc#verify}; then a NAK into a run's Middle, the essential ring's accounting in WRITEs, and a lossy closed
 * loop with collector-lib's {@link io.dta.collector.responder.SoftResponder} whose resyncs land inside runs.
 */
class SketchMultiPacketWriteTest
{
    private static final int SKETCH_ID = 3;
    private static final int LOCAL_QPN = 0x6A1;
    private static final int REMOTE_QPN = 0x5B2;
    private static final int RKEY = 0x4321;
    private static final long BASE = 0x7f0000a00000L;
    private static final int MTU = 256;
    private static final int ROWS = 5;
    private static final int COLUMNS = 64;
    private static final int BATCH = 32;
    private static final int RUN_BYTES = BATCH * ROWS * 4;
    private static final int AREA_BYTES = 64 + ROWS * COLUMNS * 4;
    private static final int COLLECTOR_IP = Ipv4Address.parse("10.0.0.51");

    @TempDir
    Path dir;

    private TranslatorEngine engine;
    private final FrameCollector out = new FrameCollector();
    private long now = 1_000_000;

    private static String yaml(
        final int requestInterval, final int backlog, final int startPsn, final int switches, final int epochs)
    {
        return """
            translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101, dscp: 26, ecn: 0, ttl: 64, pKey: 0xffff}
            reports: {udpPort: 40040, baseHeader: "3"}
            acks: {requestInterval: %d, timeoutMicros: 200}
            resync: {graceMicros: 20}
            essential: {backlog: %d}
            collectors:
              - name: a
                mac: "02:00:0a:00:00:33"
                ip: 10.0.0.51
                pathMtu: %d
                sketches:
                  - {id: %d, type: count-min, rows: %d, columns: %d, switches: %d, batchColumns: %d, epochs: %d,
                     epochTimeoutMicros: 3600000000, localQpn: 0x%x, qpn: 0x%x, rkey: 0x%x, address: 0x%x,
                     length: %d, startPsn: 0x%x}
            """.formatted(requestInterval, backlog, MTU, SKETCH_ID, ROWS, COLUMNS, switches, BATCH, epochs, LOCAL_QPN,
            REMOTE_QPN, RKEY, BASE, (long)epochs * AREA_BYTES, startPsn);
    }

    private static byte[] report(final int switchId, final long epoch, final int column, final int[] counters)
    {
        final ByteBuffer b = ByteBuffer.allocate(12 + 4 * counters.length).order(ByteOrder.BIG_ENDIAN);
        b.putShort((short)SKETCH_ID).putShort((short)switchId).putInt((int)epoch).putShort((short)column)
            .put((byte)counters.length).put((byte)0);
        for (final int c : counters)
        {
            b.putInt(c);
        }
        return TestFrames.report(Ipv4Address.parse("10.2.0." + (switchId + 1)), COLLECTOR_IP, 3, 0x05, 0, 0,
            b.array());
    }

    private void feed(final byte[] frame)
    {
        engine.pollNow(now);
        engine.onFrame(new UnsafeBuffer(frame), 0, frame.length, now);
    }

    private void advance(final long nanos)
    {
        now += nanos;
        engine.pollNow(now);
    }

    private List<byte[]> drain()
    {
        final List<byte[]> frames = new ArrayList<>();
        for (final FrameCollector.Frame f : out.drain())
        {
            frames.add(f.bytes());
        }
        return frames;
    }

    /**
     * One switch's counters for every column of one epoch (the merged sketch, with a single switch), column-major.
     */
    private static int[][] counters(final SplittableRandom random)
    {
        final int[][] counters = new int[COLUMNS][ROWS];
        for (final int[] column : counters)
        {
            for (int r = 0; r < ROWS; r++)
            {
                column[r] = random.nextInt();
            }
        }
        return counters;
    }

    /** The cells of columns [from, from + count) as collector memory holds them: column-major, little-endian. */
    private static byte[] cells(final int[][] counters, final int from, final int count)
    {
        final ByteBuffer b = ByteBuffer.allocate(count * ROWS * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int c = from; c < from + count; c++)
        {
            for (int r = 0; r < ROWS; r++)
            {
                b.putInt(counters[c][r]);
            }
        }
        return b.array();
    }

    private static byte[] header(final long epoch, final int state, final int contributors, final int complete)
    {
        final ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt((int)epoch).put((byte)state).put((byte)1).putShort((short)ROWS).putInt(COLUMNS).putShort((short)1)
            .putShort((short)contributors).putInt(complete);
        if (contributors > 0)
        {
            b.put(32, (byte)1);
        }
        return b.array();
    }

    private static byte[] expectedWrite(
        final int opcode, final int psn, final boolean ackReq, final long va, final int dmaLength, final byte[] data)
    {
        return TestFrames.write(26 << 2, LOCAL_QPN, REMOTE_QPN, RKEY, opcode, psn, ackReq, va, dmaLength, data);
    }

    private static String hex(final byte[] b)
    {
        return HexFormat.of().formatHex(b);
    }

    /**
     * The eight frames of one epoch of one switch: open header, run 0 as First/Middle/Last, run 1 as
     * First/Middle/Last, final header (epoch 9 lives in area 1 of 2). AckReq as given per frame.
     */
    private static List<String> expectedEpoch(final int startPsn, final int[][] counters, final boolean... ackReq)
    {
        final long area = BASE + AREA_BYTES;
        final List<String> frames = new ArrayList<>();
        frames.add(hex(expectedWrite(0x0A, startPsn, ackReq[0], area, 64, header(9, 1, 0, 0))));
        for (int run = 0; run < 2; run++)
        {
            final byte[] cells = cells(counters, run * BATCH, BATCH);
            final long va = area + 64 + (long)run * RUN_BYTES;
            for (int p = 0; p < 3; p++)
            {
                final int opcode = 0 == p ? 0x06 : 1 == p ? 0x07 : 0x08;
                final int psn = (startPsn + 1 + run * 3 + p) & 0xFFFFFF;
                frames.add(hex(expectedWrite(opcode, psn, ackReq[1 + run * 3 + p], va, RUN_BYTES,
                    Arrays.copyOfRange(cells, p * MTU, Math.min(RUN_BYTES, (p + 1) * MTU)))));
            }
        }
        frames.add(hex(expectedWrite(0x0A, (startPsn + 7) & 0xFFFFFF, ackReq[7], area, 64,
            header(9, 2, 1, COLUMNS))));
        return frames;
    }

    /**
     * A 640-byte run on a 256-byte path MTU: WRITE First (RETH: the run's address, DMA length 640; 256 bytes),
     * Middle (no RETH, 256 bytes), Last (no RETH, the remaining 128, PadCnt 0), PSNs consecutive across the 2^24
     * wrap, every byte including the ICRC as the spec builds it. AckReq per §5 counts packets, not WRITEs: with an
     * interval of 64 it is on the packet before the QP goes idle (the first run's Last when the reports pause after
     * it, the final header), with an interval of 3 on every third packet (which may be a Middle) and on the last.
     * Counters count WRITEs in SKETCH_COLUMN_WRITES and packets in ROCE_FRAMES_OUT.
     */
    @Test
    void shouldSendARunLongerThanThePathMtuAsOneWriteFirstMiddleLastByteForByte() throws Exception
    {
        final int startPsn = 0xFFFFFE;
        final int[][] counters = counters(new SplittableRandom(42));
        for (final int interval : new int[] {64, 3})
        {
            engine = new TranslatorEngine(ConfigLoader.load(yaml(interval, 16, startPsn, 1, 2)), out, false);
            final boolean pause = 64 == interval;
            for (int c = 0; c < COLUMNS; c++)
            {
                feed(report(0, 9, c, counters[c]));
                if (pause && BATCH - 1 == c)
                {
                    advance(TranslatorEngine.HOLD_NANOS);
                }
            }
            advance(TranslatorEngine.HOLD_NANOS);
            final List<byte[]> frames = drain();
            final List<String> expected = pause ?
                expectedEpoch(startPsn, counters, false, false, false, true, false, false, false, true) :
                expectedEpoch(startPsn, counters, false, false, true, false, false, true, false, true);
            assertEquals(expected, frames.stream().map(SketchMultiPacketWriteTest::hex).toList(),
                "interval " + interval);

            final FrameDecoder decoder = new FrameDecoder();
            final Icrc icrc = new Icrc();
            final int[] opcodes = {0x0A, 0x06, 0x07, 0x08, 0x06, 0x07, 0x08, 0x0A};
            final int[] payloads = {64, MTU, MTU, RUN_BYTES - 2 * MTU, MTU, MTU, RUN_BYTES - 2 * MTU, 64};
            for (int i = 0; i < frames.size(); i++)
            {
                final byte[] f = frames.get(i);
                final String ctx = "interval " + interval + " frame " + i;
                assertEquals(FrameKind.ROCE, decoder.decode(new UnsafeBuffer(f), 0, f.length), ctx);
                assertEquals(opcodes[i], decoder.roceOpcode(), ctx);
                assertEquals(payloads[i], decoder.payloadLength(), ctx);
                assertEquals(0, decoder.padCount(), ctx);
                assertEquals((startPsn + i) & 0xFFFFFF, decoder.bth().psn(), ctx);
                assertTrue(decoder.icrcValid(), ctx);
                assertTrue(icrc.verify(new UnsafeBuffer(f), 14, f.length), ctx);
            }
            assertEquals(2, engine.counters().get(EngineCounter.SKETCH_COLUMN_WRITES), "WRITEs, not packets");
            assertEquals(8, engine.counters().get(EngineCounter.ROCE_FRAMES_OUT));
            assertEquals(64, engine.counters().get(EngineCounter.REPORTS_DELIVERED), "open loop: delivered when sent");
            assertEquals(1, engine.counters().get(EngineCounter.SKETCH_EPOCHS_COMPLETED));
            assertEquals(0, engine.counters().totalDrops());
            if (pause)
            {
                tsharkDissects(frames);
            }
        }
    }

    /**
     * §5 with rocev2-reference.md §3.5: a NAK 0x60 into a run's Middle or Last means the collector executed the
     * run's first packets and keeps the message open, so after the grace period the QP resumes it at the NAK's PSN
     * with the same packets (a new First would be an Invalid Request, fatal) and then re-sends what followed; a NAK
     * at a run's First re-sends that run whole. Byte for byte the frames of the first sending; the essential ring
     * re-sends 3, 3, 2 and 2 WRITEs (ESSENTIAL_RESENT counts WRITEs, the resumed one included), and an ACK of the
     * last PSN delivers all 64 reports.
     */
    @Test
    void shouldResumeARunAtTheNakPsnInsideItWithTheSamePackets()
    {
        final int startPsn = 0x100;
        final int[][] counters = counters(new SplittableRandom(7));
        final List<String> original =
            expectedEpoch(startPsn, counters, false, false, false, false, false, false, false, true);
        final int[] nakPsns = {0x102, 0x103, 0x104, 0x106};
        final int[] resent = {3, 3, 2, 2};
        for (int n = 0; n < nakPsns.length; n++)
        {
            final int nakPsn = nakPsns[n];
            final String ctx = "NAK at 0x" + Integer.toHexString(nakPsn);
            engine = new TranslatorEngine(ConfigLoader.load(yaml(64, 16, startPsn, 1, 2)), out, true);
            for (int c = 0; c < COLUMNS; c++)
            {
                feed(report(0, 9, c, counters[c]));
            }
            advance(TranslatorEngine.HOLD_NANOS);
            assertEquals(original, drain().stream().map(SketchMultiPacketWriteTest::hex).toList(), ctx);

            // The re-sends go at once (only non-essential reports wait for the grace period to end).
            feed(TestFrames.nak(LOCAL_QPN, 0x60, nakPsn));
            final List<String> again = new java.util.ArrayList<>(
                drain().stream().map(SketchMultiPacketWriteTest::hex).toList());
            advance(TranslatorEngine.HOLD_NANOS);
            again.addAll(drain().stream().map(SketchMultiPacketWriteTest::hex).toList());
            assertEquals(original.subList(nakPsn - startPsn, 8), again, ctx);
            assertEquals(resent[n], engine.counters().get(EngineCounter.ESSENTIAL_RESENT), ctx);

            feed(TestFrames.ack(LOCAL_QPN, startPsn + 7));
            assertEquals(64, engine.counters().get(EngineCounter.REPORTS_DELIVERED), ctx);
            assertEquals(0, engine.counters().totalDrops(), ctx);
            assertEquals(1, engine.counters().get(EngineCounter.SKETCH_EPOCHS_COMPLETED), ctx);
            advance(1_000_000);
            assertTrue(engine.isQuiescent(), ctx);
            assertTrue(drain().isEmpty(), ctx + ": no probe once everything is acknowledged");
        }
    }

    /**
     * The essential ring (essential.backlog) holds WRITEs, not packets: a three-packet run takes one entry, and
     * stays there until an ACK covers its Last (an ACK of its Middle delivers nothing). With 3 entries the open
     * header and both runs fit and the final header waits for room; with 2 the second run waits too. Nothing is
     * dropped: once the ACK of run 0's Last frees its entry, what waited goes, and the epoch completes.
     */
    @Test
    void shouldHoldOneEssentialEntryPerRunWhateverItsPacketsUntilItsLastIsAcknowledged()
    {
        final int startPsn = 0x300;
        final int[][] counters = counters(new SplittableRandom(3));
        for (final int backlog : new int[] {3, 2})
        {
            final String ctx = "backlog " + backlog;
            engine = new TranslatorEngine(ConfigLoader.load(yaml(64, backlog, startPsn, 1, 2)), out, true);
            for (int c = 0; c < COLUMNS; c++)
            {
                feed(report(0, 9, c, counters[c]));
            }
            advance(TranslatorEngine.HOLD_NANOS);
            final List<byte[]> frames = drain();
            final EngineCounters k = engine.counters();
            // Backlog 3: open header and both runs; the final header waits. Backlog 2: header and run 0; run 1 waits.
            assertEquals(3 == backlog ? 7 : 4, frames.size(), ctx);
            assertEquals(0, k.get(EngineCounter.OPERATIONS_DROPPED_BACKLOG_FULL), ctx);
            assertEquals(3 == backlog ? 2 : 1, k.get(EngineCounter.SKETCH_COLUMN_WRITES), ctx);
            assertEquals(0, k.get(EngineCounter.SKETCH_EPOCHS_COMPLETED), ctx + ": its final header waits");

            feed(TestFrames.ack(LOCAL_QPN, startPsn + 2));
            assertEquals(0, k.get(EngineCounter.REPORTS_DELIVERED), ctx + ": the ACK of run 0's Middle");
            feed(TestFrames.ack(LOCAL_QPN, startPsn + 3));
            assertEquals(BATCH, k.get(EngineCounter.REPORTS_DELIVERED), ctx + ": the ACK of run 0's Last");
            advance(1);  // the timer finds room: what waited goes, the last of it held until the QP is idle
            advance(TranslatorEngine.HOLD_NANOS);
            final List<byte[]> rest = drain();
            assertEquals(8, frames.size() + rest.size(), ctx + ": every WRITE went, none dropped");
            assertEquals(1, k.get(EngineCounter.SKETCH_EPOCHS_COMPLETED), ctx);
            assertEquals(2, k.get(EngineCounter.SKETCH_COLUMN_WRITES), ctx);
            feed(TestFrames.ack(LOCAL_QPN, startPsn + 7));
            assertEquals(COLUMNS, k.get(EngineCounter.REPORTS_DELIVERED), ctx);
            assertEquals(0, k.get(EngineCounter.DROP_BACKLOG_FULL), ctx);
            assertEquals(k.get(EngineCounter.REPORTS_TRANSLATED), k.get(EngineCounter.REPORTS_DELIVERED), ctx);
            advance(1_000_000);
            assertTrue(engine.isQuiescent(), ctx);
        }
    }

    /**
     * Closed loop through lossy links both ways (ClosedLoopDemo: engine, collector-lib's SoftResponder writing into
     * a memory-mapped CollectorStore): 3 switches, 6 epochs, every run three packets. Every epoch must land complete
     * and equal to the element-wise merge, the responder must never see an invalid request, and the seeded losses
     * must have made the collector NAK a PSN inside a run whose retransmission was a Middle or Last (a resync
     * mid-message, resumed rather than restarted).
     */
    @Test
    void shouldLandTheMergedSketchThroughLossWithResyncsInsideRuns() throws Exception
    {
        long midMessageResumes = 0;
        for (final long seed : new long[] {1, 2, 3, Long.getLong("dta.test.seed", 0x5EC7A11EL)})
        {
            midMessageResumes += closedLoop(seed, 0.08);
        }
        assertTrue(midMessageResumes > 0, "some NAK must have named a PSN inside a run");
    }

    private long closedLoop(final long seed, final double loss) throws Exception
    {
        final int switches = 3;
        final int epochCount = 6;
        final int ringEpochs = 8;
        final ApplianceConfig config = ConfigLoader.load(yaml(4, 64, 0xFFFFF0, switches, ringEpochs));
        final SplittableRandom random = new SplittableRandom(seed);
        final long[][] sums = new long[epochCount][ROWS * COLUMNS];
        final List<byte[]> reports = new ArrayList<>();
        for (int e = 0; e < epochCount; e++)
        {
            for (int c = 0; c < COLUMNS; c++)
            {
                for (int sw = 0; sw < switches; sw++)
                {
                    final int[] column = new int[ROWS];
                    for (int r = 0; r < ROWS; r++)
                    {
                        column[r] = random.nextInt(1_000_000);
                        sums[e][c * ROWS + r] += column[r];
                    }
                    reports.add(report(sw, 100 + e, c, column));
                }
            }
        }
        final String ctx = "seed " + seed;
        final Path storeDir = Files.createDirectories(dir.resolve("store-" + seed));
        try (CollectorStore store = CollectorStore.create(storeDir, config, config.collectors().get(0)))
        {
            final Set<Integer> nakedPsns = new HashSet<>();
            final long[] resumes = new long[1];
            final ClosedLoopDemo demo = new ClosedLoopDemo(config, List.of(store), loss, seed);
            demo.frameTap((toCollector, buffer, offset, length, nowNanos) ->
            {
                if (length < 58 || (buffer.getShort(offset + 36, ByteOrder.BIG_ENDIAN) & 0xFFFF) != 4791)
                {
                    return;
                }
                final int opcode = buffer.getByte(offset + 42) & 0xFF;
                final int psn = buffer.getInt(offset + 50, ByteOrder.BIG_ENDIAN) & 0xFFFFFF;
                if (!toCollector && 0x11 == opcode && 0x60 == (buffer.getByte(offset + 54) & 0xFF))
                {
                    nakedPsns.add(psn);
                }
                else if (toCollector && nakedPsns.remove(psn) && (0x07 == opcode || 0x08 == opcode))
                {
                    resumes[0]++;
                }
            });
            demo.run(new ListReportSource(reports));
            assertTrue(demo.quiescent(), ctx);
            final EngineCounters k = demo.engine().counters();
            assertEquals(0, demo.responder().counter(ResponderCounter.INVALID_REQUESTS), ctx);
            assertEquals(0, demo.responder().counter(ResponderCounter.REMOTE_ACCESS_ERRORS), ctx);
            assertEquals(0, k.get(EngineCounter.NAK_FATAL_IN), ctx);
            assertTrue(k.get(EngineCounter.ESSENTIAL_RESENT) > 0, ctx + ": the loss must cost re-sends");
            assertEquals(0, k.totalDrops(), ctx);
            assertEquals(epochCount, k.get(EngineCounter.SKETCH_EPOCHS_COMPLETED), ctx);
            assertEquals(2L * epochCount, k.get(EngineCounter.SKETCH_COLUMN_WRITES), ctx);
            assertEquals(k.get(EngineCounter.REPORTS_TRANSLATED), k.get(EngineCounter.REPORTS_DELIVERED), ctx);
            final DirectBuffer region = store.region(RegionType.SKETCH, SKETCH_ID).buffer();
            for (int e = 0; e < epochCount; e++)
            {
                final int area = (100 + e) % ringEpochs * AREA_BYTES;
                assertEquals(100 + e, region.getInt(area, ByteOrder.LITTLE_ENDIAN), ctx + " epoch " + e);
                assertEquals(2, region.getByte(area + 4), ctx + " epoch " + e + " complete");
                assertEquals(switches, region.getShort(area + 14, ByteOrder.LITTLE_ENDIAN), ctx + " contributors");
                assertEquals(COLUMNS, region.getInt(area + 16, ByteOrder.LITTLE_ENDIAN), ctx + " completeColumns");
                for (int i = 0; i < ROWS * COLUMNS; i++)
                {
                    assertEquals(sums[e][i], region.getInt(area + 64 + i * 4, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL,
                        ctx + " epoch " + e + " cell " + i);
                }
            }
            // Each WRITE executed exactly once (resumed, never restarted): per epoch 2 headers and 2 runs of 3 packets.
            assertEquals(4L * epochCount, demo.responder().counter(ResponderCounter.MESSAGES), ctx);
            assertEquals(8L * epochCount, demo.responder().counter(ResponderCounter.WRITE_PACKETS), ctx);
            return resumes[0];
        }
    }

    /**
     * The ring is one preallocated buffer of entries sized for the largest WRITE: a size past what one buffer can
     * address is refused with the keys to change, instead of wrapping into a wrong-sized buffer (configuration
     * refuses such a sketch first).
     */
    @Test
    void shouldRefuseAnEssentialRingLargerThanOneBufferCanHold()
    {
        final IllegalArgumentException ex = org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> new EssentialRing(1023, 2 * 1024 * 1024));
        assertTrue(ex.getMessage().startsWith("1024 essential ring entries x 2097152 bytes"), ex.getMessage());
        assertEquals(0, new EssentialRing(3, 1024 * 1024).size(), "4 entries of 1 MiB fit");
    }

    /**
     * Wireshark's InfiniBand dissector as an independent reader of the same frames: opcodes, PSNs, AckReq, a RETH
     * with the whole DMA length on the First only, PadCnt 0, nothing malformed and no expert info. Skipped without
     * tshark.
     */
    private void tsharkDissects(final List<byte[]> frames) throws Exception
    {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/tshark")) ||
            Files.isExecutable(Path.of("/usr/local/bin/tshark")), "tshark not installed");
        final Path file = dir.resolve("multi-packet-sketch.pcap");
        try (PcapWriter writer = new PcapWriter(file))
        {
            for (final byte[] f : frames)
            {
                writer.write(0, new UnsafeBuffer(f), 0, f.length);
            }
        }
        final Path stderr = dir.resolve("tshark-stderr.txt");
        final Process process = new ProcessBuilder("tshark", "-n", "-r", file.toString(), "-T", "fields",
            "-o", "infiniband.identify_payload:FALSE", "-e", "infiniband.bth.opcode", "-e", "infiniband.bth.psn",
            "-e", "infiniband.bth.a", "-e", "infiniband.bth.padcnt", "-e", "infiniband.reth.dmalen",
            "-e", "_ws.malformed", "-e", "_ws.expert.severity").redirectError(stderr.toFile()).start();
        final List<String> lines = new ArrayList<>();
        try (var reader = process.inputReader(StandardCharsets.UTF_8))
        {
            String line;
            while (null != (line = reader.readLine()))
            {
                lines.add(line);
            }
        }
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "tshark timed out");
        assertEquals(0, process.exitValue(), Files.readString(stderr));
        assertEquals(List.of(
            "10\t16777214\t0\t0\t64\t\t",
            "6\t16777215\t0\t0\t640\t\t",
            "7\t0\t0\t0\t\t\t",
            "8\t1\t1\t0\t\t\t",
            "6\t2\t0\t0\t640\t\t",
            "7\t3\t0\t0\t\t\t",
            "8\t4\t0\t0\t\t\t",
            "10\t5\t1\t0\t64\t\t"), lines);
    }
}
