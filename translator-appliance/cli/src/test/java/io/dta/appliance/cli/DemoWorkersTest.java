package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.DtaOpcode;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.KeyHash;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta demo --workers W}: whatever the number of workers, the collector's memory ends the same, with static and
 * with negotiated regions, and every report is counted in exactly once over all workers: counters, list rings,
 * postcard slots and sketches byte for byte; Key-Write slots byte for byte except a slot that reports of several
 * reporters wrote (their reports reach different workers, whose QPs' frames the collector executes in an order of
 * their own: the last writer of such a slot may differ, as with several switches writing one store). The traffic
 * comes from many reporters of every primitive, so reports of lists, flows and sketches cross between workers, and
 * responses reach workers that do not own their QP.
 */
class DemoWorkersTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void shouldLeaveTheSameCollectorMemoryWhateverTheWorkers() throws Exception
    {
        final Path capture = dir.resolve("reports.pcap");
        final CliRunner.Result gen = CliRunner.run("gen", "--out", capture.toString(), "--reports", "12000",
            "--reporters", "64", "--no-progress", "--seed", "7");
        assertEquals(0, gen.exitCode(), gen.err());
        for (final boolean negotiate : new boolean[] { false, true })
        {
            final Path one = demo(capture, 1, negotiate);
            final Map<Integer, Set<Integer>> writers = keyWriteSlotWriters(capture);
            for (final int workers : new int[] { 2, 3, 4 })
            {
                final Path many = demo(capture, workers, negotiate);
                assertSameRegions(one, many, workers + " workers" + (negotiate ? ", negotiated" : ""), writers);
            }
        }
    }

    private Path demo(final Path capture, final int workers, final boolean negotiate) throws IOException
    {
        final Path store = dir.resolve("store-" + workers + (negotiate ? "-negotiated" : ""));
        final String[] args = Stream.concat(Stream.of("demo", "--in", capture.toString(), "--loss", "0", "--workers",
            Integer.toString(workers), "--store", store.toString(), "--json"),
            negotiate ? Stream.of("--negotiate") : Stream.empty()).toArray(String[]::new);
        final CliRunner.Result r = CliRunner.run(args);
        assertEquals(0, r.exitCode(), r.err() + r.out());
        final JsonNode n = JSON.readTree(r.out());
        assertEquals(workers, n.get("workers").asInt());
        assertTrue(n.get("quiescent").asBoolean(), r.out());
        final JsonNode translator = n.get("translator");
        assertEquals(n.get("reports").asLong(), translator.get("reportsIn").asLong(),
            "each report counted in once over all workers");
        assertEquals(translator.get("reportsIn").asLong(), translator.get("reportsTranslated").asLong(),
            "every report translated: " + translator);
        assertEquals(0, translator.get("drops").size(), translator.toString());
        return store;
    }

    /**
     * The reporters (IPv4 sources) that wrote each Key-Write slot of the embedded configuration's store.
     */
    private static Map<Integer, Set<Integer>> keyWriteSlotWriters(final Path capture) throws IOException
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final var keyWrite = config.collectors().get(0).keyWrite();
        final int slots = (int)(keyWrite.region().length() / keyWrite.slotSize());
        final FrameDecoder decoder = TranslatorEngine.configureDecoder(new FrameDecoder(), config);
        final KeyHash hash = new KeyHash();
        final Map<Integer, Set<Integer>> writers = new HashMap<>();
        try (PcapReader reader = PcapReader.open(capture))
        {
            while (reader.next())
            {
                if (FrameKind.DTA == decoder.decode(reader.buffer(), reader.offset(), reader.capturedLength()) &&
                    DtaOpcode.KEY_WRITE == decoder.dtaOpcode())
                {
                    final long key = decoder.keyWrite().key();
                    for (int n = 0; n < decoder.keyWrite().redundancy(); n++)
                    {
                        writers.computeIfAbsent(hash.slotIndex(key, n, slots), k -> new HashSet<>())
                            .add(decoder.ipv4().src());
                    }
                }
            }
        }
        return writers;
    }

    private static void assertSameRegions(
        final Path expected, final Path actual, final String what, final Map<Integer, Set<Integer>> writers)
        throws IOException
    {
        final List<Path> files;
        try (Stream<Path> walk = Files.walk(expected))
        {
            files = walk.filter(p -> p.toString().endsWith(".region")).sorted().toList();
        }
        assertTrue(files.size() >= 5, "regions of every primitive: " + files);
        for (final Path file : files)
        {
            final Path other = actual.resolve(expected.relativize(file));
            final byte[] a = Files.readAllBytes(file);
            final byte[] b = Files.readAllBytes(other);
            if (!file.getFileName().toString().startsWith("keyWrite"))
            {
                assertTrue(Arrays.equals(a, b), what + ": " + expected.relativize(file) + " differs");
                continue;
            }
            final int slotSize = ConfigDefaults.load().collectors().get(0).keyWrite().slotSize();
            int shared = 0;
            for (int slot = 0; slot < a.length / slotSize; slot++)
            {
                if (!Arrays.equals(a, slot * slotSize, (slot + 1) * slotSize, b, slot * slotSize,
                    (slot + 1) * slotSize))
                {
                    final Set<Integer> by = writers.getOrDefault(slot, Set.of());
                    assertTrue(by.size() >= 2, what + ": Key-Write slot " + slot + " differs, written by " + by);
                    shared++;
                }
            }
            assertTrue(shared < a.length / slotSize / 4, what + ": " + shared + " Key-Write slots differ");
        }
    }
}
