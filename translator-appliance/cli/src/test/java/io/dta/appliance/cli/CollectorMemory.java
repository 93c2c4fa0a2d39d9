package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.DtaOpcode;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.KeyHash;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ListConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compares two soft-collector stores written from one capture by translators with different numbers of workers (the
 * first collector of the configuration). Counters, postcard slots and sketches must be equal byte for byte; Key-Write
 * slots too, except a slot that reports of several reporters wrote (their reports reach different workers, whose
 * QPs' frames the collector executes in an order of its own: the last writer of such a slot may differ, as with
 * several switches writing one store). Lists are compared byte for byte when the translators ran on one virtual
 * clock, and otherwise as what a live run can promise: every list holds the same entries as a multiset, and each
 * reporter's entries of a list in the order the reporter sent them.
 */
final class CollectorMemory
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ApplianceConfig config;
    private final Path configFile;
    private final Map<Integer, Set<Integer>> keyWriteWriters = new HashMap<>();
    private final Map<Long, Map<Integer, List<Long>>> appendsByListAndReporter = new HashMap<>();

    /**
     * @param config     the configuration both translators and collectors ran.
     * @param configFile its file (for {@code dta query}), or null for the embedded one.
     * @param capture    the reports both translators read.
     * @throws IOException when the capture cannot be read.
     */
    CollectorMemory(final ApplianceConfig config, final Path configFile, final Path capture) throws IOException
    {
        this.config = config;
        this.configFile = configFile;
        final var keyWrite = collector().keyWrite();
        final int slots = (int)(keyWrite.region().length() / keyWrite.slotSize());
        final FrameDecoder decoder = TranslatorEngine.configureDecoder(new FrameDecoder(), config);
        final KeyHash hash = new KeyHash();
        try (PcapReader reader = PcapReader.open(capture))
        {
            while (reader.next())
            {
                if (FrameKind.DTA != decoder.decode(reader.buffer(), reader.offset(), reader.capturedLength()))
                {
                    continue;
                }
                final int reporter = decoder.ipv4().src();
                if (DtaOpcode.KEY_WRITE == decoder.dtaOpcode())
                {
                    final long key = decoder.keyWrite().key();
                    for (int n = 0; n < decoder.keyWrite().redundancy(); n++)
                    {
                        keyWriteWriters.computeIfAbsent(hash.slotIndex(key, n, slots), k -> new HashSet<>())
                            .add(reporter);
                    }
                }
                else if (DtaOpcode.APPEND == decoder.dtaOpcode())
                {
                    appendsByListAndReporter.computeIfAbsent(decoder.append().listId(), k -> new HashMap<>())
                        .computeIfAbsent(reporter, k -> new ArrayList<>()).add(decoder.append().data());
                }
            }
        }
    }

    private CollectorConfig collector()
    {
        return config.collectors().get(0);
    }

    /**
     * @param expected       a store.
     * @param actual         another.
     * @param what           what differs between the two runs, for the messages.
     * @param listsByteExact whether lists must be equal byte for byte (one virtual clock) or as entries (live).
     * @throws Exception when a store cannot be read or queried.
     */
    void assertSame(final Path expected, final Path actual, final String what, final boolean listsByteExact)
        throws Exception
    {
        final List<Path> files;
        try (Stream<Path> walk = Files.walk(expected))
        {
            files = walk.filter(p -> p.toString().endsWith(".region")).sorted().toList();
        }
        assertTrue(files.size() >= 5, "regions of every primitive: " + files);
        for (final Path file : files)
        {
            final String name = file.getFileName().toString();
            final Path other = actual.resolve(expected.relativize(file));
            if (name.startsWith("keyWrite"))
            {
                assertKeyWriteSlots(Files.readAllBytes(file), Files.readAllBytes(other), what);
            }
            else if (!listsByteExact && name.startsWith("list-"))
            {
                continue;
            }
            else
            {
                assertTrue(Arrays.equals(Files.readAllBytes(file), Files.readAllBytes(other)),
                    what + ": " + expected.relativize(file) + " differs");
            }
        }
        if (!listsByteExact)
        {
            for (final ListConfig list : collector().lists())
            {
                assertSameEntries(list.id(), expected, actual, what);
            }
        }
    }

    private void assertKeyWriteSlots(final byte[] a, final byte[] b, final String what)
    {
        final int slotSize = collector().keyWrite().slotSize();
        int shared = 0;
        for (int slot = 0; slot < a.length / slotSize; slot++)
        {
            if (!Arrays.equals(a, slot * slotSize, (slot + 1) * slotSize, b, slot * slotSize, (slot + 1) * slotSize))
            {
                final Set<Integer> by = keyWriteWriters.getOrDefault(slot, Set.of());
                assertTrue(by.size() >= 2, what + ": Key-Write slot " + slot + " differs, written by " + by);
                shared++;
            }
        }
        assertTrue(shared < a.length / slotSize / 4, what + ": " + shared + " Key-Write slots differ");
    }

    private void assertSameEntries(final long listId, final Path expected, final Path actual, final String what)
        throws Exception
    {
        final List<Long> one = entries(expected, listId);
        final List<Long> other = entries(actual, listId);
        final List<Long> sortedOne = new ArrayList<>(one);
        final List<Long> sortedOther = new ArrayList<>(other);
        sortedOne.sort(null);
        sortedOther.sort(null);
        assertEquals(sortedOne, sortedOther, what + ": list " + listId + " holds other entries");
        final Map<Integer, List<Long>> byReporter = appendsByListAndReporter.getOrDefault(listId, Map.of());
        assertEquals(byReporter.values().stream().mapToInt(List::size).sum(), other.size(),
            what + ": list " + listId + " holds every entry sent to it (it must not wrap in this comparison)");
        for (final Map.Entry<Integer, List<Long>> reporter : byReporter.entrySet())
        {
            assertTrue(isSubsequence(reporter.getValue(), other), what + ": list " + listId + " reorders reporter " +
                Integer.toUnsignedString(reporter.getKey(), 16) + "'s entries");
        }
    }

    private static boolean isSubsequence(final List<Long> wanted, final List<Long> in)
    {
        int next = 0;
        for (int i = 0; i < in.size() && next < wanted.size(); i++)
        {
            if (in.get(i).equals(wanted.get(next)))
            {
                next++;
            }
        }
        return next == wanted.size();
    }

    private List<Long> entries(final Path store, final long listId) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("query", "--store", store.toString()));
        if (null != configFile)
        {
            args.addAll(List.of("--config", configFile.toString()));
        }
        args.addAll(List.of("list", "--id", Long.toString(listId), "--json"));
        final CliRunner.Result result = CliRunner.run(args.toArray(new String[0]));
        assertEquals(0, result.exitCode(), result.err());
        final JsonNode node = JSON.readTree(result.out());
        final List<Long> entries = new ArrayList<>();
        for (final JsonNode entry : node.get("entries"))
        {
            entries.add(entry.asLong());
        }
        return entries;
    }
}
