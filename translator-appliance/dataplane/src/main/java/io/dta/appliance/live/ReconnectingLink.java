package io.dta.appliance.live;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A port whose device connects to its peer only when it starts, and never again by itself: a {@code net_memif}
 * client. In DPDK 22.11 its {@code connect()} is in {@code rte_eth_dev_start}; when the server goes away (its process
 * stopped or restarted) the EAL's interrupt thread disconnects the port and sets its link down, and nothing retries.
 * So the data plane watches the link ({@link #watch(long)}, from its duty cycle) and, once a link that was up is
 * down, stops and starts the port ({@link Port#restart(boolean)}) every {@link #RETRY_NANOS} until the server is
 * back: one line when the link goes down, one when it is up again, none per attempt, and the attempts counted.
 * <p>
 * While the port is down, its rx burst returns nothing and its tx burst takes nothing (the frames are freed and
 * counted as {@code tx not taken}); after a failed start the port is stopped and the data plane must not burst it
 * at all ({@link io.dta.dpdk.EthPort#started()}). A server-role memif port needs none of this: its listening socket
 * accepts the client again by itself.
 * <p>
 * DPDK's memif disconnect is not thread-safe against a second one: the interrupt thread's, which sets the link down
 * first, must be over before the data plane's stop runs another; hence the first attempt {@link #RETRY_NANOS} after
 * the link was seen down, and {@link #HANDSHAKE_NANOS} after a start that connected before a stop could cut into the
 * handshake.
 */
final class ReconnectingLink
{
    /** How long after the link was seen down, or a start failed, the next attempt comes. */
    static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /**
     * How long after a start that connected the link may take to come up (the handshake with the server runs on
     * DPDK's interrupt thread) before the next attempt.
     */
    static final long HANDSHAKE_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * What the watch needs of a port.
     */
    interface Port
    {
        /**
         * @return true when the link is up now.
         */
        boolean linkUp();

        /**
         * Stops the port if started and starts it again.
         *
         * @param quiet keep DPDK's own lines of a failed attempt off stderr.
         * @return 0 when it started, else a negative error number (it is stopped then).
         */
        int restart(boolean quiet);
    }

    private final Port port;
    private final String label;
    private final String messagePrefix;
    private final AtomicCounter linksLost;
    private final AtomicCounter attempts;
    private final AtomicCounter reconnections;
    private boolean wasUp;
    private boolean down;
    private long downSinceNanos;
    private long attemptsThisOutage;
    private long nextAttemptNanos;

    /**
     * @param port          the port.
     * @param label         how the port is named in counters and messages, e.g. {@code port 1 net_memif0 (collector
     *                      link)}.
     * @param messagePrefix what the process's status lines start with, e.g. {@code dta run}.
     * @param manager       where the counters go.
     * @param typeId        their type id.
     */
    ReconnectingLink(
        final Port port,
        final String label,
        final String messagePrefix,
        final CountersManager manager,
        final int typeId)
    {
        this.port = port;
        this.label = label;
        this.messagePrefix = messagePrefix;
        linksLost = manager.newCounter(label + ": link lost (memif server gone)", typeId);
        attempts = manager.newCounter(label + ": reconnect attempts (stop, start)", typeId);
        reconnections = manager.newCounter(label + ": reconnections (link up again)", typeId);
    }

    /**
     * Whether a port is a {@code net_memif} client: its driver is {@code net_memif} and the {@code --vdev} that made
     * it does not give it the server role (memif's default role is the client; the driver reads {@code role=} by
     * substring, so {@code master} is a server too).
     *
     * @param driver  the port's driver name.
     * @param name    the port's ethdev name, which is its {@code --vdev} device name.
     * @param ealArgs the EAL arguments.
     * @return true for a memif client.
     */
    static boolean isMemifClient(final String driver, final String name, final List<String> ealArgs)
    {
        if (!"net_memif".equals(driver))
        {
            return false;
        }
        for (final String spec : LivePortSpecs.virtualDevices(ealArgs))
        {
            final MemifDevice device = MemifDevice.parse(spec);
            if (null != device && device.name().equals(name))
            {
                return !device.server();
            }
        }
        return true;
    }

    /**
     * Looks at the link, and while it is down after having been up, restarts the port when the time has come. Call
     * it every {@link #RETRY_NANOS} or so from the data-plane thread (not per packet: a link query and, when down, a
     * restart are system calls).
     *
     * @param nowNanos the clock ({@link System#nanoTime()}).
     * @return 1 when a restart was tried, else 0.
     */
    int watch(final long nowNanos)
    {
        final boolean up = port.linkUp();
        if (up)
        {
            if (down)
            {
                down = false;
                reconnections.increment();
                // Once per outage, on the data-plane thread: not the hot path.
                System.err.println(messagePrefix + ": " + label + ": link up again: reconnected to the memif " +
                    "server after " + attemptsThisOutage + " attempt(s), " + millis(nowNanos - downSinceNanos) +
                    " down");
            }
            wasUp = true;
            return 0;
        }
        if (!wasUp)
        {
            // Never up since the start: the start-up link wait (checkLinks) speaks for it.
            return 0;
        }
        if (!down)
        {
            down = true;
            downSinceNanos = nowNanos;
            attemptsThisOutage = 0;
            // The first attempt not at once: the interrupt thread that set the link down may still be disconnecting.
            nextAttemptNanos = nowNanos + RETRY_NANOS;
            linksLost.increment();
            System.err.println(messagePrefix + ": " + label + ": link down: the memif server went away; " +
                "reconnecting every " + TimeUnit.NANOSECONDS.toMillis(RETRY_NANOS) + " ms until it is back " +
                "(frames for it are dropped meanwhile, counted as tx not taken)");
            return 0;
        }
        if (nowNanos - nextAttemptNanos < 0)
        {
            return 0;
        }
        // DPDK's own line for the first failed attempt says why; the later ones would only repeat it.
        final int status = port.restart(attemptsThisOutage > 0);
        attemptsThisOutage++;
        attempts.increment();
        nextAttemptNanos = nowNanos + (0 == status ? HANDSHAKE_NANOS : RETRY_NANOS);
        return 1;
    }

    /**
     * @return true while the link is down after having been up (reconnecting).
     */
    boolean down()
    {
        return down;
    }

    /**
     * @return times the link went down after having been up.
     */
    long linksLost()
    {
        return linksLost.get();
    }

    /**
     * @return restarts tried.
     */
    long attempts()
    {
        return attempts.get();
    }

    /**
     * @return times the link came up again after going down.
     */
    long reconnections()
    {
        return reconnections.get();
    }

    private static String millis(final long nanos)
    {
        final long ms = TimeUnit.NANOSECONDS.toMillis(nanos);
        return ms < 10_000 ? ms + " ms" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
