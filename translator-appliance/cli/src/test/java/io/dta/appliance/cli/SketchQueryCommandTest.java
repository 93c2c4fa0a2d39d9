package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.codec.KeyHash;
import io.dta.collector.layout.SketchEpochHeader;
import io.dta.collector.layout.SketchLayout;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.RegionType;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigFormat;
import io.dta.config.ConfigLoader;
import org.agrona.MutableDirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SketchQueryCommandTest
{
    @TempDir
    Path dir;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static void writeEpoch(final MutableDirectBuffer region, final SketchLayout layout, final long epoch,
        final int state, final int[] cells, final int... contributors)
    {
        final SketchEpochHeader header = new SketchEpochHeader().wrap(region, (int)layout.areaOffset(epoch))
            .epoch(epoch).state(state).type(SketchLayout.typeCode(layout.type())).rows(layout.rows())
            .columns(layout.columns()).switches(2).contributors(contributors.length).completeColumns(layout.columns());
        for (final int s : contributors)
        {
            header.contributed(s, true);
        }
        for (int i = 0; i < cells.length; i++)
        {
            region.putInt((int)layout.areaOffset(epoch) + SketchLayout.HEADER_LENGTH + 4 * i, cells[i],
                ByteOrder.LITTLE_ENDIAN);
        }
    }

    private static JsonNode json(final CliRunner.Result result) throws Exception
    {
        assertEquals(0, result.exitCode(), result.err());
        return MAPPER.readTree(result.out());
    }

    @Test
    void shouldPrintTheMergedMatrixStateAndEstimates() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final CollectorConfig collector = config.collectors().get(0);
        final KeyHash hash = new KeyHash();
        try (CollectorStore store = CollectorStore.create(dir, config, collector))
        {
            final SketchLayout cm = SketchLayout.of(collector.sketches().get(0));
            final int[] cells = new int[4 * 1024];
            for (int r = 0; r < 4; r++)
            {
                cells[SketchLayout.column(hash, 42, r, 1024) * 4 + r] += 10 + r;
            }
            cells[5 * 4 + 2] = -1;
            writeEpoch(store.region(RegionType.SKETCH, 1).buffer(), cm, 5, SketchLayout.STATE_INCOMPLETE, cells, 1);

            final SketchLayout cs = SketchLayout.of(collector.sketches().get(1));
            final int[] signed = new int[4 * 1024];
            for (int r = 0; r < 4; r++)
            {
                signed[SketchLayout.column(hash, 7, r, 1024) * 4 + r] = SketchLayout.sign(hash, 7, r) * (r + 1);
            }
            writeEpoch(store.region(RegionType.SKETCH, 2).buffer(), cs, 3, SketchLayout.STATE_COMPLETE, signed, 0, 1);

            final SketchLayout hll = SketchLayout.of(collector.sketches().get(2));
            writeEpoch(store.region(RegionType.SKETCH, 3).buffer(), hll, 2, SketchLayout.STATE_COMPLETE,
                new int[4096], 0, 1);
        }

        final JsonNode cm = json(CliRunner.run("query", "--store", dir.toString(), "sketch", "--id", "1", "--epoch",
            "5", "--key", "42", "--json"));
        assertEquals(1, cm.get("sketchId").asInt());
        assertEquals(5, cm.get("epoch").asLong());
        assertEquals("incomplete", cm.get("state").asText());
        assertFalse(cm.get("complete").asBoolean());
        assertEquals(4, cm.get("rows").asInt());
        assertEquals(1024, cm.get("columns").asInt());
        assertEquals(1, cm.get("contributors").size());
        assertEquals(1, cm.get("contributors").get(0).asInt());
        assertEquals(4, cm.get("cells").size());
        assertEquals(1024, cm.get("cells").get(0).size());
        assertEquals(0xFFFF_FFFFL, cm.get("cells").get(2).get(5).asLong(), "count-min counters are unsigned");
        assertEquals(10, cm.get("estimate").asLong());

        final JsonNode cs = json(CliRunner.run("query", "--store", dir.toString(), "sketch", "--id", "2", "--epoch",
            "3", "--key", "7", "--json"));
        assertTrue(cs.get("complete").asBoolean());
        assertEquals(2.5, cs.get("estimate").asDouble(), 0.0, "median of 1, 2, 3, 4");

        final JsonNode hll = json(CliRunner.run("query", "--store", dir.toString(), "sketch", "--id", "3",
            "--epoch", "2", "--json"));
        assertEquals(0.0, hll.get("cardinality").asDouble(), 0.0);
        assertEquals("linear-counting", hll.get("correction").asText());

        final JsonNode absent = json(CliRunner.run("query", "--store", dir.toString(), "sketch", "--id", "1",
            "--epoch", "7", "--key", "42", "--json"));
        assertEquals("absent", absent.get("state").asText());
        assertEquals(5, absent.get("areaEpoch").asLong());
        assertTrue(absent.get("cells").isNull());
        assertTrue(absent.get("estimate").isNull());

        final CliRunner.Result text = CliRunner.run("query", "--store", dir.toString(), "sketch", "--id", "1",
            "--epoch", "5", "--key", "42");
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("epoch 5: incomplete"), text.out());
        assertTrue(text.out().contains("first 16 of 1024 columns; all of them with --json"), text.out());
        assertTrue(text.out().contains("key 42: estimate 10"), text.out());

        assertEquals(2, CliRunner.run("query", "--store", dir.toString(), "sketch", "--id", "3", "--epoch", "2",
            "--key", "1").exitCode(), "no per-key estimate for hyperloglog");
        assertEquals(2, CliRunner.run("query", "--store", dir.toString(), "sketch", "--id", "9", "--epoch", "2")
            .exitCode(), "no such sketch");
    }

    @Test
    void shouldRequireACollectorWhenSeveralHaveTheSketchId() throws Exception
    {
        final String yaml = """
            translator: { mac: "02:00:0a:00:00:65", ip: 10.0.0.101 }
            collectors:
              - name: a
                mac: "02:00:0a:00:00:33"
                ip: 10.0.0.51
                sketches:
                  - { id: 1, type: count-min, rows: 2, columns: 8, localQpn: 0x540, qpn: 0x45b, rkey: 0x1,
                      address: 0x7f0000500000, length: 4096, startPsn: 0x600 }
              - name: b
                mac: "02:00:0a:00:00:34"
                ip: 10.0.0.52
                sketches:
                  - { id: 1, type: hyperloglog, columns: 16, localQpn: 0x541, qpn: 0x45c, rkey: 0x2,
                      address: 0x7f0000600000, length: 4096, startPsn: 0x700 }
            """;
        final Path configFile = dir.resolve("two.yaml");
        Files.writeString(configFile, yaml);
        final ApplianceConfig config = ConfigLoader.load(yaml, ConfigFormat.YAML);
        for (final CollectorConfig c : config.collectors())
        {
            CollectorStore.create(dir, config, c).close();
        }
        final CliRunner.Result ambiguous = CliRunner.run("query", "--store", dir.toString(), "--config",
            configFile.toString(), "sketch", "--id", "1", "--epoch", "0");
        assertEquals(2, ambiguous.exitCode());
        assertTrue(ambiguous.err().contains("--collector"), ambiguous.err());
        final JsonNode b = json(CliRunner.run("query", "--store", dir.toString(), "--config", configFile.toString(),
            "--collector", "b", "sketch", "--id", "1", "--epoch", "0", "--json"));
        assertEquals("hyperloglog", b.get("type").asText());
        assertEquals("absent", b.get("state").asText());
    }
}
