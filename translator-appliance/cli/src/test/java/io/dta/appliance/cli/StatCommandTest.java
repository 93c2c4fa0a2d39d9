package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.SendOutcome;
import io.dta.appliance.engine.TestFrames;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.stat.CountersFile;
import io.dta.appliance.stat.CountersFileReader;
import io.dta.appliance.stat.PidNamespace;
import io.dta.config.ConfigDefaults;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatCommandTest
{
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void shouldShowLiveEngineCountersFromTheSharedFileAndTheirFinalValuesAfterClose() throws Exception
    {
        final Path path = dir.resolve("translator.counters");
        final CountersFile file = CountersFile.create(path, "translator", EngineCounters.count(), System.currentTimeMillis());
        final EngineCounters counters = new EngineCounters(file.manager());
        final TranslatorEngine engine = new TranslatorEngine(ConfigDefaults.load(), new DiscardSink(), false, counters);

        final int reports = 37;
        for (int i = 0; i < reports; i++)
        {
            final byte[] frame = TestFrames.report(0x01, TestFrames.keyWrite(1, i, new byte[] {1, 2, 3, 4}));
            engine.onFrame(new UnsafeBuffer(frame), 0, frame.length, 1_000_000L * (i + 1));
        }
        final byte[] junk = TestFrames.report(0x09, new byte[8]);
        engine.onFrame(new UnsafeBuffer(junk), 0, junk.length, 100_000_000L);

        // Updates stay on the engine thread until published (the live agent publishes with its stats tick).
        final JsonNode unpublished =
            MAPPER.readTree(CliRunner.run("stat", "--counters", path.toString(), "--json").out());
        assertEquals(0, unpublished.get("counters").get("reportsIn").asLong());
        assertEquals(reports + 1, counters.get(EngineCounter.REPORTS_IN), "exact on the engine thread");
        counters.publish();
        counters.publish();

        final CliRunner.Result live = CliRunner.run("stat", "--counters", path.toString(), "--json");
        assertEquals(0, live.exitCode(), live.err());
        final JsonNode running = MAPPER.readTree(live.out());
        assertEquals("translator", running.get("role").asText());
        assertEquals(ProcessHandle.current().pid(), running.get("pid").asLong());
        assertEquals("running", running.get("status").asText());
        assertEquals(reports + 1, running.get("counters").get("reportsIn").asLong());
        assertEquals(1, running.get("counters").get("dropUnknownOpcode").asLong());
        assertEquals(counters.get(EngineCounter.ROCE_FRAMES_OUT),
            running.get("counters").get("roceFramesOut").asLong());

        final CliRunner.Result table = CliRunner.run("stat", "--counters", path.toString());
        assertTrue(table.out().contains(EngineCounter.DROP_UNKNOWN_OPCODE.description()), table.out());
        assertFalse(table.out().contains(EngineCounter.DROP_BAD_HOP.description()), "zero counters hidden by default");
        assertTrue(CliRunner.run("stat", "--counters", path.toString(), "--all").out()
            .contains(EngineCounter.DROP_BAD_HOP.description()));

        file.close();
        final JsonNode exited = MAPPER.readTree(CliRunner.run("stat", "--counters", path.toString(), "--json").out());
        assertEquals("exited", exited.get("status").asText(), "one word a script can compare: " + exited);
        assertTrue(exited.has("exitedAt"), exited.toString());
        assertEquals(reports + 1, exited.get("counters").get("reportsIn").asLong());
        assertTrue(CliRunner.run("stat", "--counters", path.toString()).out().contains("exited at "),
            "the table says when");
    }

    /**
     * A watch must not go on for ever once its process has ended, repeating the final values (a restarted process
     * writes a new file that the old mapping never shows): it ends after the first sample that finds the writer gone.
     */
    /**
     * {@code --json} keys are camelCase (docs/naming.md): an engine counter by its name, as {@code dta replay --json}
     * spells it, whatever its label; any other counter by its label's words.
     */
    @Test
    void shouldKeyEveryCounterInCamelCase()
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[8]);
        key.putInt(0, EngineCounter.REPORTS_IN.ordinal());
        assertEquals("reportsIn", StatCommand.jsonKey(EngineCounters.TYPE_ID, key, "DTA reports in"));
        key.putInt(0, EngineCounter.DROP_GRACE_PERIOD.ordinal());
        assertEquals("dropGracePeriod", StatCommand.jsonKey(EngineCounters.TYPE_ID, key, "anything"));
        assertEquals("framesIn", StatCommand.jsonKey(0, key, "frames-in"));
        assertEquals("connectionReconnectsExhausted", StatCommand.jsonKey(0, key, "connection reconnects-exhausted"));
        assertEquals("port0NetPcap0ReportsRxMissedRxRingFull",
            StatCommand.jsonKey(0, key, "port 0 net_pcap0 (reports): rx missed (rx ring full)"));
        assertEquals("arpRequestsAnswered", StatCommand.jsonKey(0, key, "ARP requests answered"));
    }

    @Test
    void shouldEndAWatchOnceTheProcessHasEnded() throws Exception
    {
        final Path path = dir.resolve("ended.counters");
        final CountersFile file = CountersFile.create(path, "translator", EngineCounters.count(), 1L);
        new EngineCounters(file.manager()).publish();
        file.close();
        final CliRunner.Result r = CliRunner.run(
            "stat", "--counters", path.toString(), "--json", "--watch", "--interval", "20", "--samples", "50");
        assertEquals(0, r.exitCode(), r.err());
        final String[] lines = r.out().strip().split("\n");
        assertEquals(1, lines.length, r.out());
        assertEquals("exited", MAPPER.readTree(lines[0]).get("status").asText());
        assertTrue(r.err().contains("has ended: watch over"), r.err());
    }

    /**
     * A SIGKILLed writer leaves a fresh heartbeat, which must not show {@code running} for 5 s after its pid is gone. A writer
     * of this PID namespace whose pid is gone has ended at once; one of another namespace (a container sharing
     * {@code /dev/shm}, its pid invisible here) is trusted while its heartbeat is fresh.
     */
    @Test
    void shouldSeeAKilledWriterOfThisPidNamespaceEndedAtOnce() throws Exception
    {
        assertNotEquals(PidNamespace.UNKNOWN, PidNamespace.current(), "this host has /proc/self/ns/pid");
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        final Path path = dir.resolve("killed.counters");
        try (CountersFile file = CountersFile.create(path, "translator", EngineCounters.count(), 1L))
        {
            new EngineCounters(file.manager()).publish();
            final UnsafeBuffer header;
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                header = new UnsafeBuffer(channel.map(FileChannel.MapMode.READ_WRITE, 0, CountersFile.HEADER_LENGTH));
            }
            header.putLong(CountersFile.PID_OFFSET, gone.pid(), ByteOrder.LITTLE_ENDIAN);
            file.heartbeat(System.currentTimeMillis() + 60_000L); // fresh for the whole test
            assertEquals("ended", status(path));

            header.putInt(CountersFile.PID_NAMESPACE_OFFSET, PidNamespace.current() + 1, ByteOrder.LITTLE_ENDIAN);
            assertEquals("running", status(path), "another namespace's pid proves nothing here");
            header.putInt(CountersFile.PID_NAMESPACE_OFFSET, PidNamespace.UNKNOWN, ByteOrder.LITTLE_ENDIAN);
            assertEquals("running", status(path), "a file of an earlier version: the heartbeat decides");
        }
    }

    private static String status(final Path path) throws Exception
    {
        final CliRunner.Result r = CliRunner.run("stat", "--counters", path.toString(), "--json");
        assertEquals(0, r.exitCode(), r.err());
        return MAPPER.readTree(r.out()).get("status").asText();
    }

    @Test
    void shouldWatchWithRatesForTheRequestedNumberOfSamples() throws Exception
    {
        final Path path = dir.resolve("w.counters");
        try (CountersFile file = CountersFile.create(path, "translator", EngineCounters.count(), 1L))
        {
            final EngineCounters counters = new EngineCounters(file.manager());
            counters.add(EngineCounter.FRAMES_IN, 5);
            counters.publish();
            final CliRunner.Result r = CliRunner.run(
                "stat", "--counters", path.toString(), "--json", "--watch", "--interval", "20", "--samples", "3");
            assertEquals(0, r.exitCode(), r.err());
            final String[] lines = r.out().strip().split("\n");
            assertEquals(3, lines.length, r.out());
            assertFalse(MAPPER.readTree(lines[0]).has("ratesPerSecond"));
            assertEquals(0, MAPPER.readTree(lines[2]).get("ratesPerSecond")
                .get("framesIn").asLong());
        }
    }

    @Test
    void shouldRefuseASecondLiveWriterAndExplainMissingOrForeignFiles() throws Exception
    {
        final Path path = dir.resolve("x.counters");
        try (CountersFile ignored = CountersFile.create(path, "collector", 4, 1L))
        {
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> CountersFile.create(path, "translator", 4, 2L));
            assertTrue(ex.getMessage().contains("belongs to a running collector"), ex.getMessage());
        }
        CountersFile.create(path, "translator", 4, 3L).close();
        try (CountersFileReader reader = CountersFileReader.open(path))
        {
            assertEquals("translator", reader.role());
            assertFalse(reader.isWriterAlive());
        }

        final CliRunner.Result missing = CliRunner.run("stat", "--counters", dir.resolve("none").toString());
        assertEquals(1, missing.exitCode());
        assertTrue(missing.err().contains("no counters file"), missing.err());

        final Path foreign = Files.write(dir.resolve("foreign"), new byte[512]);
        final CliRunner.Result bad = CliRunner.run("stat", "--counters", foreign.toString());
        assertEquals(1, bad.exitCode());
        assertTrue(bad.err().contains("not a dta counters file"), bad.err());
    }

    private static final class DiscardSink implements FrameSink
    {
        private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);

        @Override
        public MutableDirectBuffer buffer()
        {
            return buffer;
        }

        @Override
        public int claim(final int maxLength)
        {
            return 0;
        }

        @Override
        public SendOutcome commit(
            final int offset, final int length, final long timeNanos, final OutFrameKind kind, final int reports)
        {
            return SendOutcome.SENT;
        }
    }

    @Test
    void shouldRefuseTheOptionsOfWatchWithoutItAndNoSamples() throws Exception
    {
        final Path path = dir.resolve("o.counters");
        try (CountersFile ignored = CountersFile.create(path, "translator", EngineCounters.count(), 1L))
        {
            for (final String[] args : new String[][] {
                { "--samples", "3" }, { "--interval", "50" }, { "--watch", "--samples", "0" },
                { "--watch", "--samples", "-1" } })
            {
                final List<String> line = new ArrayList<>(List.of("stat", "--counters", path.toString()));
                line.addAll(List.of(args));
                final CliRunner.Result r = CliRunner.run(line.toArray(String[]::new));
                assertEquals(2, r.exitCode(), String.join(" ", args) + ": " + r.err());
                assertTrue(r.err().startsWith(args[0].equals("--watch") ?
                    "dta stat: --samples must be at least 1" : "dta stat: " + args[0] + " needs --watch"), r.err());
                assertEquals("", r.out());
            }
        }
    }

    @Test
    void shouldRefuseAnUnknownRole()
    {
        final CliRunner.Result r = CliRunner.run("stat", "--role", "foo");
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().startsWith("dta stat: --role must be translator or collector"), r.err());
    }
}
