package io.dta.dpdk;

import io.dta.dpdk.ffi.DpdkLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real EAL (in a JVM of its own): ports opened with an MTU have it ({@code rte_eth_dev_get_mtu}), ports opened
 * without one the device's default, and a port whose device cannot take the MTU is refused before it is
 * configured, with a message naming it ({@code net_memif} in DPDK 22.11 takes at most 1500).
 */
class PortMtuEalTest
{
    private static Eal eal;
    private static Mempool pool;
    private static Path runtimeDirectory;
    private static Path directory;

    @BeforeAll
    static void startEal() throws IOException
    {
        directory = Files.createTempDirectory("dta-port-mtu");
        eal = Eal.init(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("junit-mtu"), 0, 256, "net_null0", "net_null1",
            "net_memif0,role=server,socket-abstract=no,socket=" + directory.resolve("memif.sock")));
        runtimeDirectory = eal.runtimeDirectory();
        // Sized for a 4096-byte path MTU, as the live agents size theirs.
        pool = Mempool.create("mtu_pool", 4095, 0, Mempool.dataRoomFor(4096 + 128));
    }

    @AfterAll
    static void stopEal() throws IOException
    {
        pool.close();
        eal.close();
        assertFalse(Files.exists(runtimeDirectory), "EAL runtime directory left behind: " + runtimeDirectory);
        Files.deleteIfExists(directory.resolve("memif.sock"));
        Files.delete(directory);
    }

    @Test
    void shouldOpenWithTheMtuGiven()
    {
        try (EthPort port = EthPort.open(eal.portId("net_null0"), pool, 512, 512, false, 4210))
        {
            assertEquals(4210, port.mtu());
        }
    }

    @Test
    void shouldOpenWithTheDefaultMtuWithoutOne()
    {
        try (EthPort port = EthPort.open(eal.portId("net_null1"), pool, 512, 512, false))
        {
            assertEquals(DpdkLayout.RTE_ETHER_MTU, port.mtu());
            assertEquals(1500, port.mtu());
        }
    }

    @Test
    void shouldRefuseAPortThatCannotTakeTheMtuAndOpenItWithOneItTakes()
    {
        final int id = eal.portId("net_memif0");
        final DpdkException ex = assertThrows(DpdkException.class,
            () -> EthPort.open(id, pool, 512, 512, false, 4210));
        final String message = ex.getMessage();
        assertTrue(message.contains("port " + id + " (net_memif0, driver net_memif)"), message);
        assertTrue(message.contains("needs an MTU of 4210"), message);
        assertTrue(message.contains("at most 1500 (max_mtu 65535, max_rx_pktlen 1518)"), message);

        try (EthPort port = EthPort.open(id, pool, 512, 512, false, 1500))
        {
            assertEquals(1500, port.mtu());
        }
    }
}
