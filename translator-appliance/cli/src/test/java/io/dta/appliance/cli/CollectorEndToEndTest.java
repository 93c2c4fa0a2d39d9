package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.QueuePairSender;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.replay.Replay;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.RoceOpcode;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reports → {@code dta replay} (the translator) → {@code dta collector} (soft responder, mapped store) →
 * {@code dta query}: the answers are exactly what the reports said.
 */
class CollectorEndToEndTest
{
    static final String CONFIG =
        "translator:\n" +
        "  mac: \"02:00:0a:00:00:65\"\n" +
        "  ip: 10.0.0.101\n" +
        "redundancy:\n" +
        "  max: 4\n" +
        "append:\n" +
        "  batchSize: 4\n" +
        "postcards:\n" +
        "  hops: 5\n" +
        "collectors:\n" +
        "  - name: collector-a\n" +
        "    mac: \"02:00:0a:00:00:33\"\n" +
        "    ip: 10.0.0.51\n" +
        "    keyWrite:\n" +
        "      localQpn: 0x539\n" +
        "      qpn: 0x456\n" +
        "      rkey: 0x1234\n" +
        "      address: 0x00007f0000000000\n" +
        "      length: 65536\n" +
        "      startPsn: 0x100\n" +
        "    keyIncrement:\n" +
        "      localQpn: 0x53a\n" +
        "      qpn: 0x457\n" +
        "      rkey: 0x1235\n" +
        "      address: 0x00007f0000100000\n" +
        "      length: 65536\n" +
        "      startPsn: 0xfffff0\n" +
        "    postcards:\n" +
        "      localQpn: 0x53b\n" +
        "      qpn: 0x458\n" +
        "      rkey: 0x1236\n" +
        "      address: 0x00007f0000200000\n" +
        "      length: 65536\n" +
        "    lists:\n" +
        "      - id: 0\n" +
        "        localQpn: 0x53c\n" +
        "        qpn: 0x459\n" +
        "        rkey: 0x1237\n" +
        "        address: 0x00007f0000300000\n" +
        "        length: 1024\n" +
        "        layout: reference\n" +
        "      - id: 1\n" +
        "        localQpn: 0x53d\n" +
        "        qpn: 0x45a\n" +
        "        rkey: 0x1238\n" +
        "        address: 0x00007f0000400000\n" +
        "        length: 4096\n";

    private static final int COLLECTOR_IP = 0x0A000033;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path config;
    private Path store;
    private final ReportFrames reports = new ReportFrames(COLLECTOR_IP);

    record Run(int exitCode, String out, String err)
    {
        List<JsonNode> json() throws Exception
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
    }

    static synchronized Run run(final Object command, final String... args)
    {
        final PrintStream oldOut = System.out;
        final PrintStream oldErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        try
        {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            final int code = new CommandLine(command).execute(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
        finally
        {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @BeforeEach
    void writeConfig() throws Exception
    {
        config = dir.resolve("translator.yaml");
        Files.writeString(config, CONFIG);
        store = dir.resolve("store");
    }

    private Path translateAndCollect() throws Exception
    {
        final Path reportsPcap = dir.resolve("reports.pcap");
        try (PcapWriter writer = new PcapWriter(reportsPcap, true))
        {
            long t = 1_700_000_000_000_000_000L;
            for (final byte[] frame : reports)
            {
                writer.write(t += 1_000, new UnsafeBuffer(frame), 0, frame.length);
            }
        }
        final Path roce = dir.resolve("roce.pcap");
        Replay.run(ConfigLoader.load(config), reportsPcap, null, roce);
        final Path responses = dir.resolve("responses.pcap");
        final Run collector = run(new CollectorCommand(), "--config", config.toString(), "--in", roce.toString(),
            "--out", responses.toString(), "--store", store.toString(), "--json");
        assertEquals(0, collector.exitCode(), collector.err());
        final JsonNode summary = collector.json().get(0);
        final JsonNode counters = summary.get("counters");
        assertEquals(0, counters.get("naksSent").asLong(), collector.out());
        assertEquals(0, counters.get("badIcrc").asLong());
        assertEquals(counters.get("framesIn").asLong(),
            counters.get("writePackets").asLong() + counters.get("atomics").asLong(), collector.out());
        for (final JsonNode qp : summary.get("queuePairs"))
        {
            assertEquals("READY", qp.get("state").asText());
        }
        return responses;
    }

    private Run query(final String... args)
    {
        final List<String> all = new ArrayList<>(List.of("--store", store.toString(), "--config", config.toString()));
        all.addAll(List.of(args));
        return run(new QueryCommand(), all.toArray(new String[0]));
    }

    @Test
    void shouldAnswerKeyWriteCounterListAndPostcardQueriesExactly() throws Exception
    {
        reports.keyWrite(4, 0x0A0B0C0D, 0xCAFEBABE);
        reports.keyWrite(1, 7, 1234);
        reports.keyWrite(3, 99, 1);
        reports.keyWrite(3, 99, 0xFFFFFFFF);
        reports.keyIncrement(4, 5, 10);
        reports.keyIncrement(2, 6, 1L << 63);
        reports.keyIncrement(4, 5, 32);
        reports.keyIncrement(2, 6, 3);
        for (int i = 1; i <= 10; i++)
        {
            reports.append(0, 100 + i);
            reports.append(1, 0xF0000000 + i);
        }
        for (int hop = 1; hop <= 5; hop++)
        {
            reports.postcard(0xABCD, hop, 1000 + hop);
        }
        reports.postcard(0x1234, 1, 11);
        reports.postcard(0x1234, 2, 22);
        reports.postcard(0x1234, 4, 44);
        final Path responses = translateAndCollect();

        final Path keys = dir.resolve("keys.txt");
        Files.writeString(keys, "0x0a0b0c0d\n7\n# comment\n99\n424242\n");
        final List<JsonNode> kw = query("keywrite", "--keys", keys.toString(), "--json").json();
        assertEquals(4, kw.size());
        assertEquals(0x0A0B0C0DL, kw.get(0).get("key").asLong());
        assertEquals(0xCAFEBABEL, kw.get(0).get("value").asLong());
        assertEquals(1234, kw.get(1).get("value").asLong());
        assertEquals(0xFFFFFFFFL, kw.get(2).get("value").asLong());
        assertFalse(kw.get(3).get("found").asBoolean());
        assertTrue(kw.get(3).get("value").isNull());
        assertTrue(query("keywrite", "--key", "7", "--redundancy", "1", "--consensus", "--json").json().get(0)
            .get("found").asBoolean());

        // Key 5 was counted with N = 4, key 6 with N = 2: each read with its own N.
        assertEquals(42, query("counter", "--key", "5", "--redundancy", "4", "--json").json().get(0).get("value")
            .asLong());
        assertNull(query("counter", "--key", "6", "--redundancy", "2", "--json").json().get(0)
            .get("valuesByRedundancy"));
        // Without --redundancy the store cannot tell N: refused, never the minimum over untouched counters.
        final Run guessed = query("counter", "--key", "6");
        assertEquals(2, guessed.exitCode());
        assertTrue(guessed.out().isEmpty(), guessed.out());
        assertTrue(guessed.err().contains("give --redundancy N"), guessed.err());
        // --each-n shows the estimate for every N, where key 6's falls to untouched counters, and no value.
        final List<JsonNode> eachN = query("counter", "--key", "5", "--key", "6", "--each-n", "--json").json();
        assertEquals("[42,42,42,42]", eachN.get(0).get("valuesByRedundancy").toString());
        assertEquals("[9223372036854775811,9223372036854775811,0,0]", eachN.get(1).get("valuesByRedundancy")
            .toString());
        assertNull(eachN.get(1).get("value"));
        final String table = query("counter", "--key", "6", "--each-n").out();
        assertTrue(table.contains("by N = 1..4") && table.contains("9223372036854775811 9223372036854775811 0 0"),
            table);
        // With redundancy.max 1 every key was counted with N = 1: known, so no --redundancy is needed.
        final Path onlyOne = dir.resolve("max-1.yaml");
        Files.writeString(onlyOne,
            Files.readString(config).replace("redundancy:\n  max: 4\n", "redundancy:\n  max: 1\n"));
        final Run known = run(new QueryCommand(), "--store", store.toString(), "--config", onlyOne.toString(),
            "counter", "--key", "5", "--json");
        assertEquals(0, known.exitCode(), known.err());
        assertTrue(known.out().contains("\"value\":42") && known.out().contains("\"redundancy\":1"), known.out());
        assertEquals("9223372036854775811",
            query("counter", "--key", "6", "--redundancy", "2", "--json").json().get(0).get("value").asText());

        final JsonNode reference = query("list", "--id", "0", "--json").json().get(0);
        assertEquals(10, reference.get("entries").size());
        for (int i = 0; i < 10; i++)
        {
            assertEquals(101 + i, reference.get("entries").get(i).asLong());
        }
        final JsonNode sequenced = query("list", "--id", "1", "--json").json().get(0);
        assertEquals(10, sequenced.get("entries").size());
        assertEquals(0xF0000001L, sequenced.get("entries").get(0).asLong());
        assertEquals(0xF000000AL, sequenced.get("entries").get(9).asLong());
        assertEquals(3, sequenced.get("cursor").asLong());
        assertFalse(sequenced.get("lapped").asBoolean());
        final JsonNode since = query("list", "--id", "1", "--since", "2", "--json").json().get(0);
        assertEquals(2, since.get("entries").size());
        assertEquals(0xF0000009L, since.get("entries").get(0).asLong());
        final List<JsonNode> follow = query("list", "--id", "1", "--follow", "--polls", "2", "--interval-ms", "1",
            "--json").json();
        assertEquals(1, follow.size(), "the second poll has nothing new");

        final JsonNode full = query("postcard", "--key", "0xabcd", "--json").json().get(0);
        assertTrue(full.get("found").asBoolean());
        assertEquals(1003, full.get("hops").get(2).asLong());
        final JsonNode partial = query("postcard", "--key", "0x1234", "--json").json().get(0);
        assertTrue(partial.get("found").asBoolean());
        assertEquals(11, partial.get("hops").get(0).asLong());
        assertEquals(44, partial.get("hops").get(3).asLong());
        assertTrue(partial.get("hops").get(2).isNull());
        assertTrue(partial.get("hops").get(4).isNull());
        assertFalse(partial.get("collision").asBoolean());
        assertFalse(query("postcard", "--key", "5", "--json").json().get(0).get("found").asBoolean());

        assertResponses(responses);
    }

    /** Every response is an ACK or ATOMIC ACK for one of the translator's QPs, with a valid ICRC. */
    private static void assertResponses(final Path responses) throws Exception
    {
        final FrameDecoder decoder = new FrameDecoder();
        int atomicAcks = 0;
        int acks = 0;
        try (PcapReader reader = PcapReader.open(responses))
        {
            while (reader.next())
            {
                assertEquals(FrameKind.ROCE, decoder.decode(reader.buffer(), reader.offset(),
                    reader.capturedLength()));
                assertTrue(decoder.icrcValid());
                assertTrue(decoder.bth().destQp() >= 0x539 && decoder.bth().destQp() <= 0x53d);
                if (decoder.roceOpcode() == RoceOpcode.RC_ATOMIC_ACKNOWLEDGE)
                {
                    atomicAcks++;
                }
                else
                {
                    assertTrue(decoder.aeth().isAck());
                    acks++;
                }
            }
        }
        assertEquals(12, atomicAcks, "one ATOMIC ACK per FETCH_ADD");
        assertTrue(acks > 0, "the last frame of each QP carries AckReq");
    }

    @Test
    void shouldCloseTheLoopWithTheCollectorsOwnAnswersWithoutAStrayResponseOrAReportPending() throws Exception
    {
        for (int i = 1; i <= 5; i++)
        {
            reports.keyWrite(2, i, i);
            reports.keyIncrement(2, i, i);
            reports.append(0, i);
            reports.postcard(0xABCD, i, i);
        }
        final Path responses = translateAndCollect();
        final Path closed = dir.resolve("closed.pcap");
        final TranslatorEngine engine =
            Replay.run(ConfigLoader.load(config), dir.resolve("reports.pcap"), responses, closed);

        // The collector answered the open-loop output, whose last frames left when the reports ended; the closed
        // loop sends them then too (it used to hold them to the last response, after their own ACKs came).
        assertEquals(0, engine.counters().get(EngineCounter.RESPONSE_DROP_OUT_OF_WINDOW));
        assertEquals(0, engine.counters().reportsPending());
        for (final QueuePairSender sender : engine.senders())
        {
            assertTrue(sender.isQuiescent(), sender.path().name() + " " + sender.state());
        }
        assertArrayEquals(Files.readAllBytes(dir.resolve("roce.pcap")), Files.readAllBytes(closed),
            "the closed loop sends what the open loop sent");
    }

    @Test
    void shouldPrintReadableTables() throws Exception
    {
        reports.keyWrite(2, 1, 77);
        translateAndCollect();

        final Run table = query("keywrite", "--key", "1", "--key", "2");
        assertEquals(0, table.exitCode(), table.err());
        assertTrue(table.out().contains("found"), table.out());
        assertTrue(table.out().contains("77 (0x4d)"), table.out());
        assertTrue(table.out().contains("not_found"), table.out());
        final Run list = query("list", "--id", "1");
        assertTrue(list.out().contains("list 1 (sequenced): 0 entries"), list.out());
        final Run text = run(new CollectorCommand(), "--config", config.toString(), "--in",
            dir.resolve("roce.pcap").toString(), "--out", dir.resolve("again.pcap").toString(), "--store",
            dir.resolve("store2").toString());
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("write-packets"), text.out());
        assertTrue(text.out().contains("collectors[0].keyWrite"), text.out());
    }

    @Test
    void shouldExitWith1WhenTheStoreIsMissingOrDoesNotMatch() throws Exception
    {
        final Run missing = query("counter", "--key", "1", "--redundancy", "1");
        assertEquals(1, missing.exitCode());
        assertTrue(missing.err().contains("missing"), missing.err());

        reports.keyWrite(1, 1, 1);
        translateAndCollect();
        Files.writeString(config, CONFIG.replace("length: 4096", "length: 8192"));
        final Run mismatch = query("list", "--id", "1");
        assertEquals(1, mismatch.exitCode());
        assertTrue(mismatch.err().contains("region.list-1.length"), mismatch.err());
    }

    @Test
    void shouldExitWith2OnBadArguments() throws Exception
    {
        assertEquals(2, query("keywrite").exitCode(), "neither --key nor --keys");
        assertEquals(2, query("keywrite", "--key", "banana").exitCode());
        assertEquals(2, query("keywrite", "--key", "0x100000000").exitCode());
        assertEquals(2, query("counter", "--key", "1", "--redundancy", "0").exitCode());
        assertEquals(2, query("list", "--id", "7").exitCode(), "no such list");
        assertEquals(2, query("--collector", "nope", "postcard", "--key", "1").exitCode());
        assertEquals(2, query().exitCode(), "no subcommand");
        final Run noStore = run(new QueryCommand(), "counter", "--key", "1");
        assertEquals(2, noStore.exitCode(), noStore.err());
        assertTrue(noStore.err().contains("dta query counter: --store DIR is required"), noStore.err());
        final Run help = run(new QueryCommand(), "keywrite", "--help");
        assertEquals(0, help.exitCode(), help.err());
        assertTrue(help.out().contains("--redundancy"), help.out());
        Files.writeString(config, "collectors: 3\n");
        assertEquals(2, query("counter", "--key", "1", "--redundancy", "1").exitCode(), "invalid configuration");
        assertEquals(2, run(new CollectorCommand(), "--config", config.toString(), "--in", "x", "--out", "y",
            "--store", "z").exitCode());
    }
}
