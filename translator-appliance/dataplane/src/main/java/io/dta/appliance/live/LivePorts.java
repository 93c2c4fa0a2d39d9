package io.dta.appliance.live;

import io.dta.appliance.dpdk.ControlFrames;
import io.dta.appliance.dpdk.MbufFrameSink;
import io.dta.appliance.dpdk.TxQueue;
import io.dta.appliance.dpdk.WorkerAgent;
import io.dta.dpdk.DpdkException;
import io.dta.dpdk.Eal;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.EthQueue;
import io.dta.dpdk.Mempool;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.status.CountersManager;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The ports of a live process by role ({@code reports}, {@code collector link}; two roles may share a port): each
 * distinct port opened once, with one rx and one tx queue per worker, its queue-0 {@link TxQueue} (worker 0's), and
 * each worker's loop over its own queues ({@link #newWorker}).
 */
final class LivePorts
{
    /** The distinct ports, in the order of their first role. */
    final List<EthPort> ports = new ArrayList<>();

    /** The tx queue 0 of each distinct port, in the order of {@link #ports}. */
    final List<TxQueue> tx = new ArrayList<>();

    /** The port of each role. */
    final EthPort[] portOfRole;

    /** The tx queue 0 of each role's port. */
    final TxQueue[] txOfRole;

    private final String[] roles;
    private final int burst;
    private TxQueue[][] workerTx = new TxQueue[1][];

    /**
     * @param roles the roles' names, the reports first, the collector link last.
     * @param burst frames per tx burst.
     */
    LivePorts(final String[] roles, final int burst)
    {
        this.roles = roles.clone();
        this.burst = burst;
        this.portOfRole = new EthPort[roles.length];
        this.txOfRole = new TxQueue[roles.length];
    }

    /**
     * Opens the port of each role (a port named by two roles once); the ports opened before a failure stay in
     * {@link #ports}, for the caller to close.
     *
     * @param eal      the running EAL.
     * @param settings the run's settings (port specifications, workers, EAL arguments).
     * @param pool     the pool of the ports' mbufs.
     * @param portMtu  the MTU, or 0 for the device's default.
     */
    void open(final Eal eal, final LiveSettings settings, final Mempool pool, final int portMtu)
    {
        for (int r = 0; r < roles.length; r++)
        {
            final int id = LivePortSpecs.portId(eal, settings.portSpecs().get(r));
            for (int i = 0; i < ports.size(); i++)
            {
                if (ports.get(i).portId() == id)
                {
                    portOfRole[r] = ports.get(i);
                    txOfRole[r] = tx.get(i);
                }
            }
            if (null == portOfRole[r])
            {
                // A port that cannot take the MTU is refused here: better than a NIC dropping the long frames.
                final EthPort port;
                try
                {
                    port = 1 == settings.workers() ?
                        EthPort.open(id, pool, EthPort.DEFAULT_DESCRIPTORS, EthPort.DEFAULT_DESCRIPTORS, false,
                            portMtu) :
                        EthPort.open(id, settings.workers(), pool, EthPort.DEFAULT_DESCRIPTORS,
                            EthPort.DEFAULT_DESCRIPTORS, false, portMtu);
                }
                catch (final DpdkException ex)
                {
                    throw new DpdkException(LivePortSpecs.portOpenFailure(roles[r], id, settings.portSpecs().get(r),
                        ex.getMessage(), settings.ealArgs()), ex.errorNumber());
                }
                ports.add(port);
                tx.add(new TxQueue(port, burst));
                portOfRole[r] = port;
                txOfRole[r] = tx.getLast();
            }
        }
    }

    /**
     * Worker {@code w}'s loop over its own queue of every port: rx queue {@code w}, and tx queue {@code w} (worker 0:
     * the queues of {@link #txOfRole}, which worker 0's sink fills).
     */
    WorkerAgent newWorker(final int w, final ControlFrames controlFrames)
    {
        final EthQueue[] rxQueues = new EthQueue[ports.size()];
        final int[] portRoles = new int[ports.size()];
        final boolean[] reports = new boolean[ports.size()];
        final TxQueue[] txQueues = new TxQueue[ports.size()];
        for (int i = 0; i < ports.size(); i++)
        {
            rxQueues[i] = ports.get(i).queue(w);
            txQueues[i] = 0 == w ? tx.get(i) : new TxQueue(ports.get(i).queue(w), burst);
            int last = 0;
            for (int r = 0; r < roles.length; r++)
            {
                if (portOfRole[r] == ports.get(i))
                {
                    last = r;
                }
            }
            portRoles[i] = last;
            // A port whose last role is the first (reports) alone carries reports only.
            reports[i] = 0 == last;
        }
        if (w >= workerTx.length)
        {
            workerTx = Arrays.copyOf(workerTx, w + 1);
        }
        workerTx[w] = txQueues;
        return new WorkerAgent(rxQueues, portRoles, reports, txQueues, controlFrames, burst,
            SystemNanoClock.INSTANCE);
    }

    /**
     * Makes a frame sink for worker {@code w} over its own tx queues of the ports of the roles (the queues its loop
     * flushes every duty cycle).
     *
     * @param pool where the frames' mbufs come from.
     * @param w    the worker, 1 or more.
     * @return the worker's frame sink.
     */
    MbufFrameSink workerSink(final Mempool pool, final int w)
    {
        return new MbufFrameSink(pool, workerTx[w][ports.indexOf(portOfRole[roles.length - 1])],
            workerTx[w][ports.indexOf(portOfRole[0])], burst);
    }

    /**
     * @param role a role.
     * @return the first role on the same port.
     */
    int firstRoleOf(final int role)
    {
        for (int r = 0; r < role; r++)
        {
            if (portOfRole[r] == portOfRole[role])
            {
                return r;
            }
        }
        return role;
    }

    /**
     * @param role a role.
     * @return true when no role before it is on its port.
     */
    boolean isFirstRoleOfPort(final int role)
    {
        for (int r = 0; r < role; r++)
        {
            if (portOfRole[r] == portOfRole[role])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * When two roles share a port, a frame is handed on under the last role (the collector link): the subclass
     * tells reports from responses by their content anyway.
     */
    int roleOf(final EthPort port, final int first)
    {
        int role = first;
        for (int r = first + 1; r < roles.length; r++)
        {
            if (portOfRole[r] == port)
            {
                role = r;
            }
        }
        return role;
    }

    /**
     * @param i a distinct port's index.
     * @return the names of its roles, comma-separated.
     */
    String roleNames(final int i)
    {
        final StringBuilder names = new StringBuilder();
        for (int r = 0; r < roles.length; r++)
        {
            if (portOfRole[r] == ports.get(i))
            {
                names.append(names.isEmpty() ? "" : ", ").append(roles[r]);
            }
        }
        return names.toString();
    }

    /**
     * @return the names of the ports whose link is down, each after a space; empty when every link is up.
     */
    String linksDown()
    {
        final StringBuilder down = new StringBuilder();
        for (final EthPort port : ports)
        {
            if (!port.linkUp())
            {
                down.append(' ').append(port.name());
            }
        }
        return down.toString();
    }

    /**
     * @param manager the counters file's manager.
     * @return each distinct port's counters, in the order of {@link #ports}.
     */
    PortCounters[] portCounters(final CountersManager manager)
    {
        final PortCounters[] counters = new PortCounters[ports.size()];
        for (int i = 0; i < ports.size(); i++)
        {
            counters[i] = new PortCounters(manager, roleNames(i), ports.get(i), tx.get(i));
        }
        return counters;
    }

    /**
     * A {@link ReconnectingLink} for each {@code net_memif} client port, which restarts it while its server is away.
     *
     * @param manager  the counters file's manager.
     * @param ealArgs  the EAL arguments (the {@code --vdev} devices).
     * @param counters the ports' counters, told of their port's reconnections.
     * @param prefix   the process's message prefix.
     * @return the links (none without memif clients).
     */
    ReconnectingLink[] reconnectingLinks(
        final CountersManager manager, final List<String> ealArgs, final PortCounters[] counters, final String prefix)
    {
        final List<ReconnectingLink> reconnecting = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++)
        {
            final EthPort port = ports.get(i);
            if (ReconnectingLink.isMemifClient(port.driver(), port.name(), ealArgs))
            {
                final ReconnectingLink link = new ReconnectingLink(new ReconnectingLink.Port()
                {
                    public boolean linkUp()
                    {
                        return port.linkUp();
                    }

                    public int restart(final boolean quiet)
                    {
                        return port.restart(quiet);
                    }
                }, "port " + port.portId() + " " + port.name() + " (" + roleNames(i) + ")", prefix, manager,
                    PortCounters.TYPE_ID);
                counters[i].reconnectedBy(link);
                reconnecting.add(link);
            }
        }
        return reconnecting.toArray(new ReconnectingLink[0]);
    }
}
