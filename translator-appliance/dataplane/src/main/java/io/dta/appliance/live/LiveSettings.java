package io.dta.appliance.live;

import java.util.List;

/**
 * How a live data plane starts and stops.
 *
 * @param ealArgs          EAL arguments (without the program name), see {@code io.dta.dpdk.Eal#init(List)}.
 * @param portSpecs        one port per role (e.g. reports, collector link): an ethdev port id ("0") or name
 *                         ("net_memif0"); two roles may name the same port.
 * @param burst            packets per rx and tx burst.
 * @param poolSize         mbufs in the pool (2^k - 1 uses its ring best; about 2.4 KB each with {@code --no-huge}).
 * @param linkWaitMillis   how long to wait for every port's link to come up before reading reports anyway (0: do
 *                         not wait).
 * @param drainMillis      after a stop signal: how long to keep running (sending flushed batches, taking responses)
 *                         until the engine is quiescent.
 * @param statsIntervalMillis how often the heartbeat and the port statistics are written to the counters file.
 * @param workers             data-plane workers, each on an EAL lcore of its own with its own queue on every port; for
 *                            the soft collector, which reads its port on one thread, the number of queues it opens.
 */
public record LiveSettings(
    List<String> ealArgs,
    List<String> portSpecs,
    int burst,
    int poolSize,
    long linkWaitMillis,
    long drainMillis,
    long statsIntervalMillis,
    int workers)
{
    /** Packets per burst by default. */
    public static final int DEFAULT_BURST = 32;
    /** Mbufs in the pool by default: fits {@code -m 256} with {@code --no-huge}. */
    public static final int DEFAULT_POOL_SIZE = 16383;
    /** Default wait for the links. */
    public static final long DEFAULT_LINK_WAIT_MILLIS = 10_000;
    /** Default drain time after a stop signal. */
    public static final long DEFAULT_DRAIN_MILLIS = 1_000;
    /** Default interval of the heartbeat and the port statistics. */
    public static final long DEFAULT_STATS_INTERVAL_MILLIS = 100;

    /**
     * Copies the lists.
     */
    public LiveSettings
    {
        ealArgs = List.copyOf(ealArgs);
        portSpecs = List.copyOf(portSpecs);
        if (workers < 1)
        {
            throw new IllegalArgumentException("workers must be at least 1: " + workers);
        }
    }

    /**
     * Settings of one worker.
     *
     * @param ealArgs             EAL arguments.
     * @param portSpecs           one port (id or ethdev name) per role.
     * @param burst               packets per rx and tx burst.
     * @param poolSize            mbufs in the pool.
     * @param linkWaitMillis      how long to wait for the links at start.
     * @param drainMillis         how long a stop may drain.
     * @param statsIntervalMillis how often the counters file is written.
     */
    public LiveSettings(
        final List<String> ealArgs,
        final List<String> portSpecs,
        final int burst,
        final int poolSize,
        final long linkWaitMillis,
        final long drainMillis,
        final long statsIntervalMillis)
    {
        this(ealArgs, portSpecs, burst, poolSize, linkWaitMillis, drainMillis, statsIntervalMillis, 1);
    }
}
