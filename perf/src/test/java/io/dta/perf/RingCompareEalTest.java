package io.dta.perf;

import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.CReference;
import io.dta.appliance.bench.DpdkBench;
import io.dta.config.ConfigDefaults;
import io.dta.dpdk.DpdkLibrary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code dta bench --io dpdk --input ring --compare-c}: the Java and the C loop both take their reports from the
 * recycled ring, alternately, with the input floor measured on the same ring, through the release's {@code dta.jar}
 * with the C reference loop of the bench module. In a JVM of its own (one EAL per process).
 */
class RingCompareEalTest
{
    @Test
    void shouldCompareWithTheCLoopOnTheRingInput() throws Exception
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary.unavailableReason());
        assumeTrue(CReference.isAvailable(), CReference.unavailableReason());
        final DpdkBench.Comparison c = DpdkBench.compare(BenchPrimitive.APPEND, ConfigDefaults.load(), 1, 16,
            100_000, 300_000, 2, List.of(), 1024, DpdkBench.Input.RING);
        final String ctx = "java " + c.reportsPerSecond() + " C " + c.referenceReportsPerSecond() + " floor " +
            c.ioFloorReportsPerSecond();
        assertTrue(c.reportsPerSecond() > 0 && c.referenceReportsPerSecond() > 0, ctx);
        assertEquals(c.reportsPerSecond() / c.referenceReportsPerSecond(), c.ratio(), 0.01, ctx);
        // The floor is measured on the same ring (how it compares with the loops is the host's business, not a test's).
        assertTrue(c.ioFloorReportsPerSecond() > 0, ctx);
        assertEquals(2, c.javaRounds().length);
        assertEquals(2, c.referenceRounds().length);
        assertEquals(0, c.java().txDropped());
        assertEquals(0, c.referenceTxDropped());
        assertEquals(0, c.java().drops());
        assertEquals(0, c.inputDry(), "the ring never ran dry");
        assertTrue(c.inputLowest() >= 1024 - 32, "lowest fill " + c.inputLowest());
    }
}
