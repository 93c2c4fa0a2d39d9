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
 * A pcapng capture whose first interface, which carries no packet, has a snap length shorter than the packets of the
 * second: {@code PcapReader}, like Wireshark, reads each packet by its own interface; libpcap cut every packet to the
 * first interface's snap length and {@code net_pcap} delivered none of them (exit 1). Every pcapng capture now reaches
 * {@code net_pcap} as a classic copy, and the output is the Java replay's. In a JVM of its own (one EAL per process).
 */
class DpdkPcapngSnapLengthReplayEalTest
{
    private static final long SEED = 0x5A9_0060L;
    private static final int REPORTS = 500;

    @TempDir
    Path dir;

    @Test
    void shouldReplayAPcapngWhoseUnusedFirstInterfaceHasTheSmallerSnapLength() throws Exception
    {
        final ApplianceConfig config = ConfigLoader.load(ConfigDefaults.yaml());
        final Path generated = GeneratedReports.write(dir.resolve("generated.pcap"), config,
            new GeneratorSettings().seed(SEED).spacingNanos(3_000), REPORTS);
        final Path reports = dir.resolve("reports.pcapng");
        try (PcapReader in = PcapReader.open(generated); OutputStream out = Files.newOutputStream(reports))
        {
            out.write(block(0x0A0D0D0A, ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(0x1A2B3C4D).putShort((short)1).putShort((short)0).putLong(-1L).array()));
            out.write(interfaceDescription(60));
            out.write(interfaceDescription(65535));
            while (in.next())
            {
                final int length = in.capturedLength();
                final ByteBuffer body = ByteBuffer.allocate(20 + ((length + 3) & ~3)).order(ByteOrder.LITTLE_ENDIAN);
                // Interface 1, microsecond timestamps (the default if_tsresol).
                final long micros = in.timestampNanos() / 1000;
                body.putInt(1).putInt((int)(micros >>> 32)).putInt((int)micros).putInt(length).putInt(length);
                final byte[] frame = new byte[length];
                in.buffer().getBytes(in.offset(), frame);
                body.put(frame);
                out.write(block(6, body.array()));
            }
        }

        final TranslatorEngine java = Replay.run(config, reports, null, dir.resolve("java.pcap"));
        final TranslatorEngine dpdk = DpdkReplay.run(config, reports, null, dir.resolve("dpdk.pcap"), List.of());

        ReplayOutputs.assertSameReplay(java, dir.resolve("java.pcap"), dpdk, dir.resolve("dpdk.pcap"),
            "seed " + SEED);
        assertEquals(REPORTS, dpdk.counters().get(EngineCounter.FRAMES_IN), "seed " + SEED);
    }

    private static byte[] interfaceDescription(final int snapLength)
    {
        return block(1, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
            .putShort((short)1).putShort((short)0).putInt(snapLength).array());
    }

    private static byte[] block(final int type, final byte[] body)
    {
        final int length = 12 + body.length;
        return ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(type).putInt(length).put(body).putInt(length).array();
    }
}
