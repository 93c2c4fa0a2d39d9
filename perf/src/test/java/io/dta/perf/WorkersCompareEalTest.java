package io.dta.perf;

import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.CReference;
import io.dta.appliance.bench.DpdkBench;
import io.dta.appliance.bench.WorkersBench;
import io.dta.config.ConfigDefaults;
import io.dta.dpdk.DpdkLibrary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code dta bench --io dpdk --workers 2 --scaling --compare-c}: rounds of the two workers (each report of each
 * worker's ring counted once, nothing handed off for Key-Write, nothing allocated per report), of one worker and of the C
 * reference loop on the two lcores, alternating in one EAL. In a JVM of its own (one EAL per process).
 */
class WorkersCompareEalTest
{
    private static final long REPORTS = 800_000;

    @Test
    void shouldBenchTwoWorkersAgainstOneAndAgainstTheCLoopOnTwoLcores()
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary.unavailableReason());
        assumeTrue(CReference.isAvailable(), CReference.unavailableReason());
        final WorkersBench.Scaling s = DpdkBench.runWorkers(BenchPrimitive.KEYWRITE, ConfigDefaults.load(), 1, 16,
            100_000, REPORTS, List.of(), 1024, 2, 2, true, true);
        final String ctx = s.toString();
        assertEquals(2, s.many().size(), ctx);
        assertEquals(2, s.one().size(), ctx);
        assertEquals(2, s.reference().size(), ctx);
        for (final WorkersBench.Result round : s.many())
        {
            assertEquals(REPORTS / 2, round.reports(), ctx);
            assertEquals(0, round.drops(), ctx);
            assertEquals(2, round.perWorker().size(), ctx);
            for (final WorkersBench.Worker w : round.perWorker())
            {
                assertEquals(REPORTS / 2 / 2, w.reports(), ctx);
                assertEquals(0, w.handedOff(), ctx);
            }
        }
        // Nothing per report (that would be 16 bytes or more); a fresh JVM's compilation can still count a few hundred
        // bytes in rounds this short.
        for (final WorkersBench.Result round : s.many())
        {
            for (final WorkersBench.Worker w : round.perWorker())
            {
                assertTrue(w.allocatedBytesPerReport() < 0.05, ctx);
            }
        }
        for (final WorkersBench.Result round : s.one())
        {
            assertEquals(1, round.workers(), ctx);
            assertEquals(REPORTS / 2, round.reports(), ctx);
        }
        for (final double rate : s.reference())
        {
            assertTrue(rate > 0, ctx);
        }
        assertTrue(s.ratio() > 0 && s.referenceMedian() > 0, ctx);
    }
}
