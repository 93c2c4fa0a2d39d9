package io.dta.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The effective configuration written back: it loads again to the same configuration (the loader is the oracle),
 * and it spells out the defaults the source left out.
 */
class EffectiveConfigTest
{
    private static final String MINIMAL = """
        translator:
          mac: "02:00:0a:00:00:65"
          ip: 10.0.0.101
        collectors:
          - mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            keyWrite:
              localQpn: 0x539
              servicePort: 1337
              length: 2048
            sketches:
              - id: 7
                type: count-min
                rows: 4
                columns: 64
                localQpn: 0x53a
                qpn: 0x45a
                rkey: 0xfedcba98
                address: 0xffffffff00000000
                length: 4096
        """;

    @ParameterizedTest
    @EnumSource(ConfigFormat.class)
    void shouldLoadBackToTheSameConfiguration(final ConfigFormat format)
    {
        for (final String source : List.of(ConfigTestSupport.resource("translator.yaml"), MINIMAL, ConfigDefaults.yaml()))
        {
            final ApplianceConfig config = ConfigLoader.load(source);
            final String written = EffectiveConfig.write(config, format);
            assertEquals(config, ConfigLoader.load(written, format), written);
        }
    }

    @Test
    void shouldFillInEveryDefault() throws Exception
    {
        final JsonNode tree = new ObjectMapper().readTree(
            EffectiveConfig.write(ConfigLoader.load(MINIMAL), ConfigFormat.JSON));
        assertEquals(TranslatorConfig.DEFAULT_TTL, tree.at("/translator/ttl").asInt());
        assertEquals("0xffff", tree.at("/translator/pKey").asText());
        assertEquals("3", tree.at("/reports/baseHeader").asText());
        assertEquals(ReportsConfig.DEFAULT_UDP_PORT, tree.at("/reports/udpPort").asInt());
        assertEquals(AcksConfig.DEFAULT_TIMEOUT_MICROS, tree.at("/acks/timeoutMicros").asLong());
        assertEquals(ConnectionConfig.DEFAULT_RECONNECT_ATTEMPTS, tree.at("/connection/reconnectAttempts").asInt());
        assertEquals("collector-0", tree.at("/collectors/0/name").asText());
        assertEquals(CollectorConfig.DEFAULT_PATH_MTU, tree.at("/collectors/0/pathMtu").asInt());
        assertEquals(KeyWriteConfig.DEFAULT_SLOT_SIZE, tree.at("/collectors/0/keyWrite/slotSize").asInt());
        assertEquals(RegionConfig.defaultUdpSourcePort(0x539), tree.at("/collectors/0/keyWrite/udpSourcePort").asInt());
        assertEquals(SketchConfig.DEFAULT_EPOCHS, tree.at("/collectors/0/sketches/0/epochs").asInt());
        assertEquals("0xffffffff00000000", tree.at("/collectors/0/sketches/0/address").asText());
        assertEquals("0xfedcba98", tree.at("/collectors/0/sketches/0/rkey").asText());
        // A negotiated region learns these from the collector: writing them would make the document invalid.
        assertFalse(tree.at("/collectors/0/keyWrite").has("qpn"));
        assertEquals(1337, tree.at("/collectors/0/keyWrite/servicePort").asInt());
    }
}
