package io.dta.appliance.dpdk;

import io.dta.appliance.bench.CReference;
import io.dta.appliance.bench.DpdkBench;
import io.dta.appliance.bench.DpdkBenchSession;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.EngineBench;
import io.dta.appliance.cli.ChildDta;
import io.dta.appliance.engine.FrameCollector;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.Icrc;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.dpdk.DpdkLibrary;
import io.dta.dpdk.Eal;
import io.dta.dpdk.EthPort;
import io.dta.dpdk.Hugepages;
import io.dta.dpdk.Mbuf;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.Mempool;
import io.dta.dpdk.Ring;
import io.dta.dpdk.RingFeeder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code dta bench --io dpdk --input ring}. In this JVM's EAL: the ring input ({@link DpdkBench#ringInput}) delivers
 * the bench's reports round after round to the {@code WorkerAgent}, and its frames (collected from a second
 * {@code net_ring} port) are byte for byte those of the engine fed the same reports twice in memory, which is what
 * the {@code net_pcap} input gives too ({@link DpdkReplayEalTest}). In processes of their own (one EAL each): short
 * {@code dta bench} runs with {@code --input ring} for each primitive. {@code --compare-c} on the ring is tested in
 * perf ({@code RingCompareEalTest}), where the C reference loop is built before the tests run.
 */
class DpdkRingBenchEalTest
{
    private static final int REPORTS = 2048;
    private static final long NOW = 5_000_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int IP_OFFSET = 14;
    private static final Icrc ICRC = new Icrc();

    private static Eal eal;
    private static Mempool pool;

    @TempDir
    Path dir;

    @BeforeAll
    static void startEal()
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary.unavailableReason());
        eal = Eal.init(Eal.virtualDeviceArgs(Eal.uniqueFilePrefix("junit-ringbench"), 0, 256));
        pool = Mempool.create("ringbench_pool", 16383, 256, Mempool.DEFAULT_DATA_ROOM);
    }

    @AfterAll
    static void stopEal()
    {
        if (null != eal)
        {
            pool.close();
            eal.close();
        }
    }

    @Test
    void shouldTranslateKeyWritesFromTheRingAsTheEngineDoes()
    {
        shouldTranslateFromTheRingAsTheEngineDoes(BenchPrimitive.KEYWRITE);
    }

    @Test
    void shouldTranslateKeyIncrementsFromTheRingAsTheEngineDoes()
    {
        shouldTranslateFromTheRingAsTheEngineDoes(BenchPrimitive.KEYINCREMENT);
    }

    @Test
    void shouldTranslateAppendsFromTheRingAsTheEngineDoes()
    {
        shouldTranslateFromTheRingAsTheEngineDoes(BenchPrimitive.APPEND);
    }

    @Test
    void shouldTranslatePostcardsFromTheRingAsTheEngineDoes()
    {
        shouldTranslateFromTheRingAsTheEngineDoes(BenchPrimitive.POSTCARD);
    }

    private static void shouldTranslateFromTheRingAsTheEngineDoes(final BenchPrimitive primitive)
    {
        final String name = primitive.name().toLowerCase();
        final EngineBench source = new EngineBench(primitive, ConfigDefaults.load(), 1, 16, 1);
        final ApplianceConfig config = source.config();

        // Expected: the engine in memory, the same reports twice (the ring's second round recycles the mbufs).
        final FrameCollector collector = new FrameCollector();
        final TranslatorEngine reference = new TranslatorEngine(config, collector, false);
        final UnsafeBuffer report = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        reference.poll(NOW);
        for (int round = 0; round < 2; round++)
        {
            for (int i = 0; i < REPORTS; i++)
            {
                reference.onFrame(report, 0, source.copyReport(i, report, 0), NOW);
            }
        }
        reference.flush(NOW);
        final List<byte[]> expected = collector.frames().stream().map(FrameCollector.Frame::bytes).toList();

        final List<byte[]> actual = new ArrayList<>();
        final int inUseBefore = pool.inUseCount();
        try (Mempool reportPool = Mempool.create("rb_" + name, REPORTS, 0, Mempool.DEFAULT_DATA_ROOM);
            RingFeeder feeder = DpdkBenchSession.ringInput("rb_in_" + name, reportPool, source, REPORTS);
            Ring outRing = Ring.create("rb_out_" + name, 1024, Ring.SINGLE_PRODUCER | Ring.SINGLE_CONSUMER))
        {
            final EthPort in = EthPort.open(feeder.portId(), pool, 1024, 1024, false);
            final EthPort out = EthPort.open(outRing.createEthDevice(), pool, 1024, 1024, false);
            final MbufArray drained = new MbufArray(64);
            final TxQueue tx = new TxQueue(out.queue(0), 32);
            try (MbufFrameSink sink = new MbufFrameSink(pool, tx, 32))
            {
                final WorkerAgent agent = WorkerAgent.of(new TranslatorEngine(config, sink, false), in.queue(0), tx,
                    32, () -> NOW);
                while (agent.framesIn() < 2L * REPORTS)
                {
                    agent.doWork();
                    feeder.feed();
                    drain(outRing, drained, actual);
                }
                agent.onClose();
                drain(outRing, drained, actual);
                assertEquals(2L * REPORTS, agent.framesIn(), name);
                assertEquals(0, tx.notTaken(), name);
                assertEquals(0, agent.engine().counters().totalDrops(), name);
            }
            assertEquals(0, feeder.dry(), name);
            assertTrue(feeder.lowest() >= REPORTS - 32, name + ": lowest fill " + feeder.lowest());
            in.close();
            out.close();
        }
        assertEquals(inUseBefore, pool.inUseCount(), name + ": every frame mbuf back in the pool");

        assertTrue(expected.size() >= 2 * REPORTS / 16 - 1, name + ": frames " + expected.size());
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++)
        {
            final int index = i;
            assertArrayEquals(expected.get(i), actual.get(i), () -> name + " frame " + index + " differs" +
                "\n engine " + HexFormat.of().formatHex(expected.get(index)) +
                "\n   ring " + HexFormat.of().formatHex(actual.get(index)));
            final UnsafeBuffer frame = new UnsafeBuffer(actual.get(i));
            final int ipEnd = IP_OFFSET + (frame.getShort(IP_OFFSET + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF);
            assertTrue(ICRC.verify(frame, IP_OFFSET, ipEnd), name + " frame " + i + ": ICRC");
        }
        assertEquals(expected.size(), actual.size(), name + ": frame count");
    }

    private static void drain(final Ring ring, final MbufArray mbufs, final List<byte[]> frames)
    {
        final Mbuf mbuf = new Mbuf();
        final UnsafeBuffer data = new UnsafeBuffer(0, 0);
        int n;
        while ((n = ring.dequeueBurst(mbufs, mbufs.capacity())) > 0)
        {
            for (int i = 0; i < n; i++)
            {
                mbuf.wrap(mbufs.get(i)).wrapData(data);
                final byte[] bytes = new byte[data.capacity()];
                data.getBytes(0, bytes);
                frames.add(bytes);
            }
            Mempool.freeBulk(mbufs, n);
        }
    }

    @Test
    void shouldBenchEveryPrimitiveFromTheRing() throws Exception
    {
        for (final BenchPrimitive primitive : CReference.PRIMITIVES)
        {
            final String name = primitive.name().toLowerCase();
            final JsonNode r = bench(name, "bench", "--io", "dpdk", "--input", "ring", "--primitive", name,
                "--reports", "400000", "--warmup", "100000", "--source-reports", "1000", "--json");
            assertEquals("ring", r.get("input").asText(), name);
            assertEquals("dpdk", r.get("io").asText(), name);
            assertTrue(r.get("reports").asLong() >= 400_000, name + ": " + r);
            assertTrue(r.get("roceFramesOut").asLong() > 0, name + ": " + r);
            if (BenchPrimitive.KEYWRITE == primitive || BenchPrimitive.KEYINCREMENT == primitive)
            {
                // N = 1: one frame per report (held frames may still wait at the end of the window).
                assertTrue(Math.abs(r.get("roceFramesOut").asLong() - r.get("reports").asLong()) < 100, name + ": " + r);
            }
            assertTrue(r.get("reportsPerSecond").asLong() > 0, name + ": " + r);
            assertEquals(0, r.get("txDropped").asLong(), name + ": " + r);
            assertEquals(0, r.get("totalDrops").asLong(), name + ": " + r);
            assertEquals(0, r.get("inputRingDry").asLong(), name + ": " + r);
            assertTrue(r.get("inputRingLowest").asInt() >= 1000 - 32, name + ": " + r);
        }
    }

    @Test
    void shouldBenchOnHugepagesOrSayWhatTheHostLacks() throws Exception
    {
        final String[] args = { "bench", "--io", "dpdk", "--input", "ring", "--primitive", "keywrite", "--hugepages",
            "--reports", "200000", "--warmup", "50000", "--source-reports", "1000", "--json" };
        final String missing = Hugepages.shortfall(DpdkBench.EAL_MEMORY_MB, true);
        final Path stdout = dir.resolve("hugepages.out");
        final Path stderr = dir.resolve("hugepages.err");
        final long freeBefore = freeHugepages();
        final Process process = ChildDta.start(stdout, stderr, args);
        long fewestFree = freeBefore;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!process.waitFor(20, TimeUnit.MILLISECONDS))
        {
            fewestFree = Math.min(fewestFree, freeHugepages());
            if (System.nanoTime() > deadline)
            {
                process.destroyForcibly();
                throw new AssertionError("dta bench --hugepages did not finish in 120 s: " + Files.readString(stderr));
            }
        }
        final String err = Files.readString(stderr);
        if (null == missing)
        {
            assertEquals(0, process.exitValue(), err);
            final String out = Files.readString(stdout).trim();
            final JsonNode r = JSON.readTree(out.substring(out.lastIndexOf('\n') + 1));
            assertTrue(r.get("hugepages").asBoolean(), r.toString());
            assertTrue(r.get("reports").asLong() >= 200_000, r.toString());
            assertEquals(0, r.get("totalDrops").asLong(), r.toString());
            // The EAL really took hugepages while it ran, and gave them back (unlinked) when it ended.
            assertTrue(fewestFree < freeBefore, freeBefore + " free pages before, never fewer while it ran");
            assertEquals(freeBefore, freeHugepages());
            return;
        }
        // Refused before the EAL starts, with what to do: EAL itself would only say "Cannot get hugepage information".
        assertEquals(1, process.exitValue(), err);
        assertTrue(err.contains("dta bench: hugepages: " + missing), err);
        assertTrue(err.contains("as root: "), err);
        assertEquals("", Files.readString(stdout).trim());
    }

    @Test
    void shouldLeaveNoEalRuntimeDirectoryWhenStoppedBySigterm() throws Exception
    {
        final String prefix = "junit-sigterm-" + ProcessHandle.current().pid();
        final List<Path> candidates = Eal.runtimeDirectoryCandidates(prefix);
        final Path stdout = dir.resolve("sigterm.out");
        final Path stderr = dir.resolve("sigterm.err");
        final Process process = ChildDta.start(stdout, stderr, "bench", "--io", "dpdk", "--input", "ring",
            "--primitive", "keywrite", "--reports", "4000000000", "--eal", "--file-prefix=" + prefix);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (candidates.stream().noneMatch(Files::isDirectory))
        {
            assertTrue(process.isAlive(), "dta bench ended before its EAL started: " + Files.readString(stderr));
            assertTrue(System.nanoTime() < deadline, "no EAL runtime directory in 120 s: " + candidates);
            Thread.sleep(20);
        }
        // Past rte_eal_init and into the measuring loop, which a signal interrupts wherever it is.
        Thread.sleep(500);
        process.destroy();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "dta bench did not end on SIGTERM");
        for (final Path candidate : candidates)
        {
            assertTrue(!Files.exists(candidate), candidate + " left behind: " + Files.readString(stderr));
        }
    }

    private static long freeHugepages() throws Exception
    {
        for (final String line : Files.readAllLines(Path.of("/proc/meminfo")))
        {
            if (line.startsWith("HugePages_Free:"))
            {
                return Long.parseLong(line.substring("HugePages_Free:".length()).trim());
            }
        }
        return 0;
    }

    private JsonNode bench(final String name, final String... args) throws Exception
    {
        final Path stdout = dir.resolve(name + ".out");
        final Path stderr = dir.resolve(name + ".err");
        final Process process = ChildDta.start(stdout, stderr, args);
        if (!process.waitFor(120, TimeUnit.SECONDS))
        {
            // Seen once in a full build on a loaded host, never alone: keep what tells where it was.
            final String threads = threadDump(process.pid());
            process.destroyForcibly();
            throw new AssertionError(name + ": dta bench did not finish in 120 s\nstdout: " +
                Files.readString(stdout) + "\nstderr: " + Files.readString(stderr) + "\nthreads:\n" + threads);
        }
        assertEquals(0, process.exitValue(), name + ": " + Files.readString(stderr));
        final String out = Files.readString(stdout).trim();
        return JSON.readTree(out.substring(out.lastIndexOf('\n') + 1));
    }

    private static String threadDump(final long pid)
    {
        final Path jstack = Path.of(ProcessHandle.current().info().command().orElseThrow()).resolveSibling("jstack");
        try
        {
            final Process dump = new ProcessBuilder(jstack.toString(), Long.toString(pid)).redirectErrorStream(true)
                .start();
            final String text = new String(dump.getInputStream().readAllBytes());
            dump.waitFor(30, TimeUnit.SECONDS);
            return text;
        }
        catch (final Exception ex)
        {
            return "no thread dump: " + ex;
        }
    }
}
