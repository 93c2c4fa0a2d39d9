package io.dta.dpdk;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hugepage check before an EAL start, on sample {@code /proc} contents.
 */
class HugepagesTest
{
    private static final List<String> MEMINFO = List.of(
        "MemTotal:       24621236 kB",
        "HugePages_Total:     200",
        "HugePages_Free:      150",
        "HugePages_Rsvd:        0",
        "Hugepagesize:       2048 kB");

    @Test
    void shouldMultiplyFreePagesByTheirSize()
    {
        assertEquals(300, Hugepages.freeMegabytes(MEMINFO));
        assertEquals(0, Hugepages.freeMegabytes(List.of("MemTotal: 1 kB")));
        assertEquals(0, Hugepages.freeMegabytes(List.of("HugePages_Free: x", "Hugepagesize: 2048 kB")));
    }

    @Test
    void shouldFindAHugetlbfsMount()
    {
        assertTrue(Hugepages.mounted(List.of("proc /proc proc rw 0 0", "nodev /dev/hugepages hugetlbfs rw,relatime 0 0")));
        assertFalse(Hugepages.mounted(List.of("proc /proc proc rw 0 0", "tmpfs /dev/shm tmpfs rw 0 0")));
    }

    @Test
    void shouldSayWhatIsMissingAndHowToProvideIt()
    {
        assertNull(Hugepages.shortfall(256, 300, true));
        final String pages = Hugepages.shortfall(256, 100, true);
        assertTrue(pages.startsWith("256 MB of free hugepages are needed, the host has 100 MB"), pages);
        assertTrue(pages.contains("echo 136 > /proc/sys/vm/nr_hugepages"), pages);
        final String mount = Hugepages.shortfall(256, 300, false);
        assertTrue(mount.startsWith("no hugetlbfs is mounted;"), mount);
        assertTrue(Hugepages.shortfall(256, 0, false).contains("(HugePages_Free in /proc/meminfo) and no hugetlbfs"));
    }
}
