package io.dta.dpdk;

import io.dta.dpdk.ffi.DpdkLayout;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The queue-count check and the RSS choice ({@link EthDeviceInfo}) that
 * {@link EthPort#open(int, java.util.List, int, int, boolean, int)} makes before configuring a port, with the
 * device's limits as arguments. No EAL.
 */
class EthPortQueuesTest
{
    // What an ixgbe-class NIC hashes (IPv4/IPv6, TCP and UDP over each, IPv6 extension headers).
    private static final long NIC_RSS = 0x38d34L;

    private static EthDeviceInfo device(final int maxRx, final int maxTx, final long rss)
    {
        return new EthDeviceInfo(4, "0000:3b:00.0", "net_ixgbe", 68, 9710, 15872, maxRx, maxTx, 0, rss);
    }

    @Test
    void shouldRefuseMoreQueuePairsThanRxOrTxQueuesNamingPortDriverAndLimits()
    {
        final DpdkException ex = assertThrows(DpdkException.class, () -> device(8, 64, NIC_RSS).checkQueues(9));
        final String message = ex.getMessage();
        assertTrue(message.contains("port 4 (0000:3b:00.0, driver net_ixgbe) cannot have 9 queue pairs"), message);
        assertTrue(message.contains("at most 8 rx and 64 tx queues (max_rx_queues 8, max_tx_queues 64)"), message);
        assertEquals(22, ex.errorNumber());
        assertThrows(DpdkException.class, () -> device(64, 8, NIC_RSS).checkQueues(9));
        assertDoesNotThrow(() -> device(8, 8, NIC_RSS).checkQueues(8));
        assertDoesNotThrow(() -> device(1, 1, 0).checkQueues(1));
    }

    @Test
    void shouldHashIpAddressesAndUdpPortsOnlyWithSeveralQueuesOnADeviceThatCan()
    {
        final long wanted = DpdkLayout.RTE_ETH_RSS_IP | DpdkLayout.RTE_ETH_RSS_UDP;
        assertEquals(wanted, EthPort.RSS_FLOW_TYPES);
        assertEquals(0, device(8, 8, NIC_RSS).rssHashFunctions(1), "one queue: no RSS");
        assertEquals(0, device(8, 8, 0).rssHashFunctions(4), "a device without RSS (net_pcap, net_ring, net_memif)");
        assertEquals(wanted & NIC_RSS, device(8, 8, NIC_RSS).rssHashFunctions(4));
        assertEquals(wanted, device(8, 8, -1L).rssHashFunctions(2),
            "a device that hashes everything gets IP and UDP only");
        // A device that hashes only TCP flows: none of the wanted flow types, so no RSS.
        final long tcpOnly = NIC_RSS & ~wanted;
        assertTrue(0 != tcpOnly);
        assertEquals(0, device(8, 8, tcpOnly).rssHashFunctions(2));
    }
}
