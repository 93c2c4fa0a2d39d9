package io.dta.dpdk;

import io.dta.dpdk.ffi.DpdkLayout;
import io.dta.dpdk.ffi.rte_eth_stats;
import io.dta.dpdk.ffi.rte_mbuf;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hand-written struct layouts agree with the offsets the C probe read from the installed DPDK headers, so a
 * DPDK upgrade that moves a field fails the build instead of the data plane.
 */
class LayoutAgreementTest
{
    @Test
    void shouldMatchProbedMbufLayout()
    {
        assertEquals(DpdkLayout.RTE_MBUF_SIZE, rte_mbuf.layout().byteSize());
        assertEquals(DpdkLayout.RTE_MBUF_BUF_ADDR, rte_mbuf.buf_addr$offset());
        assertEquals(DpdkLayout.RTE_MBUF_DATA_OFF, rte_mbuf.data_off$offset());
        assertEquals(DpdkLayout.RTE_MBUF_REFCNT, rte_mbuf.refcnt$offset());
        assertEquals(DpdkLayout.RTE_MBUF_NB_SEGS, rte_mbuf.nb_segs$offset());
        assertEquals(DpdkLayout.RTE_MBUF_PORT, rte_mbuf.port$offset());
        assertEquals(DpdkLayout.RTE_MBUF_OL_FLAGS, rte_mbuf.ol_flags$offset());
        assertEquals(DpdkLayout.RTE_MBUF_PACKET_TYPE, rte_mbuf.packet_type$offset());
        assertEquals(DpdkLayout.RTE_MBUF_PKT_LEN, rte_mbuf.pkt_len$offset());
        assertEquals(DpdkLayout.RTE_MBUF_DATA_LEN, rte_mbuf.data_len$offset());
        assertEquals(DpdkLayout.RTE_MBUF_VLAN_TCI, rte_mbuf.vlan_tci$offset());
        assertEquals(DpdkLayout.RTE_MBUF_BUF_LEN, rte_mbuf.buf_len$offset());
        assertEquals(DpdkLayout.RTE_MBUF_POOL, rte_mbuf.pool$offset());
        assertEquals(DpdkLayout.RTE_MBUF_NEXT, rte_mbuf.next$offset());
        assertEquals(DpdkLayout.RTE_MBUF_DYNFIELD1, rte_mbuf.dynfield1$offset());
    }

    @Test
    void shouldMatchProbedStatsLayout()
    {
        assertEquals(DpdkLayout.RTE_ETH_STATS_SIZE, rte_eth_stats.layout().byteSize());
        assertEquals(DpdkLayout.RTE_ETH_STATS_IPACKETS, rte_eth_stats.ipackets$offset());
        assertEquals(DpdkLayout.RTE_ETH_STATS_OPACKETS, rte_eth_stats.opackets$offset());
        assertEquals(DpdkLayout.RTE_ETH_STATS_IBYTES, rte_eth_stats.ibytes$offset());
        assertEquals(DpdkLayout.RTE_ETH_STATS_OBYTES, rte_eth_stats.obytes$offset());
        assertEquals(DpdkLayout.RTE_ETH_STATS_IMISSED, rte_eth_stats.imissed$offset());
        assertEquals(DpdkLayout.RTE_ETH_STATS_IERRORS, rte_eth_stats.ierrors$offset());
        assertEquals(DpdkLayout.RTE_ETH_STATS_OERRORS, rte_eth_stats.oerrors$offset());
        assertEquals(DpdkLayout.RTE_ETH_STATS_RX_NOMBUF, rte_eth_stats.rx_nombuf$offset());
        assertEquals(DpdkLayout.RTE_ETH_STATS_Q_IPACKETS, rte_eth_stats.q_ipackets$offset());
        assertEquals(DpdkLayout.RTE_ETH_STATS_Q_ERRORS, rte_eth_stats.q_errors$offset());
        assertEquals(DpdkLayout.RTE_ETHDEV_QUEUE_STAT_CNTRS, rte_eth_stats.q_ipackets$layout().elementCount());
    }

    @Test
    void shouldHaveDeviceInfoFieldsOfTheWidthsEthPortReads()
    {
        // EthPort reads min_mtu and max_mtu as uint16_t and max_rx_pktlen as uint32_t at the probed offsets.
        assertEquals(DpdkLayout.RTE_ETH_DEV_INFO_MIN_MTU + 2, DpdkLayout.RTE_ETH_DEV_INFO_MAX_MTU);
        assertEquals(0, DpdkLayout.RTE_ETH_DEV_INFO_MAX_MTU % 2);
        assertEquals(0, DpdkLayout.RTE_ETH_DEV_INFO_MAX_RX_PKTLEN % 4);
        assertTrue(DpdkLayout.RTE_ETH_DEV_INFO_MAX_MTU < DpdkLayout.RTE_ETH_DEV_INFO_MAX_RX_PKTLEN);
        assertTrue(DpdkLayout.RTE_ETH_DEV_INFO_MAX_RX_PKTLEN + 4 <= DpdkLayout.RTE_ETH_DEV_INFO_SIZE);
        assertEquals(0, DpdkLayout.RTE_ETH_DEV_INFO_DRIVER_NAME % 8);
        assertEquals(1500, DpdkLayout.RTE_ETHER_MTU);
        assertEquals(14, DpdkLayout.RTE_ETHER_HDR_LEN);
        assertEquals(4, DpdkLayout.RTE_ETHER_CRC_LEN);
    }

    @Test
    void shouldMatchFlyweightOffsets()
    {
        assertEquals(DpdkLayout.RTE_MBUF_SIZE, Mbuf.SIZE);
        assertEquals(rte_mbuf.data_off$offset(), Mbuf.DATA_OFF_OFFSET);
        assertEquals(rte_mbuf.data_len$offset(), Mbuf.DATA_LEN_OFFSET);
        assertEquals(rte_mbuf.pkt_len$offset(), Mbuf.PKT_LEN_OFFSET);
        assertEquals(rte_mbuf.buf_len$offset(), Mbuf.BUF_LEN_OFFSET);
    }
}
