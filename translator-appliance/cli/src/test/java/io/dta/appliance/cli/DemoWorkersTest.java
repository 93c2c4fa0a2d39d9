package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.dta.config.ConfigDefaults;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta demo --workers W}: whatever the number of workers, the collector's memory ends the same, with static and
 * with negotiated regions, and every report is counted in exactly once over all workers ({@link CollectorMemory}:
 * on the demo's one virtual clock, list rings byte for byte as well). The traffic
 * comes from many reporters of every primitive, so reports of lists, flows and sketches cross between workers, and
 * responses reach workers that do not own their QP.
 */
class DemoWorkersTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void shouldLeaveTheSameCollectorMemoryWhateverTheWorkers() throws Exception
    {
        final Path capture = dir.resolve("reports.pcap");
        final CliRunner.Result gen = CliRunner.run("gen", "--out", capture.toString(), "--reports", "12000",
            "--reporters", "64", "--no-progress", "--seed", "7");
        assertEquals(0, gen.exitCode(), gen.err());
        for (final boolean negotiate : new boolean[] { false, true })
        {
            final Path one = demo(capture, 1, negotiate);
            final CollectorMemory memory = new CollectorMemory(ConfigDefaults.load(), null, capture);
            for (final int workers : new int[] { 2, 3, 4 })
            {
                final Path many = demo(capture, workers, negotiate);
                memory.assertSame(one, many, workers + " workers" + (negotiate ? ", negotiated" : ""), true);
            }
        }
    }

    private Path demo(final Path capture, final int workers, final boolean negotiate) throws IOException
    {
        final Path store = dir.resolve("store-" + workers + (negotiate ? "-negotiated" : ""));
        final String[] args = Stream.concat(Stream.of("demo", "--in", capture.toString(), "--loss", "0", "--workers",
            Integer.toString(workers), "--store", store.toString(), "--json"),
            negotiate ? Stream.of("--negotiate") : Stream.empty()).toArray(String[]::new);
        final CliRunner.Result r = CliRunner.run(args);
        assertEquals(0, r.exitCode(), r.err() + r.out());
        final JsonNode n = JSON.readTree(r.out());
        assertEquals(workers, n.get("workers").asInt());
        assertTrue(n.get("quiescent").asBoolean(), r.out());
        final JsonNode translator = n.get("translator");
        assertEquals(n.get("reports").asLong(), translator.get("reportsIn").asLong(),
            "each report counted in once over all workers");
        assertEquals(translator.get("reportsIn").asLong(), translator.get("reportsTranslated").asLong(),
            "every report translated: " + translator);
        assertEquals(0, translator.get("drops").size(), translator.toString());
        return store;
    }
}
