package io.dta.appliance.dpdk;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.replay.Replay;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Captures whose paths hold the characters that separate DPDK device arguments ({@code ,} and {@code =}, also
 * {@code ;}, {@code [}, {@code ]}): the paths went into {@code --vdev net_pcap0,rx_pcap=PATH,tx_pcap=PATH} as they
 * were, so {@code net_pcap} failed to probe ("no DPDK port named net_pcap0", exit 1) where {@code --io java} reads and
 * writes any path. They are now handed to {@code net_pcap} through symbolic links of plain names. In a JVM of its
 * own (one EAL per process).
 */
class DpdkPathCharactersReplayEalTest
{
    private static final long SEED = 0x2C3D_5B5DL;
    private static final int REPORTS = 2000;

    @TempDir
    Path dir;

    @Test
    void shouldReplayCapturesWhosePathsHoldDeviceArgumentSeparators() throws Exception
    {
        final ApplianceConfig config = ConfigLoader.load(ConfigDefaults.yaml());
        final Path odd = Files.createDirectories(dir.resolve("in,put=dir;[x]"));
        final Path reports = GeneratedReports.write(odd.resolve("re,ports=1.pcap"), config,
            new GeneratorSettings().seed(SEED).spacingNanos(2_000), REPORTS);
        final Path responses = odd.resolve("resp,onses.pcap");
        new PcapWriter(responses, true).close();

        final TranslatorEngine java = Replay.run(config, reports, responses, dir.resolve("java.pcap"));
        final Path output = odd.resolve("out,put=.pcap");
        final TranslatorEngine dpdk = DpdkReplay.run(config, reports, responses, output, List.of());

        ReplayOutputs.assertSameReplay(java, dir.resolve("java.pcap"), dpdk, output, "seed " + SEED);
        assertEquals(REPORTS, dpdk.counters().get(EngineCounter.FRAMES_IN), "seed " + SEED);
        try (var files = Files.list(odd))
        {
            assertEquals(3, files.count(), "only the two inputs and the output are left in " + odd);
        }
    }
}
