package io.dta.dpdk;

import io.dta.dpdk.ffi.DpdkLayout;
import io.dta.dpdk.ffi.dpdk_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What a port's device says about itself ({@code rte_eth_dev_info_get}) that opening it depends on: its limits of
 * MTU and queues, its rx offloads and the flow types it can spread over rx queues by RSS.
 *
 * @param portId              the port.
 * @param name                its ethdev name, e.g. {@code net_pcap0}.
 * @param driver              its driver's name, e.g. {@code net_memif}, or {@code ?} when the driver gives none.
 * @param minMtu              {@code min_mtu}.
 * @param maxMtu              {@code max_mtu}.
 * @param maxRxPktLen         {@code max_rx_pktlen} (unsigned).
 * @param maxRxQueues         {@code max_rx_queues}: {@code net_pcap} has one per {@code rx_pcap=} (or
 *                            {@code rx_iface=}), {@code net_ring} one per ring, {@code net_null} 1024.
 * @param maxTxQueues         {@code max_tx_queues}.
 * @param rxOffloads          {@code rx_offload_capa}.
 * @param flowTypeRssOffloads {@code flow_type_rss_offloads}: the {@code RTE_ETH_RSS_*} flow types the device can
 *                            hash to choose an rx queue; 0 for a device without RSS ({@code net_pcap},
 *                            {@code net_ring}, {@code net_memif}).
 */
public record EthDeviceInfo(
    int portId, String name, String driver, int minMtu, int maxMtu, long maxRxPktLen, int maxRxQueues,
    int maxTxQueues, long rxOffloads, long flowTypeRssOffloads)
{
    /**
     * @param portId the port, e.g. from {@link Eal#portId(String)}.
     * @return what its device says.
     * @throws DpdkException when there is no such port.
     */
    public static EthDeviceInfo of(final int portId)
    {
        final short port = (short)portId;
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment nameOut = arena.allocate(DpdkLayout.RTE_ETH_NAME_MAX_LEN);
            Eal.check(dpdk_h.rte_eth_dev_get_name_by_port(port, nameOut), "rte_eth_dev_get_name_by_port");
            final MemorySegment info = arena.allocate(DpdkLayout.RTE_ETH_DEV_INFO_SIZE, 8);
            Eal.check(dpdk_h.rte_eth_dev_info_get(port, info), "rte_eth_dev_info_get(" + portId + ")");
            final MemorySegment driverName = info.get(ValueLayout.ADDRESS, DpdkLayout.RTE_ETH_DEV_INFO_DRIVER_NAME);
            final String driver = MemorySegment.NULL.equals(driverName) ? "?" :
                driverName.reinterpret(Integer.MAX_VALUE).getString(0);
            return new EthDeviceInfo(
                portId,
                nameOut.getString(0),
                driver,
                info.get(ValueLayout.JAVA_SHORT, DpdkLayout.RTE_ETH_DEV_INFO_MIN_MTU) & 0xFFFF,
                info.get(ValueLayout.JAVA_SHORT, DpdkLayout.RTE_ETH_DEV_INFO_MAX_MTU) & 0xFFFF,
                Integer.toUnsignedLong(info.get(ValueLayout.JAVA_INT, DpdkLayout.RTE_ETH_DEV_INFO_MAX_RX_PKTLEN)),
                info.get(ValueLayout.JAVA_SHORT, DpdkLayout.RTE_ETH_DEV_INFO_MAX_RX_QUEUES) & 0xFFFF,
                info.get(ValueLayout.JAVA_SHORT, DpdkLayout.RTE_ETH_DEV_INFO_MAX_TX_QUEUES) & 0xFFFF,
                info.get(ValueLayout.JAVA_LONG, DpdkLayout.RTE_ETH_DEV_INFO_RX_OFFLOAD_CAPA),
                info.get(ValueLayout.JAVA_LONG, DpdkLayout.RTE_ETH_DEV_INFO_FLOW_TYPE_RSS_OFFLOADS));
        }
    }

    /**
     * @param queues rx queues wanted.
     * @return the RSS hash functions to configure: {@link EthPort#RSS_FLOW_TYPES} that the device can hash when there
     *         are several queues, else 0 (no RSS).
     */
    public long rssHashFunctions(final int queues)
    {
        return queues > 1 ? EthPort.RSS_FLOW_TYPES & flowTypeRssOffloads : 0;
    }

    /**
     * Refuses more queue pairs than the device has rx or tx queues ({@code rte_eth_dev_configure} alone would say
     * only "Invalid argument").
     *
     * @param queues queue pairs wanted.
     * @throws DpdkException ({@code EINVAL}) when the device has fewer, naming the port, its driver and both limits.
     */
    public void checkQueues(final int queues)
    {
        if (queues > maxRxQueues || queues > maxTxQueues)
        {
            throw new DpdkException("port " + portId + " (" + name + ", driver " + driver + ") cannot have " + queues +
                " queue pairs: the device has at most " + maxRxQueues + " rx and " + maxTxQueues + " tx queues " +
                "(max_rx_queues " + maxRxQueues + ", max_tx_queues " + maxTxQueues + ")" + queueHint(), EthPort.EINVAL);
        }
    }

    private String queueHint()
    {
        return switch (driver)
        {
            case "net_pcap" -> "; net_pcap has one rx queue per rx_pcap= (or rx_iface=) and one tx queue per " +
                "tx_pcap= (or tx_iface=) of its --vdev";
            case "net_ring" -> "; net_ring has one queue per ring";
            default -> "";
        };
    }
}
