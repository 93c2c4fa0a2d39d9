package io.dta.dpdk;

import io.dta.dpdk.ffi.DpdkLayout;
import io.dta.dpdk.ffi.dpdk_h;
import io.dta.dpdk.ffi.rte_eth_stats;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One ethdev port, configured and started, with one rx and one tx queue (the shape of a single-core data plane) or
 * with Q queue pairs, one per shared-nothing worker ({@link #queue(int)}). The bursts go through the C shim (the DPDK
 * functions are inline) with critical downcalls and a preallocated pointer array, so a burst costs one downcall and
 * no allocation. The methods without a queue argument burst queue 0.
 * <p>
 * With several queues, a device that advertises RSS ({@code flow_type_rss_offloads} not 0: physical NICs,
 * {@code net_null}) spreads received packets over the rx queues by a hash of their IPv4/IPv6 addresses and UDP ports
 * ({@link #rss()}); a virtual device without RSS fills each rx queue from its own source instead ({@code net_pcap}:
 * one {@code rx_pcap=} file per queue, {@code net_ring}: one ring per queue).
 */
public final class EthPort implements AutoCloseable
{
    /** Default descriptors per queue. */
    public static final int DEFAULT_DESCRIPTORS = 1024;

    /** The largest MTU a device can have ({@code rte_eth_dev_info.max_mtu} is a {@code uint16_t}). */
    public static final int MAX_MTU = 0xFFFF;

    /** The flow types hashed to choose an rx queue when the device can: IPv4/IPv6 addresses and UDP ports. */
    public static final long RSS_FLOW_TYPES = DpdkLayout.RTE_ETH_RSS_IP | DpdkLayout.RTE_ETH_RSS_UDP;

    // What rte_eth_dev_configure returns for an MTU out of the device's range.
    static final int EINVAL = 22;

    private final int portId;
    private final short port;
    private final String name;
    private final String driver;
    private final int rxTimestampOffset;
    private final long rxTimestampFlag;
    private final long rssHashFunctions;
    private final EthQueue[] queues;
    private final EthQueue queue0;
    private final MemorySegment statsStruct = Arena.ofAuto().allocate(rte_eth_stats.layout());
    private boolean started;
    private boolean closed;

    private EthPort(
        final EthDeviceInfo info, final int queueCount, final long rssHashFunctions, final int rxTimestampOffset,
        final long rxTimestampFlag)
    {
        this.portId = info.portId();
        this.port = (short)portId;
        this.name = info.name();
        this.driver = info.driver();
        this.rxTimestampOffset = rxTimestampOffset;
        this.rxTimestampFlag = rxTimestampFlag;
        this.rssHashFunctions = rssHashFunctions;
        this.queues = new EthQueue[queueCount];
        for (int q = 0; q < queueCount; q++)
        {
            queues[q] = new EthQueue(this, q);
        }
        this.queue0 = queues[0];
    }

    /**
     * Configures the port with one rx and one tx queue and the device's default MTU (1500 bytes for most) and starts
     * it; see {@link #open(int, Mempool, int, int, boolean, int)}.
     *
     * @param portId         the port, e.g. from {@link Eal#portId(String)}.
     * @param pool           where received packets are put.
     * @param rxDescriptors  rx ring size.
     * @param txDescriptors  tx ring size.
     * @param rxTimestamps   register the Rx timestamp field and ask the device to fill it; {@code net_pcap} fills
     *                       it with the capture time in microseconds; see {@link #rxTimestampOffset()} and
     *                       {@link #rxTimestampFlag()} (set in {@code ol_flags} of the mbufs that carry one).
     * @return the started port.
     * @throws DpdkException when a step fails.
     */
    public static EthPort open(
        final int portId,
        final Mempool pool,
        final int rxDescriptors,
        final int txDescriptors,
        final boolean rxTimestamps)
    {
        return open(portId, pool, rxDescriptors, txDescriptors, rxTimestamps, 0);
    }

    /**
     * Configures the port with one rx and one tx queue and the given MTU ({@code rxmode.mtu}: the longest IP packet
     * the port receives and sends, its Ethernet header and CRC not counted) and starts it. A physical NIC drops
     * longer frames on receive and may refuse to send them, so a port that cannot take the MTU is refused here,
     * before it is configured: a configuration whose frames it cannot carry fails at start instead of losing
     * frames later. Virtual devices ({@code net_null}, {@code net_pcap}, {@code net_ring}) take any MTU up to
     * 65535 and do not enforce it; {@code net_memif} (DPDK 22.11) reports a 1518-byte longest frame, so at most
     * 1500.
     *
     * @param portId         the port, e.g. from {@link Eal#portId(String)}.
     * @param pool           where received packets are put (its data room should hold {@code mtu} plus the
     *                       Ethernet header and CRC: some devices refuse a queue whose mbufs are shorter).
     * @param rxDescriptors  rx ring size.
     * @param txDescriptors  tx ring size.
     * @param rxTimestamps   register the Rx timestamp field and ask the device to fill it; {@code net_pcap} fills
     *                       it with the capture time in microseconds; see {@link #rxTimestampOffset()} and
     *                       {@link #rxTimestampFlag()} (set in {@code ol_flags} of the mbufs that carry one).
     * @param mtu            the MTU, or 0 for the device's default ({@code RTE_ETHER_MTU}, 1500, for most).
     * @return the started port.
     * @throws IllegalArgumentException when {@code mtu} is negative or above 65535.
     * @throws DpdkException            when the device's largest MTU is below {@code mtu} (the message names the
     *                                  port, its driver, its {@code max_mtu} and the MTU needed), or a step fails.
     */
    public static EthPort open(
        final int portId,
        final Mempool pool,
        final int rxDescriptors,
        final int txDescriptors,
        final boolean rxTimestamps,
        final int mtu)
    {
        return open(portId, Collections.nCopies(1, pool), rxDescriptors, txDescriptors, rxTimestamps, mtu);
    }

    /**
     * Configures the port with {@code queues} rx and as many tx queues, every rx queue filled from the same pool, and
     * starts it; see {@link #open(int, List, int, int, boolean, int)}.
     *
     * @param portId         the port, e.g. from {@link Eal#portId(String)}.
     * @param queues         queue pairs, at least 1.
     * @param pool           where received packets are put, for every rx queue.
     * @param rxDescriptors  rx ring size of each queue.
     * @param txDescriptors  tx ring size of each queue.
     * @param rxTimestamps   as in {@link #open(int, Mempool, int, int, boolean, int)}.
     * @param mtu            the MTU, or 0 for the device's default.
     * @return the started port.
     * @throws IllegalArgumentException when {@code queues} or {@code mtu} is out of range.
     * @throws DpdkException            when the device has fewer queues than asked for, cannot take the MTU, or a
     *                                  step fails.
     */
    public static EthPort open(
        final int portId,
        final int queues,
        final Mempool pool,
        final int rxDescriptors,
        final int txDescriptors,
        final boolean rxTimestamps,
        final int mtu)
    {
        if (queues < 1 || queues > DpdkLayout.RTE_MAX_QUEUES_PER_PORT)
        {
            throw new IllegalArgumentException("port " + portId + ": " + queues + " queues not in [1, " +
                DpdkLayout.RTE_MAX_QUEUES_PER_PORT + "]");
        }
        return open(portId, Collections.nCopies(queues, pool), rxDescriptors, txDescriptors, rxTimestamps, mtu);
    }

    /**
     * Configures the port with one rx queue per pool (rx queue {@code i} takes its mbufs from {@code pools.get(i)})
     * and as many tx queues, and starts it. With more than one queue, a device that advertises RSS gets
     * {@code rxmode.mq_mode = RTE_ETH_MQ_RX_RSS} with {@code rss_hf = }{@link #RSS_FLOW_TYPES}{@code  &
     * flow_type_rss_offloads} and its default key ({@link #rss()} true); a device without RSS, or with none of these
     * flow types, is configured without ({@link #rss()} false): its queues are filled by the device itself, such as
     * {@code net_pcap} from one {@code rx_pcap=} file per queue and {@code net_ring} from one ring per queue. The MTU
     * is checked as by {@link #open(int, Mempool, int, int, boolean, int)}.
     *
     * @param portId         the port, e.g. from {@link Eal#portId(String)}.
     * @param pools          one pool per rx queue (the same pool may be given several times); their number is the
     *                       number of queue pairs.
     * @param rxDescriptors  rx ring size of each queue.
     * @param txDescriptors  tx ring size of each queue.
     * @param rxTimestamps   as in {@link #open(int, Mempool, int, int, boolean, int)}.
     * @param mtu            the MTU, or 0 for the device's default.
     * @return the started port.
     * @throws IllegalArgumentException when there are no pools or more than 1024, or {@code mtu} is out of range.
     * @throws NullPointerException     when a pool is null (before anything is configured).
     * @throws DpdkException            when the device takes fewer rx or tx queues than asked for (the message names
     *                                  the port, its driver and both limits), cannot take the MTU, or a step fails.
     */
    public static EthPort open(
        final int portId,
        final List<Mempool> pools,
        final int rxDescriptors,
        final int txDescriptors,
        final boolean rxTimestamps,
        final int mtu)
    {
        if (mtu < 0 || mtu > MAX_MTU)
        {
            throw new IllegalArgumentException("MTU " + mtu + " of port " + portId + " not in [0, " + MAX_MTU + "]");
        }
        final int queues = pools.size();
        if (queues < 1 || queues > DpdkLayout.RTE_MAX_QUEUES_PER_PORT)
        {
            throw new IllegalArgumentException("port " + portId + ": " + queues + " queues not in [1, " +
                DpdkLayout.RTE_MAX_QUEUES_PER_PORT + "]");
        }
        pools.forEach(pool -> Objects.requireNonNull(pool, "a null pool among the pools of port " + portId));
        final EthDeviceInfo info = EthDeviceInfo.of(portId);
        info.checkQueues(queues);
        if (mtu > 0)
        {
            checkMtu(portId, info.name(), info.driver(), info.minMtu(), info.maxMtu(), info.maxRxPktLen(), mtu);
        }
        final long rssHashFunctions = info.rssHashFunctions(queues);
        configure(info, queues, rssHashFunctions, rxTimestamps, mtu);
        final short port = (short)portId;
        final int socket = dpdk_h.rte_eth_dev_socket_id(port);
        for (int q = 0; q < queues; q++)
        {
            Eal.check(dpdk_h.rte_eth_rx_queue_setup(port, (short)q, (short)rxDescriptors, socket,
                MemorySegment.NULL, pools.get(q).segment()), "rte_eth_rx_queue_setup(" + portId + ", " + q + ")");
            Eal.check(dpdk_h.rte_eth_tx_queue_setup(port, (short)q, (short)txDescriptors, socket,
                MemorySegment.NULL), "rte_eth_tx_queue_setup(" + portId + ", " + q + ")");
        }
        int offset = -1;
        long flag = 0;
        if (rxTimestamps)
        {
            try (Arena arena = Arena.ofConfined())
            {
                final MemorySegment offsetOut = arena.allocate(ValueLayout.JAVA_INT);
                final MemorySegment flagOut = arena.allocate(ValueLayout.JAVA_LONG);
                Eal.check(dpdk_h.rte_mbuf_dyn_rx_timestamp_register(offsetOut, flagOut),
                    "rte_mbuf_dyn_rx_timestamp_register");
                offset = offsetOut.get(ValueLayout.JAVA_INT, 0);
                flag = flagOut.get(ValueLayout.JAVA_LONG, 0);
            }
        }
        final EthPort ethPort = new EthPort(info, queues, rssHashFunctions, offset, flag);
        ethPort.start();
        return ethPort;
    }

    /**
     * {@code rte_eth_dev_configure} with {@code queues} rx and tx queues, RSS when {@code rssHashFunctions} is not 0,
     * the MTU, and the Rx timestamp offload when asked for and advertised.
     */
    private static void configure(
        final EthDeviceInfo info, final int queues, final long rssHashFunctions, final boolean rxTimestamps,
        final int mtu)
    {
        // net_pcap fills the timestamp field whenever it is registered, without advertising the offload;
        // other devices need the offload requested.
        final boolean offload = rxTimestamps && 0 != (info.rxOffloads() & DpdkLayout.RTE_ETH_RX_OFFLOAD_TIMESTAMP);
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment conf = arena.allocate(DpdkLayout.RTE_ETH_CONF_SIZE, 8);
            if (0 != rssHashFunctions)
            {
                conf.set(ValueLayout.JAVA_INT, DpdkLayout.RTE_ETH_CONF_RXMODE_MQ_MODE, DpdkLayout.RTE_ETH_MQ_RX_RSS);
                // rss_key NULL (the allocation is zeroed): the device's default key.
                conf.set(ValueLayout.JAVA_LONG, DpdkLayout.RTE_ETH_CONF_RSS_HF, rssHashFunctions);
            }
            else
            {
                conf.set(ValueLayout.JAVA_INT, DpdkLayout.RTE_ETH_CONF_RXMODE_MQ_MODE, DpdkLayout.RTE_ETH_MQ_RX_NONE);
            }
            // 0 lets rte_eth_dev_configure pick RTE_ETHER_MTU.
            conf.set(ValueLayout.JAVA_INT, DpdkLayout.RTE_ETH_CONF_RXMODE_MTU, mtu);
            if (offload)
            {
                conf.set(ValueLayout.JAVA_LONG, DpdkLayout.RTE_ETH_CONF_RXMODE_OFFLOADS,
                    DpdkLayout.RTE_ETH_RX_OFFLOAD_TIMESTAMP);
            }
            Eal.check(dpdk_h.rte_eth_dev_configure((short)info.portId(), (short)queues, (short)queues, conf),
                "rte_eth_dev_configure(" + info.portId() + ")");
        }
    }

    /**
     * Refuses an MTU the device cannot take, with the limit {@code rte_eth_dev_configure} applies (which alone
     * would only say "Invalid argument"): at most {@code max_mtu}, and the MTU plus the device's frame overhead at
     * most {@code max_rx_pktlen} (the overhead is {@code max_rx_pktlen - max_mtu} when the driver sets both, the
     * Ethernet header and CRC otherwise).
     *
     * @param portId      the port.
     * @param name        its ethdev name.
     * @param driver      its driver's name.
     * @param minMtu      {@code rte_eth_dev_info.min_mtu}.
     * @param maxMtu      {@code rte_eth_dev_info.max_mtu}.
     * @param maxRxPktLen {@code rte_eth_dev_info.max_rx_pktlen} (unsigned).
     * @param mtu         the MTU needed (positive).
     * @throws DpdkException ({@code EINVAL}) when the device cannot take {@code mtu}.
     */
    static void checkMtu(
        final int portId,
        final String name,
        final String driver,
        final int minMtu,
        final int maxMtu,
        final long maxRxPktLen,
        final int mtu)
    {
        final long overhead = MAX_MTU != maxMtu && maxRxPktLen > maxMtu ?
            maxRxPktLen - maxMtu : DpdkLayout.RTE_ETHER_HDR_LEN + DpdkLayout.RTE_ETHER_CRC_LEN;
        final long largest = Math.min(maxMtu, Math.max(0, maxRxPktLen - overhead));
        if (mtu > largest)
        {
            throw new DpdkException("port " + portId + " (" + name + ", driver " + driver + ") cannot carry the " +
                "frames of this configuration: it needs an MTU of " + mtu + " bytes, the device takes at most " +
                largest + " (max_mtu " + maxMtu + ", max_rx_pktlen " + maxRxPktLen + ")", EINVAL);
        }
        if (mtu < minMtu)
        {
            throw new DpdkException("port " + portId + " (" + name + ", driver " + driver + "): MTU " + mtu +
                " is below the device's min_mtu " + minMtu, EINVAL);
        }
    }

    /**
     * @return the port id.
     */
    public int portId()
    {
        return portId;
    }

    /**
     * @return the ethdev name, e.g. {@code net_pcap0}.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return the name of the port's driver ({@code rte_eth_dev_info.driver_name}), e.g. {@code net_memif}, or
     *         {@code ?} when the driver gives none.
     */
    public String driver()
    {
        return driver;
    }

    /**
     * @return the port's MTU now ({@code rte_eth_dev_get_mtu}): the one given to {@link #open(int, Mempool, int,
     *         int, boolean, int)}, or the device's default (1500 for most) when that was 0.
     * @throws DpdkException when DPDK cannot tell.
     */
    public int mtu()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment mtu = arena.allocate(ValueLayout.JAVA_SHORT);
            Eal.check(dpdk_h.rte_eth_dev_get_mtu(port, mtu), "rte_eth_dev_get_mtu(" + portId + ")");
            return mtu.get(ValueLayout.JAVA_SHORT, 0) & 0xFFFF;
        }
    }

    /**
     * @return the byte offset of the 64-bit Rx timestamp in the mbuf (unit: device-specific; microseconds for
     *         {@code net_pcap}), or -1 when not requested.
     */
    public int rxTimestampOffset()
    {
        return rxTimestampOffset;
    }

    /**
     * @return the {@code ol_flags} bit that says an mbuf carries an Rx timestamp, or 0.
     */
    public long rxTimestampFlag()
    {
        return rxTimestampFlag;
    }

    /**
     * Starts the port (done by {@link #open}; needed again only after {@link #stop()}).
     */
    public void start()
    {
        Eal.check(dpdk_h.rte_eth_dev_start(port), "rte_eth_dev_start(" + portId + ")");
        started = true;
    }

    /**
     * Stops the port if it runs and starts it again, without throwing: a device that connects to its peer only when
     * it starts (a {@code net_memif} client) connects again this way once its peer is back. After a failed start
     * the port is stopped ({@link #started()} false) and its rx and tx bursts must not be called until a restart
     * succeeds: DPDK 22.11 points a stopped port's bursts at functions that log an error line at every call.
     *
     * @param quiet hold DPDK's log at critical level during the call (a {@code net_memif} client whose server is
     *              not back logs {@code Failed to connect socket} at every attempt).
     * @return 0 when the port started, else DPDK's negative error number ({@code -EPERM} for a {@code net_memif}
     *         client that found no server).
     */
    public int restart(final boolean quiet)
    {
        final int status = dpdk_h.dta_eth_dev_restart(port, started ? 1 : 0, quiet ? 1 : 0);
        started = 0 == status;
        return status;
    }

    /**
     * @return true while the port is started (open, and not stopped, or restarted since).
     */
    public boolean started()
    {
        return started;
    }

    /**
     * Stops the port.
     */
    public void stop()
    {
        if (started)
        {
            started = false;
            Eal.check(dpdk_h.rte_eth_dev_stop(port), "rte_eth_dev_stop(" + portId + ")");
        }
    }

    /**
     * @return the number of rx queues, which is the number of tx queues.
     */
    public int queues()
    {
        return queues.length;
    }

    /**
     * @param queueId 0 to {@link #queues()} - 1.
     * @return that rx and tx queue pair, for the one thread that bursts it.
     * @throws IllegalArgumentException when the port has no such queue.
     */
    public EthQueue queue(final int queueId)
    {
        if (queueId < 0 || queueId >= queues.length)
        {
            throw new IllegalArgumentException("port " + portId + " (" + name + ") has queues 0 to " +
                (queues.length - 1) + ", not " + queueId);
        }
        return queues[queueId];
    }

    /**
     * @return true when the device spreads received packets over the rx queues by RSS (several queues, and a device
     *         that hashes IP or UDP flows); false with one queue or a device without RSS, whose queues are each filled
     *         by the device itself ({@code net_pcap}: one {@code rx_pcap=} file per queue; {@code net_ring}: one ring
     *         per queue).
     */
    public boolean rss()
    {
        return 0 != rssHashFunctions;
    }

    /**
     * @return the {@code RTE_ETH_RSS_*} flow types configured for RSS ({@link #RSS_FLOW_TYPES} and'ed with what the
     *         device can hash), or 0 without RSS.
     */
    public long rssHashFunctions()
    {
        return rssHashFunctions;
    }

    /**
     * @return the flow types the device hashes now ({@code rte_eth_dev_rss_hash_conf_get}).
     * @throws DpdkException when the device cannot tell ({@code ENOTSUP} for a device without RSS).
     */
    public long rssHashFunctionsInForce()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment rssConf = arena.allocate(DpdkLayout.RTE_ETH_RSS_CONF_SIZE, 8);
            // Room for any key, in case the driver copies it out whatever rss_key_len says.
            rssConf.set(ValueLayout.ADDRESS, DpdkLayout.RTE_ETH_RSS_CONF_RSS_KEY, arena.allocate(256));
            Eal.check(dpdk_h.rte_eth_dev_rss_hash_conf_get(port, rssConf),
                "rte_eth_dev_rss_hash_conf_get(" + portId + ")");
            return rssConf.get(ValueLayout.JAVA_LONG, DpdkLayout.RTE_ETH_RSS_CONF_RSS_HF);
        }
    }

    /**
     * Receives up to {@code max} packets from queue 0 into {@code mbufs[0..n)}; the caller owns them afterwards.
     *
     * @param mbufs where the mbuf addresses go.
     * @param max   at most this many (at most {@code mbufs.capacity()}).
     * @return the number received.
     * @throws IllegalArgumentException when {@code max} exceeds the array.
     */
    public int rxBurst(final MbufArray mbufs, final int max)
    {
        return queue0.rxBurst(mbufs, max);
    }

    /**
     * Receives up to {@code max} packets from queue 0 into {@code mbufs}, and where each one's data starts and
     * how long it is into {@code frames}, with each packet's first cache line prefetched.
     *
     * @param mbufs  where the mbuf pointers go.
     * @param frames where the packets' data addresses and lengths go (capacity at least {@code max}).
     * @param max    most packets to take.
     * @return the number received.
     * @throws IllegalArgumentException when {@code max} exceeds either array.
     */
    public int rxBurst(final MbufArray mbufs, final RxFrames frames, final int max)
    {
        return queue0.rxBurst(mbufs, frames, max);
    }

    /**
     * Transmits {@code mbufs[0..count)} on queue 0. The device owns the sent ones; the unsent ones
     * ({@code mbufs[sent..count)}) stay the caller's.
     *
     * @param mbufs the packets.
     * @param count how many.
     * @return the number sent.
     */
    public int txBurst(final MbufArray mbufs, final int count)
    {
        return queue0.txBurst(mbufs, count);
    }

    /**
     * Transmits {@code mbufs[0..count)} on queue 0 and frees those the device did not take (one downcall).
     *
     * @param mbufs the packets.
     * @param count how many.
     * @return the number sent; {@code count - sent} were dropped.
     */
    public int txBurstOrFree(final MbufArray mbufs, final int count)
    {
        return queue0.txBurstOrFree(mbufs, count);
    }

    /**
     * {@link EthQueue#rxBurst(MbufArray, int)} on rx queue {@code queueId}.
     *
     * @param queueId the rx queue.
     * @param mbufs   where the mbuf addresses go.
     * @param max     at most this many.
     * @return the number received.
     * @throws IllegalArgumentException when the port has no such queue or {@code max} exceeds the array.
     */
    public int rxBurst(final int queueId, final MbufArray mbufs, final int max)
    {
        return queue(queueId).rxBurst(mbufs, max);
    }

    /**
     * {@link EthQueue#rxBurst(MbufArray, RxFrames, int)} on rx queue {@code queueId}.
     *
     * @param queueId the rx queue.
     * @param mbufs   where the mbuf pointers go.
     * @param frames  where the packets' data addresses and lengths go.
     * @param max     most packets to take.
     * @return the number received.
     * @throws IllegalArgumentException when the port has no such queue or {@code max} exceeds either array.
     */
    public int rxBurst(final int queueId, final MbufArray mbufs, final RxFrames frames, final int max)
    {
        return queue(queueId).rxBurst(mbufs, frames, max);
    }

    /**
     * {@link EthQueue#txBurst(MbufArray, int)} on tx queue {@code queueId}.
     *
     * @param queueId the tx queue.
     * @param mbufs   the packets.
     * @param count   how many.
     * @return the number sent; the unsent ones stay the caller's.
     * @throws IllegalArgumentException when the port has no such queue.
     */
    public int txBurst(final int queueId, final MbufArray mbufs, final int count)
    {
        return queue(queueId).txBurst(mbufs, count);
    }

    /**
     * {@link EthQueue#txBurstOrFree(MbufArray, int)} on tx queue {@code queueId}.
     *
     * @param queueId the tx queue.
     * @param mbufs   the packets.
     * @param count   how many.
     * @return the number sent; {@code count - sent} were dropped.
     * @throws IllegalArgumentException when the port has no such queue.
     */
    public int txBurstOrFree(final int queueId, final MbufArray mbufs, final int count)
    {
        return queue(queueId).txBurstOrFree(mbufs, count);
    }

    /**
     * @return the port's statistics now.
     */
    public EthStats stats()
    {
        Eal.check(dpdk_h.rte_eth_stats_get(port, statsStruct), "rte_eth_stats_get(" + portId + ")");
        return new EthStats(
            rte_eth_stats.ipackets(statsStruct),
            rte_eth_stats.opackets(statsStruct),
            rte_eth_stats.ibytes(statsStruct),
            rte_eth_stats.obytes(statsStruct),
            rte_eth_stats.imissed(statsStruct),
            rte_eth_stats.ierrors(statsStruct),
            rte_eth_stats.oerrors(statsStruct),
            rte_eth_stats.rx_nombuf(statsStruct));
    }

    /**
     * Zeroes the port's statistics.
     */
    public void resetStats()
    {
        Eal.check(dpdk_h.rte_eth_stats_reset(port), "rte_eth_stats_reset(" + portId + ")");
    }

    /**
     * @return the port's MAC address as a 48-bit value (first octet most significant).
     */
    public long macAddress()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment mac = arena.allocate(6);
            Eal.check(dpdk_h.rte_eth_macaddr_get(port, mac), "rte_eth_macaddr_get(" + portId + ")");
            long value = 0;
            for (int i = 0; i < 6; i++)
            {
                value = (value << 8) | (mac.get(ValueLayout.JAVA_BYTE, i) & 0xFF);
            }
            return value;
        }
    }

    /**
     * @return true when the port's link is up now (does not wait for auto-negotiation); a virtual device such as
     *         {@code net_memif} is up once its peer has connected.
     */
    public boolean linkUp()
    {
        final int status = dpdk_h.dta_eth_link_up(port);
        Eal.check(status, "rte_eth_link_get_nowait(" + portId + ")");
        return 1 == status;
    }

    /**
     * Stops and closes the port (for {@code net_pcap}, this flushes and closes its tx capture).
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            stop();
            closed = true;
            Eal.check(dpdk_h.rte_eth_dev_close(port), "rte_eth_dev_close(" + portId + ")");
        }
    }
}
