package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.connect.ConnectionCounter;
import io.dta.appliance.connect.ConnectionManager;
import io.dta.appliance.connect.RegionConnection;
import io.dta.appliance.engine.FrameCollector;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.CmRepFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.RoceOpcode;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;
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
 * Connection set-up through the commands: {@code dta demo} (negotiated configuration, {@code --negotiate}),
 * {@code dta collector} offline, {@code dta replay} refusing negotiated regions, {@code dta query} after them.
 */
class ConnectionCliTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String NEGOTIATED = """
        translator:
          mac: "02:00:0a:00:00:65"
          ip: 10.0.0.101
        resync:
          graceMicros: 100
        connection:
          cmResponseTimeout: 8
          localAckTimeout: 8
        collectors:
          - name: nego
            mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            keyWrite:
              localQpn: 0x539
              servicePort: 1337
              length: 65536
              startPsn: 0xfffff0
            keyIncrement:
              localQpn: 0x53a
              servicePort: 1339
              length: 65536
            lists:
              - id: 0
                localQpn: 0x53c
                servicePort: 1338
                length: 4096
              - id: 1
                localQpn: 0x53d
                qpn: 0x45a
                rkey: 0x1238
                address: 0x7f0000400000
                length: 4096
        """;

    @TempDir
    Path dir;

    @Test
    void shouldReconnectAfterAnInjectedRemoteAccessErrorAtTwoPercentLoss() throws Exception
    {
        final CliRunner.Result r = CliRunner.run("demo", "--negotiate", "--loss", "0.02", "--reports", "20000",
            "--essential", "0.2", "--seed", "3", "--inject-remote-access-error", "2000", "--json");
        assertEquals(0, r.exitCode(), "quiescent, every essential report landed: " + r.out() + r.err());
        final JsonNode n = JSON.readTree(r.out());
        final JsonNode counters = n.get("connections").get("counters");
        assertEquals(1, counters.get("reconnectAttempts").asLong(), r.out());
        assertEquals(1, counters.get("reconnects").asLong(), r.out());
        assertTrue(r.err().contains("reconnected (attempt 1)"), r.err());
        int second = 0;
        for (final JsonNode region : n.get("connections").get("regions"))
        {
            assertEquals("CONNECTED", region.get("state").asText(), r.out());
            second += 2 == region.get("attempts").asInt() ? 1 : 0;
        }
        assertEquals(1, second, r.out());

        final CliRunner.Result text = CliRunner.run("demo", "--negotiate", "--loss", "0", "--reports", "5000",
            "--inject-remote-access-error", "100");
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("reconnection: 1 attempt(s), 1 reconnected, 0 failed, 0 region(s) given up"),
            text.out());
    }

    @Test
    void shouldLeaveAStaticRegionInErrorAfterAnInjectedRemoteAccessError() throws Exception
    {
        final CliRunner.Result r = CliRunner.run("demo", "--loss", "0", "--reports", "20000", "--essential", "0.2",
            "--inject-remote-access-error", "100", "--json");
        assertEquals(1, r.exitCode(), "essential reports of the QP in error never land: " + r.out());
        assertTrue(r.err().contains("stopped: responder sent NAK 0x62"), r.err());
        int inError = 0;
        for (final JsonNode qp : JSON.readTree(r.out()).get("queuePairs"))
        {
            inError += "ERROR".equals(qp.get("state").asText()) ? 1 : 0;
        }
        assertEquals(1, inError, r.out());
    }

    @Test
    void shouldConnectEveryRegionWithNegotiateAtTwoPercentLossAndLandTheEssentialReports() throws Exception
    {
        final Path store = dir.resolve("store");
        final CliRunner.Result r = CliRunner.run("demo", "--negotiate", "--loss", "0.02", "--reports", "20000",
            "--essential", "0.1", "--seed", "5", "--store", store.toString(), "--json");
        assertEquals(0, r.exitCode(), r.err());
        final JsonNode n = JSON.readTree(r.out());
        final JsonNode connection = n.get("connections");
        assertEquals(8, connection.get("regions").size(), r.out());
        for (final JsonNode region : connection.get("regions"))
        {
            assertEquals("CONNECTED", region.get("state").asText(), region.toString());
        }
        assertEquals(0x456, connection.get("regions").get(0).get("collectorQpn").asLong());
        assertEquals(0x100, connection.get("regions").get(0).get("startPsn").asLong());
        // One shape with dta run --json: numbers, every counter named as the engine's are (0 included).
        assertEquals("collectors[0].keyWrite", connection.get("regions").get(0).get("region").asText());
        assertEquals(0x7f0000000000L, connection.get("regions").get(0).get("address").asLong(), r.out());
        assertEquals(8, connection.get("counters").get("connected").asLong(), r.out());
        assertEquals(0, connection.get("counters").get("dreps").asLong(), r.out());
        assertTrue(n.get("quiescent").asBoolean());
        assertTrue(n.get("essentialDelivery").get("allLanded").asBoolean(), r.out());
        assertEquals(8, n.get("collectorCounters").get("metadataAcked").asLong(), r.out());
        // The collector hosted the regions where the static configuration puts them: dta query reads it with that.
        final CliRunner.Result q = CliRunner.run("query", "--store", store.toString(), "list", "--id", "1", "--json");
        assertEquals(0, q.exitCode(), q.err());
        assertTrue(JSON.readTree(q.out()).get("entries").size() > 0, q.out());
    }

    @Test
    void shouldConnectANegotiatedConfigurationInTheDemoAndQueryItsStore() throws Exception
    {
        final Path config = dir.resolve("negotiated.yaml");
        Files.writeString(config, NEGOTIATED);
        final Path store = dir.resolve("store");
        final CliRunner.Result r = CliRunner.run("demo", "--config", config.toString(), "--loss", "0.01",
            "--reports", "10000", "--seed", "9", "--store", store.toString(), "--json");
        assertEquals(0, r.exitCode(), r.err());
        final JsonNode n = JSON.readTree(r.out());
        final JsonNode regions = n.get("connections").get("regions");
        assertEquals(3, regions.size());
        assertEquals("collectors[0].keyWrite", regions.get(0).get("region").asText());
        assertEquals("CONNECTED", regions.get(0).get("state").asText());
        assertEquals(0x100, regions.get(0).get("collectorQpn").asLong());
        assertEquals(0xfffff0, regions.get(0).get("startPsn").asLong());
        assertTrue(n.get("essentialDelivery").get("allLanded").asBoolean(), r.out());
        final CliRunner.Result q = CliRunner.run("query", "--config", config.toString(), "--store", store.toString(),
            "list", "--id", "0", "--json");
        assertEquals(0, q.exitCode(), q.err());
        assertTrue(JSON.readTree(q.out()).get("entries").size() > 0, q.out());
    }

    @Test
    void shouldStartWithoutANakAtTheAdvertisedPsnWhenNothingIsLost() throws Exception
    {
        final Path config = dir.resolve("negotiated.yaml");
        Files.writeString(config, NEGOTIATED);
        final CliRunner.Result r = CliRunner.run("demo", "--config", config.toString(), "--loss", "0",
            "--reports", "5000", "--json");
        assertEquals(0, r.exitCode(), r.err());
        final JsonNode n = JSON.readTree(r.out());
        // The reference started at the REP's PSN and drew a NAK and a grace period on every connection.
        assertEquals(0, n.get("translator").get("nakSequenceErrorsIn").asLong(), r.out());
        assertEquals(0, n.get("collectorCounters").path("outOfSequenceNaked").asLong(), r.out());
    }

    @Test
    void shouldRefuseNegotiatedRegionsInReplay() throws Exception
    {
        final Path config = dir.resolve("negotiated.yaml");
        Files.writeString(config, NEGOTIATED);
        final Path in = dir.resolve("in.pcap");
        PcapFiles.write(in);
        final CliRunner.Result r = CliRunner.run("replay", "--config", config.toString(), "--in", in.toString(),
            "--out", dir.resolve("out.pcap").toString());
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("negotiated regions (servicePort); replay is open loop and needs static regions"),
            r.err());
    }

    @Test
    void shouldAnswerConnectionSetUpFoundInTheCollectorsInput() throws Exception
    {
        final Path config = dir.resolve("negotiated.yaml");
        Files.writeString(config, NEGOTIATED);
        final FrameCollector translatorOut = new FrameCollector();
        final ConnectionManager manager = new ConnectionManager(ConfigLoader.load(NEGOTIATED), translatorOut, 77);
        manager.start(0);
        final List<byte[]> input = new ArrayList<>();
        translatorOut.frames().forEach(f -> input.add(f.bytes()));
        assertEquals(3, input.size());

        // Round 1: REQs → REPs; the manager answers them with RTUs.
        List<byte[]> responses = collector(config, input);
        assertEquals(3, count(responses, MadHeaderFlyweight.ATTRIBUTE_REP));
        feed(manager, responses);
        final int rtus = translatorOut.size();
        for (int i = 3; i < rtus; i++)
        {
            input.add(translatorOut.frames().get(i).bytes());
        }
        // Round 2: REQs and RTUs → REPs and metadata SENDs; the manager validates and ACKs them.
        responses = collector(config, input);
        assertEquals(3, responses.stream().filter(f -> opcode(f) == RoceOpcode.RC_SEND_ONLY).count());
        feed(manager, responses);
        assertTrue(manager.allConnected(), manager.failures().toString());
        for (int i = rtus; i < translatorOut.size(); i++)
        {
            input.add(translatorOut.frames().get(i).bytes());
        }
        // Round 3: with the ACKs the collector's set-up completes.
        final Path in = dir.resolve("setup.pcap");
        PcapFiles.write(in, input.toArray(new byte[0][]));
        final Path out = dir.resolve("responses.pcap");
        final CliRunner.Result r = CliRunner.run("collector", "--config", config.toString(), "--in", in.toString(),
            "--out", out.toString(), "--store", dir.resolve("store").toString(), "--json");
        assertEquals(0, r.exitCode(), r.err());
        final JsonNode n = JSON.readTree(r.out());
        assertEquals(3, n.get("counters").get("cmReqsAccepted").asLong());
        assertEquals(3, n.get("counters").get("cmRtus").asLong());
        assertEquals(3, n.get("counters").get("metadataAcked").asLong());
        for (final JsonNode qp : n.get("queuePairs"))
        {
            if (qp.has("connection"))
            {
                assertEquals("ESTABLISHED", qp.get("connection").asText());
                assertEquals("READY", qp.get("state").asText());
            }
        }
        for (final RegionConnection c : manager.connections())
        {
            assertEquals(RegionConnection.State.CONNECTED, c.state());
        }

        // dta decode names the CM messages.
        final CliRunner.Result d = CliRunner.run("decode", in.toString());
        assertEquals(0, d.exitCode(), d.err());
        assertTrue(d.out().contains("UD_SEND_ONLY qp=0x000001")
            && d.out().contains("qkey=0x80010000 srcqp=0x000001 CM REQ tid=0x")
            && d.out().contains("service=0x0000000001060539 qpn=0x000539 start-psn=0xfffff0")
            && d.out().contains(" CM RTU tid=0x") && d.out().contains("RC_ACKNOWLEDGE"), d.out());
        final CliRunner.Result j = CliRunner.run("decode", in.toString(), "--json");
        final JsonNode first = JSON.readTree(j.out().lines().findFirst().orElseThrow());
        assertEquals("REQ", first.get("cm").asText(), j.out());
        assertEquals(0x539, first.get("localQpn").asInt());
    }

    /**
     * {@code dta collector --max-atomics N}: its REPs grant at most N outstanding atomics, and a translator connecting
     * to it runs its Key-Increment QP with N (fewer than the 16 it asks for); without the option it gets the 16.
     */
    @Test
    void shouldGrantAtMostMaxAtomicsSoThatTheTranslatorRunsItsKeyIncrementQpWithThatLimit() throws Exception
    {
        final Path config = dir.resolve("negotiated.yaml");
        Files.writeString(config, NEGOTIATED);
        final int asked = ConfigLoader.load(NEGOTIATED).collectors().get(0).keyIncrement().maxOutstandingAtomics();
        assertEquals(16, asked);
        for (final int maxAtomics : new int[] { 0, 1, 4, 16 })
        {
            final String why = 0 == maxAtomics ? "no --max-atomics" : "--max-atomics " + maxAtomics;
            final String[] option = 0 == maxAtomics ?
                new String[0] : new String[] { "--max-atomics", Integer.toString(maxAtomics) };
            final int expected = 0 == maxAtomics ? asked : maxAtomics;
            final FrameCollector translatorOut = new FrameCollector();
            final ConnectionManager manager = new ConnectionManager(ConfigLoader.load(NEGOTIATED), translatorOut, 5);
            manager.start(0);
            final List<byte[]> input = new ArrayList<>();
            translatorOut.frames().forEach(f -> input.add(f.bytes()));
            List<byte[]> responses = collector(config, input, option);
            // The Key-Increment region's REQ asks for 16, the others for 0: the grants on the wire.
            assertEquals(List.of(0, 0, expected), repGrants(responses).stream().sorted().toList(), why);
            feed(manager, responses);
            for (int i = input.size(); i < translatorOut.size(); i++)
            {
                input.add(translatorOut.frames().get(i).bytes());
            }
            responses = collector(config, input, option);
            feed(manager, responses);
            assertTrue(manager.allConnected(), why + ": " + manager.failures());

            final RegionConnection keyIncrement = manager.connections().stream()
                .filter(c -> c.atomics() > 0).findFirst().orElseThrow();
            assertEquals(asked, keyIncrement.atomics(), why);
            assertEquals(expected, keyIncrement.atomicsLimit(), why);
            assertEquals(expected < asked ? 1 : 0, manager.counter(ConnectionCounter.ATOMICS_REDUCED), why);
            assertEquals(0, manager.counter(ConnectionCounter.REJS_SENT), why);
            final var connected = manager.connectedConfig();
            assertEquals(expected, connected.collectors().get(0).keyIncrement().maxOutstandingAtomics(), why);
            final TranslatorEngine engine = new TranslatorEngine(connected, new FrameCollector(), true);
            assertEquals(expected, engine.sender(keyIncrement.region().localQpn()).maxOutstandingAtomics(), why);
        }
    }

    @Test
    void shouldRefuseMaxAtomicsOutsideOneToSixteenWithAMessage() throws Exception
    {
        final Path config = dir.resolve("negotiated.yaml");
        Files.writeString(config, NEGOTIATED);
        final Path in = dir.resolve("empty.pcap");
        PcapFiles.write(in);
        for (final String value : new String[] { "0", "17", "-1" })
        {
            final CliRunner.Result r = CliRunner.run("collector", "--config", config.toString(), "--in",
                in.toString(), "--out", dir.resolve("out.pcap").toString(), "--store", dir.resolve("s").toString(),
                "--max-atomics", value);
            assertEquals(2, r.exitCode(), value + ": " + r.err());
            assertTrue(r.err().contains("dta collector: --max-atomics must be 1..16 (outstanding atomics a " +
                "collector QP grants and can replay), was " + value), r.err());
            assertFalse(Files.exists(dir.resolve("s")), "nothing created before the arguments are checked");
        }
        final CliRunner.Result notANumber = CliRunner.run("collector", "--config", config.toString(), "--in",
            in.toString(), "--out", dir.resolve("out.pcap").toString(), "--store", dir.resolve("s").toString(),
            "--max-atomics", "many");
        assertEquals(2, notANumber.exitCode(), notANumber.err());
        assertTrue(notANumber.err().contains("--max-atomics"), notANumber.err());
        final CliRunner.Result one = CliRunner.run("collector", "--config", config.toString(), "--in",
            in.toString(), "--out", dir.resolve("out.pcap").toString(), "--store", dir.resolve("s").toString(),
            "--max-atomics", "1");
        assertEquals(0, one.exitCode(), one.err());
    }

    private static List<Integer> repGrants(final List<byte[]> frames)
    {
        final FrameDecoder decoder = new FrameDecoder();
        final MadHeaderFlyweight mad = new MadHeaderFlyweight();
        final CmRepFlyweight rep = new CmRepFlyweight();
        final List<Integer> grants = new ArrayList<>();
        for (final byte[] f : frames)
        {
            decoder.decode(new UnsafeBuffer(f), 0, f.length);
            if (RoceOpcode.UD_SEND_ONLY == decoder.roceOpcode() &&
                MadHeaderFlyweight.ATTRIBUTE_REP == mad.wrap(decoder.buffer(), decoder.payloadOffset()).attributeId())
            {
                grants.add(rep.wrap(mad.buffer(), mad.dataOffset()).responderResources());
            }
        }
        return grants;
    }

    private List<byte[]> collector(final Path config, final List<byte[]> frames, final String... options)
        throws Exception
    {
        final Path in = dir.resolve("in.pcap");
        final Path out = dir.resolve("out.pcap");
        PcapFiles.write(in, frames.toArray(new byte[0][]));
        final List<String> args = new ArrayList<>(List.of("collector", "--config", config.toString(), "--in",
            in.toString(), "--out", out.toString(), "--store", dir.resolve("store").toString()));
        args.addAll(List.of(options));
        final CliRunner.Result r = CliRunner.run(args.toArray(new String[0]));
        assertEquals(0, r.exitCode(), r.err());
        final List<byte[]> responses = new ArrayList<>();
        try (PcapReader reader = PcapReader.open(out))
        {
            while (reader.next())
            {
                final byte[] f = new byte[reader.capturedLength()];
                reader.buffer().getBytes(reader.offset(), f);
                responses.add(f);
            }
        }
        return responses;
    }

    private static void feed(final ConnectionManager manager, final List<byte[]> frames)
    {
        for (final byte[] f : frames)
        {
            assertTrue(manager.onFrame(new UnsafeBuffer(f), 0, f.length, 1000));
        }
    }

    private static int opcode(final byte[] frame)
    {
        final FrameDecoder decoder = new FrameDecoder();
        assertEquals(FrameKind.ROCE, decoder.decode(new UnsafeBuffer(frame), 0, frame.length));
        assertTrue(decoder.icrcValid());
        return decoder.roceOpcode();
    }

    private static long count(final List<byte[]> frames, final int attribute)
    {
        final FrameDecoder decoder = new FrameDecoder();
        final MadHeaderFlyweight mad = new MadHeaderFlyweight();
        return frames.stream().filter(f ->
        {
            decoder.decode(new UnsafeBuffer(f), 0, f.length);
            return RoceOpcode.UD_SEND_ONLY == decoder.roceOpcode() &&
                attribute == mad.wrap(decoder.buffer(), decoder.payloadOffset()).attributeId();
        }).count();
    }
}
