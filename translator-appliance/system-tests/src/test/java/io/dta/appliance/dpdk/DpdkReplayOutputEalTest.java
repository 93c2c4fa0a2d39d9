package io.dta.appliance.dpdk;

import io.dta.appliance.cli.ChildDta;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.replay.Replay;
import io.dta.config.ConfigDefaults;
import io.dta.dpdk.DpdkLibrary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code dta replay --io dpdk} with an output it cannot create says so as the Java replay does, in one line that names
 * the output: before, {@code net_pcap}'s own complaint came from inside the EAL start and the line that followed named
 * a temporary file beside the output. A child process: its whole stderr, the EAL's included, is what an operator
 * reads.
 */
class DpdkReplayOutputEalTest
{
    @TempDir
    Path dir;

    @Test
    void shouldNameTheOutputItCannotCreateBeforeTheEalStarts() throws Exception
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary::unavailableReason);
        final Path reports = GeneratedReports.write(dir.resolve("reports.pcap"), ConfigDefaults.load(),
            new GeneratorSettings().seed(7).mix("keywrite=1"), 10);
        final Path stdout = dir.resolve("replay.out");
        final Path stderr = dir.resolve("replay.err");
        // /proc exists and takes no new files, even from root.
        final Process process = ChildDta.start(stdout, stderr, "replay", "--io", "dpdk", "--in", reports.toString(),
            "--out", "/proc/dta-replay-output.pcap");
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "dta replay --io dpdk did not finish in 120 s");
        final String err = Files.readString(stderr);
        assertEquals(1, process.exitValue(), err);
        assertEquals("dta replay: cannot write /proc/dta-replay-output.pcap: no such file or directory", err.strip());
        assertTrue(Files.readString(stdout).isEmpty());
    }

    @Test
    void shouldWriteThroughDevicesAndLinksAsTheJavaReplayDoes() throws Exception
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary::unavailableReason);
        final Path reports = GeneratedReports.write(dir.resolve("reports.pcap"), ConfigDefaults.load(),
            new GeneratorSettings().seed(11).mix("keywrite=50,append=50"), 500);
        final Path javaOut = dir.resolve("java.pcap");
        Replay.run(ConfigDefaults.load(), reports, null, javaOut, new ArrayList<>());

        // The frames are read back from tx_pcap's file to stamp their times: /dev/null as the output was read back
        // empty ("truncated global header", exit 1) where the Java replay prints its summary.
        final Result toNull = replay(reports, Path.of("/dev/null"));
        assertEquals(0, toNull.exit(), toNull.err());
        assertTrue(toNull.out().contains("reports in 500"), toNull.out());
        assertTrue(Files.exists(Path.of("/dev/null")) && !Files.isRegularFile(Path.of("/dev/null")));

        // A link: the stamped capture lands in its target, and the link stays a link.
        final Path target = dir.resolve("target.pcap");
        final Path link = dir.resolve("link.pcap");
        Files.createSymbolicLink(link, target);
        final Result toLink = replay(reports, link);
        assertEquals(0, toLink.exit(), toLink.err());
        assertTrue(Files.isSymbolicLink(link));
        assertArrayEquals(Files.readAllBytes(javaOut), Files.readAllBytes(target));

        // A link into a missing directory is refused before the EAL starts, naming the link and why.
        final Path lost = dir.resolve("lost.pcap");
        Files.createSymbolicLink(lost, dir.resolve("missing").resolve("x.pcap"));
        final Result toLost = replay(reports, lost);
        assertEquals(1, toLost.exit(), toLost.err());
        assertEquals("dta replay: cannot write " + lost + ": " + dir.resolve("missing").resolve("x.pcap") +
            ": no such file or directory", toLost.err().strip());

        // A file that is no capture fails before the output is touched: an earlier output stays as it was.
        final Path garbage = Files.writeString(dir.resolve("garbage.pcap"), "not a capture at all\n");
        final Path earlier = Files.writeString(dir.resolve("earlier.pcap"), "earlier result");
        final Result fromGarbage = replay(garbage, earlier);
        assertEquals(1, fromGarbage.exit(), fromGarbage.err());
        assertEquals("earlier result", Files.readString(earlier));

        assumeTrue(Files.exists(Path.of("/dev/full")), "a Linux /dev/full");
        final Result toFull = replay(reports, Path.of("/dev/full"));
        assertEquals(1, toFull.exit(), toFull.err());
        assertEquals("dta replay: cannot write /dev/full: no space left on device", toFull.err().strip());
    }

    private record Result(int exit, String out, String err)
    {
    }

    private Result replay(final Path reports, final Path output) throws Exception
    {
        final Path stdout = dir.resolve("replay.out");
        final Path stderr = dir.resolve("replay.err");
        final Process process = ChildDta.start(stdout, stderr, "replay", "--io", "dpdk", "--in", reports.toString(),
            "--out", output.toString());
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "dta replay --io dpdk did not finish in 120 s");
        return new Result(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
    }
}
