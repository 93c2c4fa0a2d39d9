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
    private static final List<String> MOUNTED = List.of("proc /proc proc rw 0 0",
        "nodev /dev/hugepages hugetlbfs rw,relatime 0 0");
    private static final List<String> NOT_MOUNTED = List.of("proc /proc proc rw 0 0", "tmpfs /dev/shm tmpfs rw 0 0");

    private static List<String> meminfo(final long total, final long free, final long reserved, final long pageKb)
    {
        return List.of("MemTotal:       24621236 kB", "HugePages_Total:     " + total, "HugePages_Free:      " + free,
            "HugePages_Rsvd:        " + reserved, "Hugepagesize:       " + pageKb + " kB");
    }

    @Test
    void shouldFindAHugetlbfsMount()
    {
        assertTrue(Hugepages.mounted(MOUNTED));
        assertFalse(Hugepages.mounted(NOT_MOUNTED));
    }

    @Test
    void shouldAcceptEnoughFreePagesThatAreNotReserved()
    {
        assertNull(Hugepages.shortfall(256, true, meminfo(200, 150, 0, 2048), MOUNTED));
        assertNull(Hugepages.shortfall(256, false, meminfo(200, 150, 0, 2048), NOT_MOUNTED));
        final String reserved = Hugepages.shortfall(256, true, meminfo(200, 150, 100, 2048), MOUNTED);
        assertTrue(reserved.startsWith("256 MB of free hugepages are needed, the host has 100 MB"), reserved);
    }

    @Test
    void shouldAskForTheTotalThatAddsWhatIsMissingInTheHostsPageSize()
    {
        // 1024 pages reserved, 10 free: raise the total by the 118 missing 2 MB pages, never lower it.
        final String twoMb = Hugepages.shortfall(256, true, meminfo(1024, 10, 0, 2048), MOUNTED);
        assertTrue(twoMb.contains("pages of 2048 kB); as root: echo 1142 > /proc/sys/vm/nr_hugepages"), twoMb);
        assertFalse(twoMb.contains("hugetlbfs"), twoMb);
        final String oneGb = Hugepages.shortfall(256, true, meminfo(0, 0, 0, 1048576), MOUNTED);
        assertTrue(oneGb.contains("echo 1 > /proc/sys/vm/nr_hugepages"), oneGb);
    }

    @Test
    void shouldSayOnlyWhatIsMissing()
    {
        final String mount = Hugepages.shortfall(256, true, meminfo(200, 200, 0, 2048), NOT_MOUNTED);
        assertEquals("no hugetlbfs is mounted; as root: mkdir -p /dev/hugepages && mount -t hugetlbfs nodev " +
            "/dev/hugepages", mount);
        final String both = Hugepages.shortfall(256, true, List.of(), NOT_MOUNTED);
        assertTrue(both.startsWith("256 MB of free hugepages are needed, the host has 0 MB"), both);
        assertTrue(both.contains("echo 128 > /proc/sys/vm/nr_hugepages; and no hugetlbfs is mounted"), both);
    }

    @Test
    void shouldCheckWhatAnEalArgumentListAsksFor()
    {
        final List<String> none = meminfo(0, 0, 0, 2048);
        assertNull(Hugepages.shortfallFor(Eal.mergeArgs(Eal.virtualDeviceArgs("p", 0, 256), List.of()), none,
            NOT_MOUNTED), "--no-huge needs no hugepages");
        final List<String> unlinked = Eal.mergeArgs(Eal.virtualDeviceArgs("p", 0, 256), List.of("--huge-unlink"));
        final String missing = Hugepages.shortfallFor(unlinked, none, NOT_MOUNTED);
        assertTrue(missing.startsWith("256 MB of free hugepages are needed, the host has 0 MB"), missing);
        assertTrue(missing.contains("mount -t hugetlbfs"), missing);
        assertNull(Hugepages.shortfallFor(unlinked, meminfo(128, 128, 0, 2048), MOUNTED));
        assertNull(Hugepages.shortfallFor(Eal.mergeArgs(Eal.virtualDeviceArgs("p", 0, 256),
            List.of("--huge-dir", "/mnt/huge-1G")), none, NOT_MOUNTED), "a mount of another page size: EAL decides");
        final String inMemory = Hugepages.shortfallFor(
            Eal.mergeArgs(Eal.virtualDeviceArgs("p", 0, 256), List.of("--in-memory", "--socket-mem", "512")),
            meminfo(128, 128, 0, 2048), NOT_MOUNTED);
        assertEquals("512 MB of free hugepages are needed, the host has 256 MB (HugePages_Free less HugePages_Rsvd " +
            "in /proc/meminfo, pages of 2048 kB); as root: echo 256 > /proc/sys/vm/nr_hugepages", inMemory);
    }

    @Test
    void shouldNeedAtLeastOneFreePageWhenTheArgumentsGiveNoSize()
    {
        final List<String> unsized = List.of("-l", "0", "--vdev=net_null0");
        assertNull(Hugepages.shortfallFor(unsized, meminfo(16, 1, 0, 2048), MOUNTED));
        final String none = Hugepages.shortfallFor(unsized, meminfo(16, 4, 4, 2048), MOUNTED);
        assertEquals("no free hugepages (HugePages_Free less HugePages_Rsvd in /proc/meminfo, pages of 2048 kB); " +
            "for 256 MB, as root: echo 144 > /proc/sys/vm/nr_hugepages", none);
    }
}
