package io.dta.dpdk;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MTU check {@link EthPort#open(int, Mempool, int, int, boolean, int)} makes before configuring a port, with
 * the device limits as arguments (every virtual device reports {@code max_mtu} 65535), and the MTU argument's
 * range. No EAL.
 */
class EthPortMtuTest
{
    @Test
    void shouldRefuseAnMtuAboveMaxMtuNamingPortDriverLimitAndNeed()
    {
        // A NIC whose max_mtu is 1500 (max_rx_pktlen 1518), asked for what a 4096-byte path MTU needs.
        final DpdkException ex = assertThrows(DpdkException.class,
            () -> EthPort.checkMtu(3, "0000:3b:00.1", "net_e1000_em", 68, 1500, 1518, 4210));
        final String message = ex.getMessage();
        assertTrue(message.contains("port 3"), message);
        assertTrue(message.contains("0000:3b:00.1"), message);
        assertTrue(message.contains("driver net_e1000_em"), message);
        assertTrue(message.contains("max_mtu 1500"), message);
        assertTrue(message.contains("needs an MTU of 4210"), message);
        assertTrue(message.contains("at most 1500"), message);
        assertEquals(22, ex.errorNumber());
    }

    @Test
    void shouldTakeAnMtuUpToMaxMtu()
    {
        // A jumbo-frame NIC: max_mtu 9000 with a 26-byte overhead (header, CRC, two VLAN tags).
        assertDoesNotThrow(() -> EthPort.checkMtu(0, "p", "net_x", 68, 9000, 9026, 4210));
        assertDoesNotThrow(() -> EthPort.checkMtu(0, "p", "net_x", 68, 9000, 9026, 9000));
        final DpdkException ex = assertThrows(DpdkException.class,
            () -> EthPort.checkMtu(0, "p", "net_x", 68, 9000, 9026, 9001));
        assertTrue(ex.getMessage().contains("at most 9000 (max_mtu 9000, max_rx_pktlen 9026)"), ex.getMessage());
    }

    @Test
    void shouldRefuseWhatMaxRxPktLenCannotHoldWhenMaxMtuIsUnset()
    {
        // net_memif in DPDK 22.11: max_mtu left at 65535, max_rx_pktlen 1518; rte_eth_dev_configure refuses any
        // MTU whose frame (MTU + 18) exceeds max_rx_pktlen.
        assertDoesNotThrow(() -> EthPort.checkMtu(1, "net_memif0", "net_memif", 46, 65535, 1518, 1500));
        final DpdkException ex = assertThrows(DpdkException.class,
            () -> EthPort.checkMtu(1, "net_memif0", "net_memif", 46, 65535, 1518, 1501));
        assertTrue(ex.getMessage().contains("at most 1500 (max_mtu 65535, max_rx_pktlen 1518)"), ex.getMessage());
        // net_null, net_pcap, net_ring: no limit at all.
        assertDoesNotThrow(() -> EthPort.checkMtu(0, "net_null0", "net_null", 46, 65535, 0xFFFF_FFFFL, 65535));
    }

    @Test
    void shouldRefuseAnMtuBelowMinMtu()
    {
        final DpdkException ex = assertThrows(DpdkException.class,
            () -> EthPort.checkMtu(2, "p", "net_x", 68, 9000, 9026, 67));
        assertTrue(ex.getMessage().contains("below the device's min_mtu 68"), ex.getMessage());
    }

    @Test
    void shouldRefuseExactlyTheMtusAboveTheLimit()
    {
        final long seed = Long.getLong("dta.test.seed", 0x4D7E_1500L);
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 5000; i++)
        {
            // A driver that sets both: the overhead is their difference, the limit max_mtu.
            final int maxMtu = 1500 + random.nextInt(64000);
            final int overhead = 14 + random.nextInt(40);
            final int mtu = 68 + random.nextInt(65535 - 68 + 1);
            final boolean fits = mtu <= maxMtu;
            final String context = "seed " + seed + " max_mtu " + maxMtu + " overhead " + overhead + " mtu " + mtu;
            if (fits)
            {
                assertDoesNotThrow(() -> EthPort.checkMtu(0, "p", "d", 68, maxMtu, maxMtu + overhead, mtu), context);
            }
            else
            {
                assertThrows(DpdkException.class,
                    () -> EthPort.checkMtu(0, "p", "d", 68, maxMtu, maxMtu + overhead, mtu), context);
            }
        }
    }

    @Test
    void shouldRefuseAnMtuOutOfRangeBeforeTouchingDpdk()
    {
        assertThrows(IllegalArgumentException.class, () -> EthPort.open(0, (Mempool)null, 512, 512, false, -1));
        assertThrows(IllegalArgumentException.class, () -> EthPort.open(0, (Mempool)null, 512, 512, false, 65536));
    }
}
