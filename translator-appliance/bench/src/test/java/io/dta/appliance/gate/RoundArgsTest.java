package io.dta.appliance.gate;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RoundArgsTest
{
    @Test
    void shouldKeepTheBenchArgumentsAndDropTheGates()
    {
        assertEquals(List.of("--primitive", "keywrite", "--reports", "100", "--io", "dpdk", "--eal", "-l 1"),
            RoundArgs.of(List.of("bench", "--primitive", "keywrite", "--baseline", "/opt/dta-old", "--reports", "100",
                "--max-regression=3", "--json", "--io", "dpdk", "--report", "r.html", "--rounds", "7", "--cpu", "1",
                "--eal", "-l 1")));
    }

    @Test
    void shouldTakeWhatFollowsTheSubcommandOnly()
    {
        assertEquals(List.of("--in", "bench.pcap"),
            RoundArgs.of(List.of("bench", "--in", "bench.pcap", "--baseline=/x", "--report=a.html", "--rounds=3")));
    }
}
