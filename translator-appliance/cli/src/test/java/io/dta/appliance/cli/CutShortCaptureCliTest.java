package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dta.appliance.replay.CutCaptures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Captures cut short inside a record (copied while tcpdump was still writing them), through every command that reads
 * captures offline: each uses every whole record, completes normally (exit 0, summary, output flushed and closed),
 * and warns once on stderr naming the file and the byte offset of the incomplete record, as tshark does. The output
 * is the output of the same capture without the incomplete record, byte for byte. Damage in the middle of a capture
 * is still refused.
 */
class CutShortCaptureCliTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int REPORTS = 3000;

    @TempDir
    Path dir;

    private Path reports;

    @BeforeEach
    void generateReports()
    {
        reports = dir.resolve("reports.pcap");
        final CliRunner.Result gen = CliRunner.run("gen", "--out", reports.toString(), "--reports",
            Integer.toString(REPORTS), "--spacing-nanos", "777", "--essential", "0.2", "--seed", "11");
        assertEquals(0, gen.exitCode(), gen.err());
    }

    /**
     * @param format    classic-ns, classic-us, pcapng-9 or pcapng-6 (if_tsresol).
     * @param intoRecord bytes of the incomplete record left: inside the classic 16-byte record header or the pcapng
     *                  8-byte block header when small, inside the record's data or the Enhanced Packet Block when
     *                  larger.
     */
    @ParameterizedTest
    @CsvSource({
        "classic-ns, 9", "classic-ns, 40", "classic-us, 15", "classic-us, 17",
        "pcapng-9, 5", "pcapng-9, 44", "pcapng-6, 1", "pcapng-6, 31" })
    void shouldReplayEveryWholeRecordOfACaptureCutShort(final String format, final int intoRecord) throws Exception
    {
        final Path capture = switch (format)
        {
            case "classic-ns" -> reports;
            case "classic-us" -> CutCaptures.toMicroseconds(reports, dir.resolve("reports-us.pcap"));
            case "pcapng-9" -> CutCaptures.toPcapng(reports, dir.resolve("reports-ns.pcapng"), 9);
            default -> CutCaptures.toPcapng(CutCaptures.toMicroseconds(reports, dir.resolve("reports-us.pcap")),
                dir.resolve("reports-us.pcapng"), 6);
        };
        final List<Long> offsets = CutCaptures.recordOffsets(capture);
        assertEquals(REPORTS, offsets.size());
        final int kept = REPORTS * 2 / 3;
        final long at = offsets.get(kept);
        final Path cut = CutCaptures.prefix(capture, at + intoRecord, dir.resolve("cut-" + format));
        final Path whole = CutCaptures.prefix(capture, at, dir.resolve("whole-" + format));

        final CliRunner.Result full = replay("--in", capture.toString(), "--out", dir.resolve("full.pcap").toString(),
            "--json");
        final CliRunner.Result fromCut = replay("--in", cut.toString(), "--out", dir.resolve("cut.pcap").toString(),
            "--json");
        final CliRunner.Result fromWhole = replay("--in", whole.toString(), "--out",
            dir.resolve("whole.pcap").toString(), "--json");

        assertEquals(0, fromCut.exitCode(), fromCut.err());
        assertEquals(0, fromWhole.exitCode(), fromWhole.err());
        assertEquals(List.of("dta replay: warning: --in " + cut + " appears to have been cut short in the middle of " +
            "a packet at byte offset " + at + " (the " + kept + " whole packets before it were translated)"),
            fromCut.err().lines().toList());
        assertEquals("", fromWhole.err());
        assertEquals(-1L, Files.mismatch(dir.resolve("cut.pcap"), dir.resolve("whole.pcap")),
            "the replay of the cut capture is the replay of its whole records, byte for byte");
        assertTrue(Files.size(dir.resolve("full.pcap")) > Files.size(dir.resolve("cut.pcap")),
            "the cut is in the middle of the reports");

        final JsonNode cutSummary = JSON.readTree(fromCut.out());
        final JsonNode wholeSummary = JSON.readTree(fromWhole.out());
        final JsonNode cuts = cutSummary.get("inputsCutShort");
        assertEquals(1, cuts.size(), fromCut.out());
        assertEquals("in", cuts.get(0).get("input").asText());
        assertEquals(cut.toString(), cuts.get(0).get("file").asText());
        assertEquals(at, cuts.get(0).get("offset").asLong());
        assertEquals(kept, cuts.get(0).get("wholePackets").asLong());
        assertTrue(wholeSummary.get("inputsCutShort").isArray() && wholeSummary.get("inputsCutShort").isEmpty(),
            fromWhole.out());
        assertEquals(kept, cutSummary.get("framesIn").asLong());
        ((ObjectNode)cutSummary).remove("inputsCutShort");
        ((ObjectNode)wholeSummary).remove("inputsCutShort");
        assertEquals(wholeSummary, cutSummary, "the same summary otherwise");
    }

    @Test
    void shouldPrintTheSummaryAndOneWarningWithoutJson() throws Exception
    {
        final long at = CutCaptures.recordOffsets(reports).get(REPORTS - 1);
        final Path cut = CutCaptures.prefix(reports, at + 20, dir.resolve("cut.pcap"));

        final CliRunner.Result r = replay("--in", cut.toString(), "--out", dir.resolve("out.pcap").toString());

        assertEquals(0, r.exitCode(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains(cut + " appears to have been cut short in the middle of a packet at byte offset " +
            at), r.err());
        assertTrue(r.out().startsWith("reports in "), r.out());
        assertTrue(r.out().contains("counters:"), r.out());
    }

    /**
     * Both captures of a closed-loop replay cut short: the reports inside a record's data, the collector's responses
     * (classic, from dta collector) inside a record header; one warning each, reports first, and both in the JSON.
     * The collector's offline run over a capture cut short is checked on the way.
     */
    @Test
    void shouldReplayReportsAndResponsesBothCutShort() throws Exception
    {
        final Path roce = dir.resolve("roce.pcap");
        assertEquals(0, replay("--in", reports.toString(), "--out", roce.toString()).exitCode());
        final Path responses = dir.resolve("responses.pcap");
        final CliRunner.Result collector = CliRunner.run("collector", "--in", roce.toString(), "--out",
            responses.toString(), "--store", dir.resolve("store").toString());
        assertEquals(0, collector.exitCode(), collector.err());
        assertEquals("", collector.err());

        final List<Long> reportOffsets = CutCaptures.recordOffsets(reports);
        final List<Long> responseOffsets = CutCaptures.recordOffsets(responses);
        assertTrue(responseOffsets.size() > 100, "responses: " + responseOffsets.size());
        final long reportsAt = reportOffsets.get(REPORTS / 2);
        final long responsesAt = responseOffsets.get(responseOffsets.size() / 3);
        final Path reportsCut = CutCaptures.prefix(reports, reportsAt + 30, dir.resolve("reports-cut.pcap"));
        final Path reportsWhole = CutCaptures.prefix(reports, reportsAt, dir.resolve("reports-whole.pcap"));
        final Path responsesCut = CutCaptures.prefix(responses, responsesAt + 6, dir.resolve("responses-cut.pcap"));
        final Path responsesWhole = CutCaptures.prefix(responses, responsesAt, dir.resolve("responses-whole.pcap"));

        final CliRunner.Result fromCut = replay("--in", reportsCut.toString(), "--responses", responsesCut.toString(),
            "--out", dir.resolve("cut.pcap").toString(), "--json");
        final CliRunner.Result fromWhole = replay("--in", reportsWhole.toString(), "--responses",
            responsesWhole.toString(), "--out", dir.resolve("whole.pcap").toString(), "--json");

        assertEquals(0, fromCut.exitCode(), fromCut.err());
        assertEquals(0, fromWhole.exitCode(), fromWhole.err());
        final List<String> warnings = fromCut.err().lines().toList();
        assertEquals(2, warnings.size(), fromCut.err());
        assertTrue(warnings.get(0).startsWith("dta replay: warning: --in " + reportsCut + " appears to have been " +
            "cut short in the middle of a packet at byte offset " + reportsAt + " "), warnings.get(0));
        assertTrue(warnings.get(1).startsWith("dta replay: warning: --responses " + responsesCut + " appears to " +
            "have been cut short in the middle of a packet at byte offset " + responsesAt + " "), warnings.get(1));
        assertEquals(-1L, Files.mismatch(dir.resolve("cut.pcap"), dir.resolve("whole.pcap")));
        final JsonNode cuts = JSON.readTree(fromCut.out()).get("inputsCutShort");
        assertEquals(2, cuts.size(), fromCut.out());
        assertEquals("in", cuts.get(0).get("input").asText());
        assertEquals(reportsAt, cuts.get(0).get("offset").asLong());
        assertEquals("responses", cuts.get(1).get("input").asText());
        assertEquals(responsesCut.toString(), cuts.get(1).get("file").asText());
        assertEquals(responsesAt, cuts.get(1).get("offset").asLong());
        assertEquals(responseOffsets.size() / 3, cuts.get(1).get("wholePackets").asLong());

        // dta collector --in: the RoCEv2 capture cut inside a record, answered up to it.
        final long roceAt = CutCaptures.recordOffsets(roce).get(200);
        final Path roceCut = CutCaptures.prefix(roce, roceAt + 50, dir.resolve("roce-cut.pcap"));
        final Path roceWhole = CutCaptures.prefix(roce, roceAt, dir.resolve("roce-whole.pcap"));
        final CliRunner.Result collectCut = CliRunner.run("collector", "--in", roceCut.toString(), "--out",
            dir.resolve("answers-cut.pcap").toString(), "--store", dir.resolve("store-cut").toString(), "--json");
        final CliRunner.Result collectWhole = CliRunner.run("collector", "--in", roceWhole.toString(), "--out",
            dir.resolve("answers-whole.pcap").toString(), "--store", dir.resolve("store-whole").toString(), "--json");
        assertEquals(0, collectCut.exitCode(), collectCut.err());
        assertEquals(0, collectWhole.exitCode(), collectWhole.err());
        assertEquals(List.of("dta collector: warning: " + roceCut + " appears to have been cut short in the middle " +
            "of a packet at byte offset " + roceAt + " (the 200 whole packets before it were read)"),
            collectCut.err().lines().toList());
        assertEquals(-1L, Files.mismatch(dir.resolve("answers-cut.pcap"), dir.resolve("answers-whole.pcap")));
        assertTrue(Files.size(dir.resolve("answers-cut.pcap")) > 24, "the collector answered the whole records");
        assertEquals(JSON.readTree(collectWhole.out()), JSON.readTree(collectCut.out()));
    }

    @Test
    void shouldRunTheDemoOverEveryWholeReportOfACaptureCutShort() throws Exception
    {
        final long at = CutCaptures.recordOffsets(reports).get(REPORTS / 2);
        final Path cut = CutCaptures.prefix(reports, at + 3, dir.resolve("cut.pcap"));
        final Path whole = CutCaptures.prefix(reports, at, dir.resolve("whole.pcap"));

        final CliRunner.Result fromCut = CliRunner.run("demo", "--in", cut.toString(), "--loss", "0", "--json");
        final CliRunner.Result fromWhole = CliRunner.run("demo", "--in", whole.toString(), "--loss", "0", "--json");

        assertEquals(0, fromCut.exitCode(), fromCut.err());
        assertEquals(0, fromWhole.exitCode(), fromWhole.err());
        assertEquals(List.of("dta demo: warning: " + cut + " appears to have been cut short in the middle of a " +
            "packet at byte offset " + at + " (the " + REPORTS / 2 + " whole packets before it were read)"),
            fromCut.err().lines().toList());
        final JsonNode cutTranslator = JSON.readTree(fromCut.out()).get("translator");
        assertEquals(JSON.readTree(fromWhole.out()).get("translator"), cutTranslator);
        assertEquals(REPORTS / 2, cutTranslator.get("reportsIn").asLong());
    }

    @Test
    void shouldStillRefuseARecordDamagedInTheMiddle() throws Exception
    {
        final long at = CutCaptures.recordOffsets(reports).get(REPORTS / 2);
        final Path damaged = CutCaptures.prefix(reports, Files.size(reports), dir.resolve("damaged.pcap"));
        // Its captured length, past the sanity cap (gen writes little-endian captures).
        CutCaptures.putIntLittleEndian(damaged, at + 8, 300_000);

        final CliRunner.Result r = replay("--in", damaged.toString(), "--out", dir.resolve("out.pcap").toString(),
            "--json");

        assertEquals(1, r.exitCode(), r.out());
        assertTrue(r.err().contains("captured length 300000 exceeds snap length") &&
            r.err().contains("at byte offset " + at), r.err());
        assertFalse(r.err().contains("cut short"), r.err());
        assertEquals("", r.out());

        final Path pcapng = CutCaptures.toPcapng(reports, dir.resolve("reports.pcapng"), 9);
        final long blockAt = CutCaptures.recordOffsets(pcapng).get(REPORTS / 2);
        // The block's total length at its start made odd: no cut explains it.
        CutCaptures.putIntLittleEndian(pcapng, blockAt + 4, 1001);
        final CliRunner.Result ng = replay("--in", pcapng.toString(), "--out", dir.resolve("out-ng.pcap").toString());
        assertEquals(1, ng.exitCode(), ng.out());
        assertTrue(ng.err().contains("not a multiple of 4 at byte offset " + blockAt), ng.err());
    }

    private static CliRunner.Result replay(final String... args)
    {
        final String[] all = new String[args.length + 1];
        all[0] = "replay";
        System.arraycopy(args, 0, all, 1, args.length);
        return CliRunner.run(all);
    }
}
