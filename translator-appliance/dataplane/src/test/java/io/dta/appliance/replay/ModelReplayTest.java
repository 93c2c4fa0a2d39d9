package io.dta.appliance.replay;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ConfigLoader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Acceptance test against an independent model: {@code model/dta_model.py} (Python, scapy) generates random
 * reports of every primitive in both base-header forms plus the collector's ATOMIC ACKs, and computes the RoCEv2
 * frames the translator must emit; the replay's output must match it byte for byte, per QP and in order.
 */
class ModelReplayTest
{
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    private Path dir;

    @ParameterizedTest
    @CsvSource({"20240601, 4, 3000", "7, 16, 1500", "99, 1, 1500"})
    void shouldMatchTheIndependentModelByteForByte(final long seed, final int batch, final int reports)
        throws Exception
    {
        // Kept under target/ so a failure can be inspected with tshark.
        dir = Files.createDirectories(Path.of("target", "model-replay", seed + "-" + batch));
        assumeTrue(Files.isExecutable(PYTHON), "/usr/bin/python3 missing");
        assumeTrue(0 == run(List.of(PYTHON.toString(), "-c", "import scapy.contrib.roce")), "scapy missing");
        final Path script = Path.of(getClass().getResource("/model/dta_model.py").toURI());
        final int rc = run(List.of(PYTHON.toString(), script.toString(), "--seed", Long.toString(seed),
            "--batch", Integer.toString(batch), "--reports", Integer.toString(reports), "--out", dir.toString()));
        assertEquals(0, rc, "model failed: " + Files.readString(dir.resolve("model.log")));

        final Path output = dir.resolve("output.pcap");
        final TranslatorEngine engine = Replay.run(ConfigLoader.load(dir.resolve("config.yaml")),
            dir.resolve("reports.pcap"), dir.resolve("responses.pcap"), output);

        final Map<String, List<byte[]>> expected = perQp(dir.resolve("expected.pcap"));
        final Map<String, List<byte[]>> actual = perQp(output);
        final String ctx = "seed=" + seed + " batch=" + batch + " (model output in " + dir + ")";
        assertEquals(expected.keySet(), actual.keySet(), ctx);
        for (final String qp : expected.keySet())
        {
            final List<byte[]> e = expected.get(qp);
            final List<byte[]> a = actual.get(qp);
            for (int i = 0; i < Math.min(e.size(), a.size()); i++)
            {
                if (!java.util.Arrays.equals(e.get(i), a.get(i)))
                {
                    fail(ctx + " QP " + qp + " frame " + i + " differs\nexpected " + hex(e.get(i)) +
                        "\nactual   " + hex(a.get(i)));
                }
            }
            assertEquals(e.size(), a.size(), ctx + " QP " + qp + " frame count");
        }
        final String summary = Files.readString(dir.resolve("summary.json"));
        assertTrue(engine.counters().get(EngineCounter.ATOMIC_ACKS_IN) > 0, summary);
        assertEquals(0, engine.counters().get(EngineCounter.PROBES_OUT), summary);
        assertEquals(0, engine.counters().get(EngineCounter.DROP_SEQUENCE_GAP), summary);
        assertEquals(0, engine.counters().get(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW), summary);
    }

    private int run(final List<String> command) throws IOException, InterruptedException
    {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(dir.resolve("model.log").toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS))
        {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    private static Map<String, List<byte[]>> perQp(final Path pcap) throws IOException
    {
        final Map<String, List<byte[]>> byQp = new TreeMap<>();
        try (PcapReader reader = PcapReader.open(pcap))
        {
            while (reader.next())
            {
                final byte[] frame = new byte[reader.capturedLength()];
                reader.buffer().getBytes(reader.offset(), frame);
                final String key = (frame[30] & 0xFF) + "." + (frame[31] & 0xFF) + "." + (frame[32] & 0xFF) + "." +
                    (frame[33] & 0xFF) + "/" + HexFormat.of().formatHex(frame, 47, 50);
                byQp.computeIfAbsent(key, k -> new ArrayList<>()).add(frame);
            }
        }
        return byQp;
    }

    private static String hex(final byte[] b)
    {
        return HexFormat.of().formatHex(b);
    }

}
