package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.engine.TestFrames;
import io.dta.codec.DtaOpcode;
import io.dta.codec.pcap.PcapReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DecodeCommandTest
{
    private static final Path VECTORS = Path.of("..", "..", "roce-codec", "src", "test", "resources", "vectors");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static List<JsonNode> jsonLines(final String out) throws IOException
    {
        final List<JsonNode> nodes = new ArrayList<>();
        for (final String line : out.split("\n"))
        {
            if (!line.isBlank())
            {
                nodes.add(JSON.readTree(line));
            }
        }
        return nodes;
    }

    private JsonNode decodeOne(final String file) throws IOException
    {
        final CliRunner.Result r = CliRunner.run("decode", "--json", VECTORS.resolve(file).toString());
        assertEquals(0, r.exitCode(), r.err());
        final List<JsonNode> nodes = jsonLines(r.out());
        assertEquals(1, nodes.size(), r.out());
        return nodes.get(0);
    }

    @Test
    void shouldDecodeWriteOnlyVectorWithEveryField() throws IOException
    {
        final JsonNode n = decodeOne("rocev2_write_only.pcap");
        assertEquals(1, n.get("index").asInt());
        assertEquals("roce", n.get("kind").asText());
        assertEquals(0x0A, n.get("opcode").asInt());
        assertEquals(0x112, n.get("destQp").asInt());
        assertEquals(0x123456, n.get("psn").asInt());
        assertTrue(n.get("ackReq").asBoolean());
        assertTrue(n.get("icrcOk").asBoolean());
        assertTrue(n.get("ipChecksumOk").asBoolean());
        assertEquals(0x00007F1234560040L, n.get("va").asLong());
        assertEquals(0x00A1B2C3L, n.get("rkey").asLong());
        assertEquals(13, n.get("dmaLength").asInt());
        assertEquals("68656c6c6f2c20726f63657632", n.get("payload").asText());
        assertEquals(3, n.get("padCount").asInt());
    }

    @Test
    void shouldDecodeFetchAddVector() throws IOException
    {
        final JsonNode n = decodeOne("rocev2_fetch_add.pcap");
        assertEquals(0x14, n.get("opcode").asInt());
        assertEquals(0x123457, n.get("psn").asInt());
        assertEquals(0x00007F1234560100L, n.get("va").asLong());
        assertEquals(1, n.get("addData").asLong());
        assertEquals(0, n.get("compareData").asLong());
        assertTrue(n.get("icrcOk").asBoolean());
    }

    @Test
    void shouldDecodeAckNakAndAtomicAckVectors() throws IOException
    {
        final JsonNode ack = decodeOne("rocev2_ack.pcap");
        assertEquals(0x11, ack.get("opcode").asInt());
        assertEquals(0x77, ack.get("destQp").asInt());
        assertEquals(0x1F, ack.get("aethSyndrome").asInt());
        assertEquals(1, ack.get("msn").asInt());
        assertTrue(ack.get("icrcOk").asBoolean());

        final JsonNode nak = decodeOne("rocev2_nak_seq_err.pcap");
        assertEquals(0x60, nak.get("aethSyndrome").asInt());
        assertEquals(0x123457, nak.get("psn").asInt());
        assertTrue(nak.get("icrcOk").asBoolean());

        final JsonNode atomicAck = decodeOne("rocev2_atomic_ack.pcap");
        assertEquals(0x12, atomicAck.get("opcode").asInt());
        assertEquals(2, atomicAck.get("msn").asInt());
        assertEquals(5, atomicAck.get("originalValue").asLong());
        assertTrue(atomicAck.get("icrcOk").asBoolean());
    }

    @Test
    void shouldReportBadIcrcAndBadChecksumWithoutFailing() throws IOException
    {
        final byte[] pcap = Files.readAllBytes(VECTORS.resolve("rocev2_write_only.pcap"));
        final byte[] corrupted = pcap.clone();
        corrupted[corrupted.length - 5] ^= 0x01;
        corrupted[40 + 24] ^= 0x01;
        final Path file = dir.resolve("bad.pcap");
        Files.write(file, corrupted);
        final CliRunner.Result r = CliRunner.run("decode", "--json", file.toString());
        assertEquals(0, r.exitCode());
        final JsonNode n = jsonLines(r.out()).get(0);
        assertFalse(n.get("icrcOk").asBoolean());
        assertFalse(n.get("ipChecksumOk").asBoolean());
    }

    @Test
    void shouldDecodeDtaReportsOfBothBaseHeaderForms() throws IOException
    {
        final byte[] keyWrite3 = HexFormat.of().parseHex(
            "b8cef6d212c7000000000000080045000028000100004011" + "65ca0a0000c80a0000339c699c680014b0f3010000040000000100000001");
        final byte[] append2 = HexFormat.of().parseHex(
            "b8cef6d212c70000000000000800450000260001000040116" + "5cc0a0000c80a0000339c699c680012000002800000000700000009");
        final Path file = dir.resolve("reports.pcap");
        PcapFiles.write(file, keyWrite3, append2, new byte[] { 1, 2, 3 });
        final CliRunner.Result r = CliRunner.run("decode", "--json", file.toString());
        assertEquals(0, r.exitCode(), r.err());
        final List<JsonNode> nodes = jsonLines(r.out());
        assertEquals(3, nodes.size());
        final JsonNode kw = nodes.get(0);
        assertEquals("dta", kw.get("kind").asText());
        assertEquals("keywrite", kw.get("primitive").asText());
        assertEquals(1, kw.get("opcode").asInt());
        assertEquals(0, kw.get("seqnum").asInt());
        assertEquals(4, kw.get("redundancy").asInt());
        assertEquals(1, kw.get("key").asLong());
        assertEquals(1, kw.get("data").asLong());
        final JsonNode ap = nodes.get(1);
        assertEquals("append", ap.get("primitive").asText());
        assertEquals(2, ap.get("baseHeader").asInt());
        assertFalse(ap.has("seqnum"));
        assertEquals(0x80, ap.get("flags").asInt());
        assertEquals(7, ap.get("listId").asLong());
        assertEquals(9, ap.get("data").asLong());
        assertEquals("malformed", nodes.get(2).get("kind").asText());
        assertTrue(nodes.get(2).get("error").asText().contains("TRUNCATED_ETHERNET"));
    }

    @Test
    void shouldReadReportsAsTheConfiguredTranslatorDoes() throws IOException
    {
        final String yaml;
        try (InputStream embedded = getClass().getResourceAsStream("/default-translator.yaml"))
        {
            yaml = new String(embedded.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(yaml.contains("slotSize: 8"));
        final Path config = dir.resolve("slot16.yaml");
        Files.writeString(config, yaml.replace("slotSize: 8", "slotSize: 16"));
        final Path file = dir.resolve("keywrite16.pcap");
        PcapFiles.write(file, TestFrames.report(DtaOpcode.KEY_WRITE,
            TestFrames.keyWrite(1, 7, new byte[12])));

        final List<JsonNode> plain = jsonLines(CliRunner.run("decode", "--json", file.toString()).out());
        assertEquals("malformed", plain.get(0).get("kind").asText(), "12 data bytes are no slot of size 8");
        final CliRunner.Result configured = CliRunner.run("decode", "--json", "--config", config.toString(),
            file.toString());
        assertEquals(0, configured.exitCode(), configured.err());
        final JsonNode kw = jsonLines(configured.out()).get(0);
        assertEquals("keywrite", kw.get("primitive").asText(), kw.toString());
        assertEquals(3, kw.get("baseHeader").asInt(), kw.toString());

        final CliRunner.Result both = CliRunner.run("decode", "--config", config.toString(), "--base-header", "2",
            file.toString());
        assertEquals(2, both.exitCode());
        assertTrue(both.err().contains("--base-header and --config contradict each other"), both.err());
    }

    @Test
    void shouldGiveTheTimestampInWholeNanosecondsForParsersOfDoubles() throws IOException
    {
        final Path file = dir.resolve("one.pcap");
        PcapFiles.write(file, new byte[] { 1, 2, 3 });
        final JsonNode frame = jsonLines(CliRunner.run("decode", "--json", file.toString()).out()).get(0);
        assertEquals(1_700_000_000_000_000_000L, frame.get("timeNanos").asLong(), frame.toString());
        assertTrue(frame.get("timeNanos").isIntegralNumber());
    }

    @Test
    void shouldPrintOneLinePerFrameAndASummary()
    {
        final CliRunner.Result r = CliRunner.run("decode", VECTORS.resolve("rocev2_ack.pcap").toString());
        assertEquals(0, r.exitCode());
        assertTrue(r.out().contains("RC_ACKNOWLEDGE"), r.out());
        assertTrue(r.out().contains("icrc=ok"), r.out());
        assertTrue(r.out().contains("1 frames: 0 dta, 1 roce, 0 other, 0 malformed; 0 bad ICRC"), r.out());
    }

    @Test
    void shouldRefuseAFileThatIsNotAPcap() throws IOException
    {
        final Path file = dir.resolve("not.pcap");
        Files.writeString(file, "hello, this is not a capture at all");
        final CliRunner.Result r = CliRunner.run("decode", file.toString());
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains("byte offset 0"), r.err());
        final CliRunner.Result missing = CliRunner.run("decode", dir.resolve("missing.pcap").toString());
        assertEquals(1, missing.exitCode());
        assertTrue(missing.err().contains("missing.pcap"), missing.err());
    }

    /**
     * Was "exit 1, truncated": a capture cut short inside its last record now prints every whole frame, then the
     * summary, then one warning, and exits 0, as tshark reads it.
     */
    @Test
    void shouldPrintEveryWholeFrameOfACaptureCutShortThenWarn() throws IOException
    {
        final List<byte[]> frames = new ArrayList<>();
        for (final String vector :
            new String[] { "rocev2_write_only.pcap", "rocev2_ack.pcap", "rocev2_fetch_add.pcap" })
        {
            try (PcapReader reader = PcapReader.open(VECTORS.resolve(vector)))
            {
                assertTrue(reader.next());
                final byte[] frame = new byte[reader.capturedLength()];
                reader.buffer().getBytes(reader.offset(), frame);
                frames.add(frame);
            }
        }
        final Path full = dir.resolve("full.pcap");
        PcapFiles.write(full, frames.toArray(new byte[0][]));
        final long lastAt = 24 + 16 + frames.get(0).length + 16 + frames.get(1).length;
        final byte[] bytes = Files.readAllBytes(full);
        final Path file = dir.resolve("cut.pcap");
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 10));

        final CliRunner.Result r = CliRunner.run("decode", file.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("RDMA_WRITE_ONLY"), r.out());
        assertTrue(r.out().contains("RC_ACKNOWLEDGE"), r.out());
        assertFalse(r.out().contains("FETCH_ADD"), r.out());
        assertTrue(r.out().contains("2 frames: 0 dta, 2 roce, 0 other, 0 malformed; 0 bad ICRC"), r.out());
        assertEquals(List.of("dta decode: warning: " + file + " appears to have been cut short in the middle of a " +
            "packet at byte offset " + lastAt + " (the 2 whole packets before it were read)"),
            r.err().lines().toList());

        final CliRunner.Result json = CliRunner.run("decode", "--json", file.toString());
        assertEquals(0, json.exitCode(), json.err());
        assertEquals(2, jsonLines(json.out()).size(), json.out());
        assertEquals(1, json.err().lines().count(), json.err());

        final Path damaged = dir.resolve("damaged.pcap");
        final byte[] corrupt = bytes.clone();
        // The second record's captured length above the sanity cap: damage, not a cut, still refused.
        java.nio.ByteBuffer.wrap(corrupt).order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .putInt(24 + 16 + frames.get(0).length + 8, 300_000);
        Files.write(damaged, corrupt);
        final CliRunner.Result refused = CliRunner.run("decode", damaged.toString());
        assertEquals(1, refused.exitCode());
        assertTrue(refused.err().contains("sanity cap"), refused.err());
    }

    @Test
    void shouldRefuseAPortOutOfRangeAndKeyWriteDataOfNoSlotSize()
    {
        final String file = VECTORS.resolve("rocev2_ack.pcap").toString();
        for (final String port : new String[] { "70000", "-1", "65536" })
        {
            final CliRunner.Result r = CliRunner.run("decode", file, "--dta-port", port);
            assertEquals(2, r.exitCode(), port + ": " + r.out());
            assertTrue(r.err().startsWith("dta decode: --dta-port"), r.err());
        }
        for (final String length : new String[] { "8", "16", "20", "24", "0" })
        {
            final CliRunner.Result r = CliRunner.run("decode", file, "--keywrite-data", length);
            assertEquals(2, r.exitCode(), length + ": " + r.out());
            assertTrue(r.err().startsWith("dta decode: --keywrite-data"), r.err());
        }
        assertEquals(0, CliRunner.run("decode", file, "--dta-port", "65535", "--keywrite-data", "12").exitCode());
    }

    @Test
    void shouldDecodeTheSketchMergeSubHeaderAndCounters() throws IOException
    {
        // Sketch-Merge, 3-byte form, seqnum 7: sketch 3, switch 2, epoch 9, column 17, 2 rows: 12 and -1.
        final byte[] sketch = HexFormat.of().parseHex("02000a00003302000a00020108004500003300010000401164860a000201" +
            "0a0000339c699c68001f00000507000003000200000009001102000000000cffffffff");
        final Path file = dir.resolve("sketch.pcap");
        PcapFiles.write(file, sketch);
        final CliRunner.Result r = CliRunner.run("decode", "--json", file.toString());
        assertEquals(0, r.exitCode(), r.err());
        final JsonNode column = jsonLines(r.out()).get(0);
        assertEquals("sketch", column.get("primitive").asText(), r.out());
        assertEquals(7, column.get("seqnum").asInt());
        assertEquals(3, column.get("sketchId").asInt(), r.out());
        assertEquals(2, column.get("switchId").asInt());
        assertEquals(9, column.get("epoch").asLong());
        assertEquals(17, column.get("column").asInt());
        assertEquals(2, column.get("rows").asInt());
        assertEquals(12, column.get("cells").get(0).asLong());
        assertEquals(0xFFFF_FFFFL, column.get("cells").get(1).asLong());
        final CliRunner.Result text = CliRunner.run("decode", file.toString());
        assertTrue(text.out().contains("sketch=3 switch=2 epoch=9 column=17 rows=2 counters=[12 4294967295]"),
            text.out());
    }
}
