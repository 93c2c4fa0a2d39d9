package io.dta.appliance.bench;

import io.dta.appliance.bench.BenchCaptures;
import io.dta.appliance.bench.BenchInput;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The EAL memory {@code dta bench --io dpdk --in} asks for ({@link DpdkBench#memoryMegabytes}): about twice the mbufs
 * on {@code --no-huge}'s 4 KB pages, the mbufs and an eighth on hugepages; no EAL is started.
 */
class DpdkBenchMemoryTest
{
    @TempDir
    Path dir;

    @Test
    void shouldAskForAboutHalfTheMemoryOnHugepages() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final Path capture = dir.resolve("mixed.pcap");
        BenchCaptures.write(capture, config, BenchCaptures.mixed(7), 50_000);
        final BenchInput frames = BenchInput.capture(capture, config.translator().mac());
        final int sourceFrames = BenchMemory.sourceFrames(frames);
        for (final DpdkBench.Input input : DpdkBench.Input.values())
        {
            final long small = BenchMemory.memoryMegabytes(frames, config, sourceFrames, input, false) - 64;
            final long huge = BenchMemory.memoryMegabytes(frames, config, sourceFrames, input, true) - 64;
            // (1 + 1/8) / 2 of the mbufs, give or take the rounding up to a megabyte.
            assertEquals(9.0 / 16, (double)huge / small, 0.01, input + ": " + huge + " MB against " + small + " MB");
            // Never below the mbufs themselves: (data room + 256) bytes each, data room at least 2176 bytes.
            assertTrue(huge >= (16383L + sourceFrames) * (2176 + 256) >> 20, input + ": " + huge + " MB");
        }
    }

    @Test
    void shouldTellHugepagesFromTheEalArguments()
    {
        assertFalse(BenchMemory.onHugepages(List.of()));
        assertFalse(BenchMemory.onHugepages(List.of("-m", "512")));
        assertTrue(BenchMemory.onHugepages(List.of("--huge-unlink")), "what --hugepages adds");
        assertTrue(BenchMemory.onHugepages(List.of("--socket-mem", "512")));
    }
}
