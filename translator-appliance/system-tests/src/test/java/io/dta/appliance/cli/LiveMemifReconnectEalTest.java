package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.dpdk.Eal;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.Mbuf;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.Mempool;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The collector restarted under a running translator over {@code net_memif}: guards against a memif client that
 * never reconnects, its {@code tx not taken} climbing until the translator is restarted too.
 * {@code dta collector --port} is the memif server of the collector link and {@code dta run} its client; the
 * reports come from this JVM, a memif client of the translator's reports port with an EAL of its own, so that they
 * are sent when the test wants them. Key-Writes reach the first collector and are answered (its store holds them);
 * it stops (SIGTERM), the translator's link goes down, its restarts fail while no server listens, and reports sent
 * meanwhile are not taken; a second collector, with a store of its own, starts on the same socket; the translator
 * reconnects, and the reports sent after that reach the new collector: its store answers every key with the later
 * values. The translator says so in one line each way and counts it.
 * <p>
 * Nothing is in flight when a process stops: DPDK 22.11's memif unmaps the shared memory on its interrupt thread
 * when the peer goes, while the data-plane thread may still be copying a frame out of it (a collector crashed so,
 * SIGSEGV in {@code librte_net_memif}, when the translator stopped in the middle of a flood of reports).
 */
class LiveMemifReconnectEalTest extends LiveProcessTests
{
    private static final int COLLECTOR_IP = 0x0A000033;
    private static final int KEYS = 16;
    private static final long TIMEOUT_MILLIS = 30_000;
    private static final long RESEND_MILLIS = 200;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LINK = "(collector link): ";

    @Test
    void shouldReconnectTheTranslatorsMemifClientWhenTheCollectorRestarts() throws Exception
    {
        // Static regions (a fresh collector needs no set-up). ACK timeouts short enough that the translator's QPs
        // take up the new collector's PSN within a second (four timeouts, engine.md), long enough for a cold JVM.
        final Path config = dir.resolve("translator.yaml");
        Files.writeString(config, "acks:\n  timeoutMicros: 100000\n" + CollectorEndToEndTest.CONFIG);
        final Path collectorSocket = dir.resolve("collector.sock");
        final Path reportsSocket = dir.resolve("reports.sock");
        final Path translatorCounters = dir.resolve("translator.counters");
        final long pid = ProcessHandle.current().pid();
        final String collectorLink = "net_memif0,socket=" + collectorSocket + ",socket-abstract=no,rsize=13";
        final String reportsLink = "net_memif1,socket=" + reportsSocket + ",socket-abstract=no,rsize=13";

        final Path store1 = dir.resolve("store1");
        final Path collector1Counters = dir.resolve("collector1.counters");
        final Process collector1 = startCollector("collector1", config, store1, collectorLink, collector1Counters,
            prefix("dta-reconnect-col1-" + pid));
        awaitStat(collector1Counters, collector1, n -> true);
        final Process translator = start("translator", "run", "--config", config.toString(),
            "--reports-port", "net_memif1", "--collector-port", "net_memif0",
            "--vdev", collectorLink + ",role=client", "--vdev", reportsLink + ",role=server",
            "-l", "0", "--file-prefix", prefix("dta-reconnect-run-" + pid),
            "--counters", translatorCounters.toString(), "--drain-ms", "500", "--json");
        // The port counters exist once every port is open and started: the reports server takes a client now. The
        // latency counters are made after the links' watchers, so with them every counter of the start is there.
        final JsonNode opened = awaitStat(translatorCounters, translator,
            n -> !counter(n, "(reports): rx packets").isMissingNode() &&
                !counter(n, "report latency p50 (ns)").isMissingNode());
        assertTrue(counter(opened, LINK + "link lost (memif server gone)").isIntegralNumber(),
            "a memif client is watched: " + opened);
        assertTrue(counter(opened, "(reports): link lost (memif server gone)").isMissingNode(),
            "a memif server is not: " + opened);

        final String err;
        final long notTakenWhileDown;
        try (Reporter reporter = new Reporter(reportsLink + ",role=client", prefix("dta-reconnect-rep-" + pid)))
        {
            // Reports flow and are answered.
            reporter.sendUntil(keyWrites(1000), () -> everyKeyFound(config, store1, 1000));
            awaitStat(translatorCounters, translator, n -> counter(n, "acksIn").asLong() > 0);

            collector1.destroy();
            assertTrue(collector1.waitFor(30, TimeUnit.SECONDS), "collector stops on SIGTERM");
            assertEquals(0, collector1.exitValue(), Files.readString(dir.resolve("collector1.err")));
            // The link goes down; restarts are tried and fail (no server); frames for the link are not taken.
            final long notTakenBefore = counter(awaitStat(translatorCounters, translator,
                n -> 1 == counter(n, LINK + "link lost (memif server gone)").asLong() &&
                counter(n, LINK + "reconnect attempts (stop, start)").asLong() >= 3),
                LINK + "tx not taken (ring full, link down)").asLong();
            reporter.send(keyWrites(2000));
            final JsonNode down = awaitStat(translatorCounters, translator,
                n -> counter(n, LINK + "tx not taken (ring full, link down)").asLong() > notTakenBefore);
            assertEquals(0, counter(down, LINK + "reconnections (link up again)").asLong(), down.toString());
            notTakenWhileDown = counter(down, LINK + "tx not taken (ring full, link down)").asLong();

            final Path store2 = dir.resolve("store2");
            final Path collector2Counters = dir.resolve("collector2.counters");
            final Process collector2 = startCollector("collector2", config, store2, collectorLink, collector2Counters,
                prefix("dta-reconnect-col2-" + pid));
            final JsonNode back = awaitStat(translatorCounters, translator,
                n -> 1 == counter(n, LINK + "reconnections (link up again)").asLong());
            assertEquals(1, counter(back, LINK + "link lost (memif server gone)").asLong(), back.toString());
            // The later reports reach the new collector.
            reporter.sendUntil(keyWrites(3000), () -> everyKeyFound(config, store2, 3000));
            assertTrue(counter(stat(collector2Counters), "writePackets").asLong() > 0);
            reporter.awaitQuiet(translatorCounters);

            // The reporter's port closes first (nothing in flight), then the translator, then the collector.
            reporter.close();
            translator.destroy();
            assertTrue(translator.waitFor(30, TimeUnit.SECONDS), "translator stops on SIGTERM");
            err = Files.readString(dir.resolve("translator.err"));
            collector2.destroy();
            assertTrue(collector2.waitFor(30, TimeUnit.SECONDS), "collector stops on SIGTERM");
            assertEquals(0, collector2.exitValue(), Files.readString(dir.resolve("collector2.err")));
        }
        final String out = Files.readString(dir.resolve("translator.out"));
        assertEquals(0, translator.exitValue(), out + err);
        JsonNode link = null;
        for (final JsonNode port : JSON.readTree(out.lines().filter(l -> l.startsWith("{")).findFirst().orElseThrow())
            .get("ports"))
        {
            if ("net_memif0".equals(port.get("name").asText()))
            {
                link = port;
            }
            else
            {
                assertFalse(port.has("reconnections"), out);
            }
        }
        assertTrue(null != link, out);
        assertEquals(1, link.get("linksLost").asLong(), out);
        assertEquals(1, link.get("reconnections").asLong(), out);
        assertTrue(link.get("reconnectAttempts").asLong() >= 3, out);
        assertTrue(link.get("txNotTaken").asLong() >= notTakenWhileDown, out);
        // One line when the link went down, one when it came back; none per attempt, DPDK's own line of a failed
        // connect at most once (later attempts are quiet), and no line per burst on the stopped port.
        assertEquals(1, count(err, LINK + "link down: the memif server went away"), err);
        assertEquals(1, count(err, LINK + "link up again: reconnected to the memif server after "), err);
        assertTrue(count(err, "Failed to connect socket") <= 1, err);
        assertFalse(err.contains("for not ready port"), err);
    }

    private Process startCollector(
        final String name, final Path config, final Path store, final String memif, final Path counters,
        final String prefix) throws Exception
    {
        return start(name, "collector", "--config", config.toString(), "--store", store.toString(), "--port",
            "net_memif0", "--vdev", memif + ",role=server", "-l", "1", "--file-prefix", prefix, "--counters",
            counters.toString(), "--json");
    }

    private JsonNode awaitStat(final Path counters, final Process process, final Predicate<JsonNode> done)
        throws Exception
    {
        return LiveStat.await(counters, process, dir, TIMEOUT_MILLIS, done);
    }

    private static JsonNode stat(final Path counters) throws Exception
    {
        final CliRunner.Result result = CliRunner.run("stat", "--counters", counters.toString(), "--json", "--all");
        assertEquals(0, result.exitCode(), result.err());
        return JSON.readTree(result.out());
    }

    /** The counter whose label ends with {@code suffix} (its JSON key with the suffix's), or a missing node. */
    private static JsonNode counter(final JsonNode sample, final String suffix)
    {
        final String key = StatCommand.jsonKey(0, null, suffix).toLowerCase(Locale.ROOT);
        final Iterator<String> names = sample.get("counters").fieldNames();
        while (names.hasNext())
        {
            final String name = names.next();
            if (name.toLowerCase(Locale.ROOT).endsWith(key))
            {
                return sample.get("counters").get(name);
            }
        }
        return sample.get("counters").path(suffix);
    }

    /** Key k (1..KEYS) written with value base + k, redundancy 1 to 4 in turn. */
    private static List<byte[]> keyWrites(final int base)
    {
        final ReportFrames reports = new ReportFrames(COLLECTOR_IP);
        for (int k = 1; k <= KEYS; k++)
        {
            reports.keyWrite(1 + k % 4, k, base + k);
        }
        final List<byte[]> frames = new ArrayList<>();
        reports.forEach(frames::add);
        return frames;
    }

    /** Every key is in the store with the value of the batch written from {@code base}. */
    private static boolean everyKeyFound(final Path config, final Path store, final int base) throws Exception
    {
        if (!Files.isDirectory(store))
        {
            return false;
        }
        final List<String> args = new ArrayList<>(List.of("query", "--store", store.toString(), "--config",
            config.toString(), "keywrite", "--json"));
        for (int k = 1; k <= KEYS; k++)
        {
            args.add("--key");
            args.add(Integer.toString(k));
        }
        final CliRunner.Result result = CliRunner.run(args.toArray(new String[0]));
        if (0 != result.exitCode())
        {
            return false;
        }
        final String[] lines = result.out().strip().split("\n");
        for (int k = 1; k <= KEYS; k++)
        {
            final JsonNode answer = JSON.readTree(lines[k - 1]);
            if (!answer.get("found").asBoolean() || base + k != answer.get("value").asLong())
            {
                return false;
            }
        }
        return true;
    }

    private static long count(final String text, final String fragment)
    {
        return text.lines().filter(l -> l.contains(fragment)).count();
    }

    /** Something to wait for. */
    private interface Condition
    {
        boolean holds() throws Exception;
    }

    /**
     * This JVM as a reporter: an EAL of its own (one per process; this class runs in a JVM of its own) with a
     * {@code net_memif} client port to the translator's reports port.
     */
    private final class Reporter implements AutoCloseable
    {
        private final Eal eal;
        private final Mempool pool;
        private final EthPort port;
        private final MbufArray burst = new MbufArray(32);
        private final Mbuf mbuf = new Mbuf();
        private final UnsafeBuffer room = new UnsafeBuffer(0, 0);
        private long sent;
        private boolean closed;

        Reporter(final String vdev, final String filePrefix) throws Exception
        {
            eal = Eal.init(Eal.virtualDeviceArgs(filePrefix, 1, 128, vdev));
            pool = Mempool.create("reporter_pool", 1023, 32, Mempool.DEFAULT_DATA_ROOM);
            port = EthPort.open(0, pool, 256, 256, false);
            final long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
            while (!port.linkUp())
            {
                assertTrue(System.currentTimeMillis() < deadline, "the reporter's link to the translator comes up");
                Thread.sleep(10);
            }
        }

        void send(final List<byte[]> frames)
        {
            int n = 0;
            for (final byte[] frame : frames)
            {
                final long m = pool.alloc();
                assertTrue(0 != m, "an mbuf for a report");
                mbuf.wrap(m).wrapRoom(room).putBytes(0, frame);
                mbuf.length(frame.length);
                burst.set(n++, m);
                if (n == burst.capacity())
                {
                    flush(n);
                    n = 0;
                }
            }
            flush(n);
        }

        private void flush(final int n)
        {
            final int taken = port.txBurstOrFree(burst, n);
            assertEquals(n, taken, "the reports ring takes every report");
            sent += taken;
        }

        /** Sends the frames again every {@link #RESEND_MILLIS} until {@code done} (reports may be dropped). */
        void sendUntil(final List<byte[]> frames, final Condition done) throws Exception
        {
            final long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
            while (true)
            {
                send(frames);
                final long next = System.currentTimeMillis() + RESEND_MILLIS;
                while (System.currentTimeMillis() < next)
                {
                    if (done.holds())
                    {
                        return;
                    }
                    Thread.sleep(20);
                }
                assertTrue(System.currentTimeMillis() < deadline, "the reports arrive in time");
            }
        }

        /** Waits until the translator has read every report sent. */
        void awaitQuiet(final Path translatorCounters) throws Exception
        {
            final long expected = sent;
            final long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
            while (counter(stat(translatorCounters), "reportsIn").asLong() < expected)
            {
                assertTrue(System.currentTimeMillis() < deadline, "the translator reads every report sent");
                Thread.sleep(20);
            }
        }

        @Override
        public void close()
        {
            if (!closed)
            {
                closed = true;
                port.close();
                pool.close();
                eal.close();
            }
        }
    }
}
