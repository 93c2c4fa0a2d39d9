package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.DtaOpcode;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.KeyHash;
import io.dta.codec.pcap.PcapReader;
import io.dta.collector.layout.PostcardLayout;
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
 * first collector of the configuration). Counters and sketches must be equal byte for byte; Key-Write slots too,
 * except a slot that reports of several reporters wrote (their reports reach different workers, whose QPs' frames the
 * collector executes in an order of its own: the last writer of such a slot may differ, as with several switches
 * writing one store). When the translators ran on one virtual clock, postcard slots and lists are equal byte for byte
 * as well; a live run promises what does not depend on timing: a postcard slot equal unless two flows share it (two
 * owners' records, the last written wins), every list the same entries as a multiset, and each reporter's entries of
 * a list in the order the reporter sent them.
 */
final class CollectorMemory
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ApplianceConfig config;
    private final Path configFile;
    private final Map<Integer, Set<Integer>> keyWriteWriters = new HashMap<>();
    private final Map<Integer, Set<Integer>> postcardFlows = new HashMap<>();
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
        final long postcardSlots = null == collector().postcards() ? 1 :
            collector().postcards().region().length() / PostcardLayout.SLOT_LENGTH;
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
                else if (DtaOpcode.POSTCARD == decoder.dtaOpcode())
                {
                    final long key = decoder.postcard().key();
                    postcardFlows.computeIfAbsent((int)(hash.slotHash(key, 0) & (postcardSlots - 1)),
                        k -> new HashSet<>()).add((int)key);
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
     * @param oneClock       whether both translators ran on one virtual clock (postcards and lists byte for byte)
     *                       or live.
     * @throws Exception when a store cannot be read or queried.
     */
    void assertSame(final Path expected, final Path actual, final String what, final boolean oneClock)
        throws Exception
    {
        assertSame(expected, actual, configFile, what, oneClock);
    }

    /**
     * As {@link #assertSame(Path, Path, String, boolean)}, the second store written under another configuration of
     * the same regions (negotiated where the first's are static: the collector placed them elsewhere).
     *
     * @param expected     a store, written under this comparison's configuration.
     * @param actual       another.
     * @param actualConfig the configuration the other was written under.
     * @param what         what differs between the two runs, for the messages.
     * @param oneClock     whether both translators ran on one virtual clock.
     * @throws Exception when a store cannot be read or queried.
     */
    void assertSame(
        final Path expected, final Path actual, final Path actualConfig, final String what, final boolean oneClock)
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
                assertSlots(Files.readAllBytes(file), Files.readAllBytes(other), collector().keyWrite().slotSize(),
                    keyWriteWriters, what + ": Key-Write");
            }
            else if (!oneClock && name.startsWith("postcards"))
            {
                assertSlots(Files.readAllBytes(file), Files.readAllBytes(other), PostcardLayout.SLOT_LENGTH,
                    postcardFlows, what + ": postcard");
            }
            else if (!oneClock && name.startsWith("list-"))
            {
                continue;
            }
            else
            {
                assertTrue(Arrays.equals(Files.readAllBytes(file), Files.readAllBytes(other)),
                    what + ": " + expected.relativize(file) + " differs");
            }
        }
        if (!oneClock)
        {
            for (final ListConfig list : collector().lists())
            {
                assertSameEntries(list.id(), expected, actual, actualConfig, what);
            }
        }
    }

    /**
     * Slot by slot: a slot that differs must have been written by two writers at least (reporters of a Key-Write slot,
     * flows of a postcard slot), and such slots must stay few.
     */
    private static void assertSlots(
        final byte[] a, final byte[] b, final int slotSize, final Map<Integer, Set<Integer>> writers, final String what)
    {
        int shared = 0;
        for (int slot = 0; slot < a.length / slotSize; slot++)
        {
            if (!Arrays.equals(a, slot * slotSize, (slot + 1) * slotSize, b, slot * slotSize, (slot + 1) * slotSize))
            {
                final Set<Integer> by = writers.getOrDefault(slot, Set.of());
                assertTrue(by.size() >= 2, what + " slot " + slot + " differs, written by " + by);
                shared++;
            }
        }
        assertTrue(shared < a.length / slotSize / 4, what + ": " + shared + " slots differ");
    }

    private void assertSameEntries(
        final long listId, final Path expected, final Path actual, final Path actualConfig, final String what)
        throws Exception
    {
        final List<Long> one = entries(expected, configFile, listId);
        final List<Long> other = entries(actual, actualConfig, listId);
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

    private static List<Long> entries(final Path store, final Path config, final long listId) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("query", "--store", store.toString()));
        if (null != config)
        {
            args.addAll(List.of("--config", config.toString()));
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
