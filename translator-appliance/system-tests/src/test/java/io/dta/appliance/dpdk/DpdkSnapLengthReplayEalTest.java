package io.dta.appliance.dpdk;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.replay.Replay;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A classic capture whose header gives a snap length shorter than its records (a writer that set it wrongly, or a
 * capture edited by hand): {@code PcapReader}, like Wireshark, reads every record whole; libpcap, and so
 * {@code net_pcap}, cuts each to the snap length. The DPDK replay stopped at the first such record ("does not match
 * its capture record (length 48 vs 54)", exit 1); it now feeds {@code net_pcap} a copy with the records whole, as
 * it does for non-Ethernet captures, and the output is the Java replay's. In a JVM of its own (one EAL per process).
 */
class DpdkSnapLengthReplayEalTest
{
    private static final long SEED = 0x5A9_0048L;
    private static final int REPORTS = 2000;
    private static final int SNAP_LENGTH = 48;

    @TempDir
    Path dir;

    @Test
    void shouldReplayRecordsLongerThanTheSnapLengthLikeTheJavaReplay() throws Exception
    {
        final ApplianceConfig config = ConfigLoader.load(ConfigDefaults.yaml());
        final Path generated = GeneratedReports.write(dir.resolve("generated.pcap"), config,
            new GeneratorSettings().seed(SEED).spacingNanos(3_000), REPORTS);
        final Path reports = dir.resolve("reports.pcap");
        try (PcapReader in = PcapReader.open(generated); OutputStream out = Files.newOutputStream(reports))
        {
            final ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(0xa1b2c3d4).putShort((short)2).putShort((short)4).putInt(0).putInt(0).putInt(SNAP_LENGTH)
                .putInt(1);
            out.write(header.array());
            while (in.next())
            {
                final byte[] frame = new byte[in.capturedLength()];
                in.buffer().getBytes(in.offset(), frame);
                final ByteBuffer record = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN)
                    .putInt((int)(in.timestampNanos() / 1_000_000_000L))
                    .putInt((int)(in.timestampNanos() % 1_000_000_000L / 1000))
                    .putInt(frame.length).putInt(frame.length);
                out.write(record.array());
                out.write(frame);
            }
        }

        final TranslatorEngine java = Replay.run(config, reports, null, dir.resolve("java.pcap"));
        final TranslatorEngine dpdk = DpdkReplay.run(config, reports, null, dir.resolve("dpdk.pcap"), List.of());

        ReplayOutputs.assertSameReplay(java, dir.resolve("java.pcap"), dpdk, dir.resolve("dpdk.pcap"),
            "seed " + SEED);
        assertEquals(REPORTS, dpdk.counters().get(EngineCounter.FRAMES_IN), "seed " + SEED);
        assertEquals(0, dpdk.counters().get(EngineCounter.DROP_TRUNCATED), "the records are whole, seed " + SEED);
        try (var files = Files.list(dir))
        {
            assertEquals(List.of(), files.filter(f -> f.getFileName().toString().startsWith(".dta-")).toList(),
                "the copy is removed");
        }
    }
}
