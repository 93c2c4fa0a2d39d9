package io.dta.appliance.cli;

import io.dta.appliance.engine.TestFrames;
import io.dta.codec.DtaOpcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An {@code --out} (or {@code --truth}) naming the {@code --config} file is refused before anything is written: a
 * mistyped option must not replace the operator's configuration with a capture.
 */
class OutputOverConfigurationTest
{
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = { "replay", "collector", "gen", "gen-truth" })
    void shouldRefuseToWriteOverTheConfiguration(final String command) throws Exception
    {
        final Path config = dir.resolve("translator.yaml");
        try (InputStream embedded = getClass().getResourceAsStream("/default-translator.yaml"))
        {
            Files.write(config, embedded.readAllBytes());
        }
        final byte[] before = Files.readAllBytes(config);
        final Path in = dir.resolve("in.pcap");
        PcapFiles.write(in, TestFrames.report(DtaOpcode.KEY_WRITE, TestFrames.keyWrite(1, 7, new byte[4])));
        final List<String> args = switch (command)
        {
            case "replay" -> List.of("replay", "--config", config.toString(), "--in", in.toString(), "--out",
                config.toString());
            case "collector" -> List.of("collector", "--config", config.toString(), "--in", in.toString(), "--out",
                config.toString(), "--store", dir.resolve("store").toString());
            case "gen" -> List.of("gen", "--config", config.toString(), "--reports", "10", "--out",
                config.toString());
            default -> List.of("gen", "--config", config.toString(), "--reports", "10", "--out",
                dir.resolve("gen.pcap").toString(), "--truth", config.toString());
        };

        final CliRunner.Result r = CliRunner.run(args.toArray(new String[0]));

        assertTrue(0 != r.exitCode(), command + " exit 0: " + r.err());
        assertTrue(r.err().contains("would overwrite its input " + config), r.err());
        assertArrayEquals(before, Files.readAllBytes(config), "the configuration is untouched");
        assertEquals(false, Files.exists(dir.resolve("gen.pcap")), "nothing written");
    }
}
