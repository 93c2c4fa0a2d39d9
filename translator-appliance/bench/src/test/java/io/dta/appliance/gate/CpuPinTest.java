package io.dta.appliance.gate;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CpuPin}: the last CPU of a kernel CPU list, the words put before each side's launcher, and the pinning of a
 * side's command.
 */
class CpuPinTest
{
    @Test
    void shouldTakeTheHighestCpuOfAKernelCpuList()
    {
        assertEquals(0, CpuPin.lastOf("0"));
        assertEquals(1, CpuPin.lastOf("0-1"));
        assertEquals(11, CpuPin.lastOf("0-3,8,10-11"));
        assertEquals(8, CpuPin.lastOf("8,2-5"));
        assertThrows(NumberFormatException.class, () -> CpuPin.lastOf("x"));
    }

    @Test
    void shouldPutTasksetBeforeEachSidesCommandOnlyWhenPinned()
    {
        final BenchSide side = new BenchSide("baseline", List.of("/opt/dta/bin/dta"));
        assertEquals(List.of("taskset", "-c", "3", "/opt/dta/bin/dta"), side.pinned(new CpuPin(3)).command());
        assertEquals(List.of("/opt/dta/bin/dta"), side.pinned(CpuPin.NONE).command());
        assertEquals("none", CpuPin.NONE.describe());
        assertEquals(3, new CpuPin(3).describe());
    }

    @Test
    void shouldPinToACpuThisProcessMayUse()
    {
        final CpuPin pin = CpuPin.lastAllowed();
        if (CpuPin.tasksetAvailable())
        {
            assertTrue(pin.cpu() >= 0 && pin.cpu() < Runtime.getRuntime().availableProcessors() + 64, pin.toString());
        }
        else
        {
            assertEquals(CpuPin.NONE, pin);
        }
    }
}
