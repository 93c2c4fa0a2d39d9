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
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sketch-Merge with a run of columns longer than the collector's path MTU (docs/sketch.md, translation.md §4): 5 rows
 * x 32 columns x 4 = 640 bytes per run on a 256-byte path MTU, so every run is one WRITE First (RETH, 256 bytes),
 * Middle (256) and Last (128) on consecutive PSNs. Frames are checked byte for byte against frames built here from
 * the spec with plain arithmetic (ICRC with java.util.zip.CRC32), and against the codec's decoder and
 * {@link Icrc#verify}; then a NAK into a run's Middle, the essential ring's accounting in WRITEs, and a lossy closed
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
    private static final long COLLECTOR_MAC = 0x02000a000033L;
    private static final long APPLIANCE_MAC = 0x02000a000065L;
    private static final int APPLIANCE_IP = Ipv4Address.parse("10.0.0.101");
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

    /**
     * A request frame as translation.md §4 and rocev2-reference.md lay it out, from plain arithmetic: Ethernet,
     * IPv4 (TOS = DSCP 26 << 2, identification = low 16 bits of the PSN, DF, TTL 64), UDP (source 0xC000 | local QPN
     * & 0x3FFF, destination 4791, checksum 0), BTH (M = 1, PadCnt, P_Key, DestQP, AckReq, PSN), a RETH for WRITE
     * First and Only, the payload, pad, and the ICRC: CRC32 over 8 bytes of 0xFF and the IP datagram with the
     * variant fields masked to 1s, sent little-endian.
     */
    private static byte[] expectedWrite(
        final int opcode, final int psn, final boolean ackReq, final long va, final int dmaLength, final byte[] data)
    {
        final boolean reth = 0x06 == opcode || 0x0A == opcode;
        final int pad = -data.length & 3;
        final int length = 14 + 20 + 8 + 12 + (reth ? 16 : 0) + data.length + pad + 4;
        final ByteBuffer e = ByteBuffer.allocate(length).order(ByteOrder.BIG_ENDIAN);
        e.putShort((short)(COLLECTOR_MAC >>> 32)).putInt((int)COLLECTOR_MAC);
        e.putShort((short)(APPLIANCE_MAC >>> 32)).putInt((int)APPLIANCE_MAC).putShort((short)0x0800);
        e.put((byte)0x45).put((byte)(26 << 2)).putShort((short)(length - 14)).putShort((short)(psn & 0xFFFF))
            .putShort((short)0x4000).put((byte)64).put((byte)17).putShort((short)0).putInt(APPLIANCE_IP)
            .putInt(COLLECTOR_IP);
        e.putShort(24, (short)TestFrames.ipChecksum(e.array(), 14));
        e.putShort((short)(0xC000 | (LOCAL_QPN & 0x3FFF))).putShort((short)4791).putShort((short)(length - 34))
            .putShort((short)0);
        e.put((byte)opcode).put((byte)(0x40 | pad << 4)).putShort((short)0xFFFF).putInt(REMOTE_QPN)
            .putInt((ackReq ? 0x8000_0000 : 0) | psn);
        if (reth)
        {
            e.putLong(va).putInt(RKEY).putInt(dmaLength);
        }
        e.put(data).put(new byte[pad]);
        final byte[] covered = new byte[8 + length - 14 - 4];
        Arrays.fill(covered, 0, 8, (byte)0xFF);
        System.arraycopy(e.array(), 14, covered, 8, covered.length - 8);
        for (final int masked : new int[] {1, 8, 10, 11, 26, 27, 32})
        {
            covered[8 + masked] = (byte)0xFF;
        }
        final CRC32 crc = new CRC32();
        crc.update(covered);
        e.putInt(Integer.reverseBytes((int)crc.getValue()));
        return e.array();
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
