/*
 * layout_probe.c: prints DpdkLayout.java, the struct sizes, field offsets and constants of the installed DPDK
 * headers that the hand-written FFM bindings rely on. Compiled and run at build time by build.sh, so a DPDK
 * upgrade that moves a field changes the generated constants and LayoutAgreementTest fails the build instead
 * of the data plane reading the wrong bytes.
 */
#include <stddef.h>
#include <stdio.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>
#include <rte_ring.h>
#include <rte_version.h>

#define SIZE(name, type) printf("    /** sizeof(%s). */\n    public static final long %s = %zu;\n", #type, name, sizeof(type))
#define OFF(name, type, field) \
    printf("    /** offsetof(%s, %s). */\n    public static final long %s = %zu;\n", #type, #field, name, offsetof(type, field))
#define ICONST(name, value) printf("    /** %s. */\n    public static final int %s = %d;\n", #value, name, (int)(value))
#define LCONST(name, value) \
    printf("    /** %s. */\n    public static final long %s = 0x%llxL;\n", #value, name, (unsigned long long)(value))

int main(void)
{
    printf("package io.dta.dpdk.ffi;\n\n");
    printf("/**\n * Struct sizes, field offsets and constants of the DPDK headers this build was compiled against.\n");
    printf(" * <p>\n * Generated at build time by {@code src/main/c/layout_probe.c}; do not edit.\n */\n");
    printf("public final class DpdkLayout\n{\n");
    printf("    /** DPDK version the probe was compiled against. */\n");
    printf("    public static final String RTE_VERSION = \"%s\";\n\n", rte_version());

    SIZE("RTE_MBUF_SIZE", struct rte_mbuf);
    OFF("RTE_MBUF_BUF_ADDR", struct rte_mbuf, buf_addr);
    OFF("RTE_MBUF_DATA_OFF", struct rte_mbuf, data_off);
    OFF("RTE_MBUF_REFCNT", struct rte_mbuf, refcnt);
    OFF("RTE_MBUF_NB_SEGS", struct rte_mbuf, nb_segs);
    OFF("RTE_MBUF_PORT", struct rte_mbuf, port);
    OFF("RTE_MBUF_OL_FLAGS", struct rte_mbuf, ol_flags);
    OFF("RTE_MBUF_PACKET_TYPE", struct rte_mbuf, packet_type);
    OFF("RTE_MBUF_PKT_LEN", struct rte_mbuf, pkt_len);
    OFF("RTE_MBUF_DATA_LEN", struct rte_mbuf, data_len);
    OFF("RTE_MBUF_VLAN_TCI", struct rte_mbuf, vlan_tci);
    OFF("RTE_MBUF_BUF_LEN", struct rte_mbuf, buf_len);
    OFF("RTE_MBUF_POOL", struct rte_mbuf, pool);
    OFF("RTE_MBUF_NEXT", struct rte_mbuf, next);
    OFF("RTE_MBUF_DYNFIELD1", struct rte_mbuf, dynfield1);

    SIZE("RTE_ETH_CONF_SIZE", struct rte_eth_conf);
    OFF("RTE_ETH_CONF_RXMODE_MQ_MODE", struct rte_eth_conf, rxmode.mq_mode);
    OFF("RTE_ETH_CONF_RXMODE_MTU", struct rte_eth_conf, rxmode.mtu);
    OFF("RTE_ETH_CONF_RXMODE_OFFLOADS", struct rte_eth_conf, rxmode.offloads);
    OFF("RTE_ETH_CONF_TXMODE_OFFLOADS", struct rte_eth_conf, txmode.offloads);
    OFF("RTE_ETH_CONF_RSS_KEY", struct rte_eth_conf, rx_adv_conf.rss_conf.rss_key);
    OFF("RTE_ETH_CONF_RSS_KEY_LEN", struct rte_eth_conf, rx_adv_conf.rss_conf.rss_key_len);
    OFF("RTE_ETH_CONF_RSS_HF", struct rte_eth_conf, rx_adv_conf.rss_conf.rss_hf);

    SIZE("RTE_ETH_RSS_CONF_SIZE", struct rte_eth_rss_conf);
    OFF("RTE_ETH_RSS_CONF_RSS_KEY", struct rte_eth_rss_conf, rss_key);
    OFF("RTE_ETH_RSS_CONF_RSS_HF", struct rte_eth_rss_conf, rss_hf);

    SIZE("RTE_ETH_DEV_INFO_SIZE", struct rte_eth_dev_info);
    OFF("RTE_ETH_DEV_INFO_DRIVER_NAME", struct rte_eth_dev_info, driver_name);
    OFF("RTE_ETH_DEV_INFO_MIN_MTU", struct rte_eth_dev_info, min_mtu);
    OFF("RTE_ETH_DEV_INFO_MAX_MTU", struct rte_eth_dev_info, max_mtu);
    OFF("RTE_ETH_DEV_INFO_MAX_RX_PKTLEN", struct rte_eth_dev_info, max_rx_pktlen);
    OFF("RTE_ETH_DEV_INFO_MAX_RX_QUEUES", struct rte_eth_dev_info, max_rx_queues);
    OFF("RTE_ETH_DEV_INFO_MAX_TX_QUEUES", struct rte_eth_dev_info, max_tx_queues);
    OFF("RTE_ETH_DEV_INFO_RX_OFFLOAD_CAPA", struct rte_eth_dev_info, rx_offload_capa);
    OFF("RTE_ETH_DEV_INFO_TX_OFFLOAD_CAPA", struct rte_eth_dev_info, tx_offload_capa);
    OFF("RTE_ETH_DEV_INFO_FLOW_TYPE_RSS_OFFLOADS", struct rte_eth_dev_info, flow_type_rss_offloads);

    SIZE("RTE_ETH_STATS_SIZE", struct rte_eth_stats);
    OFF("RTE_ETH_STATS_IPACKETS", struct rte_eth_stats, ipackets);
    OFF("RTE_ETH_STATS_OPACKETS", struct rte_eth_stats, opackets);
    OFF("RTE_ETH_STATS_IBYTES", struct rte_eth_stats, ibytes);
    OFF("RTE_ETH_STATS_OBYTES", struct rte_eth_stats, obytes);
    OFF("RTE_ETH_STATS_IMISSED", struct rte_eth_stats, imissed);
    OFF("RTE_ETH_STATS_IERRORS", struct rte_eth_stats, ierrors);
    OFF("RTE_ETH_STATS_OERRORS", struct rte_eth_stats, oerrors);
    OFF("RTE_ETH_STATS_RX_NOMBUF", struct rte_eth_stats, rx_nombuf);
    OFF("RTE_ETH_STATS_Q_IPACKETS", struct rte_eth_stats, q_ipackets);
    OFF("RTE_ETH_STATS_Q_ERRORS", struct rte_eth_stats, q_errors);

    SIZE("RTE_ETH_FP_OPS_SIZE", struct rte_eth_fp_ops);
    OFF("RTE_ETH_FP_OPS_RX_PKT_BURST", struct rte_eth_fp_ops, rx_pkt_burst);
    OFF("RTE_ETH_FP_OPS_RXQ_DATA", struct rte_eth_fp_ops, rxq.data);
    OFF("RTE_ETH_FP_OPS_TX_PKT_BURST", struct rte_eth_fp_ops, tx_pkt_burst);
    OFF("RTE_ETH_FP_OPS_TXQ_DATA", struct rte_eth_fp_ops, txq.data);

    ICONST("RTE_PKTMBUF_HEADROOM", RTE_PKTMBUF_HEADROOM);
    ICONST("RTE_MBUF_DEFAULT_BUF_SIZE", RTE_MBUF_DEFAULT_BUF_SIZE);
    ICONST("RTE_MBUF_DEFAULT_DATAROOM", RTE_MBUF_DEFAULT_DATAROOM);
    ICONST("RTE_MAX_ETHPORTS", RTE_MAX_ETHPORTS);
    ICONST("RTE_ETHDEV_QUEUE_STAT_CNTRS", RTE_ETHDEV_QUEUE_STAT_CNTRS);
    ICONST("RTE_ETH_NAME_MAX_LEN", RTE_ETH_NAME_MAX_LEN);
    ICONST("RTE_ETHER_MTU", RTE_ETHER_MTU);
    ICONST("RTE_ETHER_HDR_LEN", RTE_ETHER_HDR_LEN);
    ICONST("RTE_ETHER_CRC_LEN", RTE_ETHER_CRC_LEN);
    ICONST("RTE_MEMPOOL_NAMESIZE", RTE_MEMPOOL_NAMESIZE);
    ICONST("RTE_RING_NAMESIZE", RTE_RING_NAMESIZE);
    ICONST("RTE_MEMPOOL_CACHE_MAX_SIZE", RTE_MEMPOOL_CACHE_MAX_SIZE);
    ICONST("SOCKET_ID_ANY", SOCKET_ID_ANY);
    LCONST("LCORE_ID_ANY", LCORE_ID_ANY);
    ICONST("RING_F_SP_ENQ", RING_F_SP_ENQ);
    ICONST("RING_F_SC_DEQ", RING_F_SC_DEQ);
    LCONST("RTE_ETH_RX_OFFLOAD_TIMESTAMP", RTE_ETH_RX_OFFLOAD_TIMESTAMP);
    ICONST("RTE_ETH_MQ_RX_NONE", RTE_ETH_MQ_RX_NONE);
    ICONST("RTE_ETH_MQ_RX_RSS", RTE_ETH_MQ_RX_RSS);
    LCONST("RTE_ETH_RSS_IP", RTE_ETH_RSS_IP);
    LCONST("RTE_ETH_RSS_UDP", RTE_ETH_RSS_UDP);
    ICONST("RTE_MAX_LCORE", RTE_MAX_LCORE);
    ICONST("RTE_MAX_QUEUES_PER_PORT", RTE_MAX_QUEUES_PER_PORT);

    printf("\n    private DpdkLayout()\n    {\n    }\n}\n");
    return 0;
}
