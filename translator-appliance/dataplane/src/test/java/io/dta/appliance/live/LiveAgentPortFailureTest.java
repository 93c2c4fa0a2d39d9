package io.dta.appliance.live;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The message of a port that could not start, and its hint for a memif client started before its server, however
 * the device was given.
 */
class LiveAgentPortFailureTest
{
    private static final String START_FAILED = "rte_eth_dev_start(1) failed: Operation not permitted";
    private static final String HINT = "start the server first";

    @Test
    void shouldFindVirtualDevicesInBothForms()
    {
        assertEquals(List.of("net_memif0,role=client", "net_null0", "net_ring0"), LivePortSpecs.virtualDevices(List.of(
            "-l", "0", "--vdev=net_memif0,role=client", "--vdev", "net_null0", "--no-pci", "--vdev=net_ring0")));
        assertEquals(List.of(), LivePortSpecs.virtualDevices(List.of("-l", "0", "--vdev")));
    }

    @Test
    void shouldHintAtTheServerForAMemifClientHoweverItWasGiven()
    {
        for (final List<String> eal : List.of(
            List.of("--vdev=net_memif0,role=client,socket=/tmp/a.sock"),
            List.of("--vdev", "net_memif0,socket=/tmp/a.sock,role=client"),
            List.of("-l", "1", "--vdev", "net_memif0,socket=/tmp/a.sock")))
        {
            final String message = LivePortSpecs.portOpenFailure("collector link", 1, "net_memif0", START_FAILED, eal);
            assertTrue(message.startsWith("cannot open the collector link port 1 (net_memif0): " + START_FAILED),
                message);
            assertTrue(message.endsWith(HINT), eal + ": " + message);
        }
    }

    @Test
    void shouldNotHintForAMemifServerOrAnotherFailure()
    {
        final List<String> server = List.of("--vdev", "net_memif0,role=server,socket=/tmp/a.sock");
        assertFalse(LivePortSpecs.portOpenFailure("collector link", 1, "1", START_FAILED, server).contains(HINT));
        final List<String> client = List.of("--vdev=net_memif0,role=client");
        final String other = LivePortSpecs.portOpenFailure("reports", 0, "0", "rte_eth_rx_queue_setup failed", client);
        assertEquals("cannot open the reports port 0: rte_eth_rx_queue_setup failed", other);
    }
}
