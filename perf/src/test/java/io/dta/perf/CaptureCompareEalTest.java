package io.dta.perf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.bench.CReference;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import io.dta.dpdk.DpdkLibrary;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code dta bench --io dpdk --in FILE --compare-c}: each side's rate from its own reports, over rounds of whole passes
 * of the capture (the same mix of frames on both sides, whatever the capture's order), the C loop's counters, and no
 * ratio for a capture without reports. Here because the C reference loop is built by this module; each bench in a
 * {@code dta} process of its own (one EAL per process).
 */
class CaptureCompareEalTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ARPS = 30_000;
    private static final int REPORTS = 10_000;

    @TempDir
    Path dir;

    @BeforeAll
    static void needsDpdkAndTheCLoop()
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary.unavailableReason());
        assumeTrue(CReference.isAvailable(), CReference.unavailableReason());
    }

    @Test
    void shouldCompareEachSidesOwnReportsOverWholePassesOfTheCapture() throws Exception
    {
        // A quarter of the frames are reports, all at the end: a round of part of the capture would see another mix.
        final Path reports = dir.resolve("reports.pcap");
        assertEquals(0, dta("gen", "gen", "--reports", Integer.toString(REPORTS), "--mix", "append=1", "--out",
            reports.toString(), "--no-progress").exitCode());
        final Path capture = dir.resolve("arp-then-reports.pcap");
        try (PcapWriter writer = new PcapWriter(capture); PcapReader reader = PcapReader.open(reports))
        {
            final UnsafeBuffer arp = arp();
            for (int i = 0; i < ARPS; i++)
            {
                writer.write(i * 1000L, arp, 0, arp.capacity());
            }
            while (reader.next())
            {
                writer.write(reader.timestampNanos(), reader.buffer(), reader.offset(), reader.capturedLength());
            }
        }
        final ChildDta.Run run = dta("mixed", "bench", "--io", "dpdk", "--in", capture.toString(), "--compare-c",
            "--reports", "150000", "--rounds", "3", "--warmup", "50000", "--json");
        assertEquals(0, run.exitCode(), run.err());
        final JsonNode r = JSON.readTree(run.out());
        final String ctx = r.toString();
        final int frames = ARPS + REPORTS;
        assertEquals(frames, r.get("sourceFrames").asInt(), ctx);
        assertFalse(r.has("sourceReports"), "a capture's frames are sourceFrames: " + ctx);
        // 50 000 asked per round, rounded up to whole passes of 40 000 frames.
        assertEquals(2L * frames, r.get("framesPerRound").asLong(), ctx);
        assertFalse(r.has("reportsPerRound"), ctx);
        final JsonNode c = r.get("reference");
        final long cFrames = c.get("framesIn").asLong();
        assertTrue(cFrames >= 3L * 2 * frames && cFrames < 3L * (2 * frames + 32), ctx);
        // Whole passes, give or take a burst per round: the capture's quarter on both sides.
        assertEquals(0.25, (double)c.get("reportsIn").asLong() / cFrames, 0.001, ctx);
        assertEquals(0.25, r.get("reports").asDouble() / r.get("framesIn").asLong(), 0.001, ctx);
        assertEquals(c.get("reportsIn").asLong(), c.get("reportsTranslated").asLong(), ctx);
        assertEquals(0, c.get("unsupported").asLong(), ctx);
        assertEquals(cFrames - c.get("reportsIn").asLong(), c.get("otherFrames").asLong(), ctx);
        final double ratio = r.get("ratio").asDouble();
        assertTrue(ratio > 0 && Double.isFinite(ratio), ctx);
        assertEquals(r.get("reportsPerSecond").asDouble() / r.get("referenceReportsPerSecond").asDouble(), ratio,
            0.002 * ratio + 0.001, ctx);
        assertTrue(r.get("cpuRatio").asDouble() > 0, ctx);
        assertTrue(r.get("ioFloorReportsPerSecond").asLong() > 0, ctx);
    }

    @Test
    void shouldGiveNoRatioAndWarnForACaptureWithoutReports() throws Exception
    {
        final Path capture = dir.resolve("arp.pcap");
        try (PcapWriter writer = new PcapWriter(capture))
        {
            final UnsafeBuffer arp = arp();
            for (int i = 0; i < 1000; i++)
            {
                writer.write(i * 1000L, arp, 0, arp.capacity());
            }
        }
        final ChildDta.Run json = dta("none-json", "bench", "--io", "dpdk", "--in", capture.toString(), "--compare-c",
            "--reports", "100000", "--rounds", "2", "--warmup", "10000", "--json");
        assertEquals(0, json.exitCode(), json.err());
        final JsonNode r = JSON.readTree(json.out());
        assertTrue(r.get("ratio").isNull(), r.toString());
        assertTrue(r.get("cpuRatio").isNull(), r.toString());
        assertEquals(0, r.get("reports").asLong(), r.toString());
        assertEquals(0, r.get("reference").get("reportsIn").asLong(), r.toString());
        // Per frame when none was a report: the measured loop allocates nothing per frame.
        assertTrue(r.get("allocatedBytesPerReport").asDouble() < 1, r.toString());
        assertTrue(json.err().contains("dta bench: warning: no frame fed from " + capture + " was a DTA report"),
            json.err());

        final ChildDta.Run text = dta("none-text", "bench", "--io", "dpdk", "--in", capture.toString(), "--compare-c",
            "--reports", "100000", "--rounds", "2", "--warmup", "10000");
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("  no ratio Java / C: a side counted no DTA report\n"), text.out());
        assertFalse(text.out().contains("NaN"), text.out());
        assertTrue(text.err().contains("was a DTA report"), text.err());
    }

    private static UnsafeBuffer arp()
    {
        final UnsafeBuffer arp = new UnsafeBuffer(new byte[60]);
        arp.putLong(0, -1L);
        arp.putShort(12, (short)0x0806, ByteOrder.BIG_ENDIAN);
        return arp;
    }

    private ChildDta.Run dta(final String name, final String... args) throws Exception
    {
        return ChildDta.run(dir, name, 180, args);
    }
}
