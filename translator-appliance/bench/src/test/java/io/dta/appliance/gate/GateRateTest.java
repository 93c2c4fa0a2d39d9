package io.dta.appliance.gate;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class GateRateTest
{
    private static final Map<String, Object> JAVA_ROUND =
        Map.of("reportsPerSecond", 100, "reportsPerCpuSecond", 400, "framesPerSecond", 100);
    private static final Map<String, Object> DPDK_ROUND = Map.of("reportsPerSecond", 200, "framesPerSecond", 250);
    private static final Map<String, Object> NO_REPORTS = Map.of("reportsPerSecond", 0, "reportsPerCpuSecond", 0,
        "framesPerSecond", 70);

    @Test
    void shouldCompareCpuRatesOnlyWhenEveryRoundOfBothSidesHasOne()
    {
        assertEquals(GateRate.CPU, GateRate.choose(List.of(JAVA_ROUND, JAVA_ROUND), List.of(JAVA_ROUND)));
        assertEquals(GateRate.WALL, GateRate.choose(List.of(JAVA_ROUND), List.of(JAVA_ROUND, DPDK_ROUND)));
        assertEquals(GateRate.WALL, GateRate.choose(List.of(NO_REPORTS), List.of(NO_REPORTS)));
    }

    @Test
    void shouldReadTheChosenRateAndFramesWhenNoReportWasCounted()
    {
        assertArrayEquals(new double[] { 400 }, GateRate.CPU.of(List.of(JAVA_ROUND)));
        assertArrayEquals(new double[] { 100, 200, 70 }, GateRate.WALL.of(List.of(JAVA_ROUND, DPDK_ROUND, NO_REPORTS)));
    }
}
