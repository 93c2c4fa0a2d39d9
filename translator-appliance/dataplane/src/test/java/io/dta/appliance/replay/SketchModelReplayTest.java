package io.dta.appliance.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ConfigLoader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
 * Sketch-Merge against an independent model: {@code model/sketch_model.py} simulates switches sending their
 * sketches (interleaved, overlapping epochs, duplicates, gaps with rewinds, missing switches, epochs taking an
 * open epoch's area, malformed and stale columns, counters near the saturation bounds) and computes every frame
 * an open-loop replay must emit: the WRITEs of each sketch QP and the NACKs to each switch, byte for byte and in
 * order, plus the counters. The model also checks that the collector memory those WRITEs build holds the
 * element-wise merge of what the switches contributed. The model also times the NACK retries (re-sent NACKs and
 * given-up gaps) and the tail NACKs (switches that lost their last columns and went silent), so their frames and
 * counters are compared too; some of its switches lose their tails and resend them when a timer NACK reaches
 * them, and the model checks that those switches then contributed every column.
 */
class SketchModelReplayTest
{
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    private Path dir;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 20240601, 77})
    void shouldMatchTheIndependentSketchModelByteForByte(final long seed) throws Exception
    {
        dir = Files.createDirectories(Path.of("target", "sketch-model-replay", Long.toString(seed)));
        assumeTrue(Files.isExecutable(PYTHON), "/usr/bin/python3 missing");
        assumeTrue(0 == run(List.of(PYTHON.toString(), "-c", "import scapy.contrib.roce")), "scapy missing");
        final Path script = Path.of(getClass().getResource("/model/sketch_model.py").toURI());
        final int rc = run(List.of(PYTHON.toString(), script.toString(), "--seed", Long.toString(seed),
            "--out", dir.toString()));
        assertEquals(0, rc, "model failed: " + Files.readString(dir.resolve("model.log")));

        final Path output = dir.resolve("output.pcap");
        final TranslatorEngine engine = Replay.run(ConfigLoader.load(dir.resolve("config.yaml")),
            dir.resolve("reports.pcap"), null, output);

        final String ctx = "seed=" + seed + " (model output in " + dir + ")";
        final Map<String, List<byte[]>> expected = perStream(dir.resolve("expected.pcap"));
        final Map<String, List<byte[]>> actual = perStream(output);
        assertEquals(expected.keySet(), actual.keySet(), ctx);
        for (final String stream : expected.keySet())
        {
            final List<byte[]> e = expected.get(stream);
            final List<byte[]> a = actual.get(stream);
            for (int i = 0; i < Math.min(e.size(), a.size()); i++)
            {
                if (!java.util.Arrays.equals(e.get(i), a.get(i)))
                {
                    fail(ctx + " " + stream + " frame " + i + " differs\nexpected " + hex(e.get(i)) +
                        "\nactual   " + hex(a.get(i)));
                }
            }
            assertEquals(e.size(), a.size(), ctx + " " + stream + " frame count");
        }

        final JsonNode summary = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
        final Map<String, EngineCounter> names = new TreeMap<>(Map.ofEntries(
            Map.entry("reports", EngineCounter.REPORTS_IN),
            Map.entry("merged", EngineCounter.SKETCH_COLUMNS_MERGED),
            Map.entry("badRows", EngineCounter.DROP_SKETCH_BAD_ROWS),
            Map.entry("badSwitch", EngineCounter.DROP_SKETCH_BAD_SWITCH),
            Map.entry("badColumn", EngineCounter.DROP_SKETCH_BAD_COLUMN),
            Map.entry("staleEpoch", EngineCounter.DROP_SKETCH_STALE_EPOCH),
            Map.entry("epochClosed", EngineCounter.DROP_SKETCH_EPOCH_CLOSED),
            Map.entry("duplicate", EngineCounter.DROP_SKETCH_DUPLICATE),
            Map.entry("gap", EngineCounter.DROP_SKETCH_GAP),
            Map.entry("nacks", EngineCounter.SKETCH_NACKS_OUT),
            Map.entry("nackRetries", EngineCounter.SKETCH_NACK_RETRIES),
            Map.entry("gapsAbandoned", EngineCounter.SKETCH_NACK_GAPS_ABANDONED),
            Map.entry("tailNacks", EngineCounter.SKETCH_TAIL_NACKS),
            Map.entry("noRoute", EngineCounter.DROP_NO_ROUTE),
            Map.entry("columnWrites", EngineCounter.SKETCH_COLUMN_WRITES),
            Map.entry("opened", EngineCounter.SKETCH_EPOCHS_OPENED),
            Map.entry("completed", EngineCounter.SKETCH_EPOCHS_COMPLETED),
            Map.entry("timedOut", EngineCounter.SKETCH_EPOCHS_TIMED_OUT),
            Map.entry("superseded", EngineCounter.SKETCH_EPOCHS_SUPERSEDED),
            Map.entry("flushed", EngineCounter.SKETCH_EPOCHS_FLUSHED),
            Map.entry("saturated", EngineCounter.SKETCH_CELLS_SATURATED)));
        for (final Map.Entry<String, EngineCounter> e : names.entrySet())
        {
            assertEquals(summary.get(e.getKey()).asLong(), engine.counters().get(e.getValue()),
                ctx + " counter " + e.getKey() + " / " + e.getValue());
        }
        assertEquals(summary.get("merged").asLong(), engine.counters().get(EngineCounter.REPORTS_TRANSLATED), ctx);
        assertEquals(0, engine.counters().get(EngineCounter.DROP_BACKLOG_FULL), ctx);
        assertTrue(summary.get("cellsChecked").asLong() > 0, ctx);
        assertTrue(summary.get("tailsRecovered").asLong() > 0, ctx + ": the traffic recovers lost tails");
        for (final var sender : engine.senders())
        {
            // Open loop: nothing will answer, so a sent essential WRITE must not keep its ring entry.
            assertEquals(0, sender.essentialBacklog(), ctx + " " + sender.path().name());
        }
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

    /**
     * RoCEv2 frames keyed by collector IP and DestQP; anything else (the NACKs) by destination IP and UDP port.
     */
    private static Map<String, List<byte[]>> perStream(final Path pcap) throws IOException
    {
        final Map<String, List<byte[]>> byStream = new TreeMap<>();
        try (PcapReader reader = PcapReader.open(pcap))
        {
            while (reader.next())
            {
                final byte[] frame = new byte[reader.capturedLength()];
                reader.buffer().getBytes(reader.offset(), frame);
                final String ip = (frame[30] & 0xFF) + "." + (frame[31] & 0xFF) + "." + (frame[32] & 0xFF) + "." +
                    (frame[33] & 0xFF);
                final int dport = ((frame[36] & 0xFF) << 8) | (frame[37] & 0xFF);
                final String key = 4791 == dport ? ip + "/qp " + HexFormat.of().formatHex(frame, 47, 50) :
                    ip + "/udp " + dport;
                byStream.computeIfAbsent(key, k -> new ArrayList<>()).add(frame);
            }
        }
        return byStream;
    }

    private static String hex(final byte[] b)
    {
        return HexFormat.of().formatHex(b);
    }
}
