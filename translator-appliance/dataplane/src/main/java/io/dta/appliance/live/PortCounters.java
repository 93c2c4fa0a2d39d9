package io.dta.appliance.live;

import io.dta.appliance.dpdk.TxQueue;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.EthStats;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * One port's live counters in the shared-memory counters file: the device's statistics ({@code rte_eth_stats}),
 * copied at every stats tick as totals over the run ({@link EthStatsTotals}: a driver that resets them, as
 * {@code net_memif} does when its peer disconnects, does not make a port that carried traffic show none), and the
 * data plane's own count of frames the device's tx burst did not take (tx ring full, or the link down: a
 * {@code net_memif} port without a peer takes nothing), which it freed; for a {@code net_memif} client, also how
 * often its link was lost and reconnected ({@link ReconnectingLink}, whose counters follow the port's).
 */
public final class PortCounters
{
    /** Agrona counter type id of port counters. */
    public static final int TYPE_ID = 0x0D7A_0002;

    private final EthPort port;
    private final TxQueue tx;
    private final AtomicCounter rxPackets;
    private final AtomicCounter txPackets;
    private final AtomicCounter rxBytes;
    private final AtomicCounter txBytes;
    private final AtomicCounter rxMissed;
    private final AtomicCounter rxErrors;
    private final AtomicCounter txErrors;
    private final AtomicCounter rxNoMbuf;
    private final AtomicCounter txNotTaken;
    private ReconnectingLink link;
    private final EthStatsTotals totals = new EthStatsTotals();
    private EthStats last;

    /**
     * @param manager where to allocate the counters.
     * @param role    the port's role, for the labels ("reports", "collector link", ...).
     * @param port    the port.
     * @param tx      its tx queue.
     */
    public PortCounters(final CountersManager manager, final String role, final EthPort port, final TxQueue tx)
    {
        this.port = port;
        this.tx = tx;
        final String prefix = "port " + port.portId() + " " + port.name() + " (" + role + "): ";
        rxPackets = manager.newCounter(prefix + "rx packets", TYPE_ID);
        txPackets = manager.newCounter(prefix + "tx packets", TYPE_ID);
        rxBytes = manager.newCounter(prefix + "rx bytes", TYPE_ID);
        txBytes = manager.newCounter(prefix + "tx bytes", TYPE_ID);
        rxMissed = manager.newCounter(prefix + "rx missed (rx ring full)", TYPE_ID);
        rxErrors = manager.newCounter(prefix + "rx errors", TYPE_ID);
        txErrors = manager.newCounter(prefix + "tx errors", TYPE_ID);
        rxNoMbuf = manager.newCounter(prefix + "rx mbuf allocation failures", TYPE_ID);
        txNotTaken = manager.newCounter(prefix + "tx not taken (ring full, link down)", TYPE_ID);
    }

    /**
     * Copies the device statistics, as totals over the run, into the counters (one {@code rte_eth_stats_get}; call
     * at the stats tick, not per packet).
     */
    public void update()
    {
        final EthStats s = totals.add(port.stats());
        last = s;
        rxPackets.setRelease(s.inPackets());
        txPackets.setRelease(s.outPackets());
        rxBytes.setRelease(s.inBytes());
        txBytes.setRelease(s.outBytes());
        rxMissed.setRelease(s.inMissed());
        rxErrors.setRelease(s.inErrors());
        txErrors.setRelease(s.outErrors());
        rxNoMbuf.setRelease(s.rxNoMbuf());
        txNotTaken.setRelease(tx.notTaken());
    }

    /**
     * @return the totals over the run as of the last {@link #update()}, or null before the first.
     */
    public EthStats last()
    {
        return last;
    }

    /**
     * @return frames the tx burst did not take (ring full or link down), dropped.
     */
    public long txNotTaken()
    {
        return tx.notTaken();
    }

    /**
     * @param reconnectingLink the port's reconnection watch (a {@code net_memif} client), set once at start.
     */
    void reconnectedBy(final ReconnectingLink reconnectingLink)
    {
        link = reconnectingLink;
    }

    /**
     * @return true when the port is a {@code net_memif} client that the data plane reconnects when its server comes
     *         back (then {@link #linksLost()}, {@link #reconnectAttempts()} and {@link #reconnections()} count).
     */
    public boolean reconnects()
    {
        return null != link;
    }

    /**
     * @return times the link went down after having been up (0 unless {@link #reconnects()}).
     */
    public long linksLost()
    {
        return null == link ? 0 : link.linksLost();
    }

    /**
     * @return reconnection attempts (stop and start) made (0 unless {@link #reconnects()}).
     */
    public long reconnectAttempts()
    {
        return null == link ? 0 : link.attempts();
    }

    /**
     * @return times the link came up again after going down (0 unless {@link #reconnects()}).
     */
    public long reconnections()
    {
        return null == link ? 0 : link.reconnections();
    }

    /**
     * @return the port.
     */
    public EthPort port()
    {
        return port;
    }
}
