package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sketch-Merge through the whole product: {@code dta gen} builds real sketches on several switches (with gaps,
 * duplicates and a missing switch), {@code dta replay} merges them, {@code dta collector} executes the WRITEs into
 * its store, and {@code dta query sketch} must give back exactly the generator's ground truth — the element-wise
 * merge of what the switches sent — for every sketch type.
 */
class SketchEndToEndTest
{
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void shouldLandTheExactMergedSketchOfEverySwitchInCollectorMemory() throws Exception
    {
        // Four switches per sketch, a ring of three epochs, a short epoch timeout for the incomplete epoch.
        final String yaml = ConfigDefaults.yaml()
            .replace("        columns: 1024\n", "        columns: 1024\n        switches: 4\n        epochs: 3\n" +
                "        epochTimeoutMicros: 200000\n")
            .replace("        columns: 4096\n", "        columns: 4096\n        switches: 4\n        epochs: 3\n" +
                "        epochTimeoutMicros: 200000\n")
            .replace("length: 32896", "length: 49344");
        final Path config = Files.writeString(dir.resolve("translator.yaml"), yaml);
        final Path reports = dir.resolve("reports.pcap");
        final Path truthFile = dir.resolve("truth.json");
        final Path roce = dir.resolve("roce.pcap");
        final Path responses = dir.resolve("responses.pcap");
        final Path store = dir.resolve("store");

        run("gen", "--config", config.toString(), "--out", reports.toString(), "--truth", truthFile.toString(),
            "--mix", "sketch=1", "--sketches", "1,2,3", "--switches", "4", "--epochs", "3", "--sketch-items", "3000",
            "--keys", "zipf", "--key-space", "50000", "--sketch-gaps", "0.01", "--sketch-duplicates", "0.01",
            "--missing-switch", "--seed", "7", "--no-progress");
        final JsonNode replay = json(run("replay", "--config", config.toString(), "--in", reports.toString(),
            "--out", roce.toString(), "--json"));
        final CliRunner.Result collector = run("collector", "--config", config.toString(), "--in", roce.toString(),
            "--out", responses.toString(), "--store", store.toString());
        assertFalse(collector.out().contains("NAK"), collector.out());

        final JsonNode truth = MAPPER.readTree(Files.readString(truthFile));
        int epochsChecked = 0;
        int incompleteChecked = 0;
        for (final JsonNode sketch : truth.get("sketches"))
        {
            final int id = sketch.get("sketchId").asInt();
            final String type = sketch.get("type").asText();
            for (final JsonNode expected : sketch.get("epochs"))
            {
                final long epoch = expected.get("epoch").asLong();
                final JsonNode got = json(run("query", "--config", config.toString(), "--store", store.toString(),
                    "sketch", "--id", Integer.toString(id), "--epoch", Long.toString(epoch), "--json"));
                final String where = type + " epoch " + epoch;
                assertEquals(expected.get("complete").asBoolean(), got.get("complete").asBoolean(), where);
                assertEquals(ids(expected.get("contributors")), ids(got.get("contributors")), where);
                final int columns = sketch.get("columns").asInt();
                // Complete epochs are exact everywhere; an incomplete one is exact on the columns every
                // switch reached, the rest holding whatever the others sent (also what truth says).
                final int exactColumns = expected.get("complete").asBoolean() ? columns :
                    got.get("completeColumns").asInt();
                for (int r = 0; r < sketch.get("rows").asInt(); r++)
                {
                    for (int c = 0; c < exactColumns; c++)
                    {
                        assertEquals(expected.get("cells").get(r).get(c).asLong(),
                            got.get("cells").get(r).get(c).asLong(), where + " row " + r + " column " + c);
                    }
                }
                if (!expected.get("complete").asBoolean())
                {
                    incompleteChecked++;
                }
                epochsChecked++;
                checkEstimates(config, store, id, type, epoch, expected, where);
            }
        }
        assertEquals(9, epochsChecked, "three sketches, three epochs each, all retained by the ring");
        assertEquals(3, incompleteChecked, "the missing switch leaves the last epoch of each sketch incomplete");
        assertTrue(replay.toString().contains("SKETCH") || replay.toString().toLowerCase().contains("sketch"),
            replay.toString());
    }

    private void checkEstimates(
        final Path config, final Path store, final int id, final String type, final long epoch,
        final JsonNode expected, final String where)
    {
        if ("hyperloglog".equals(type))
        {
            final JsonNode got = json(run("query", "--config", config.toString(), "--store", store.toString(),
                "sketch", "--id", Integer.toString(id), "--epoch", Long.toString(epoch), "--json"));
            if (expected.get("complete").asBoolean())
            {
                final double distinct = expected.get("distinct").asDouble();
                final double cardinality = got.get("cardinality").asDouble();
                final double standardError = 1.04 / Math.sqrt(4096);
                assertTrue(Math.abs(cardinality - distinct) <= 3 * standardError * distinct,
                    where + ": cardinality " + cardinality + " for " + distinct + " distinct keys");
            }
            return;
        }
        if (!"count-min".equals(type) || !expected.get("complete").asBoolean())
        {
            return;
        }
        // Count-Min never undercounts: check the ten hottest keys and ten rare ones.
        final Iterator<Map.Entry<String, JsonNode>> keys = expected.get("keys").fields();
        int checked = 0;
        while (keys.hasNext() && checked < 20)
        {
            final Map.Entry<String, JsonNode> key = keys.next();
            final JsonNode got = json(run("query", "--config", config.toString(), "--store", store.toString(),
                "sketch", "--id", Integer.toString(id), "--epoch", Long.toString(epoch), "--key", key.getKey(),
                "--json"));
            assertTrue(got.get("estimate").asLong() >= key.getValue().asLong(),
                where + " key " + key.getKey() + ": estimate " + got.get("estimate") + " < " + key.getValue());
            checked++;
        }
        assertEquals(20, checked);
    }

    private static String ids(final JsonNode array)
    {
        final StringBuilder b = new StringBuilder();
        for (final JsonNode n : array)
        {
            b.append(n.asInt()).append(',');
        }
        return b.toString();
    }

    private static CliRunner.Result run(final String... args)
    {
        final CliRunner.Result r = CliRunner.run(args);
        assertEquals(0, r.exitCode(), String.join(" ", args) + "\n" + r.err() + r.out());
        return r;
    }

    private static JsonNode json(final CliRunner.Result r)
    {
        try
        {
            return MAPPER.readTree(r.out());
        }
        catch (final Exception ex)
        {
            throw new AssertionError("not JSON: " + r.out(), ex);
        }
    }
}
