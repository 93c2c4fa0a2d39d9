package io.dta.perf;

import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.EngineBench;
import io.dta.appliance.bench.CReference;
import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.SendOutcome;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.dpdk.DpdkLibrary;
import io.dta.dpdk.Eal;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.Mempool;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The C reference loop's mbuf path, as the benchmark runs it (rx burst, frames built in mbufs, tx bursts), on a real
 * EAL: thousands of mixed reports in through {@code net_pcap} (rx_pcap), frames out through {@code net_pcap}
 * (tx_pcap), byte for byte the Java engine's. The clock is fixed so that no timer depends on scheduling. In a JVM
 * of its own (one EAL per process).
 */
class CReferenceEalTest
{
    private static final long SEED = 0xC0FFEEL;

    @TempDir
    Path dir;

    @Test
    void shouldSendTheEnginesFramesThroughDpdk() throws IOException
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary.unavailableReason());
        assumeTrue(CReference.isAvailable(), CReference.unavailableReason());
        final ApplianceConfig base = ConfigDefaults.load();
        final List<byte[]> reports = new ArrayList<>();
        for (final BenchPrimitive primitive : CReference.PRIMITIVES)
        {
            reports.addAll(reports(new EngineBench(primitive, base, 2, 16, SEED), 1500));
        }
        final SplittableRandom random = new SplittableRandom(SEED);
        for (int i = reports.size() - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final byte[] t = reports.get(i);
            reports.set(i, reports.get(j));
            reports.set(j, t);
        }
        final Path in = dir.resolve("in.pcap");
        try (PcapWriter writer = new PcapWriter(in, true))
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
            for (int i = 0; i < reports.size(); i++)
            {
                buffer.putBytes(0, reports.get(i));
                writer.write(i * 1000L, buffer, 0, reports.get(i).length);
            }
        }
        final ApplianceConfig config = new EngineBench(BenchPrimitive.APPEND, base, 2, 16, SEED).config();
        final long now = 5_000_000_000L;

        final List<byte[]> expected = new ArrayList<>();
        final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final UnsafeBuffer out = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
        final TranslatorEngine engine = new TranslatorEngine(config, new FrameSink()
        {
            @Override
            public MutableDirectBuffer buffer()
            {
                return out;
            }

            @Override
            public int claim(final int maxLength)
            {
                return 0;
            }

            @Override
            public SendOutcome commit(
                final int offset, final int length, final long timeNanos, final OutFrameKind kind, final int reports)
            {
                final byte[] bytes = new byte[length];
                out.getBytes(offset, bytes);
                expected.add(bytes);
                return SendOutcome.SENT;
            }
        }, false);
        engine.poll(now);
        for (final byte[] report : reports)
        {
            frame.putBytes(0, report);
            engine.onFrame(frame, 0, report.length, now);
        }
        engine.flush(now);

        final Path output = dir.resolve("out.pcap");
        final List<String> args = Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("dta-cref-test"), 0, 256,
            "net_pcap0,rx_pcap=" + in + ",tx_pcap=" + output);
        final CReference.RunResult result;
        try (Eal eal = Eal.init(args);
            Mempool pool = Mempool.create("cref_pool", 16383, 256, Mempool.DEFAULT_DATA_ROOM))
        {
            final EthPort port = EthPort.open(eal.portId("net_pcap0"), pool, 1024, 1024, false);
            try (CReference reference = new CReference(config, 0))
            {
                reference.fixedClock(now);
                result = reference.run(port.portId(), port.portId(), pool, reports.size());
                reference.flush(now);
                assertEquals(0, reference.counter(CReference.UNSUPPORTED));
            }
            port.close();
        }

        final List<byte[]> actual = reports(output);
        assertEquals(reports.size(), result.reports());
        assertEquals(0, result.txDropped());
        assertTrue(expected.size() > reports.size() / 2, "frames out: " + expected.size());
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++)
        {
            final int index = i;
            assertArrayEquals(expected.get(i), actual.get(i), () -> "frame " + index + " differs, seed " + SEED +
                "\njava " + HexFormat.of().formatHex(expected.get(index)) +
                "\n   c " + HexFormat.of().formatHex(actual.get(index)));
        }
        assertEquals(expected.size(), actual.size(), "frame count, seed " + SEED);
    }

    private List<byte[]> reports(final EngineBench source, final int count) throws IOException
    {
        final Path capture = dir.resolve("reports-" + System.nanoTime() + ".pcap");
        try (PcapWriter writer = new PcapWriter(capture, true))
        {
            source.writeReports(writer, count);
        }
        return reports(capture);
    }

    private static List<byte[]> reports(final Path capture) throws IOException
    {
        final List<byte[]> frames = new ArrayList<>();
        try (PcapReader reader = PcapReader.open(capture))
        {
            while (reader.next())
            {
                final byte[] frame = new byte[reader.capturedLength()];
                reader.buffer().getBytes(reader.offset(), frame);
                frames.add(frame);
            }
        }
        return frames;
    }
}
