package io.dta.appliance.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every command that writes files, stopped by SIGTERM or SIGINT, behaves alike: one line on stderr, what it had
 * started writing removed, what it had not touched left as it was. Each child is signalled only once it is known to be
 * writing: its output exists, or it has opened the FIFO it reads.
 */
class StopSignalTest
{
    private static final long TIMEOUT_SECONDS = 60;
    /** A classic little-endian microsecond pcap header, Ethernet, snap length 65535. */
    private static final byte[] PCAP_HEADER = {
        (byte)0xD4, (byte)0xC3, (byte)0xB2, (byte)0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        (byte)0xFF, (byte)0xFF, 0, 0, 1, 0, 0, 0 };

    @TempDir
    Path dir;

    @Test
    void genShouldRemoveTheCaptureItStartedAndLeaveTheTruthFileItHadNotWritten() throws Exception
    {
        final Path out = dir.resolve("reports.pcap");
        final Path truth = dir.resolve("truth.json");
        Files.writeString(out, "an earlier capture");
        Files.writeString(truth, "an earlier truth file");
        final Path stderr = dir.resolve("gen.err");
        final Process process = ChildDta.start(dir.resolve("gen.out"), stderr, "gen", "--out", out.toString(),
            "--truth", truth.toString(), "--reports", "1000000000", "--no-progress");
        try
        {
            waitUntil(process, () -> size(out) > 100_000);
            signal(process, "TERM");
        }
        finally
        {
            process.destroyForcibly();
        }
        assertEquals(143, process.exitValue(), Files.readString(stderr));
        assertEquals("dta gen: stopped by a signal; " + out + " removed" + System.lineSeparator(),
            Files.readString(stderr));
        assertFalse(Files.exists(out));
        assertEquals("an earlier truth file", Files.readString(truth));
    }

    @Test
    void collectorShouldRemoveTheResponsesItStarted() throws Exception
    {
        final Path fifo = fifo("roce.pcap");
        final Path responses = dir.resolve("responses.pcap");
        final Path stderr = dir.resolve("collector.err");
        final Process process = ChildDta.start(dir.resolve("collector.out"), stderr, "collector", "--in",
            fifo.toString(), "--out", responses.toString(), "--store", dir.resolve("store").toString());
        try (OutputStream writer = Files.newOutputStream(fifo))
        {
            writer.write(PCAP_HEADER);
            // More than the reader's buffer, which it fills before it parses the header: the collector then runs,
            // waiting for the rest of its capture.
            final byte[] record = new byte[16 + 60];
            record[8] = 60;
            record[12] = 60;
            for (int i = 0; i < 70_000; i++)
            {
                writer.write(record);
            }
            writer.flush();
            waitUntil(process, () -> Files.exists(responses));
            signal(process, "INT");
        }
        finally
        {
            process.destroyForcibly();
        }
        assertEquals(130, process.exitValue(), Files.readString(stderr));
        assertEquals("dta collector: stopped by a signal; " + responses + " removed" + System.lineSeparator(),
            Files.readString(stderr));
        assertFalse(Files.exists(responses));
    }

    @Test
    void demoShouldRemoveItsTemporaryStore() throws Exception
    {
        final Path tmp = Files.createDirectory(dir.resolve("tmp"));
        final Path fifo = fifo("reports.pcap");
        final Path stderr = dir.resolve("demo.err");
        final Process process = ChildDta.start(List.of("-Djava.io.tmpdir=" + tmp), dir.resolve("demo.out"), stderr,
            "demo", "--in", fifo.toString());
        try (OutputStream writer = Files.newOutputStream(fifo))
        {
            // Open: the demo has made its store and reads its capture.
            assertEquals(1, entries(tmp), "the demo's temporary store");
            writer.write(PCAP_HEADER);
            writer.flush();
            signal(process, "TERM");
        }
        finally
        {
            process.destroyForcibly();
        }
        assertEquals(143, process.exitValue(), Files.readString(stderr));
        assertEquals("dta demo: stopped by a signal" + System.lineSeparator(), Files.readString(stderr));
        assertEquals(0, entries(tmp), "left in the temporary directory");
    }

    @Test
    void decodeShouldSayItWasStopped() throws Exception
    {
        final Path fifo = fifo("frames.pcap");
        final Path stderr = dir.resolve("decode.err");
        final Process process = ChildDta.start(dir.resolve("decode.out"), stderr, "decode", fifo.toString());
        try (OutputStream writer = Files.newOutputStream(fifo))
        {
            writer.write(PCAP_HEADER);
            writer.flush();
            signal(process, "INT");
        }
        finally
        {
            process.destroyForcibly();
        }
        assertEquals(130, process.exitValue(), Files.readString(stderr));
        assertEquals("dta decode: stopped by a signal" + System.lineSeparator(), Files.readString(stderr));
    }

    private Path fifo(final String name) throws Exception
    {
        final Path fifo = dir.resolve(name);
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        return fifo;
    }

    private static void signal(final Process process, final String signal) throws Exception
    {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor());
        assertTrue(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), "did not stop on SIG" + signal);
    }

    private static void waitUntil(final Process process, final BooleanSupplier condition) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (!condition.getAsBoolean())
        {
            assertTrue(process.isAlive(), "the command ended before it was signalled");
            assertTrue(System.nanoTime() < deadline, "the command did not start writing");
            Thread.sleep(20);
        }
    }

    private static long size(final Path file)
    {
        try
        {
            return Files.size(file);
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    private static long entries(final Path directory) throws IOException
    {
        try (Stream<Path> list = Files.list(directory))
        {
            return list.count();
        }
    }
}
