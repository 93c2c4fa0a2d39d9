package io.dta.codec;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Address parsing, PSN arithmetic, the opcode table, AETH syndromes and the ones'-complement fold.
 */
class UtilTest
{
    private static final long SEED = 0xA11L;

    @Test
    void shouldParseAndFormatMacAddresses()
    {
        assertEquals(0x02000a000065L, MacAddress.parse("02:00:0a:00:00:65"));
        assertEquals(0xb8cef6d212c7L, MacAddress.parse("B8-CE-F6-D2-12-C7"));
        assertEquals("02:00:0a:00:00:65", MacAddress.format(0x02000a000065L));
        assertThrows(IllegalArgumentException.class, () -> MacAddress.parse("02:00:0a:00:00"));
        assertThrows(IllegalArgumentException.class, () -> MacAddress.parse("02:00:0a:00:00:6g"));
        assertThrows(IllegalArgumentException.class, () -> MacAddress.parse("02.00:0a:00:00:65"));
        final SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 2_000; i++)
        {
            final long mac = random.nextLong() & MacAddress.MASK;
            assertEquals(mac, MacAddress.parse(MacAddress.format(mac)), "seed " + SEED + " case " + i);
        }
    }

    @Test
    void shouldParseAndFormatIpv4Addresses()
    {
        assertEquals(0x0A000065, Ipv4Address.parse("10.0.0.101"));
        assertEquals(0xFFFFFFFF, Ipv4Address.parse("255.255.255.255"));
        assertEquals("10.0.0.51", Ipv4Address.format(0x0A000033));
        for (final String bad : new String[] { "10.0.0", "10.0.0.256", "10..0.1", "10.0.0.1.", "a.b.c.d", "" })
        {
            assertThrows(IllegalArgumentException.class, () -> Ipv4Address.parse(bad), bad);
        }
        final SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 2_000; i++)
        {
            final int ip = random.nextInt();
            assertEquals(ip, Ipv4Address.parse(Ipv4Address.format(ip)), "seed " + SEED + " case " + i);
        }
    }

    @Test
    void shouldDoPsnArithmeticModulo24Bits()
    {
        assertEquals(0, Psn.next(0xFFFFFF));
        assertEquals(0x000002, Psn.add(0xFFFFFF, 3));
        assertEquals(0xFFFFFE, Psn.add(1, -3));
        assertTrue(Psn.compare(0x000001, 0xFFFFFF) > 0);
        assertTrue(Psn.compare(0xFFFFFF, 0x000001) < 0);
        assertEquals(0, Psn.compare(0x123456, 0x123456));
        assertEquals(2, Psn.distance(0xFFFFFF, 0x000001));
        final SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 10_000; i++)
        {
            final String msg = "seed " + SEED + " case " + i;
            final int a = random.nextInt(1 << 24);
            final int d = 1 + random.nextInt((1 << 23) - 1);
            final int b = Psn.add(a, d);
            assertTrue(Psn.compare(b, a) > 0, msg);
            assertTrue(Psn.compare(a, b) < 0, msg);
            assertEquals(d, Psn.distance(a, b), msg);
            assertEquals((1 << 24) - d, Psn.distance(b, a), msg);
        }
    }

    @Test
    void shouldKnowHeaderLengthsOfTheRxeTable()
    {
        assertEquals(28, RoceOpcode.headerLength(RoceOpcode.RC_RDMA_WRITE_ONLY));
        assertEquals(28, RoceOpcode.headerLength(RoceOpcode.RC_RDMA_WRITE_FIRST));
        assertEquals(28, RoceOpcode.headerLength(RoceOpcode.RC_RDMA_READ_REQUEST));
        assertEquals(12, RoceOpcode.headerLength(RoceOpcode.RC_RDMA_WRITE_MIDDLE));
        assertEquals(12, RoceOpcode.headerLength(RoceOpcode.RC_RDMA_WRITE_LAST));
        assertEquals(32, RoceOpcode.headerLength(RoceOpcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE));
        assertEquals(40, RoceOpcode.headerLength(RoceOpcode.RC_FETCH_ADD));
        assertEquals(40, RoceOpcode.headerLength(RoceOpcode.RC_COMPARE_SWAP));
        assertEquals(16, RoceOpcode.headerLength(RoceOpcode.RC_ACKNOWLEDGE));
        assertEquals(24, RoceOpcode.headerLength(RoceOpcode.RC_ATOMIC_ACKNOWLEDGE));
        assertEquals(16, RoceOpcode.headerLength(RoceOpcode.RC_RDMA_READ_RESPONSE_FIRST));
        assertEquals(12, RoceOpcode.headerLength(RoceOpcode.RC_RDMA_READ_RESPONSE_MIDDLE));
        assertEquals(16, RoceOpcode.headerLengthAfterBth(RoceOpcode.RC_RDMA_WRITE_ONLY));
        assertEquals(16, RoceOpcode.headerLengthAfterBth(RoceOpcode.UC_BASE + RoceOpcode.RC_RDMA_WRITE_ONLY));
        assertEquals(8, RoceOpcode.headerLengthAfterBth(RoceOpcode.UD_SEND_ONLY));
        assertEquals(16, RoceOpcode.headerLengthAfterBth(RoceOpcode.CNP));
        assertEquals(-1, RoceOpcode.headerLengthAfterBth(0x15));
        assertEquals(-1, RoceOpcode.headerLengthAfterBth(0x2C));
        assertEquals(-1, RoceOpcode.headerLengthAfterBth(0xFF));
        assertEquals("RC_FETCH_ADD", RoceOpcode.name(0x14));
        assertEquals("UC_RDMA_WRITE_ONLY", RoceOpcode.name(0x2A));
        assertEquals("CNP", RoceOpcode.name(0x81));
        assertEquals("UNKNOWN", RoceOpcode.name(0x15));
    }

    @Test
    void shouldBuildAndParseSyndromes()
    {
        assertEquals(0x1F, AethFlyweight.ackSyndrome(AethFlyweight.CREDIT_INVALID));
        assertEquals(0x60, AethFlyweight.nakSyndrome(AethFlyweight.NAK_PSN_SEQUENCE_ERROR));
        assertEquals(0x62, AethFlyweight.nakSyndrome(AethFlyweight.NAK_REMOTE_ACCESS_ERROR));
        assertEquals(0x2E, AethFlyweight.rnrNakSyndrome(14));
        assertEquals(AethFlyweight.TYPE_ACK, AethFlyweight.type(0x05));
        assertEquals(AethFlyweight.TYPE_RNR_NAK, AethFlyweight.type(0x3F));
        assertEquals(AethFlyweight.TYPE_RESERVED, AethFlyweight.type(0x40));
        assertEquals(AethFlyweight.TYPE_NAK, AethFlyweight.type(0x61));
    }

    @Test
    void shouldFoldAnySumToItsOnesComplementResidue()
    {
        // Oracle from the definition: a non-zero sum folds to the value in 1..0xFFFF congruent to it modulo 0xFFFF
        // (2^16 = 1 there), zero stays zero. The sum is read as an unsigned 64-bit number.
        final long[] edges = {0, 1, 0xFFFF, 0x10000, 0x1FFFE, 0x1FFFF, 0x2FFFE, 0xFFFF_FFFFL, 0x1_0000_0000L,
            0x1_FFFF_FFFEL, Long.MAX_VALUE, -1L, Long.MIN_VALUE, 0xFFFF_0000_FFFF_0000L,
            0x1_0000_FFFF_FFFFL}; // the last: 0x1FFFF after the second fold, so the fourth is needed
        for (final long sum : edges)
        {
            assertEquals(residue(sum), Checksums.fold(sum), () -> "sum " + Long.toHexString(sum));
        }
        final SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 20_000; i++)
        {
            // Every magnitude, from sums of a few words to the full 64 bits.
            final long sum = random.nextLong() >>> random.nextInt(64);
            assertEquals(residue(sum), Checksums.fold(sum), () -> "seed " + SEED + ", sum " + Long.toHexString(sum));
        }
    }

    private static int residue(final long sum)
    {
        if (0 == sum)
        {
            return 0;
        }
        final int r = (int)Long.remainderUnsigned(sum, 0xFFFF);
        return 0 == r ? 0xFFFF : r;
    }
}
