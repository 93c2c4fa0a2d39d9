package io.dta.codec.pcap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The interface table of a pcapng section on its own: numbering from 0 in each section, growth past its initial
 * capacity keeping what was defined, and the conversion of timestamps, checked against exact big-integer arithmetic.
 */
class PcapngInterfacesTest
{
    @Test
    void shouldNumberInterfacesFromZeroAndForgetThemWhenASectionStarts()
    {
        final PcapngInterfaces interfaces = new PcapngInterfaces();
        assertEquals(0, interfaces.count());
        for (int i = 0; i < 100; i++)
        {
            interfaces.add(i, 1000L + i, i & 0xFF, i % 3, i * 1_000_000_000L, 28L * i);
        }
        assertEquals(100, interfaces.count());
        for (int i = 0; i < 100; i++)
        {
            assertEquals(i, interfaces.linkType(i));
            assertEquals(1000 + i, interfaces.snapLength(i));
            assertEquals(i & 0xFF, interfaces.tsresol(i));
            assertEquals(i % 3, interfaces.fcsLength(i));
            assertEquals(i * 1_000_000_000L, interfaces.offsetNanos(i));
            assertEquals(28L * i, interfaces.blockOffset(i));
        }

        interfaces.clear();
        assertEquals(0, interfaces.count());
        interfaces.add(113, 0, 9, 0, 0, 4096);
        assertEquals(1, interfaces.count());
        assertEquals(113, interfaces.linkType(0));
        assertEquals(4096, interfaces.blockOffset(0));
    }

    @Test
    void shouldClampASnapLengthAboveIntRange()
    {
        final PcapngInterfaces interfaces = new PcapngInterfaces();
        interfaces.add(1, 0xFFFF_FFFFL, 6, 0, 0, 0);
        assertEquals(Integer.MAX_VALUE, interfaces.snapLength(0));
    }

    @Test
    void shouldTellNanosecondOrFinerResolutions()
    {
        assertFalse(PcapngInterfaces.nanosecondOrFiner(6));
        assertTrue(PcapngInterfaces.nanosecondOrFiner(9));
        assertTrue(PcapngInterfaces.nanosecondOrFiner(12));
        assertFalse(PcapngInterfaces.nanosecondOrFiner(0x80 | 29));
        assertTrue(PcapngInterfaces.nanosecondOrFiner(0x80 | 30));
    }

    @Test
    void shouldConvertUnitsToNanosecondsAsExactArithmeticRoundsDown()
    {
        final SplittableRandom random = new SplittableRandom(0x1D_B10CL);
        for (int i = 0; i < 20_000; i++)
        {
            final int resolution = random.nextBoolean() ? random.nextInt(0, 128) : 0x80 | random.nextInt(0, 128);
            final long units = switch (random.nextInt(3))
            {
                case 0 -> random.nextLong();
                case 1 -> random.nextLong(0, 1L << 40);
                default -> random.nextLong(0, 1L << 62);
            };
            assertEquals(expected(units, resolution), PcapngInterfaces.unitsToNanos(units, resolution),
                "units " + Long.toUnsignedString(units) + ", if_tsresol 0x" + Integer.toHexString(resolution));
        }
    }

    private static long expected(final long units, final int resolution)
    {
        final BigInteger value = new BigInteger(Long.toUnsignedString(units)).multiply(BigInteger.TEN.pow(9));
        final int exponent = resolution & 0x7F;
        final BigInteger divisor = 0 == (resolution & 0x80) ?
            BigInteger.TEN.pow(exponent) : BigInteger.TWO.pow(exponent);
        final BigInteger nanos = value.divide(divisor);
        return nanos.bitLength() > 63 ? -1 : nanos.longValueExact();
    }
}
