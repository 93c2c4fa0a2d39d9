package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TestFrames;
import io.dta.codec.DtaBaseHeaderFlyweight;
import io.dta.codec.DtaOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta replay}'s command-line edges, and {@code dta collector}'s offline ones, which share them: what they refuse
 * before they touch a file.
 */
class ReplayCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRefuseAnOutputThatIsOneOfItsInputs() throws Exception
    {
        final Path in = dir.resolve("reports.pcap");
        PcapFiles.write(in, TestFrames.report(DtaOpcode.KEY_WRITE, TestFrames.keyWrite(1, 7, new byte[4])));
        final byte[] before = Files.readAllBytes(in);
        final Path link = dir.resolve("link.pcap");
        Files.createSymbolicLink(link, in);

        for (final String[] args : new String[][] {
            { "replay", "--in", in.toString(), "--out", in.toString() },
            { "replay", "--in", in.toString(), "--out", link.toString() },
            { "replay", "--in", link.toString(), "--out", dir.resolve("out.pcap").toString(), "--responses",
                dir.resolve("out.pcap").toString() },
            { "replay", "--in", dir.resolve("out.pcap").toString(), "--out", in.toString(), "--responses",
                in.toString() } })
        {
            Files.copy(in, dir.resolve("out.pcap"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            final CliRunner.Result r = CliRunner.run(args);
            assertEquals(2, r.exitCode(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().contains("would overwrite its input"), r.err());
            assertArrayEquals(before, Files.readAllBytes(in), "the input is untouched");
        }
    }

    @Test
    void shouldRefuseAnEalLineWithoutDpdk() throws Exception
    {
        // The Java replay starts no EAL: the line would be ignored without a word.
        final Path in = dir.resolve("reports.pcap");
        PcapFiles.write(in, TestFrames.report(DtaOpcode.KEY_WRITE, TestFrames.keyWrite(1, 7, new byte[4])));
        final Path out = dir.resolve("out.pcap");
        final CliRunner.Result r = CliRunner.run("replay", "--in", in.toString(), "--out", out.toString(), "--eal",
            "--no-pci");
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("dta replay: --eal needs --io dpdk"), r.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void shouldListEveryDropReasonAndCounterInTheJsonSummaryZeroIncluded() throws Exception
    {
        final Path in = dir.resolve("reports.pcap");
        PcapFiles.write(in, TestFrames.report(DtaOpcode.KEY_WRITE, TestFrames.keyWrite(1, 7, new byte[4])));
        final CliRunner.Result r = CliRunner.run("replay", "--in", in.toString(), "--out",
            dir.resolve("out.pcap").toString(), "--json");
        assertEquals(0, r.exitCode(), r.err());
        final JsonNode summary = new ObjectMapper().readTree(r.out());
        for (final EngineCounter c : EngineCounter.values())
        {
            final JsonNode group = summary.get(c.isDrop() ? "drops" : "counters");
            assertTrue(group.has(EngineSummary.camel(c.name())), c + " missing from " + summary);
        }
        assertEquals(0, summary.get("drops").get("dropNoRoute").asLong());
        assertEquals(1, summary.get("counters").get("reportsTranslated").asLong());
    }

    @Test
    void shouldSayHowManyReportsAClosedLoopReplayLeavesUnacknowledged() throws Exception
    {
        final Path in = dir.resolve("essential.pcap");
        final byte[][] reports = new byte[3][];
        for (int i = 0; i < reports.length; i++)
        {
            reports[i] = TestFrames.report(TestFrames.REPORTER_1, TestFrames.COLLECTOR_A, 3, DtaOpcode.KEY_WRITE, i,
                DtaBaseHeaderFlyweight.FLAG_ESSENTIAL, TestFrames.keyWrite(1, 7 + i, new byte[4]));
        }
        PcapFiles.write(in, reports);
        // Closed loop, and nothing in the responses acknowledges the essential writes.
        final Path responses = dir.resolve("responses.pcap");
        PcapFiles.write(responses, TestFrames.ack(0x999, 0));
        final String[] args = { "replay", "--in", in.toString(), "--responses", responses.toString(), "--out",
            dir.resolve("out.pcap").toString() };

        final CliRunner.Result text = CliRunner.run(args);
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("reports pending 3: neither delivered nor dropped"), text.out());
        assertTrue(text.out().contains("(essential backlog 3)"), text.out());

        final String[] withJson = Arrays.copyOf(args, args.length + 1);
        withJson[args.length] = "--json";
        final CliRunner.Result json = CliRunner.run(withJson);
        assertEquals(0, json.exitCode(), json.err());
        final JsonNode summary = new ObjectMapper().readTree(json.out());
        assertEquals(3, summary.get("reportsPending").asLong(), json.out());
        assertEquals(summary.get("reportsTranslated").asLong(),
            summary.get("counters").get("reportsDelivered").asLong() + summary.get("reportsPending").asLong());
    }

    @Test
    void shouldTakeReportsOnlyFromTheReportsCaptureAndResponsesOnlyFromTheResponsesCapture() throws Exception
    {
        // One capture of a port carrying both, given as both: each frame is used once, in its own role.
        final Path both = dir.resolve("both.pcap");
        PcapFiles.write(both, TestFrames.report(DtaOpcode.KEY_WRITE, TestFrames.keyWrite(1, 7, new byte[4])),
            TestFrames.ack(0x999, 0));
        final CliRunner.Result r = CliRunner.run("replay", "--in", both.toString(), "--responses", both.toString(),
            "--out", dir.resolve("out.pcap").toString(), "--json");
        assertEquals(0, r.exitCode(), r.err());
        final JsonNode summary = new ObjectMapper().readTree(r.out());
        assertEquals(4, summary.get("framesIn").asLong(), r.out());
        assertEquals(1, summary.get("reportsIn").asLong(), "translated once, not twice: " + r.out());
        assertEquals(1, summary.get("counters").get("roceFramesInReportsCapture").asLong(), r.out());
        assertEquals(1, summary.get("counters").get("reportsInResponsesCapture").asLong(), r.out());
        assertEquals(1, summary.get("drops").get("responseDropUnknownQpn").asLong(), "taken once: " + r.out());
        assertTrue(r.err().contains("dta replay: warning: 1 RoCEv2 frame(s) in --in skipped"), r.err());
        assertTrue(r.err().contains("dta replay: warning: 1 DTA report(s) in --responses skipped"), r.err());
    }

    @Test
    void shouldNameTheMissingDirectoryOfTheOutput() throws Exception
    {
        final Path in = dir.resolve("reports.pcap");
        PcapFiles.write(in, TestFrames.report(DtaOpcode.KEY_WRITE, TestFrames.keyWrite(1, 7, new byte[4])));
        final Path out = dir.resolve("missing").resolve("out.pcap");
        final CliRunner.Result r = CliRunner.run("replay", "--in", in.toString(), "--out", out.toString());
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains("cannot write " + out + ": no directory " + out.getParent()), r.err());
        assertFalse(Files.exists(out.getParent()));
    }

    @Test
    void shouldSayWhyTheOutputCannotBeCreated() throws Exception
    {
        // /proc is a directory that exists and takes no new files: the check before the run passes, the creation
        // fails with a NoSuchFileException whose message is the path alone ("dta replay: /proc/x.pcap").
        final Path in = dir.resolve("reports.pcap");
        PcapFiles.write(in, TestFrames.report(DtaOpcode.KEY_WRITE, TestFrames.keyWrite(1, 7, new byte[4])));
        final Path out = Path.of("/proc/dta-replay-audit.pcap");
        final CliRunner.Result r = CliRunner.run("replay", "--in", in.toString(), "--out", out.toString());
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains(out + ": no such file or directory"), r.err());
    }

    @Test
    void shouldSayWhyAnInputCannotBeReadAndLeaveNoOutputWhenTheRunFails() throws Exception
    {
        final Path out = dir.resolve("out.pcap");
        final Path missing = dir.resolve("nope.pcap");
        CliRunner.Result r = CliRunner.run("replay", "--in", missing.toString(), "--out", out.toString());
        assertEquals(1, r.exitCode(), r.err());
        assertEquals("dta replay: cannot read " + missing + ": no such file or directory", r.err().strip());

        r = CliRunner.run("replay", "--in", dir.toString(), "--out", out.toString());
        assertEquals(1, r.exitCode(), r.err());
        assertEquals("dta replay: cannot read " + dir + ": is a directory", r.err().strip());
        assertFalse(Files.exists(out));

        // Not a capture: the run fails before the output is created, so an earlier file of that name stays as it was.
        final Path garbage = dir.resolve("garbage.pcap");
        Files.writeString(garbage, "not a capture at all\n");
        r = CliRunner.run("replay", "--in", garbage.toString(), "--out", out.toString(), "--json");
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains("not a pcap or pcapng file") && !r.err().contains("removed"), r.err());
        assertEquals("", r.out(), "no summary for a failed run");
        assertFalse(Files.exists(out));
        Files.writeString(out, "earlier result");
        r = CliRunner.run("replay", "--in", garbage.toString(), "--out", out.toString());
        assertEquals(1, r.exitCode(), r.err());
        assertEquals("earlier result", Files.readString(out), "an earlier output is left as it was");

        // A capture corrupt in its middle fails once the output is written: no capture that looks like a result is
        // left, through a link neither (its target is removed, the link is not the run's to remove).
        final Path corrupt = dir.resolve("corrupt.pcap");
        final byte[] whole = Files.readAllBytes(reports());
        final byte[] cut = java.util.Arrays.copyOf(whole, whole.length + 16);
        java.nio.ByteBuffer.wrap(cut, whole.length, 16).order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .putInt(1).putInt(0).putInt(0x7FFF_FFFF).putInt(0x7FFF_FFFF);
        Files.write(corrupt, cut);
        r = CliRunner.run("replay", "--in", corrupt.toString(), "--out", out.toString());
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains(out + " removed"), r.err());
        assertFalse(Files.exists(out), "no capture left that looks like a result");
        final Path target = dir.resolve("target.pcap");
        final Path link = dir.resolve("link.pcap");
        Files.createSymbolicLink(link, target);
        r = CliRunner.run("replay", "--in", corrupt.toString(), "--out", link.toString());
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains(link + " removed"), r.err());
        assertTrue(Files.isSymbolicLink(link), "the link is left");
        assertFalse(Files.exists(target), "its target, a capture cut short, is removed");
    }

    private Path reports() throws Exception
    {
        final Path in = dir.resolve("good.pcap");
        PcapFiles.write(in, TestFrames.report(DtaOpcode.KEY_WRITE, TestFrames.keyWrite(1, 7, new byte[4])));
        return in;
    }

    @Test
    void shouldRefuseACollectorOutputThatIsItsInput() throws Exception
    {
        final Path in = dir.resolve("roce.pcap");
        PcapFiles.write(in, TestFrames.report(DtaOpcode.KEY_WRITE, TestFrames.keyWrite(1, 7, new byte[4])));
        final byte[] before = Files.readAllBytes(in);
        final Path link = dir.resolve("link.pcap");
        Files.createSymbolicLink(link, in);
        for (final Path out : new Path[] { in, link })
        {
            final CliRunner.Result r = CliRunner.run("collector", "--in", in.toString(), "--out", out.toString(),
                "--store", dir.resolve("store").toString());
            assertEquals(2, r.exitCode(), r.err());
            assertTrue(r.err().contains("would overwrite its input"), r.err());
            assertArrayEquals(before, Files.readAllBytes(in), "the input is untouched");
        }
        final Path missing = dir.resolve("missing").resolve("out.pcap");
        final CliRunner.Result r = CliRunner.run("collector", "--in", in.toString(), "--out", missing.toString(),
            "--store", dir.resolve("store").toString());
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains("no directory " + missing.getParent()), r.err());

        // A capture corrupt in its middle is read through and refused before anything is written: no capture is
        // left that looks like a result.
        final Path corrupt = dir.resolve("corrupt.pcap");
        final byte[] cut = java.util.Arrays.copyOf(before, before.length + 16);
        java.nio.ByteBuffer.wrap(cut, before.length, 16).order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .putInt(1).putInt(0).putInt(0x7FFF_FFFF).putInt(0x7FFF_FFFF);
        Files.write(corrupt, cut);
        final Path out = dir.resolve("responses.pcap");
        final CliRunner.Result failed = CliRunner.run("collector", "--in", corrupt.toString(), "--out",
            out.toString(), "--store", dir.resolve("store").toString());
        assertEquals(1, failed.exitCode(), failed.err());
        assertTrue(failed.err().contains("at byte offset " + before.length), failed.err());
        assertFalse(Files.exists(out), "no capture left that looks like a result");
    }
}
