package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigFormat;
import io.dta.config.ConfigLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta config check} and {@code dta config show}: exit statuses, every problem with its key path, and an
 * effective configuration that loads again to the same one.
 */
class ConfigCommandTest
{
    /** The annotated example configuration the release archive ships under etc/. */
    static final Path EXAMPLE = Path.of("src/dist/etc/translator.yaml");

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void shouldAcceptTheExampleConfiguration()
    {
        final CliRunner.Result result = CliRunner.run("config", "check", "--config", EXAMPLE.toString());
        assertEquals(0, result.exitCode(), result.err());
        assertTrue(result.out().contains(": valid (1 collector, 5 regions)"), result.out());
    }

    @Test
    void shouldShipTheSchemaExampleWithCommentsOnly()
    {
        // The schema's example (a copy of it is the config module's test resource): the comments differ, not the values.
        assertEquals(ConfigLoader.load(Path.of("../../config/src/test/resources/translator.yaml")), ConfigLoader.load(EXAMPLE));
    }

    @Test
    void shouldListEveryProblemWithItsKeyPathAndExitTwo() throws Exception
    {
        final Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, Files.readString(EXAMPLE)
            .replace("dscp: 26", "dscp: 99")
            .replace("slotSize: 8", "slotSize: 8\n      colour: red"));
        final CliRunner.Result text = CliRunner.run("config", "check", "--config", bad.toString());
        assertEquals(2, text.exitCode());
        assertTrue(text.err().contains("invalid configuration (2 problems)"), text.err());
        assertTrue(text.err().contains("  translator.dscp: 99 is out of range 0..63"), text.err());
        assertTrue(text.err().contains("  collectors[0].keyWrite.colour: unknown key"), text.err());

        final CliRunner.Result json = CliRunner.run("config", "check", "--config", bad.toString(), "--json");
        assertEquals(2, json.exitCode());
        final JsonNode root = MAPPER.readTree(json.out());
        assertFalse(root.get("valid").asBoolean());
        final List<String> paths = new ArrayList<>();
        root.get("problems").forEach(p -> paths.add(p.get("path").asText()));
        assertEquals(List.of("translator.dscp", "collectors[0].keyWrite.colour"), paths);
        assertEquals("99 is out of range 0..63", root.get("problems").get(0).get("reason").asText());
    }

    @Test
    void shouldReportAFileThatCannotBeReadAsInvalid() throws Exception
    {
        final Path missing = dir.resolve("missing.yaml");
        final CliRunner.Result text = CliRunner.run("config", "check", "--config", missing.toString());
        assertEquals(2, text.exitCode());
        assertEquals("dta config check: cannot read " + missing + ": no such file or directory", text.err().strip());

        final JsonNode root = MAPPER.readTree(CliRunner.run("config", "check", "--config", missing.toString(), "--json").out());
        assertFalse(root.get("valid").asBoolean());
        assertEquals(missing.toString(), root.get("problems").get(0).get("path").asText());
    }

    @Test
    void shouldReportTheValidExampleAsJson() throws Exception
    {
        final CliRunner.Result json = CliRunner.run("config", "check", "--config", EXAMPLE.toString(), "--json");
        assertEquals(0, json.exitCode(), json.err());
        final JsonNode root = MAPPER.readTree(json.out());
        assertTrue(root.get("valid").asBoolean());
        assertEquals(5, root.get("regions").asInt());
        assertEquals(0, root.get("problems").size());
    }

    @Test
    void shouldShowTheEffectiveConfigurationThatLoadsToTheSameOne() throws Exception
    {
        for (final String format : new String[] { "yaml", "json" })
        {
            final CliRunner.Result shown = CliRunner.run("config", "show", "--config", EXAMPLE.toString(), "--format", format);
            assertEquals(0, shown.exitCode(), shown.err());
            final Path written = dir.resolve("effective." + format);
            Files.writeString(written, shown.out());
            assertEquals(ConfigLoader.load(EXAMPLE), ConfigLoader.load(written));
            assertEquals(0, CliRunner.run("config", "check", "--config", written.toString()).exitCode());
        }
        // Defaults the example leaves out are spelled out.
        final String yaml = CliRunner.run("config", "show", "--config", EXAMPLE.toString()).out();
        assertTrue(yaml.contains("nackPort: 40044"), yaml);
        assertTrue(yaml.contains("cacheEntries: 4096"), yaml);
    }

    @Test
    void shouldShowTheEmbeddedConfigurationWithoutAFile()
    {
        final CliRunner.Result shown = CliRunner.run("config", "show", "--format", "json");
        assertEquals(0, shown.exitCode(), shown.err());
        assertEquals(ConfigDefaults.load(), ConfigLoader.load(shown.out(), ConfigFormat.JSON));
    }

    @Test
    void shouldRefuseToShowAnInvalidConfiguration() throws Exception
    {
        final Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, Files.readString(EXAMPLE).replace("ttl: 64", "ttl: 0"));
        final CliRunner.Result shown = CliRunner.run("config", "show", "--config", bad.toString());
        assertEquals(2, shown.exitCode());
        assertEquals("", shown.out());
        assertTrue(shown.err().contains("translator.ttl: 0 is out of range 1..255"), shown.err());
    }
}
