package io.dta.appliance.dpdk;

import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.pcap.PcapReader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The DPDK replay's promise, checked the same way by every test of it: the same frames in the same order as the
 * Java replay, the same counters, and the same output file byte for byte (record headers included).
 */
final class ReplayOutputs
{
    private ReplayOutputs()
    {
    }

    /**
     * @param java       the Java replay's engine after its run.
     * @param javaOutput its output capture.
     * @param dpdk       the DPDK replay's engine after its run.
     * @param dpdkOutput its output capture.
     * @param context    what to print with a failure (the seed).
     * @return the frames, for further checks.
     * @throws IOException if a capture cannot be read.
     */
    static List<byte[]> assertSameReplay(
        final TranslatorEngine java,
        final Path javaOutput,
        final TranslatorEngine dpdk,
        final Path dpdkOutput,
        final String context) throws IOException
    {
        final List<byte[]> expected = frames(javaOutput);
        final List<byte[]> actual = frames(dpdkOutput);
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++)
        {
            final int index = i;
            assertArrayEquals(expected.get(i), actual.get(i), () -> "frame " + index + " differs, " + context +
                "\njava " + HexFormat.of().formatHex(expected.get(index)) +
                "\ndpdk " + HexFormat.of().formatHex(actual.get(index)));
        }
        assertEquals(expected.size(), actual.size(), "frame count, " + context);
        for (final EngineCounter counter : EngineCounter.values())
        {
            assertEquals(java.counters().get(counter), dpdk.counters().get(counter), counter + ", " + context);
        }
        // Record headers too: the DPDK output is re-stamped with the engine clock, as the Java replay stamps its own.
        assertEquals(-1L, Files.mismatch(javaOutput, dpdkOutput),
            "the two output captures differ byte for byte (record headers), " + context);
        return expected;
    }

    private static List<byte[]> frames(final Path capture) throws IOException
    {
        final List<byte[]> frames = new ArrayList<>();
        try (PcapReader reader = PcapReader.open(capture))
        {
            while (reader.next())
            {
                final byte[] bytes = new byte[reader.capturedLength()];
                reader.buffer().getBytes(reader.offset(), bytes);
                frames.add(bytes);
            }
        }
        return frames;
    }
}
