package io.dta.appliance.dpdk;

import io.dta.appliance.cli.CollectorCommand;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.replay.CutCaptures;
import io.dta.appliance.replay.CutShortCapture;
import io.dta.appliance.replay.Replay;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta replay --io dpdk} of captures cut short inside a record (copied while tcpdump was still writing them):
 * {@code net_pcap} stops at the incomplete record, and the replay must end there as {@code --io java} does, with
 * the same frames, counters, output bytes and reported cuts. The reports are an Ethernet pcapng, fed to
 * {@code net_pcap} as it is, cut inside an Enhanced Packet Block; the collector's responses a classic capture cut
 * inside a record header. In a JVM of its own (one EAL per process).
 */
class DpdkCutShortReplayEalTest
{
    private static final long SEED = 0xC075_2025L;
    private static final int REPORTS = 4000;

    @TempDir
    Path dir;

    @Test
    void shouldEndAtTheCutAsTheJavaReplayDoes() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final Path classic = dir.resolve("reports.pcap");
        final GeneratorSettings settings = new GeneratorSettings().seed(SEED)
            .mix("keywrite=40,keyincrement=20,append=20,postcard=20").redundancy("1-4").reporters(5)
            .essentialFraction(0.2).retransmittable(true).badFraction(0.02).spacingNanos(333);
        GeneratedReports.write(classic, config, settings, REPORTS);
        final Path pcapng = CutCaptures.toPcapng(classic, dir.resolve("reports.pcapng"), 9);

        final Path roce = dir.resolve("roce.pcap");
        Replay.run(config, pcapng, null, roce);
        final Path responses = dir.resolve("responses.pcap");
        final StringWriter err = new StringWriter();
        assertEquals(0, new CommandLine(new CollectorCommand()).setErr(new PrintWriter(err, true)).execute(
            "--in", roce.toString(), "--out", responses.toString(), "--store", dir.resolve("store").toString()),
            err.toString());

        final int keptReports = REPORTS * 3 / 4;
        final long reportsAt = CutCaptures.recordOffsets(pcapng).get(keptReports);
        final Path reportsCut = CutCaptures.prefix(pcapng, reportsAt + 37, dir.resolve("reports-cut.pcapng"));
        final List<Long> responseOffsets = CutCaptures.recordOffsets(responses);
        final int keptResponses = responseOffsets.size() / 2;
        final long responsesAt = responseOffsets.get(keptResponses);
        final Path responsesCut = CutCaptures.prefix(responses, responsesAt + 11, dir.resolve("responses-cut.pcap"));
        final Path out = Files.createDirectory(dir.resolve("out"));

        final List<CutShortCapture> javaCuts = new ArrayList<>();
        final TranslatorEngine java =
            Replay.run(config, reportsCut, responsesCut, dir.resolve("java.pcap"), javaCuts);
        final List<CutShortCapture> dpdkCuts = new ArrayList<>();
        final TranslatorEngine dpdk =
            DpdkReplay.run(config, reportsCut, responsesCut, out.resolve("dpdk.pcap"), List.of(), dpdkCuts);

        final List<byte[]> frames =
            ReplayOutputs.assertSameReplay(java, dir.resolve("java.pcap"), dpdk, out.resolve("dpdk.pcap"),
                "seed " + SEED);
        assertTrue(frames.size() > keptReports / 2, "frames out: " + frames.size());
        assertEquals(List.of(
            new CutShortCapture(CutShortCapture.IN, reportsCut, reportsAt, keptReports),
            new CutShortCapture(CutShortCapture.RESPONSES, responsesCut, responsesAt, keptResponses)), dpdkCuts);
        assertEquals(javaCuts, dpdkCuts);
        assertEquals(keptReports + keptResponses, dpdk.counters().get(EngineCounter.FRAMES_IN));
        try (var left = Files.list(out))
        {
            assertEquals(List.of(out.resolve("dpdk.pcap")), left.toList(), "nothing left behind");
        }
    }
}
