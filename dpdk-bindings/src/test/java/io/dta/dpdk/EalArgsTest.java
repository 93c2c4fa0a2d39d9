package io.dta.dpdk;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * EAL argument handling that needs no EAL.
 */
class EalArgsTest
{
    @Test
    void shouldLetUserArgumentsReplaceDefaults()
    {
        final List<String> defaults = Eal.virtualDeviceArgs("p1", 0, 256, "net_null0");
        assertEquals(List.of("--no-huge", "--no-pci", "--log-level=lib.eal:warning", "--no-telemetry",
            "--vdev=net_null0", "-l", "1", "-m", "512", "--file-prefix=x"),
            Eal.mergeArgs(defaults, List.of("-l", "1", "-m", "512", "--file-prefix=x")));
    }

    @Test
    void shouldKeepDefaultsWithoutOverrides()
    {
        final List<String> defaults = Eal.virtualDeviceArgs("p1", 0, 256, "net_null0");
        assertEquals(defaults, Eal.mergeArgs(defaults, List.of()));
        assertEquals(List.of("--no-huge", "-m", "256", "--no-pci", "--file-prefix=p1",
            "--log-level=lib.eal:warning", "--no-telemetry", "--vdev=net_null0", "--lcores=0@1"),
            Eal.mergeArgs(defaults, List.of("--lcores=0@1")));
    }

    @Test
    void shouldDropNoHugeWhenTheUserAsksForHugepages()
    {
        final List<String> defaults = Eal.virtualDeviceArgs("p1", 0, 256, "net_null0");
        assertEquals(List.of("-l", "0", "-m", "256", "--no-pci", "--file-prefix=p1", "--log-level=lib.eal:warning",
            "--no-telemetry", "--vdev=net_null0", "--huge-unlink"), Eal.mergeArgs(defaults, List.of("--huge-unlink")));
        assertFalse(Eal.mergeArgs(defaults, List.of("--huge-dir=/mnt/huge")).contains(Eal.NO_HUGE));
        // EAL refuses -m beside --socket-mem.
        assertEquals(List.of("-l", "0", "--no-pci", "--file-prefix=p1", "--log-level=lib.eal:warning",
            "--no-telemetry", "--vdev=net_null0", "--socket-mem", "512"),
            Eal.mergeArgs(defaults, List.of("--socket-mem", "512")));
        assertEquals(512, Eal.memoryMegabytes(Eal.mergeArgs(defaults, List.of("--socket-mem", "512"))));
        assertEquals(768, Eal.memoryMegabytes(List.of("--socket-mem=512,256")));
        assertEquals(256, Eal.memoryMegabytes(defaults));
        assertEquals(0, Eal.memoryMegabytes(List.of("-l", "0")));
        assertEquals(0, Eal.memoryMegabytes(List.of("-m", "lots")));
        assertTrue(Eal.asksForHugepages(List.of("-l", "1", "--huge-dir=/mnt/huge")));
        // EAL 22.11 refuses --in-memory beside --no-huge (which implies legacy memory).
        assertFalse(Eal.mergeArgs(defaults, List.of("--in-memory")).contains(Eal.NO_HUGE));
        assertFalse(Eal.asksForHugepages(List.of("-l", "1", "--no-huge")));
        assertFalse(Eal.asksForHugepages(List.of()));
    }

    @Test
    void shouldRefuseTheUsageOptionWhichWouldEndTheProcess()
    {
        for (final String help : new String[] { "-h", "--help" })
        {
            final DpdkException ex = assertThrows(DpdkException.class,
                () -> Eal.init(Eal.mergeArgs(Eal.virtualDeviceArgs("p1", 0, 256, "net_null0"), List.of(help))));
            assertTrue(ex.getMessage().contains("ask for the EAL's usage"), ex.getMessage());
        }
        // Refused before anything started: no EAL was attempted, so this JVM could still start one.
        assertNull(Eal.current());
    }
}
