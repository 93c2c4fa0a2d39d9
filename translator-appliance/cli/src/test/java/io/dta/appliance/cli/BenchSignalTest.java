package io.dta.appliance.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta bench} stopped by SIGTERM or SIGINT says so in one line, as {@code dta replay} does (it exited 143 or 130
 * and printed nothing). The child reads its capture from a FIFO, so the test knows the command runs (the FIFO's
 * writer opens once the bench has opened it) before it sends the signal.
 */
class BenchSignalTest
{
    private static final long TIMEOUT_SECONDS = 60;

    @TempDir
    Path dir;

    @Test
    void shouldSayItWasStoppedBySigtermOrSigint() throws Exception
    {
        for (final String signal : new String[] { "TERM", "INT" })
        {
            final Path fifo = dir.resolve("in-" + signal + ".pcap");
            assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
            final Path stderr = dir.resolve("bench-" + signal + ".err");
            final Process process = ChildDta.start(dir.resolve("bench-" + signal + ".out"), stderr, "bench", "--in",
                fifo.toString(), "--warmup", "0", "--reports", "1000");
            try (OutputStream writer = Files.newOutputStream(fifo))
            {
                // Open: the bench is reading its capture, and it waits for the rest of it.
                writer.write(new byte[] { (byte)0xD4, (byte)0xC3, (byte)0xB2, (byte)0xA1 });
                writer.flush();
                assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start()
                    .waitFor());
                assertTrue(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), "did not stop on SIG" + signal);
            }
            finally
            {
                process.destroyForcibly();
            }
            final String err = Files.readString(stderr);
            assertEquals("TERM".equals(signal) ? 143 : 130, process.exitValue(), err);
            assertEquals("dta bench: stopped by a signal" + System.lineSeparator(), err, signal);
        }
    }
}
