package io.dta.perf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.bench.CReference;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.gen.ReportGenerator;
import io.dta.appliance.replay.Replay;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.dpdk.DpdkLibrary;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What {@code dta bench --io dpdk --compare-c} reports beside its rates, in processes of their own (one EAL each): a
 * capture holding the collector's responses (a lossy link's NAKs among them) makes the engine resync and drop reports
 * in grace periods while the C loop skips the responses, so the run says the ratio compares unequal work
 * ({@code unequalWork}, a warning); a capture of reports alone does not; and the Java engine's rates are on one basis,
 * so a capture of reports alone has as many reports as frames received per second, never more. Synthetic runs name
 * their drops ({@code drops}, by reason) as capture runs do.
 */
class CompareBenchEalTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int REPORTS = 20_000;
    /** One RoCEv2 frame in this many is lost on the way to the collector, which NAKs the gap. */
    private static final int LOSS_EVERY = 97;

    @TempDir
    Path dir;

    @BeforeAll
    static void needsDpdkAndTheCLoop()
    {
        assumeDpdk();
    }

    private static void assumeDpdk()
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary.unavailableReason());
        assumeTrue(CReference.isAvailable(), CReference.unavailableReason());
    }

    @Test
    void shouldSayTheRatioComparesUnequalWorkWhenTheCaptureHoldsTheCollectorsResponses() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final Path reports = reports(config);
        final Path roce = dir.resolve("roce.pcap");
        Replay.run(config, reports, null, roce);
        final Path lossy = dir.resolve("lossy.pcap");
        copy(roce, lossy, LOSS_EVERY);
        final Path responses = dir.resolve("responses.pcap");
        run("collector", 0, "collector", "--in", lossy.toString(), "--out", responses.toString(), "--store",
            dir.resolve("store").toString());
        final Path withResponses = dir.resolve("withresp.pcap");
        final int merged = merge(reports, responses, withResponses);
        assertTrue(merged > REPORTS, "the collector answered: " + merged);

        final String[] out = run("unequal", 0, "bench", "--io", "dpdk", "--in", withResponses.toString(),
            "--compare-c", "--rounds", "2", "--reports", "84240", "--warmup", "42120", "--json");
        final JsonNode r = json(out[0]);
        final String ctx = r + "\n" + out[1];
        assertTrue(r.get("reference").get("responses").asLong() > 0, ctx);
        assertTrue(r.get("unequalWork").asBoolean(), ctx);
        assertTrue(r.get("unequalWorkReasons").toString().contains("\"responses\""), ctx);
        assertTrue(out[1].contains("dta bench: warning: the ratio compares unequal work (unequalWork in the JSON): " +
            "the frames hold " + r.get("reference").get("responses").asLong() + " collector responses"), ctx);
        if (r.get("drops").has("dropGracePeriod"))
        {
            assertTrue(r.get("unequalWorkReasons").toString().contains("\"droppedAfterTranslation\""), ctx);
            assertTrue(out[1].contains("dropGracePeriod " + r.get("drops").get("dropGracePeriod")), ctx);
        }
        assertTrue(r.get("reportsPerSecond").asLong() <= r.get("framesInPerSecond").asLong(), ctx);
    }

    @Test
    void shouldRateReportsAndFramesInAlikeForACaptureOfReportsAloneAndSayNothingOfUnequalWork() throws Exception
    {
        final Path reports = reports(ConfigDefaults.load());
        for (final String input : new String[] { "pcap", "ring" })
        {
            final String[] out = run("equal-" + input, 0, "bench", "--io", "dpdk", "--input", input, "--in",
                reports.toString(), "--compare-c", "--rounds", "3", "--reports", "120000", "--warmup", "40000",
                "--json");
            final JsonNode r = json(out[0]);
            final String ctx = input + ": " + r + "\n" + out[1];
            assertEquals(r.get("reports").asLong(), r.get("framesIn").asLong(), ctx);
            // Every frame received is a report: the same rate, both the median of the rounds.
            assertTrue(Math.abs(r.get("reportsPerSecond").asLong() - r.get("framesInPerSecond").asLong()) <= 1, ctx);
            assertFalse(r.get("unequalWork").asBoolean(), ctx);
            assertEquals(0, r.get("unequalWorkReasons").size(), ctx);
            assertFalse(out[1].contains("unequal work"), ctx);
            assertEquals(r.get("roceFramesOut").asDouble(), r.get("reference").get("roceFramesOut").asDouble(),
                r.get("roceFramesOut").asDouble() / 100, ctx);
        }
    }

    @Test
    void shouldNameTheDropsOfSyntheticReportsWithAndWithoutTheCLoop() throws Exception
    {
        final String[] alone = run("synthetic", 0, "bench", "--io", "dpdk", "--primitive", "keyincrement",
            "--reports", "100000", "--warmup", "20000", "--json");
        final JsonNode a = json(alone[0]);
        assertEquals(0, a.get("totalDrops").asLong(), a.toString());
        assertTrue(a.get("drops").isObject() && a.get("drops").isEmpty(), a.toString());
        final String[] compared = run("synthetic-c", 0, "bench", "--io", "dpdk", "--primitive", "keyincrement",
            "--compare-c", "--rounds", "2", "--reports", "100000", "--warmup", "20000", "--json");
        final JsonNode c = json(compared[0]);
        assertTrue(c.get("drops").isObject() && c.get("drops").isEmpty(), c.toString());
        assertFalse(c.get("unequalWork").asBoolean(), c + "\n" + compared[1]);
    }

    private Path reports(final ApplianceConfig config) throws Exception
    {
        final Path path = dir.resolve("reports.pcap");
        final ReportGenerator generator = new ReportGenerator(config, new GeneratorSettings().seed(7));
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[ReportGenerator.MAX_FRAME_LENGTH]);
        try (PcapWriter writer = new PcapWriter(path, true))
        {
            for (int i = 0; i < REPORTS; i++)
            {
                final int length = generator.next(frame, 0);
                writer.write(generator.timestampNanos(), frame, 0, length);
            }
        }
        return path;
    }

    /**
     * Copies a capture, leaving out one frame in {@code lossEvery} (a lossy link).
     */
    private static void copy(final Path from, final Path to, final int lossEvery) throws Exception
    {
        try (PcapReader reader = PcapReader.open(from); PcapWriter writer = new PcapWriter(to, true))
        {
            long index = 0;
            while (reader.next())
            {
                if (lossEvery / 2 != index++ % lossEvery)
                {
                    writer.write(reader.timestampNanos(), reader.buffer(), reader.offset(), reader.capturedLength());
                }
            }
        }
    }

    /**
     * Merges two captures by timestamp (the first's frame first on a tie), as a capture of a link both cross.
     */
    private static int merge(final Path first, final Path second, final Path to) throws Exception
    {
        int frames = 0;
        try (PcapReader a = PcapReader.open(first); PcapReader b = PcapReader.open(second);
            PcapWriter writer = new PcapWriter(to, true))
        {
            boolean hasA = a.next();
            boolean hasB = b.next();
            while (hasA || hasB)
            {
                final PcapReader r = hasA && (!hasB || a.timestampNanos() <= b.timestampNanos()) ? a : b;
                writer.write(r.timestampNanos(), r.buffer(), r.offset(), r.capturedLength());
                frames++;
                if (r == a)
                {
                    hasA = a.next();
                }
                else
                {
                    hasB = b.next();
                }
            }
        }
        return frames;
    }

    private static JsonNode json(final String out) throws Exception
    {
        final String trimmed = out.trim();
        return JSON.readTree(trimmed.substring(trimmed.lastIndexOf('\n') + 1));
    }

    private String[] run(final String name, final int exitCode, final String... args) throws Exception
    {
        final ChildDta.Run run = ChildDta.run(dir, name, 120, args);
        assertEquals(exitCode, run.exitCode(), name + ": " + run.err());
        return new String[] { run.out(), run.err() };
    }
}
