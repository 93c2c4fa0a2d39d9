package io.dta.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class NetAddressTest
{
    private static final long SEED = 0x5EED_C0F1_6L;

    @Test
    void shouldRoundTripRandomMacs()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 10_000; i++)
        {
            final long mac = random.nextLong() & 0xFFFF_FFFF_FFFFL;
            final String text = NetAddress.macToString(mac);
            assertEquals(mac, NetAddress.parseMac(text), "seed " + SEED + " case " + i + " " + text);
            assertEquals(mac, NetAddress.parseMac(text.toUpperCase().replace(':', '-')), "seed " + SEED + " " + text);
        }
    }

    @Test
    void shouldRoundTripRandomIpv4Addresses()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 10_000; i++)
        {
            final int ip = random.nextInt();
            final String text = NetAddress.ipv4ToString(ip);
            assertEquals(ip & 0xFFFF_FFFFL, NetAddress.parseIpv4(text), "seed " + SEED + " case " + i + " " + text);
        }
    }

    @Test
    void shouldFormatKnownAddresses()
    {
        assertEquals("02:00:0a:00:00:65", NetAddress.macToString(0x02000a000065L));
        assertEquals("10.0.0.101", NetAddress.ipv4ToString(0x0a000065));
        assertEquals(0x0a000065L, NetAddress.parseIpv4("10.0.0.101"));
        assertEquals(0xb8cef6d21326L, NetAddress.parseMac("b8:ce:f6:d2:13:26"));
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "02:00:0a:00:00", "02:00:0a:00:00:6", "02:00:0a:00:00:655", "02-00:0a:00:00:65",
        "0g:00:0a:00:00:65", "02:00:0a:00:00:65:", "020:0a:00:00:65:" })
    void shouldRefuseMalformedMacs(final String text)
    {
        assertEquals(NetAddress.INVALID, NetAddress.parseMac(text));
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "10.0.0", "10.0.0.1.2", "10.0.0.256", "10..0.1", "10.0.0.", ".10.0.0.1",
        "10.0.0.01", "10.0.0.-1", "10.0.0.1 ", "a.b.c.d", "1000.0.0.1" })
    void shouldRefuseMalformedIpv4Addresses(final String text)
    {
        assertEquals(NetAddress.INVALID, NetAddress.parseIpv4(text));
    }
}
