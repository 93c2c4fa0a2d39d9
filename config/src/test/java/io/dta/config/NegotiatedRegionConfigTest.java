package io.dta.config;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dta.config.ConfigTestSupport.REMOVE;
import static io.dta.config.ConfigTestSupport.exampleWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Negotiated regions ({@code servicePort} in place of {@code qpn}, {@code rkey}, {@code address}) and the
 * {@code connection} section.
 */
class NegotiatedRegionConfigTest
{
    private static final String NEGOTIATED = """
        translator:
          mac: "02:00:0a:00:00:65"
          ip: 10.0.0.101
        connection:
          cmResponseTimeout: 8
          maxCmRetries: 3
          localAckTimeout: 9
          retryCount: 2
        collectors:
          - mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            keyWrite:
              localQpn: 0x539
              servicePort: 1337
              length: 2048
              startPsn: 0x123
            lists:
              - id: 0
                localQpn: 0x53a
                servicePort: 1338
                length: 1024
              - id: 1
                localQpn: 0x53b
                qpn: 0x45a
                rkey: 0x1238
                address: 0x7f0000400000
                length: 4096
        """;

    @Test
    void shouldLoadNegotiatedRegionsBesideStaticOnes()
    {
        final ApplianceConfig config = ConfigLoader.load(NEGOTIATED);
        assertEquals(new ConnectionConfig(8, 3, 9, 2), config.connection());
        final CollectorConfig c = config.collectors().get(0);
        final RegionConfig kw = c.keyWrite().region();
        assertTrue(kw.negotiated());
        assertEquals(1337, kw.servicePort());
        assertEquals(0, kw.qpn());
        assertEquals(0, kw.rkey());
        assertEquals(0, kw.address());
        assertEquals(2048, kw.length());
        assertEquals(0x123, kw.startPsn());
        assertEquals(1338, c.lists().get(0).region().servicePort());
        assertFalse(c.lists().get(1).region().negotiated());
        assertTrue(config.hasNegotiatedRegions());
        assertTrue(config.hasUnconnectedRegions());
    }

    @Test
    void shouldConnectRegionsKeepingEverythingElse()
    {
        final ApplianceConfig config = ConfigLoader.load(NEGOTIATED);
        final ApplianceConfig connected = config.withRegions((collector, region) -> region.negotiated() ?
            region.connected(0x400 + region.servicePort() - 1337, 0xAB, 0x7f0000000000L) : region);
        final CollectorConfig c = connected.collectors().get(0);
        assertEquals(0x400, c.keyWrite().region().qpn());
        assertEquals(0x401, c.lists().get(0).region().qpn());
        assertEquals(0xAB, c.keyWrite().region().rkey());
        assertEquals(1337, c.keyWrite().region().servicePort());
        assertEquals(config.collectors().get(0).keyWrite().slotSize(), c.keyWrite().slotSize());
        assertEquals(config.collectors().get(0).lists().get(1), c.lists().get(1));
        assertEquals(config.connection(), connected.connection());
        assertFalse(connected.hasUnconnectedRegions());
        assertTrue(connected.hasNegotiatedRegions());
    }

    @Test
    void shouldKeepTheExampleStaticWithDefaultConnectionTiming()
    {
        final ApplianceConfig config = ConfigLoader.load(ConfigTestSupport.resource("translator.yaml"),
            ConfigFormat.YAML);
        assertFalse(config.hasNegotiatedRegions());
        assertEquals(ConnectionConfig.DEFAULT, config.connection());
        assertEquals(268_435_456L, config.connection().cmResponseTimeoutNanos());
    }

    @Test
    void shouldRefuseLearnedKeysBesideAServicePort()
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(exampleWith(
            "collectors[0].keyWrite.servicePort", 1337), ConfigFormat.JSON));
        assertEquals(List.of(
            "collectors[0].keyWrite.qpn: not allowed with servicePort: a negotiated region learns it from the collector",
            "collectors[0].keyWrite.rkey: not allowed with servicePort: a negotiated region learns it from the " +
                "collector",
            "collectors[0].keyWrite.address: not allowed with servicePort: a negotiated region learns it from the " +
                "collector"), ex.problems());
    }

    @Test
    void shouldAcceptAServicePortInPlaceOfTheLearnedKeys()
    {
        final ApplianceConfig config = ConfigLoader.load(exampleWith(
            "collectors[0].keyWrite.servicePort", 1337,
            "collectors[0].keyWrite.qpn", REMOVE,
            "collectors[0].keyWrite.rkey", REMOVE,
            "collectors[0].keyWrite.address", REMOVE), ConfigFormat.JSON);
        assertEquals(1337, config.collectors().get(0).keyWrite().region().servicePort());
    }

    @Test
    void shouldRefuseBadServicePortsAndTiming()
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(NEGOTIATED
            .replace("servicePort: 1338", "servicePort: 1337")
            .replace("cmResponseTimeout: 8", "cmResponseTimeout: 32")
            .replace("retryCount: 2", "retryCount: 8")
            .replace("maxCmRetries: 3", "maxCmRetries: 16")));
        assertEquals(List.of(
            "connection.cmResponseTimeout: 32 is out of range 0..31",
            "connection.maxCmRetries: 16 is out of range 0..15",
            "connection.retryCount: 8 is out of range 0..7",
            "collectors[0].lists[0].servicePort: 1337 already used by collectors[0].keyWrite.servicePort on the " +
                "same collector"), ex.problems());

        final ConfigException port = assertThrows(ConfigException.class, () -> ConfigLoader.load(NEGOTIATED
            .replace("servicePort: 1337", "servicePort: 0")));
        assertEquals(List.of("collectors[0].keyWrite.servicePort: 0 is out of range 1..65535"), port.problems());

        final ConfigException unknown = assertThrows(ConfigException.class, () -> ConfigLoader.load(NEGOTIATED
            .replace("retryCount: 2", "retries: 2")));
        assertTrue(unknown.problems().get(0).startsWith("connection.retries: unknown key"), unknown.getMessage());
    }

    @Test
    void shouldLoadTheReconnectionPolicyAndDoubleTheBackOff()
    {
        final ApplianceConfig defaults = ConfigLoader.load(NEGOTIATED);
        assertEquals(ConnectionConfig.DEFAULT_RECONNECT_ATTEMPTS, defaults.connection().reconnectAttempts());
        assertEquals(ConnectionConfig.DEFAULT_RECONNECT_BACKOFF_MILLIS, defaults.connection().reconnectBackoffMillis());

        final ConnectionConfig c = ConfigLoader.load(NEGOTIATED.replace("retryCount: 2",
            "retryCount: 2\n  reconnectAttempts: 0\n  reconnectBackoffMillis: 250")).connection();
        assertEquals(new ConnectionConfig(8, 3, 9, 2, 0, 250, ConnectionConfig.DEFAULT_SILENCE_TIMEOUT_MILLIS), c);
        assertEquals(0, c.reconnectBackoffNanos(0));
        assertEquals(250_000_000L, c.reconnectBackoffNanos(1));
        assertEquals(500_000_000L, c.reconnectBackoffNanos(2));
        assertEquals(64 * 250_000_000L, c.reconnectBackoffNanos(7));
        assertEquals(64 * 250_000_000L, c.reconnectBackoffNanos(900));

        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(NEGOTIATED.replace(
            "retryCount: 2", "retryCount: 2\n  reconnectAttempts: 1001\n  reconnectBackoffMillis: 0")));
        assertEquals(List.of(
            "connection.reconnectAttempts: 1001 is out of range 0..1000",
            "connection.reconnectBackoffMillis: 0 is out of range 1..60000"), ex.problems());
    }

    @Test
    void shouldLoadTheSilenceTimeoutAndRefuseAGivenOneShorterThanTwoAckTimeouts()
    {
        assertEquals(100_000_000L, ConfigLoader.load(NEGOTIATED).connection().silenceTimeoutNanos());
        assertEquals(0, ConfigLoader.load(NEGOTIATED.replace("retryCount: 2",
            "retryCount: 2\n  silenceTimeoutMillis: 0")).connection().silenceTimeoutNanos());
        assertEquals(1_000_000L, ConfigLoader.load(NEGOTIATED.replace("retryCount: 2",
            "retryCount: 2\n  silenceTimeoutMillis: 1")).connection().silenceTimeoutNanos());

        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(NEGOTIATED.replace(
            "retryCount: 2", "retryCount: 2\n  silenceTimeoutMillis: 1") + "acks:\n  timeoutMicros: 600\n"));
        assertEquals(List.of("connection.silenceTimeoutMillis: 1 ms is shorter than two ACK timeouts " +
            "(acks.timeoutMicros 600): a collector would be taken for dead before a probe could be answered"),
            ex.problems());
        // Not given: the default grows with a long ACK timeout rather than making the configuration invalid.
        assertEquals(6_000_000_000L, ConfigLoader.load(NEGOTIATED + "acks:\n  timeoutMicros: 3000000\n")
            .connection().silenceTimeoutNanos());
        final ConfigException range = assertThrows(ConfigException.class, () -> ConfigLoader.load(NEGOTIATED.replace(
            "retryCount: 2", "retryCount: 2\n  silenceTimeoutMillis: -1")));
        assertEquals(List.of("connection.silenceTimeoutMillis: -1 is out of range 0..3600000"), range.problems());
    }
}
