package io.dta.appliance.dpdk;

import io.dta.appliance.cli.ChildDta;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.replay.Replay;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.dpdk.DpdkLibrary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code dta replay --io dpdk} in child processes, as an operator runs it. Guards against: a SIGTERM leaving the
 * temporary Ethernet copy of its input (and the output, stamped with the host's clock) beside {@code --out}; an input
 * read from a pipe being empty by the time {@code net_pcap} reads it; {@code --out /dev/stdout} on a pipe that cannot
 * be created; a record damaged in the middle of the input leaving an earlier {@code --out} where {@code --io java}
 * removes it. Each child starts an EAL of its own.
 */
class DpdkReplayStreamsEalTest
{
    private static final long TIMEOUT_SECONDS = 120;

    @TempDir
    Path dir;

    @Test
    void shouldLeaveNothingBesideTheOutputWhenStoppedBySignal() throws Exception
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary::unavailableReason);
        // Linux cooked SLL: replayed through the Ethernet copy, a temporary file next to --out.
        final Path inputs = Files.createDirectory(dir.resolve("in"));
        final Path reports = SllCaptures.write(ConfigDefaults.load(), 41, 200_000, inputs.resolve("reports.pcap"));
        final Path outDir = Files.createDirectory(dir.resolve("out"));
        final Path out = outDir.resolve("roce.pcap");

        // Once while the copy is written, once while the frames are (the output growing).
        final String[] phases = { ".dta-replay-ethernet-", "roce.pcap" };
        for (final String phase : phases)
        {
            final Path stderr = dir.resolve("replay-" + phase + ".err");
            final Process process = ChildDta.start(dir.resolve("replay.out"), stderr, "replay", "--io", "dpdk",
                "--in", reports.toString(), "--out", out.toString());
            final boolean seen = waitFor(process, outDir, phase);
            process.destroy();
            assertTrue(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), "did not stop on SIGTERM");
            final String err = Files.readString(stderr);
            assertTrue(seen, "the run ended before " + phase + " grew (" + process.exitValue() + "): " + err);
            try (Stream<Path> left = Files.list(outDir))
            {
                assertEquals(List.of(), left.toList(), "left beside --out after SIGTERM at " + phase + ": " + err);
            }
            assertTrue(err.contains("dta replay: stopped by a signal"), err);
        }
    }

    @Test
    void shouldReadPipesAndWriteToAPipeAsTheJavaReplayDoes() throws Exception
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary::unavailableReason);
        final ApplianceConfig config = ConfigDefaults.load();
        final Path reports = GeneratedReports.write(dir.resolve("reports.pcap"), config,
            new GeneratorSettings().seed(23).mix("keywrite=50,append=30,keyincrement=20"), 2000);
        final Path javaOut = dir.resolve("java.pcap");
        Replay.run(config, reports, null, javaOut, new ArrayList<>());
        final byte[] expected = Files.readAllBytes(javaOut);

        // --in a pipe (as <(zcat r.pcap.gz)): failed with "no DPDK port named net_pcap0".
        final Path fromPipe = dir.resolve("from-pipe.pcap");
        final Child piped = run(Files.readAllBytes(reports), "replay", "--io", "dpdk", "--in", "/dev/stdin",
            "--out", fromPipe.toString());
        assertEquals(0, piped.exitCode(), piped.err());
        assertArrayEquals(expected, Files.readAllBytes(fromPipe));

        // --out /dev/stdout on a pipe: failed with "cannot write /dev/stdout: /proc/self/fd/pipe:[N]: ...". The
        // summary follows the capture on stdout, as with --io java.
        final Child toPipe = run(new byte[0], "replay", "--io", "dpdk", "--in", reports.toString(),
            "--out", "/dev/stdout");
        assertEquals(0, toPipe.exitCode(), toPipe.err());
        assertTrue(toPipe.out().length > expected.length, toPipe.err());
        assertArrayEquals(expected, Arrays.copyOf(toPipe.out(), expected.length));
        try (Stream<Path> left = Files.list(dir))
        {
            assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith(".dta")).toList());
        }
    }

    @Test
    void shouldRemoveAnEarlierOutputWhenARecordIsDamagedAsTheJavaReplayDoes() throws Exception
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary::unavailableReason);
        final Path good = GeneratedReports.write(dir.resolve("good.pcap"), ConfigDefaults.load(),
            new GeneratorSettings().seed(5).mix("keywrite=1"), 10);
        final byte[] bytes = Files.readAllBytes(good);
        final byte[] damaged = Arrays.copyOf(bytes, bytes.length + 16);
        ByteBuffer.wrap(damaged, bytes.length, 16).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(1).putInt(0).putInt(0x7FFF_FFFF).putInt(0x7FFF_FFFF);
        final Path corrupt = Files.write(dir.resolve("corrupt.pcap"), damaged);

        final List<String> lines = new ArrayList<>();
        for (final String io : new String[] { "java", "dpdk" })
        {
            final Path out = Files.writeString(dir.resolve("earlier.pcap"), "earlier result");
            final Child child = run(new byte[0], "replay", "--io", io, "--in", corrupt.toString(),
                "--out", out.toString());
            assertEquals(1, child.exitCode(), child.err());
            assertFalse(Files.exists(out), io + ": an earlier output stays as if it were the result");
            lines.add(child.err().lines().filter(l -> l.startsWith("dta replay:")).toList().toString());
        }
        assertEquals(lines.get(0), lines.get(1));
        assertTrue(lines.get(1).contains(dir.resolve("earlier.pcap") + " removed"), lines.get(1));
    }

    private static boolean waitFor(final Process process, final Path directory, final String prefix)
        throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (process.isAlive() && System.nanoTime() < deadline)
        {
            try (Stream<Path> files = Files.list(directory))
            {
                final boolean growing = files.anyMatch(p ->
                {
                    try
                    {
                        return p.getFileName().toString().startsWith(prefix) && Files.size(p) > 1_000_000;
                    }
                    catch (final IOException ex)
                    {
                        return false;
                    }
                });
                if (growing)
                {
                    return true;
                }
            }
            Thread.sleep(20);
        }
        return false;
    }

    private record Child(int exitCode, byte[] out, String err)
    {
    }

    private Child run(final byte[] stdin, final String... args) throws Exception
    {
        final Path stderr = Files.createTempFile(dir, "child-", ".err");
        final Process process = new ProcessBuilder(ChildDta.command(args))
            .redirectError(stderr.toFile()).start();
        final Thread feeder = Thread.ofVirtual().start(() ->
        {
            try (OutputStream in = process.getOutputStream())
            {
                in.write(stdin);
            }
            catch (final IOException ex)
            {
                // The child read what it wanted.
            }
        });
        final byte[] out;
        try (InputStream stdout = process.getInputStream())
        {
            out = stdout.readAllBytes();
        }
        assertTrue(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), "dta did not finish");
        feeder.join();
        final String err = Files.readString(stderr);
        Files.delete(stderr);
        return new Child(process.exitValue(), out, err);
    }
}
