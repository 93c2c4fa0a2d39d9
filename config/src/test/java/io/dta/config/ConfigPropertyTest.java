package io.dta.config;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded random checks of number parsing and of the overlap rule against a direct computation.
 */
class ConfigPropertyTest
{
    private static final long SEED = 0xC0_FFEE_2026L;

    private static final String TEMPLATE = """
        {"translator": {"mac": "02:00:00:00:00:01", "ip": "10.1.1.1"},
         "collectors": [{"mac": "02:00:00:00:00:02", "ip": "10.1.1.2",
           "keyWrite": {"localQpn": %s, "qpn": %s, "rkey": %s, "address": %s, "length": %s, "startPsn": %s},
           "keyIncrement": {"localQpn": 3, "qpn": 4, "rkey": 5, "address": %s, "length": %s}}]}
        """;

    @Test
    void shouldParseRandomValuesWrittenInDecimalOrHex()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 2_000; i++)
        {
            final int localQpn = 0x10 + random.nextInt(0xFFFFF0);
            final int qpn = 2 + random.nextInt(0xFFFFFD);
            final long rkey = random.nextLong() & 0xFFFF_FFFFL;
            final long length = 8L << random.nextInt(20);
            final long address = (random.nextLong() & ~7L) & 0x7FFF_FFFF_FFFF_0000L;
            final int psn = random.nextInt(0x1000000);
            final String json = TEMPLATE.formatted(write(random, localQpn), write(random, qpn), write(random, rkey),
                write(random, address), write(random, length), write(random, psn),
                "\"0xfffffffffffff000\"", 64);
            final String context = "seed " + SEED + " case " + i + ": " + json;

            final RegionConfig region = ConfigLoader.load(json, ConfigFormat.JSON).collectors().get(0)
                .keyWrite().region();
            assertEquals(localQpn, region.localQpn(), context);
            assertEquals(qpn, region.qpn(), context);
            assertEquals(rkey, region.rkey(), context);
            assertEquals(address, region.address(), context);
            assertEquals(length, region.length(), context);
            assertEquals(psn, region.startPsn(), context);
        }
    }

    @Test
    void shouldRefuseExactlyTheOverlappingRegions()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        int overlaps = 0;
        for (int i = 0; i < 2_000; i++)
        {
            // small address space near the top of the 64-bit range, so unsigned ends and wrap-around matter
            final long space = 0x1000;
            final long base = -space;
            final long lengthA = 8L << random.nextInt(9);
            final long lengthB = 8L << random.nextInt(9);
            final long addressA = base + 8L * random.nextInt((int)((space - lengthA) / 8) + 1);
            final long addressB = base + 8L * random.nextInt((int)((space - lengthB) / 8) + 1);
            final boolean expectOverlap = (addressA - base) < (addressB - base) + lengthB &&
                (addressB - base) < (addressA - base) + lengthA;
            final String json = TEMPLATE.formatted(0x100, 0x200, 1, "\"" + ConfigText.hex(addressA, 0) + "\"",
                lengthA, 0, "\"" + ConfigText.hex(addressB, 0) + "\"", lengthB);
            final String context = "seed " + SEED + " case " + i + ": " + json;
            if (expectOverlap)
            {
                overlaps++;
                final ConfigException ex = assertThrows(ConfigException.class,
                    () -> ConfigLoader.load(json, ConfigFormat.JSON), context);
                assertEquals(1, ex.problems().size(), context);
                assertTrue(ex.problems().get(0).startsWith("collectors[0].keyIncrement: region ["), context);
                assertTrue(ex.problems().get(0).contains(" overlaps collectors[0].keyWrite ["), context);
            }
            else
            {
                ConfigLoader.load(json, ConfigFormat.JSON);
            }
        }
        assertTrue(overlaps > 100 && overlaps < 1_900, "both outcomes exercised: " + overlaps);
    }

    private static String write(final SplittableRandom random, final long value)
    {
        return switch (random.nextInt(4))
        {
            case 0 -> Long.toString(value);
            case 1 -> "\"" + value + "\"";
            case 2 -> "\"0x" + Long.toHexString(value) + "\"";
            default -> "\"0X" + Long.toHexString(value).toUpperCase() + "\"";
        };
    }
}
