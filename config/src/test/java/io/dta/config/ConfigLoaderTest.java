package io.dta.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigLoaderTest
{
    static final String MINIMAL = """
        translator:
          mac: "02:00:00:00:00:01"
          ip: 192.168.1.1
        collectors:
          - mac: "02:00:00:00:00:02"
            ip: 192.168.1.2
            keyWrite:
              localQpn: 100
              qpn: 200
              rkey: 7
              address: 0x1000
              length: 1024
        """;

    @Test
    void shouldLoadTheExampleUnchangedWithEveryValue()
    {
        final ApplianceConfig config = ConfigLoader.load(ConfigTestSupport.resource("translator.yaml"),
            ConfigFormat.YAML);

        assertEquals(new TranslatorConfig(0x02000a000065L, 0x0a000065, 26, 0, 64, 0xffff), config.translator());
        assertEquals(new ReportsConfig(40040, BaseHeader.THREE, false, 40044, 100_000), config.reports());
        assertEquals(new RedundancyConfig(4), config.redundancy());
        assertEquals(new AppendConfig(4, 1000), config.append());
        assertEquals(new PostcardsConfig(5, 1000, 4096), config.postcards());
        assertEquals(new AcksConfig(64, 500), config.acks());
        assertEquals(new ResyncConfig(1000, 0), config.resync());
        assertEquals(new EssentialConfig(1024), config.essential());
        assertEquals(1, config.collectors().size());

        final CollectorConfig c = config.collectors().get(0);
        assertEquals("collector-a", c.name());
        assertEquals(0x02000a000033L, c.mac());
        assertEquals(0x0a000033, c.ip());
        assertEquals(1024, c.pathMtu());
        assertEquals(new KeyWriteConfig(new RegionConfig("collectors[0].keyWrite", 0x539, 0x456, 0x1234,
            0x00007f0000000000L, 2048, 0x100, 0xC000 | 0x539), 8), c.keyWrite());
        assertEquals(256, c.keyWrite().slots());
        assertEquals(new KeyIncrementConfig(new RegionConfig("collectors[0].keyIncrement", 0x53a, 0x457, 0x1235,
            0x00007f0000100000L, 2048, 0x200, 0xC53a), 16, 1024), c.keyIncrement());
        assertEquals(new PostcardStoreConfig(new RegionConfig("collectors[0].postcards", 0x53b, 0x458, 0x1236,
            0x00007f0000200000L, 8192, 0x300, 0xC53b)), c.postcards());
        assertEquals(256, c.postcards().slots());
        assertEquals(List.of(
            new ListConfig(0, new RegionConfig("collectors[0].lists[0]", 0x53c, 0x459, 0x1237,
                0x00007f0000300000L, 1024, 0x400, 0xC53c), ListLayout.REFERENCE),
            new ListConfig(1, new RegionConfig("collectors[0].lists[1]", 0x53d, 0x45a, 0x1238,
                0x00007f0000400000L, 4096, 0x500, 0xC53d), ListLayout.SEQUENCED)), c.lists());
        assertTrue(c.sketches().isEmpty());
        assertEquals(5, c.regions().size());
    }

    @Test
    void shouldLoadTheExampleFileFromDiskByExtension(@TempDir final Path dir) throws IOException
    {
        final Path yaml = dir.resolve("translator.yaml");
        Files.writeString(yaml, ConfigTestSupport.resource("translator.yaml"), StandardCharsets.UTF_8);
        final Path json = dir.resolve("translator.json");
        Files.writeString(json, ConfigTestSupport.resource("translator.json"), StandardCharsets.UTF_8);
        final Path sniffed = dir.resolve("translator.conf");
        Files.writeString(sniffed, ConfigTestSupport.resource("translator.json"), StandardCharsets.UTF_8);

        final ApplianceConfig fromYaml = ConfigLoader.load(yaml);
        assertEquals(fromYaml, ConfigLoader.load(json));
        assertEquals(fromYaml, ConfigLoader.load(sniffed));
    }

    @Test
    void shouldLoadTheSharedExampleUnchangedWhenPresent()
    {
        // The module runs in <project>/config; the shared folder stands beside the project.
        final Path shared = Path.of("..", "..", "shared", "examples", "translator.yaml");
        if (Files.isReadable(shared))
        {
            assertEquals(ConfigLoader.load(ConfigTestSupport.resource("translator.yaml")), ConfigLoader.load(shared));
        }
    }

    @Test
    void shouldRefuseAMissingFileWithItsPath(@TempDir final Path dir)
    {
        final Path missing = dir.resolve("nope.yaml");
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(missing));
        assertEquals(List.of(missing + ": cannot read: no such file or directory"), ex.problems());
    }

    @Test
    void shouldSayPlainlyWhyAFileCannotBeRead(@TempDir final Path dir) throws IOException
    {
        final ConfigException directory = assertThrows(ConfigException.class, () -> ConfigLoader.load(dir));
        assertEquals(List.of(dir + ": cannot read: is a directory"), directory.problems());

        final Path latin1 = dir.resolve("latin1.yaml");
        Files.write(latin1, new byte[]{'n', 'a', 'm', 'e', ':', ' ', (byte)0xE9, '\n'});
        final ConfigException notUtf8 = assertThrows(ConfigException.class, () -> ConfigLoader.load(latin1));
        assertEquals(List.of(latin1 + ": cannot read: not UTF-8 text: byte 0xe9 at line 1, byte offset 6 (byte 7 of " +
            "the line)"), notUtf8.problems());
    }

    @Test
    void shouldLoadTheJsonEquivalentToTheSameSettings()
    {
        assertEquals(
            ConfigLoader.load(ConfigTestSupport.resource("translator.yaml"), ConfigFormat.YAML),
            ConfigLoader.load(ConfigTestSupport.resource("translator.json"), ConfigFormat.JSON));
    }

    @Test
    void shouldIgnoreAByteOrderMarkInJsonAsInYaml(@TempDir final Path dir) throws IOException
    {
        final String json = ConfigTestSupport.resource("translator.json");
        final Path file = dir.resolve("bom.json");
        Files.writeString(file, "\uFEFF" + json, StandardCharsets.UTF_8);
        assertEquals(ConfigLoader.load(json, ConfigFormat.JSON), ConfigLoader.load(file));
        assertEquals(ConfigLoader.load(json, ConfigFormat.JSON), ConfigLoader.load("\uFEFF" + json));
    }

    @Test
    void shouldTakeAPostcardCacheSize()
    {
        final ApplianceConfig config = ConfigLoader.load(MINIMAL + """
            postcards:
              cacheEntries: 0x10000
            """);

        assertEquals(new PostcardsConfig(5, 1000, 65536), config.postcards());
    }

    @Test
    void shouldApplyDefaultsForOmittedKeys()
    {
        final ApplianceConfig config = ConfigLoader.load(MINIMAL);

        assertEquals(new TranslatorConfig(0x020000000001L, 0xc0a80101, 0, 0, 64, 0xFFFF), config.translator());
        assertEquals(new ReportsConfig(40040, BaseHeader.THREE, false, 40044, 100_000), config.reports());
        assertEquals(new RedundancyConfig(4), config.redundancy());
        assertEquals(new AppendConfig(4, 1000), config.append());
        assertEquals(new PostcardsConfig(5, 1000, 4096), config.postcards());
        assertEquals(new AcksConfig(64, 500), config.acks());
        assertEquals(new ResyncConfig(1000, 0), config.resync());
        assertEquals(new EssentialConfig(1024), config.essential());
        final CollectorConfig c = config.collectors().get(0);
        assertEquals("collector-0", c.name());
        assertEquals(1024, c.pathMtu());
        assertEquals(8, c.keyWrite().slotSize());
        assertEquals(0, c.keyWrite().region().startPsn());
        assertEquals(0xC000 | 100, c.keyWrite().region().udpSourcePort());
        assertNull(c.keyIncrement());
        assertNull(c.postcards());
        assertTrue(c.lists().isEmpty());
    }

    @Test
    void shouldTakeAKeyWithNoValueInYamlAsAbsentLikeTilde()
    {
        // YAML reads "key:" with nothing after it as null, exactly like "key: ~": a section whose keys were all
        // commented out must take its defaults, not be refused as the empty string.
        final String emptySections = MINIMAL.replace("translator:", """
            reports:
            #  udpPort: 40040
            acks:
            translator:""").replace("  ip: 192.168.1.1", "  ip: 192.168.1.1\n  dscp:");
        assertEquals(ConfigLoader.load(MINIMAL), ConfigLoader.load(emptySections));

        final ConfigException noMac = assertThrows(ConfigException.class,
            () -> ConfigLoader.load(MINIMAL.replace("mac: \"02:00:00:00:00:01\"", "mac:")));
        assertEquals(List.of("translator.mac: required"), noMac.problems());

        final ConfigException noCollectors = assertThrows(ConfigException.class,
            () -> ConfigLoader.load(MINIMAL.substring(0, MINIMAL.indexOf("  - mac"))));
        assertEquals(List.of("collectors: required; at least one collector is required"), noCollectors.problems());

        // A quoted empty string is a value, and refused as one.
        final ConfigException quoted = assertThrows(ConfigException.class,
            () -> ConfigLoader.load(MINIMAL.replace("ip: 192.168.1.1", "ip: 192.168.1.1\n  dscp: \"\"")));
        assertEquals(List.of("translator.dscp: expected an integer (decimal or 0x-hex), got \"\""), quoted.problems());

        final ConfigException emptyMac = assertThrows(ConfigException.class,
            () -> ConfigLoader.load(MINIMAL.replace("mac: \"02:00:00:00:00:01\"", "mac: \"\"")));
        assertEquals(List.of("translator.mac: \"\" is not a MAC address (aa:bb:cc:dd:ee:ff; quote it in YAML)"),
            emptyMac.problems());
        final ConfigException blankIp = assertThrows(ConfigException.class,
            () -> ConfigLoader.load(MINIMAL.replace("ip: 192.168.1.1", "ip: \" \"")));
        assertEquals(List.of("translator.ip: \" \" is not a dotted-quad IPv4 address"), blankIp.problems());
    }

    @Test
    void shouldApplyRegionDefaultsForStoresListsAndSketches()
    {
        final ApplianceConfig config = ConfigLoader.load(ConfigTestSupport.exampleWith(
            "collectors[0].lists[0].layout", ConfigTestSupport.REMOVE,
            "collectors[0].keyIncrement.maxOutstandingAtomics", ConfigTestSupport.REMOVE,
            "collectors[0].sketches[0]", ConfigTestSupport.sketch("hyperloglog", 0, 4, 256)), ConfigFormat.JSON);

        final CollectorConfig c = config.collectors().get(0);
        assertEquals(ListLayout.SEQUENCED, c.lists().get(0).layout());
        assertEquals(16, c.keyIncrement().maxOutstandingAtomics());
        assertEquals(1024, c.keyIncrement().atomicQueueSize());
        final SketchConfig sketch = c.sketches().get(0);
        assertEquals(new SketchConfig(7, SketchType.HYPERLOGLOG, 1, 4, 1, 4, 2, 1_000_000,
            new RegionConfig("collectors[0].sketches[0]", 0x600, 0x601, 0x99, 0x7f0000800000L, 256, 0, 0xC600)),
            sketch);
        assertEquals(80, sketch.epochBytes());
    }

    @Test
    void shouldReadHexAndDecimalAlike()
    {
        final String hex = MINIMAL.replace("localQpn: 100", "localQpn: 0x64").replace("qpn: 200", "qpn: \"0xC8\"")
            .replace("rkey: 7", "rkey: 0x00000007").replace("address: 0x1000", "address: \"4096\"")
            .replace("length: 1024", "length: 0x400");
        final String decimal = MINIMAL.replace("address: 0x1000", "address: 4096");
        assertTrue(!hex.equals(MINIMAL) && !decimal.equals(MINIMAL));

        assertEquals(ConfigLoader.load(MINIMAL), ConfigLoader.load(hex));
        assertEquals(ConfigLoader.load(MINIMAL), ConfigLoader.load(decimal));
        assertEquals(0x1000, ConfigLoader.load(hex).collectors().get(0).keyWrite().region().address());
    }

    @Test
    void shouldReadFullWidthUnsignedValues()
    {
        final ApplianceConfig config = ConfigLoader.load(MINIMAL
            .replace("rkey: 7", "rkey: 0xffffffff")
            .replace("address: 0x1000", "address: 0xfffffffffffffc00")
            .replace("localQpn: 100", "localQpn: 0xfffffe\n      startPsn: 0xffffff"));

        final RegionConfig region = config.collectors().get(0).keyWrite().region();
        assertEquals(0xffffffffL, region.rkey());
        assertEquals(0xfffffffffffffc00L, region.address());
        assertEquals(0xfffffe, region.localQpn());
        assertEquals(0xffffff, region.startPsn());
        assertEquals(0, region.end());
    }

    @Test
    void shouldAcceptEveryBaseHeaderSpelling()
    {
        final String[][] cases = {
            { "\"3\"", "THREE" }, { "3", "THREE" }, { "\"2\"", "TWO" }, { "2", "TWO" }, { "auto", "AUTO" },
            { "\"auto\"", "AUTO" } };
        for (final String[] c : cases)
        {
            final ApplianceConfig config = ConfigLoader.load(MINIMAL + "reports:\n  baseHeader: " + c[0] + "\n");
            assertEquals(BaseHeader.valueOf(c[1]), config.reports().baseHeader(), c[0]);
        }
    }

    @Test
    void shouldAcceptAnUnquotedMacInYaml()
    {
        final ApplianceConfig config = ConfigLoader.load(MINIMAL.replace("\"02:00:00:00:00:01\"", "02:00:00:00:00:01")
            .replace("\"02:00:00:00:00:02\"", "12:34:56:78:9a:bc"));
        assertEquals(0x020000000001L, config.translator().mac());
        assertEquals(0x123456789abcL, config.collectors().get(0).mac());
    }

    @Test
    void shouldLoadTheEmbeddedDefaultConfiguration()
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final CollectorConfig c = config.collectors().get(0);
        assertEquals("demo-collector", c.name());
        assertEquals(2, c.lists().size());
        assertEquals(ListLayout.REFERENCE, c.lists().get(0).layout());
        assertEquals(List.of(SketchType.COUNT_MIN, SketchType.COUNT_SKETCH, SketchType.HYPERLOGLOG),
            c.sketches().stream().map(SketchConfig::type).toList());
        assertEquals(8, c.regions().size());
        assertEquals(8192, c.keyWrite().slots());
        assertEquals(8192, c.keyIncrement().slots());
    }
}
