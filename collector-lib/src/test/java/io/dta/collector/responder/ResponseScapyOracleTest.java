package io.dta.collector.responder;

import io.dta.codec.RoceOpcode;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every kind of response the responder emits (ACK, re-ACK, NAK 0x60/0x61/0x62, ATOMIC ACK, replayed ATOMIC ACK)
 * is accepted by scapy's contrib.roce, which rebuilds the ICRC itself (roce-codec's oracle script).
 */
class ResponseScapyOracleTest
{
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final Path SCRIPT = Path.of("../roce-codec/src/test/resources/oracle/scapy_roce.py");

    @TempDir
    Path dir;

    @BeforeAll
    static void requireScapy() throws Exception
    {
        assumeTrue(Files.isExecutable(PYTHON), "/usr/bin/python3 missing");
        final Process probe = new ProcessBuilder(PYTHON.toString(), "-c", "import scapy.contrib.roce")
            .redirectErrorStream(true).start();
        assumeTrue(probe.waitFor(60, TimeUnit.SECONDS) && 0 == probe.exitValue(), "python3-scapy missing");
    }

    @Test
    void shouldEmitResponsesWhoseIcrcScapyAccepts() throws Exception
    {
        final long seed = Long.getLong("dta.test.seed", 0x5D3E7C2BL);
        final SplittableRandom rnd = new SplittableRandom(seed);
        final List<byte[]> responses = new ArrayList<>();
        final ResponseSink keep = (b, o, l) ->
        {
            final byte[] copy = new byte[l];
            b.getBytes(o, copy);
            responses.add(copy);
        };
        for (int run = 0; run < 200; run++)
        {
            final int start = rnd.nextInt(1 << 24);
            final ApplianceConfig config = Requests.config(start);
            final SoftResponder responder = Requests.responder(config, new UnsafeBuffer(new byte[Requests.LENGTH]));
            for (int i = 0; i < 20; i++)
            {
                final int psn = (start + rnd.nextInt(-3, 4) + i) & 0xFFFFFF;
                final byte[] frame = switch (rnd.nextInt(5))
                {
                    case 0 -> Requests.fetchAdd(psn, Requests.BASE + 8L * rnd.nextInt(64), rnd.nextLong());
                    case 1 -> Requests.write(RoceOpcode.RC_RDMA_WRITE_ONLY, psn, Requests.BASE, Requests.RKEY + 1, 4,
                        new byte[4], true);
                    case 2 -> Requests.write(RoceOpcode.RC_RDMA_WRITE_MIDDLE, psn, 0, 0, 0, new byte[Requests.MTU],
                        true);
                    default -> Requests.writeOnly(psn, Requests.BASE + rnd.nextInt(100), new byte[rnd.nextInt(40)],
                        true);
                };
                responder.onFrame(new UnsafeBuffer(frame), 0, frame.length, 0, keep);
            }
        }
        org.junit.jupiter.api.Assertions.assertTrue(responses.size() > 100, "responses: " + responses.size());
        final Path file = dir.resolve("responses.pcap");
        try (PcapWriter writer = new PcapWriter(file))
        {
            long t = 1_700_000_000_000_000_000L;
            for (final byte[] frame : responses)
            {
                writer.write(t += 1000, new UnsafeBuffer(frame), 0, frame.length);
            }
        }

        final Process p = new ProcessBuilder(PYTHON.toString(), SCRIPT.toString(), "check", file.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        final List<String> verdicts = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(p.getInputStream(),
            StandardCharsets.UTF_8)))
        {
            String line;
            while (null != (line = reader.readLine()))
            {
                verdicts.add(line);
            }
        }
        assertEquals(0, p.waitFor());
        assertEquals(responses.size(), verdicts.size(), "seed " + seed);
        for (final String verdict : verdicts)
        {
            assertEquals("ok", verdict.split(" ")[1], "seed " + seed + ": frame " + verdict);
        }
    }
}
