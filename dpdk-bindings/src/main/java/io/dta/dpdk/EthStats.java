package io.dta.dpdk;

/**
 * Basic statistics of one port ({@code struct rte_eth_stats}).
 *
 * @param inPackets   packets received.
 * @param outPackets  packets transmitted.
 * @param inBytes     bytes received.
 * @param outBytes    bytes transmitted.
 * @param inMissed    packets dropped by the device (rx ring full).
 * @param inErrors    erroneous packets received.
 * @param outErrors   failed transmissions.
 * @param rxNoMbuf    rx mbuf allocation failures.
 */
public record EthStats(
    long inPackets, long outPackets, long inBytes, long outBytes, long inMissed, long inErrors, long outErrors,
    long rxNoMbuf)
{
}
