package io.dta.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.dta.config.ConfigTestSupport.REMOVE;
import static io.dta.config.ConfigTestSupport.exampleWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigValidationTest
{
    private static final String Q = "(QPN 0 and 1 are reserved, 0xffffff is the multicast QPN)";

    static Stream<Arguments> invalidValues()
    {
        return Stream.of(
            // translator identity
            Arguments.of("translator.mac", "02:00:0a:00:00", "translator.mac: 02:00:0a:00:00 is not a MAC address " +
                "(aa:bb:cc:dd:ee:ff; quote it in YAML)"),
            Arguments.of("translator.mac", "01:00:5e:00:00:01", "translator.mac: 01:00:5e:00:00:01 is a multicast " +
                "MAC address; a unicast address is required"),
            Arguments.of("translator.mac", REMOVE, "translator.mac: required"),
            Arguments.of("translator.ip", "10.0.0.256", "translator.ip: 10.0.0.256 is not a dotted-quad IPv4 address"),
            Arguments.of("translator.ip", 167772261, "translator.ip: expected a dotted-quad IPv4 address string, " +
                "got 167772261"),
            Arguments.of("translator.ip", "224.0.0.1", "translator.ip: 224.0.0.1 is not a unicast host address " +
                "(0.0.0.0, broadcast, loopback and multicast are refused)"),
            Arguments.of("translator.dscp", 64, "translator.dscp: 64 is out of range 0..63"),
            Arguments.of("translator.ecn", 4, "translator.ecn: 4 is out of range 0..3"),
            Arguments.of("translator.ttl", 0, "translator.ttl: 0 is out of range 1..255"),
            Arguments.of("translator.ttl", 64.5, "translator.ttl: expected an integer (decimal or 0x-hex), got 64.5"),
            Arguments.of("translator.ttl", "010", "translator.ttl: 010 has a leading zero (octal in some YAML " +
                "readers); write it in decimal without leading zeros or in 0x-hex"),
            Arguments.of("translator.ttl", "sixty", "translator.ttl: expected an integer (decimal or 0x-hex), " +
                "got \"sixty\""),
            Arguments.of("translator.pKey", "0x10000", "translator.pKey: 0x10000 is out of range 0..65535"),
            Arguments.of("translator.pKey", "0x8000", "translator.pKey: 0x8000 is not a valid partition key " +
                "(0x0000 and 0x8000 are invalid)"),
            Arguments.of("translator", REMOVE, "translator: required section missing"),
            Arguments.of("translator", "x", "translator: expected a mapping, got \"x\""),
            // reports and global sections
            Arguments.of("reports.udpPort", 0, "reports.udpPort: 0 is out of range 1..65535"),
            Arguments.of("reports.udpPort", 4791, "reports.udpPort: 4791 is the RoCEv2 port, on which the " +
                "collectors' responses arrive; reports need a port of their own"),
            Arguments.of("reports.udpPort", "0x12B7", "reports.udpPort: 4791 is the RoCEv2 port, on which the " +
                "collectors' responses arrive; reports need a port of their own"),
            Arguments.of("reports.nackPort", 65536, "reports.nackPort: 65536 is out of range 1..65535"),
            Arguments.of("reports.verifyChecksums", "yes", "reports.verifyChecksums: expected true or false, " +
                "got \"yes\""),
            Arguments.of("reports.baseHeader", "4", "reports.baseHeader: \"4\" is not one of \"3\", \"2\", \"auto\""),
            Arguments.of("redundancy.max", 0, "redundancy.max: 0 is out of range 1..16"),
            Arguments.of("redundancy.max", 17, "redundancy.max: 17 is out of range 1..16"),
            Arguments.of("append.batchSize", 3, "append.batchSize: 3 is not one of {1, 2, 4, 8, 16}"),
            Arguments.of("append.batchSize", 32, "append.batchSize: 32 is not one of {1, 2, 4, 8, 16}"),
            Arguments.of("append.idleFlushMicros", 0, "append.idleFlushMicros: 0 is out of range 1..3600000000"),
            Arguments.of("postcards.hops", 7, "postcards.hops: 7 is out of range 1..6"),
            Arguments.of("postcards.cacheEntries", 3000, "postcards.cacheEntries: 3000 is not a power of two"),
            Arguments.of("postcards.cacheEntries", 0, "postcards.cacheEntries: 0 is out of range 1..1048576"),
            Arguments.of("postcards.cacheEntries", 1 << 21, "postcards.cacheEntries: 2097152 is out of range " +
                "1..1048576"),
            Arguments.of("acks.requestInterval", 0, "acks.requestInterval: 0 is out of range 1..65536"),
            Arguments.of("resync.gracePackets", -1, "resync.gracePackets: -1 is out of range 0x0..0xffffffff"),
            Arguments.of("essential.backlog", 0, "essential.backlog: 0 is out of range 1..1048576"),
            // collectors
            Arguments.of("collectors", List.of(), "collectors: empty; at least one collector is required"),
            Arguments.of("collectors", REMOVE, "collectors: required; at least one collector is required"),
            Arguments.of("collectors[0]", 5, "collectors[0]: expected a mapping, got 5"),
            Arguments.of("collectors[0].ip", "10.0.0.101", "collectors[0].ip: 10.0.0.101 is the translator's own " +
                "address (translator.ip)"),
            Arguments.of("collectors[0].pathMtu", 1500, "collectors[0].pathMtu: 1500 is not one of " +
                "{256, 512, 1024, 2048, 4096}"),
            Arguments.of("collectors[0].name", " ", "collectors[0].name: must not be blank"),
            // Key-Write
            Arguments.of("collectors[0].keyWrite.length", 2000, "collectors[0].keyWrite.length: 2000 / 8 = 250 " +
                "slots, not a power of two"),
            Arguments.of("collectors[0].keyWrite.length", 2001, "collectors[0].keyWrite.length: 2001 is not a " +
                "multiple of slotSize 8"),
            Arguments.of("collectors[0].keyWrite.length", 0, "collectors[0].keyWrite.length: 0 is less than 1"),
            Arguments.of("collectors[0].keyWrite.length", REMOVE, "collectors[0].keyWrite.length: required"),
            Arguments.of("collectors[0].keyWrite.slotSize", 12, "collectors[0].keyWrite.slotSize: 12 is not one of " +
                "{8, 16, 32}"),
            Arguments.of("collectors[0].keyWrite.qpn", "0x1000000", "collectors[0].keyWrite.qpn: 0x1000000 is out " +
                "of range 0x2..0xfffffe " + Q),
            Arguments.of("collectors[0].keyWrite.qpn", 1, "collectors[0].keyWrite.qpn: 1 is out of range " +
                "0x2..0xfffffe " + Q),
            Arguments.of("collectors[0].keyWrite.localQpn", "0xffffff", "collectors[0].keyWrite.localQpn: 0xffffff " +
                "is out of range 0x2..0xfffffe " + Q),
            Arguments.of("collectors[0].keyWrite.startPsn", "0x1000000", "collectors[0].keyWrite.startPsn: " +
                "0x1000000 is out of range 0x0..0xffffff"),
            Arguments.of("collectors[0].keyWrite.rkey", "0x100000000", "collectors[0].keyWrite.rkey: 0x100000000 " +
                "is out of range 0x0..0xffffffff"),
            Arguments.of("collectors[0].keyWrite.address", "0x10000000000000000", "collectors[0].keyWrite.address: " +
                "0x10000000000000000 is out of range 0x0..0xffffffffffffffff"),
            Arguments.of("collectors[0].keyWrite.address", "0x7f0000000004", "collectors[0].keyWrite.address: " +
                "0x7f0000000004 is not 8-byte aligned"),
            Arguments.of("collectors[0].keyWrite.address", "0xfffffffffffffc00", "collectors[0].keyWrite.length: " +
                "address 0xfffffffffffffc00 + length 2048 runs past the end of the 64-bit address space"),
            Arguments.of("collectors[0].keyWrite.udpSourcePort", 0, "collectors[0].keyWrite.udpSourcePort: 0 is " +
                "out of range 1..65535"),
            // Key-Increment and postcards
            Arguments.of("collectors[0].keyIncrement.length", 2000, "collectors[0].keyIncrement.length: 2000 / 8 = " +
                "250 counters, not a power of two"),
            Arguments.of("collectors[0].keyIncrement.length", 2044, "collectors[0].keyIncrement.length: 2044 is not " +
                "a multiple of the counter size 8"),
            Arguments.of("collectors[0].keyIncrement.maxOutstandingAtomics", 0, "collectors[0].keyIncrement." +
                "maxOutstandingAtomics: 0 is out of range 1..255"),
            Arguments.of("collectors[0].keyIncrement.atomicQueueSize", 0, "collectors[0].keyIncrement." +
                "atomicQueueSize: 0 is out of range 1..1048576"),
            Arguments.of("collectors[0].postcards.length", 8000, "collectors[0].postcards.length: 8000 / 32 = 250 " +
                "slots, not a power of two"),
            Arguments.of("collectors[0].postcards.length", 8200, "collectors[0].postcards.length: 8200 is not a " +
                "multiple of the slot size 32"),
            // lists
            Arguments.of("collectors[0].lists[0].length", 1000, "collectors[0].lists[0].length: 1000 / 4 = 250 " +
                "entries, not a multiple of append.batchSize 4 (required by layout reference)"),
            Arguments.of("collectors[0].lists[1].length", 8, "collectors[0].lists[1].length: 8 / 4 = 2 entries, " +
                "fewer than append.batchSize 4"),
            Arguments.of("collectors[0].lists[1].length", 16, "collectors[0].lists[1].length: 16 bytes hold no " +
                "record of the sequenced layout (append.batchSize 4 entries of 4 bytes + an 8-byte trailer = 24 " +
                "bytes)"),
            Arguments.of("collectors[0].lists[1].length", 20, "collectors[0].lists[1].length: 20 bytes hold no " +
                "record of the sequenced layout (append.batchSize 4 entries of 4 bytes + an 8-byte trailer = 24 " +
                "bytes)"),
            Arguments.of("collectors[0].lists[1].length", 4098, "collectors[0].lists[1].length: 4098 is not a " +
                "multiple of the entry size 4"),
            Arguments.of("collectors[0].lists[0].layout", "ring", "collectors[0].lists[0].layout: \"ring\" is not " +
                "one of sequenced, reference"),
            Arguments.of("collectors[0].lists[0].id", "0x100000000", "collectors[0].lists[0].id: 0x100000000 is " +
                "out of range 0x0..0xffffffff"),
            Arguments.of("collectors[0].lists[1].id", 0, "collectors[0].lists[1].id: 0 already used by " +
                "collectors[0].lists[0].id (lists are routed by id alone)"),
            Arguments.of("collectors[0].lists", "none", "collectors[0].lists: expected a list, got \"none\""),
            // cross-region rules
            Arguments.of("collectors[0].lists[1].localQpn", "0x539", "collectors[0].lists[1].localQpn: 0x000539 " +
                "already used by collectors[0].keyWrite.localQpn (responses are demultiplexed by it)"),
            Arguments.of("collectors[0].postcards.qpn", "0x456", "collectors[0].postcards.qpn: 0x000456 already " +
                "used by collectors[0].keyWrite.qpn on the same collector"),
            Arguments.of("collectors[0].lists[1].address", "0x7f0000300200", "collectors[0].lists[1]: region " +
                "[0x7f0000300200, 0x7f0000301200) overlaps collectors[0].lists[0] [0x7f0000300000, 0x7f0000300400)"),
            Arguments.of("collectors[0].keyIncrement.address", "0x7f00000007f8", "collectors[0].keyIncrement: region " +
                "[0x7f00000007f8, 0x7f0000000ff8) overlaps collectors[0].keyWrite [0x7f0000000000, 0x7f0000000800)"),
            // unknown keys
            Arguments.of("translator.pkey", 1, "translator.pkey: unknown key; did you mean 'pKey'?"),
            Arguments.of("reports.udp_port", 1, "reports.udp_port: unknown key; did you mean 'udpPort'?"),
            Arguments.of("collectors[0].keyWrite.rKey", 1, "collectors[0].keyWrite.rKey: unknown key; did you mean " +
                "'rkey'?"),
            Arguments.of("collectors[0].lists[1].lenght", 1, "collectors[0].lists[1].lenght: unknown key; did you " +
                "mean 'length'?"),
            Arguments.of("reports.colour", 1, "reports.colour: unknown key; expected one of: udpPort, baseHeader, " +
                "verifyChecksums, nackPort, sequenceTimeoutMicros"),
            Arguments.of("collectors[0].connection", Map.of("mode", "static"), "collectors[0].connection: unknown " +
                "key; expected one of: name, mac, ip, pathMtu, keyWrite, keyIncrement, postcards, lists, sketches"));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("invalidValues")
    void shouldRefuseInvalidValueWithPathAndReason(final String path, final Object value, final String expected)
    {
        final String document = exampleWith(path, value);
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> ConfigLoader.load(document, ConfigFormat.JSON));
        assertEquals(List.of(expected), ex.problems(), ex.getMessage());
    }

    static Stream<Arguments> invalidSketches()
    {
        return Stream.of(
            Arguments.of(ConfigTestSupport.sketch("count-min", 0, 8, 4096), "rows", REMOVE,
                "collectors[0].sketches[0].rows: required"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "rows", 65,
                "collectors[0].sketches[0].rows: 65 is out of range 1..64"),
            Arguments.of(ConfigTestSupport.sketch("hyperloglog", 2, 8, 4096), "rows", 2,
                "collectors[0].sketches[0].rows: 2 rows; a hyperloglog sketch has exactly 1 row of registers"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "columns", 1000,
                "collectors[0].sketches[0].columns: 1000 is not a power of two"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "type", "bloom",
                "collectors[0].sketches[0].type: \"bloom\" is not one of count-min, count-sketch, hyperloglog"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "type", REMOVE,
                "collectors[0].sketches[0].type: required (count-min, count-sketch or hyperloglog)"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "batchColumns", 16,
                "collectors[0].sketches[0].batchColumns: 16 is more than columns 8"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "batchColumns", 3,
                "collectors[0].sketches[0].batchColumns: 3 is not a power of two"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "epochs", 0,
                "collectors[0].sketches[0].epochs: 0 is out of range 1..1024"),
            Arguments.of(ConfigTestSupport.sketch("count-sketch", 4, 1024, 4096), "length", 32895,
                "collectors[0].sketches[0].length: 32895 is not a multiple of the cell size 4"),
            Arguments.of(ConfigTestSupport.sketch("count-sketch", 4, 1024, 4096), "length", 32892,
                "collectors[0].sketches[0].length: 32892 is too small for 2 epochs x (64 + 4 rows x 1024 columns " +
                "x 4) = 32896 bytes"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "id", "0x10000",
                "collectors[0].sketches[0].id: 0x10000 is out of range 0..65535"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 64, 8, 8192), "batchColumns", 6,
                "collectors[0].sketches[0].batchColumns: 6 is not a power of two"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 64, 8, 8192), "batchColumns", 0,
                "collectors[0].sketches[0].batchColumns: 0 is out of range 1..65536"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "switches", 0,
                "collectors[0].sketches[0].switches: 0 is out of range 1..256"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "nackRetryMicros", 0,
                "collectors[0].sketches[0].nackRetryMicros: 0 is out of range 1..3600000000"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "nackRetryMicros", 1_000_000,
                "collectors[0].sketches[0].nackRetryMicros: 1000000 is not below epochTimeoutMicros 1000000; a " +
                "retry that late would find the epoch closed"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "nackRetries", 17,
                "collectors[0].sketches[0].nackRetries: 17 is out of range 0..16"),
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "nackRetries", -1,
                "collectors[0].sketches[0].nackRetries: -1 is out of range 0..16"),
            // The derived nackRetryMicros max(1, 1 / 32) = 1 would not be below it, and no other value is either.
            Arguments.of(ConfigTestSupport.sketch("count-min", 2, 8, 4096), "epochTimeoutMicros", 1,
                "collectors[0].sketches[0].epochTimeoutMicros: 1 leaves no valid nackRetryMicros (at least 1 and " +
                "below epochTimeoutMicros); the least epoch timeout is 2"),
            // About 16 GiB of heap: must be refused at start, not die of an OutOfMemoryError in replay.
            Arguments.of(ConfigTestSupport.sketch("count-min", 64, 65536, 17_179_934_720L), "epochs", 1024,
                "collectors[0].sketches[0]: 1024 epochs x 65536 columns x (64 rows x 4 + 4) bytes = 17448304640 " +
                "bytes (16640 MiB) of merge state the translator preallocates on its heap (count-min cells and " +
                "per-column contribution counts, for every epoch area), more than the 1073741824 bytes (1024 MiB) " +
                "the translator holds for sketches: lower epochs, rows or columns"),
            // One epoch area past the bound (63 fit).
            Arguments.of(ConfigTestSupport.sketch("count-min", 64, 65536, 64 * 16_777_280L), "epochs", 64,
                "collectors[0].sketches[0]: 64 epochs x 65536 columns x (64 rows x 4 + 4) bytes = 1090519040 " +
                "bytes (1040 MiB) of merge state the translator preallocates on its heap (count-min cells and " +
                "per-column contribution counts, for every epoch area), more than the 1073741824 bytes (1024 MiB) " +
                "the translator holds for sketches: lower epochs, rows or columns"),
            // A Count sketch keeps 8-byte sums, so its region understates the translator's memory.
            Arguments.of(ConfigTestSupport.sketch("count-sketch", 64, 65536, 2_130_714_752L), "epochs", 127,
                "collectors[0].sketches[0]: 127 epochs x 65536 columns x (64 rows x 8 + 4) bytes = 4294705152 " +
                "bytes (4096 MiB) of merge state the translator preallocates on its heap (count-sketch cells and " +
                "per-column contribution counts, for every epoch area), more than the 1073741824 bytes (1024 MiB) " +
                "the translator holds for sketches: lower epochs, rows or columns"));
    }

    @ParameterizedTest(name = "{1} = {2}")
    @MethodSource("invalidSketches")
    void shouldRefuseInvalidSketch(
        final Map<String, Object> sketch, final String key, final Object value, final String expected)
    {
        if (value == REMOVE)
        {
            sketch.remove(key);
        }
        else
        {
            sketch.put(key, value);
        }
        final String document = exampleWith("collectors[0].sketches[0]", sketch);
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> ConfigLoader.load(document, ConfigFormat.JSON));
        assertEquals(List.of(expected), ex.problems(), ex.getMessage());
    }

    @Test
    void shouldAcceptTheSketchesTheInvalidCasesStartFrom()
    {
        ConfigLoader.load(exampleWith("collectors[0].sketches[0]", ConfigTestSupport.sketch("count-min", 2, 8, 4096)),
            ConfigFormat.JSON);
        ConfigLoader.load(exampleWith("collectors[0].sketches[0]",
            ConfigTestSupport.sketch("count-sketch", 4, 1024, 32896)), ConfigFormat.JSON);
    }

    @Test
    void shouldAcceptSketchMergeStateUpToTheBoundAndRefuseSketchesThatTogetherExceedIt()
    {
        final Map<String, Object> first = ConfigTestSupport.sketch("count-min", 64, 65536, 63 * 16_777_280L);
        first.put("epochs", 63);
        final SketchConfig fits = ConfigLoader.load(exampleWith("collectors[0].sketches[0]", first),
            ConfigFormat.JSON).collectors().get(0).sketches().get(0);
        assertEquals(1_073_479_680L, fits.translatorStateBytes());
        assertTrue(fits.translatorStateBytes() <= SketchConfig.MAX_TRANSLATOR_STATE_BYTES);

        // Two sketches, each well within the bound alone, exceed it together: reported at the larger one.
        final Map<String, Object> small = ConfigTestSupport.sketch("count-min", 64, 65536, 40 * 16_777_280L);
        small.put("epochs", 40);
        final Map<String, Object> large = ConfigTestSupport.sketch("count-min", 64, 65536, 41 * 16_777_280L);
        large.put("epochs", 41);
        large.put("id", 8);
        large.put("localQpn", "0x700");
        large.put("qpn", "0x701");
        large.put("address", "0x7f1000000000");
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(exampleWith(
            "collectors[0].sketches[0]", small, "collectors[0].sketches[1]", large), ConfigFormat.JSON));
        assertEquals(List.of("collectors[0].sketches[1]: 41 epochs x 65536 columns x (64 rows x 4 + 4) bytes = " +
            "698613760 bytes (667 MiB) of merge state the translator preallocates on its heap (count-min cells and " +
            "per-column contribution counts, for every epoch area); all sketches together 1380188160 bytes " +
            "(1317 MiB), more than the 1073741824 bytes (1024 MiB) the translator holds for sketches: lower epochs, " +
            "rows or columns"), ex.problems());
    }

    @Test
    void shouldAcceptTheLeastEpochTimeoutWithItsDerivedNackRetryInterval()
    {
        final Map<String, Object> sketch = ConfigTestSupport.sketch("count-min", 2, 8, 4096);
        sketch.put("epochTimeoutMicros", 2);
        final SketchConfig loaded = ConfigLoader.load(exampleWith("collectors[0].sketches[0]", sketch),
            ConfigFormat.JSON).collectors().get(0).sketches().get(0);
        assertEquals(1, loaded.nackRetryMicros());
        assertTrue(loaded.nackRetryMicros() < loaded.epochTimeoutMicros());
    }

    @Test
    void shouldDeriveTheNackRetryIntervalFromTheEpochTimeoutUnlessGiven()
    {
        final Map<String, Object> sketch = ConfigTestSupport.sketch("count-min", 2, 8, 4096);
        sketch.put("epochTimeoutMicros", 64_000);
        final SketchConfig derived = ConfigLoader.load(exampleWith("collectors[0].sketches[0]", sketch),
            ConfigFormat.JSON).collectors().get(0).sketches().get(0);
        assertEquals(2_000, derived.nackRetryMicros(), "a 32nd of the epoch timeout");
        assertEquals(4, derived.nackRetries());

        sketch.put("nackRetryMicros", 63_999);
        sketch.put("nackRetries", 0);
        final SketchConfig given = ConfigLoader.load(exampleWith("collectors[0].sketches[0]", sketch),
            ConfigFormat.JSON).collectors().get(0).sketches().get(0);
        assertEquals(63_999, given.nackRetryMicros());
        assertEquals(0, given.nackRetries(), "0 turns the timer re-sends off");
    }

    @Test
    void shouldAcceptASketchRunThatFillsThePathMtuExactly()
    {
        final Map<String, Object> sketch = ConfigTestSupport.sketch("count-min", 64, 8, 8192);
        sketch.put("batchColumns", 4);
        final SketchConfig loaded = ConfigLoader.load(exampleWith("collectors[0].sketches[0]", sketch),
            ConfigFormat.JSON).collectors().get(0).sketches().get(0);
        assertEquals(4 * 64 * 4, loaded.batchColumns() * loaded.rows() * SketchConfig.CELL_BYTES);
    }

    /**
     * A run of columns longer than the collector's path MTU goes out as one multi-packet WRITE (First/Middle/Last):
     * it is accepted at every path MTU, up to the whole sketch in one run.
     */
    @ParameterizedTest(name = "pathMtu {0}, {1} rows, batchColumns {2}")
    @CsvSource({
        "1024, 64, 8",      // 2048 bytes: the case configuration used to refuse
        "256, 5, 32",       // 640 bytes: First, Middle and a half-MTU Last
        "4096, 64, 65536",  // the whole 16 MiB sketch in one run
        "256, 1, 65536"})
    void shouldAcceptASketchRunLongerThanThePathMtu(final int pathMtu, final int rows, final int batchColumns)
    {
        final Map<String, Object> sketch = ConfigTestSupport.sketch("count-min", rows, batchColumns,
            2L * (64 + (long)rows * batchColumns * 4));
        sketch.put("batchColumns", batchColumns);
        final ApplianceConfig loaded = ConfigLoader.load(exampleWith("collectors[0].pathMtu", pathMtu,
            "collectors[0].sketches[0]", sketch, "essential", Map.of("backlog", 32)), ConfigFormat.JSON);
        final SketchConfig s = loaded.collectors().get(0).sketches().get(0);
        assertEquals(pathMtu, loaded.collectors().get(0).pathMtu());
        assertEquals(batchColumns, s.batchColumns());
        assertTrue((long)s.batchColumns() * s.rows() * SketchConfig.CELL_BYTES > pathMtu, "longer than the MTU");
    }

    /**
     * What still bounds a run: the sketch QP's essential ring keeps a run per entry, essential.backlog entries
     * rounded up to a power of two, preallocated as one buffer that must stay addressable (at most 2^31 - 1 bytes).
     */
    @Test
    void shouldRefuseARunWhoseEssentialRingWouldNotBeAddressable()
    {
        // 8192 columns x 64 rows x 4 = 2 MiB per run; 1024 entries make 2 GiB, one byte too many.
        final Map<String, Object> sketch = ConfigTestSupport.sketch("count-min", 64, 8192, 2L * (64 + 64 * 8192 * 4));
        sketch.put("batchColumns", 8192);
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(exampleWith(
            "collectors[0].sketches[0]", sketch), ConfigFormat.JSON));
        assertEquals(List.of("collectors[0].sketches[0].batchColumns: 8192 columns x 64 rows x 4 = 2097152 bytes per " +
            "WRITE x 1024 essential ring entries (essential.backlog 1024, rounded up to a power of two) = 2147483648 " +
            "bytes, more than 2147483647"), ex.problems());

        // 1023 entries round up to the same 1024; 256 entries fit (512 MiB, with the other QPs' rings).
        final ConfigException rounded = assertThrows(ConfigException.class, () -> ConfigLoader.load(exampleWith(
            "collectors[0].sketches[0]", sketch, "essential", Map.of("backlog", 1023)), ConfigFormat.JSON));
        assertTrue(rounded.problems().get(0).contains("x 1024 essential ring entries (essential.backlog 1023"),
            rounded.getMessage());
        final SketchConfig fits = ConfigLoader.load(exampleWith("collectors[0].sketches[0]", sketch, "essential",
            Map.of("backlog", 256)), ConfigFormat.JSON).collectors().get(0).sketches().get(0);
        assertEquals(8192, fits.batchColumns());
    }

    @Test
    void shouldRefuseEssentialRingsLargerTogetherThanTheBudget()
    {
        // Each sketch's ring fits on its own (256 entries x 2 MiB runs = 512 MiB); two of them, with the other QPs'
        // rings, are more than the 1 GiB all rings may take: they would fail to start for want of direct memory.
        final Map<String, Object> first = ConfigTestSupport.sketch("count-min", 64, 8192, 2L * (64 + 64 * 8192 * 4));
        first.put("batchColumns", 8192);
        final Map<String, Object> second = ConfigTestSupport.sketch("count-min", 64, 8192, 2L * (64 + 64 * 8192 * 4));
        second.put("batchColumns", 8192);
        second.put("id", 8);
        second.put("localQpn", "0x700");
        second.put("qpn", "0x701");
        second.put("address", "0x7f1000000000");
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(exampleWith(
            "collectors[0].sketches[0]", first, "collectors[0].sketches[1]", second,
            "essential", Map.of("backlog", 256)), ConfigFormat.JSON));
        assertEquals(1, ex.problems().size(), ex.getMessage());
        assertTrue(ex.problems().get(0).startsWith("essential.backlog: 256 (256 entries per QP) makes the QPs' " +
            "essential rings take "), ex.getMessage());
        assertTrue(ex.problems().get(0).contains("more than 1073741824; the largest is collectors[0].sketches[0]'s, " +
            "536870912 bytes"), ex.getMessage());

        // One of them, or both at half the backlog, fit.
        assertEquals(2, ConfigLoader.load(exampleWith("collectors[0].sketches[0]", first, "collectors[0].sketches[1]",
            second, "essential", Map.of("backlog", 128)), ConfigFormat.JSON).collectors().get(0).sketches().size());
    }

    @Test
    void shouldRefuseDuplicateSketchIdsWithinACollector()
    {
        final Map<String, Object> second = ConfigTestSupport.sketch("count-min", 2, 8, 4096);
        second.put("localQpn", "0x700");
        second.put("qpn", "0x701");
        second.put("address", "0x7f0000900000");
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(exampleWith(
            "collectors[0].sketches[0]", ConfigTestSupport.sketch("count-min", 2, 8, 4096),
            "collectors[0].sketches[1]", second), ConfigFormat.JSON));
        assertEquals(List.of("collectors[0].sketches[1].id: 7 already used by collectors[0].sketches[0].id on the " +
            "same collector"), ex.problems());
    }

    @Test
    void shouldRefuseACollectorWithoutRegions()
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(exampleWith(
            "collectors[0].keyWrite", REMOVE, "collectors[0].keyIncrement", REMOVE,
            "collectors[0].postcards", REMOVE, "collectors[0].lists", List.of()), ConfigFormat.JSON));
        assertEquals(List.of("collectors[0]: no regions; a collector hosts at least one of keyWrite, keyIncrement, " +
            "postcards, lists, sketches"), ex.problems());
    }

    @Test
    void shouldRefuseDuplicatesAcrossCollectors()
    {
        final Map<String, Object> tree = ConfigTestSupport.exampleTree();
        @SuppressWarnings("unchecked")
        final List<Object> collectors = (List<Object>)tree.get("collectors");
        final Map<String, Object> second = ConfigTestSupport.exampleTree();
        @SuppressWarnings("unchecked")
        final Map<String, Object> copy = (Map<String, Object>)((List<Object>)second.get("collectors")).get(0);
        collectors.add(copy);
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> ConfigLoader.load(ConfigTestSupport.json(tree), ConfigFormat.JSON));
        assertEquals(List.of(
            "collectors[1].name: \"collector-a\" already used by collectors[0].name",
            "collectors[1].ip: 10.0.0.51 already used by collectors[0].ip",
            "collectors[1].keyWrite.localQpn: 0x000539 already used by collectors[0].keyWrite.localQpn " +
                "(responses are demultiplexed by it)",
            "collectors[1].keyIncrement.localQpn: 0x00053a already used by collectors[0].keyIncrement.localQpn " +
                "(responses are demultiplexed by it)",
            "collectors[1].postcards.localQpn: 0x00053b already used by collectors[0].postcards.localQpn " +
                "(responses are demultiplexed by it)",
            "collectors[1].lists[0].localQpn: 0x00053c already used by collectors[0].lists[0].localQpn " +
                "(responses are demultiplexed by it)",
            "collectors[1].lists[1].localQpn: 0x00053d already used by collectors[0].lists[1].localQpn " +
                "(responses are demultiplexed by it)",
            "collectors[1].lists[0].id: 0 already used by collectors[0].lists[0].id (lists are routed by id alone)",
            "collectors[1].lists[1].id: 1 already used by collectors[0].lists[1].id (lists are routed by id alone)"),
            ex.problems());
    }

    @Test
    void shouldAcceptASecondCollectorThatSharesNothing()
    {
        final Map<String, Object> tree = ConfigTestSupport.exampleTree();
        ConfigTestSupport.set(tree, "collectors[1]", Map.of(
            "name", "collector-b", "mac", "02:00:0a:00:00:34", "ip", "10.0.0.52",
            "lists", List.of(Map.of("id", 9, "localQpn", 0x900, "qpn", 0x456, "rkey", 1,
                "address", "0x7f0000000000", "length", 1024))));
        final ApplianceConfig config = ConfigLoader.load(ConfigTestSupport.json(tree), ConfigFormat.JSON);
        assertEquals(2, config.collectors().size());
        assertEquals(9, config.collectors().get(1).lists().get(0).id());
    }

    @Test
    void shouldRefuseAutoBaseHeaderWithSeveralKeyWriteSlotSizes()
    {
        final Map<String, Object> tree = ConfigTestSupport.exampleTree();
        ConfigTestSupport.set(tree, "collectors[1]", Map.of(
            "name", "collector-b", "mac", "02:00:0a:00:00:34", "ip", "10.0.0.52",
            "keyWrite", Map.of("localQpn", 0x900, "qpn", 0x456, "rkey", 1, "address", "0x7f0000000000",
                "length", 4096, "slotSize", 16)));
        // One form given: several slot sizes are fine.
        ConfigTestSupport.set(tree, "reports.baseHeader", "3");
        assertEquals(2, ConfigLoader.load(ConfigTestSupport.json(tree), ConfigFormat.JSON).collectors().size());

        ConfigTestSupport.set(tree, "reports.baseHeader", "auto");
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> ConfigLoader.load(ConfigTestSupport.json(tree), ConfigFormat.JSON));
        assertEquals(List.of("reports.baseHeader: auto tells the 2- and 3-byte forms apart by report length, which " +
            "needs one Key-Write slot size across collectors, but they use [8, 16]; set the form (2 or 3) or use " +
            "one slot size"), ex.problems());
    }

    @Test
    void shouldReportSeveralProblemsTogether()
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(exampleWith(
            "translator.dscp", 99,
            "append.batchSize", 5,
            "collectors[0].keyWrite.length", 2000,
            "collectors[0].lists[1].qpn", "0x459",
            "collectors[0].lists[1].colour", "red"), ConfigFormat.JSON));

        assertEquals(List.of(
            "translator.dscp: 99 is out of range 0..63",
            "append.batchSize: 5 is not one of {1, 2, 4, 8, 16}",
            "collectors[0].keyWrite.length: 2000 / 8 = 250 slots, not a power of two",
            "collectors[0].lists[1].colour: unknown key; expected one of: id, localQpn, servicePort, qpn, rkey, address, " +
                "length, startPsn, udpSourcePort, workerQueuePairs, layout",
            "collectors[0].lists[1].qpn: 0x000459 already used by collectors[0].lists[0].qpn on the same collector"),
            ex.problems());
        assertTrue(ex.getMessage().startsWith("invalid configuration (5 problems):"), ex.getMessage());
        for (final String problem : ex.problems())
        {
            assertTrue(ex.getMessage().contains(problem), problem);
        }
    }

    @Test
    void shouldRefuseDuplicateYamlKeysAndSyntaxErrors()
    {
        final String yaml = ConfigTestSupport.resource("translator.yaml")
            .replace("  ttl: 64\n", "  ttl: 64\n  ttl: 65\n");
        final ConfigException dup = assertThrows(ConfigException.class, () -> ConfigLoader.load(yaml));
        assertEquals(List.of("translator.ttl: duplicate key"), dup.problems());

        final ConfigException syntax = assertThrows(ConfigException.class,
            () -> ConfigLoader.load("{ \"translator\": ", ConfigFormat.JSON));
        assertTrue(syntax.problems().get(0).startsWith("(document): not valid JSON at line 1"), syntax.getMessage());

        // SnakeYAML's message spans lines (snippets, carets); the problem is one line naming both positions.
        final ConfigException unclosed = assertThrows(ConfigException.class, () -> ConfigLoader.load(
            ConfigTestSupport.resource("translator.yaml").replace("  ttl: 64\n", "  ttl: [64\n")));
        final String line = unclosed.problems().get(0);
        assertFalse(line.contains("\n") || line.contains("^"), line);
        assertTrue(line.matches("\\(document\\): not valid YAML at line \\d+, column \\d+: expected ',' or ']'.*" +
            "\\(while parsing a flow sequence started at line \\d+, column \\d+\\)"), line);

        final ConfigException empty = assertThrows(ConfigException.class, () -> ConfigLoader.load("# nothing\n"));
        assertEquals(List.of("(document): empty configuration"), empty.problems());

        final ConfigException scalar = assertThrows(ConfigException.class, () -> ConfigLoader.load("42\n"));
        assertEquals(List.of("(document): expected a mapping at the top level, got 42"), scalar.problems());
    }

    @Test
    void shouldRefuseYaml11BooleanWordsButAcceptTrueAndFalse()
    {
        final String example = ConfigTestSupport.resource("translator.yaml");
        for (final String word : List.of("no", "yes", "on", "off", "n", "\"true\"", "0"))
        {
            final String yaml = example.replace("verifyChecksums: false", "verifyChecksums: " + word);
            final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(yaml), word);
            assertEquals(1, ex.problems().size(), ex.getMessage());
            assertTrue(ex.problems().get(0).startsWith("reports.verifyChecksums: expected true or false, got "),
                ex.getMessage());
        }
        for (final String word : List.of("true", "True", "TRUE"))
        {
            final String yaml = example.replace("verifyChecksums: false", "verifyChecksums: " + word);
            assertTrue(ConfigLoader.load(yaml).reports().verifyChecksums(), word);
        }
        assertEquals(false, ConfigLoader.load(example.replace("verifyChecksums: false", "verifyChecksums: False"))
            .reports().verifyChecksums());
    }
}
