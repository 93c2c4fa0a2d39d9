package io.dta.appliance.live;

import io.dta.codec.EthernetFlyweight;
import io.dta.dpdk.DpdkException;
import io.dta.dpdk.Eal;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.Hugepages;
import io.dta.dpdk.Mempool;

import java.util.ArrayList;
import java.util.List;

/**
 * The EAL and ports of a live process as the user gives them: the EAL started (a hugepage shortfall explained), a
 * port id or an ethdev name resolved on the running EAL, the {@code --vdev} devices among the EAL arguments, the MTU
 * and mbuf data room the configuration's largest frame needs, and the message of a port that could not be opened.
 */
final class LivePortSpecs
{
    private static final int ENOMEM = 12;
    private static final int EACCES = 13;

    /** {@code RTE_ETHER_MTU}: the MTU a port gets when the configuration's frames fit it. */
    static final int DEFAULT_PORT_MTU = 1500;

    // What a NIC may add to the MTU when it sizes its receive buffers: the Ethernet header, the CRC and two VLAN
    // tags (some, e.g. mlx5, refuse an rx queue whose mbufs cannot hold that without scatter).
    private static final int NIC_FRAME_OVERHEAD = EthernetFlyweight.HEADER_LENGTH + 4 +
        2 * EthernetFlyweight.VLAN_TAG_LENGTH;

    private LivePortSpecs()
    {
    }

    /**
     * The message of a port that could not be opened: DPDK's own ({@code rte_eth_dev_start(1) failed: Operation not
     * permitted}) names neither the role nor the device, and the usual cause of that one on virtual devices is a
     * {@code net_memif} client started before its server.
     *
     * @param role    the role of the port, e.g. {@code collector link}.
     * @param id      the port id.
     * @param spec    the port as given ({@code --collector-port}).
     * @param failure the failure's message.
     * @param ealArgs the EAL arguments (for the {@code --vdev} devices).
     * @return the message.
     */
    static String portOpenFailure(
        final String role, final int id, final String spec, final String failure, final List<String> ealArgs)
    {
        if (failure.startsWith("port " + id + " ("))
        {
            // Already names the port and its driver (the MTU check).
            return failure;
        }
        final boolean memifClient = virtualDevices(ealArgs).stream()
            .map(MemifDevice::parse)
            .anyMatch(device -> null != device && !device.server());
        return "cannot open the " + role + " port " + (spec.equals(Integer.toString(id)) ? spec : id + " (" + spec +
            ")") + ": " + failure + (memifClient && failure.startsWith("rte_eth_dev_start") ?
            "; a net_memif client (role=client, memif's default) starts only once its server (role=server, e.g. " +
            "dta collector --port) listens on the socket: start the server first" : "");
    }

    /**
     * @param ealArgs EAL arguments.
     * @return the virtual device specifications among them, given as {@code --vdev=SPEC} or {@code --vdev SPEC}.
     */
    static List<String> virtualDevices(final List<String> ealArgs)
    {
        final List<String> specs = new ArrayList<>();
        for (int i = 0; i < ealArgs.size(); i++)
        {
            final String arg = ealArgs.get(i);
            if (arg.startsWith("--vdev="))
            {
                specs.add(arg.substring("--vdev=".length()));
            }
            else if ("--vdev".equals(arg) && i + 1 < ealArgs.size())
            {
                specs.add(ealArgs.get(++i));
            }
        }
        return specs;
    }

    /**
     * The MTU the ports of a process are opened with: the largest frame less its Ethernet header (the RoCEv2
     * frames carry no VLAN tag), or 0, the device's default ({@value #DEFAULT_PORT_MTU}), when that is enough,
     * so configurations with path MTUs up to 1024 open ports exactly as before.
     *
     * @param largestFrame the longest frame the process sends or takes ({@code FrameLimits.largestFrame}).
     * @return the MTU for {@link EthPort#open(int, Mempool, int, int, boolean, int)}, or 0.
     */
    static int portMtu(final int largestFrame)
    {
        final int mtu = largestFrame - EthernetFlyweight.HEADER_LENGTH;
        return mtu > DEFAULT_PORT_MTU ? mtu : 0;
    }

    /**
     * The data room of the process's mbufs: one holds the largest frame in a single segment and, when the ports
     * get a larger MTU, what a NIC sizes its receive buffers for (the MTU plus header, CRC and two VLAN tags).
     *
     * @param largestFrame the longest frame the process sends or takes.
     * @return the data room for {@link Mempool#create}.
     */
    static int poolDataRoom(final int largestFrame)
    {
        final int mtu = portMtu(largestFrame);
        return Mempool.dataRoomFor(0 == mtu ? largestFrame : Math.max(largestFrame, mtu + NIC_FRAME_OVERHEAD));
    }

    /**
     * @param eal  the running EAL.
     * @param spec a port id or an ethdev name.
     * @return the port id.
     */
    static int portId(final Eal eal, final String spec)
    {
        if (!spec.isEmpty() && spec.chars().allMatch(Character::isDigit))
        {
            // Any number of digits: one too long for a long is as much "no such port" as 99.
            final long id = spec.length() > 18 ? Long.MAX_VALUE : Long.parseLong(spec);
            if (id >= eal.portCount())
            {
                throw new IllegalArgumentException("port " + spec + " does not exist (the EAL has " +
                    eal.portCount() + " port(s); add --vdev or check the device binding)");
            }
            return (int)id;
        }
        return eal.portId(spec);
    }
    /**
     * Starts the EAL; a failure that hugepages explain says so.
     *
     * @param ealArgs the EAL arguments.
     * @return the EAL.
     */
    static Eal startEal(final List<String> ealArgs)
    {
        try
        {
            return Eal.init(ealArgs);
        }
        catch (final DpdkException ex)
        {
            // Told only after EAL failed: a host may offer hugepages the check cannot see (a non-default size mounted
            // with --huge-dir), so it must not refuse a start of its own accord; after EAL's failure it says why.
            // EAL 22.11 fails a hugepage shortage with EACCES ("Cannot get hugepage information") or ENOMEM; a bad
            // core list, device or locked prefix gets no hugepage advice.
            final String missing = EACCES == ex.errorNumber() || ENOMEM == ex.errorNumber() ?
                Hugepages.shortfallFor(ealArgs) : null;
            if (null == missing)
            {
                throw ex;
            }
            final DpdkException explained =
                new DpdkException(ex.getMessage() + "; hugepages: " + missing, ex.errorNumber());
            explained.initCause(ex);
            throw explained;
        }
    }
}
