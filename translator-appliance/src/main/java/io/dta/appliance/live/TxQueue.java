package io.dta.appliance.live;

import io.dta.dpdk.EthPort;
import io.dta.dpdk.MbufArray;

/**
 * The frames waiting for one port's tx queue 0: filled one mbuf at a time, sent in one tx burst when full or at
 * the end of a duty cycle. A live data plane does not wait for a full tx ring: what the device does not take is
 * freed and counted as dropped.
 */
public final class TxQueue
{
    private final EthPort port;
    private final MbufArray tx;
    private int count;
    private long sent;
    private long dropped;

    /**
     * @param port  the port.
     * @param burst frames per tx burst.
     */
    public TxQueue(final EthPort port, final int burst)
    {
        this.port = port;
        this.tx = new MbufArray(burst);
    }

    /**
     * Queues one mbuf (its length set); sends the burst when it is full.
     *
     * @param mbuf the mbuf's address; the queue owns it now.
     */
    public void add(final long mbuf)
    {
        tx.set(count++, mbuf);
        if (count == tx.capacity())
        {
            flush();
        }
    }

    /**
     * Sends what is queued.
     *
     * @return frames the device took.
     */
    public int flush()
    {
        final int n = count;
        if (0 == n)
        {
            return 0;
        }
        count = 0;
        final int accepted = port.txBurstOrFree(tx, n);
        sent += accepted;
        dropped += n - accepted;
        return accepted;
    }

    /**
     * @return the port.
     */
    public EthPort port()
    {
        return port;
    }

    /**
     * @return frames the device accepted.
     */
    public long sent()
    {
        return sent;
    }

    /**
     * @return frames dropped because the tx ring was full.
     */
    public long dropped()
    {
        return dropped;
    }
}
