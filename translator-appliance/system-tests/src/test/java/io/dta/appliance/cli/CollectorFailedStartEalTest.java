package io.dta.appliance.cli;

import io.dta.codec.pcap.PcapWriter;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live collector whose start fails (a mistyped port name, a bad EAL argument) used to have zero-filled the store's
 * regions already, destroying the previous run's data, and then printed an empty summary on stdout. Now the store is
 * created only once the EAL, pool and port are up: a failed start leaves every file of the store byte for byte as it
 * was, prints nothing on stdout, says why on stderr and exits 1.
 */
class CollectorFailedStartEalTest extends LiveProcessTests
{
    private static final long SEED = 0x5EED_C011L;

    @Test
    void shouldLeaveTheStoreAsItWasAndPrintNoSummaryWhenThePortDoesNotExist() throws Exception
    {
        final Path store = previousRun();
        final Map<String, byte[]> before = contents(store);
        final String prefix = prefix("dta-colfail-port-" + ProcessHandle.current().pid());

        final Path out = dir.resolve("port.out");
        final Path err = dir.resolve("port.err");
        final int code = run(out, err, "collector", "--store", store.toString(), "--port", "net_nul0", "--vdev",
            "net_null0", "-l", "0", "--file-prefix", prefix, "--counters", dir.resolve("c.counters").toString());

        final String stderr = Files.readString(err);
        assertEquals(1, code, stderr);
        assertEquals("", Files.readString(out), "a failed start prints no summary; stderr: " + stderr);
        assertTrue(stderr.contains("net_nul0"), stderr);
        assertSameFiles(before, contents(store), stderr);
    }

    @Test
    void shouldLeaveTheStoreAsItWasWhenTheEalRefusesItsArguments() throws Exception
    {
        final Path store = previousRun();
        final Map<String, byte[]> before = contents(store);

        final Path out = dir.resolve("eal.out");
        final Path err = dir.resolve("eal.err");
        final int code = run(out, err, "collector", "--store", store.toString(), "--port", "0", "--json",
            "--eal", "--bogus", "--counters", dir.resolve("e.counters").toString());

        final String stderr = Files.readString(err);
        assertEquals(1, code, stderr);
        assertEquals("", Files.readString(out), "a failed start prints no summary; stderr: " + stderr);
        assertTrue(stderr.contains("rte_eal_init failed"), stderr);
        assertSameFiles(before, contents(store), stderr);
    }

    /**
     * @return a store as an earlier run left it: created by an offline run, then every region filled with seeded
     * random bytes (what a run's data looks like to a byte comparison).
     */
    private Path previousRun() throws Exception
    {
        final Path store = dir.resolve("store");
        final Path empty = dir.resolve("empty.pcap");
        new PcapWriter(empty, true).close();
        final CliRunner.Result offline = CliRunner.run("collector", "--in", empty.toString(), "--out",
            dir.resolve("responses.pcap").toString(), "--store", store.toString());
        assertEquals(0, offline.exitCode(), offline.err());
        final SplittableRandom random = new SplittableRandom(SEED);
        int regions = 0;
        try (Stream<Path> files = Files.walk(store))
        {
            for (final Path file : files.filter(p -> p.toString().endsWith(".region")).toList())
            {
                final byte[] bytes = new byte[(int)Files.size(file)];
                for (int i = 0; i < bytes.length; i++)
                {
                    bytes[i] = (byte)random.nextInt(1, 256);
                }
                Files.write(file, bytes);
                regions++;
            }
        }
        assertTrue(regions > 0, "the offline run created regions under " + store);
        return store;
    }

    private static Map<String, byte[]> contents(final Path store) throws IOException
    {
        final Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(store))
        {
            for (final Path p : walk.filter(Files::isRegularFile).toList())
            {
                files.put(store.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        return files;
    }

    private static void assertSameFiles(
        final Map<String, byte[]> before, final Map<String, byte[]> after, final String stderr)
    {
        assertEquals(before.keySet(), after.keySet(), stderr);
        for (final Map.Entry<String, byte[]> e : before.entrySet())
        {
            assertArrayEquals(e.getValue(), after.get(e.getKey()),
                () -> e.getKey() + " changed by a failed start (seed " + SEED + "): " + stderr);
        }
        assertTrue(before.values().stream().anyMatch(bytes -> bytes.length > 0 && !Arrays.equals(bytes,
            new byte[bytes.length])), "the previous run's data is not all zeros, so a wipe would show");
    }

    private int run(final Path out, final Path err, final String... args) throws Exception
    {
        final Process process = killedAtEnd(ChildDta.start(out, err, args));
        if (!process.waitFor(60, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError("dta " + String.join(" ", args) + " did not end");
        }
        return process.exitValue();
    }
}
