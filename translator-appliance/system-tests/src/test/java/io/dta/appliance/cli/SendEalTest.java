package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.codec.pcap.PcapReader;
import io.dta.dpdk.DpdkLibrary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code dta send} through a real EAL: a capture's frames, three passes over it, written by {@code net_pcap} into
 * a capture file that holds exactly those frames in order; the JSON says what was sent and the achieved rate.
 */
class SendEalTest
{
    private static final int REPORTS = 500;

    @TempDir
    Path dir;

    @Test
    void shouldSendEveryFrameOfEveryPassInOrder() throws Exception
    {
        assumeTrue(DpdkLibrary.isAvailable(), DpdkLibrary.unavailableReason());
        final Path reports = dir.resolve("reports.pcap");
        final CliRunner.Result gen = CliRunner.run("gen", "--out", reports.toString(), "--reports",
            Integer.toString(REPORTS));
        assertEquals(0, gen.exitCode(), gen.err());
        final Path out = dir.resolve("sent.pcap");
        final CliRunner.Result send = CliRunner.run("send", "--in", reports.toString(), "--port", "net_pcap0",
            "--vdev", "net_pcap0,tx_pcap=" + out, "--file-prefix", "dta-send-" + ProcessHandle.current().pid(),
            "--pps", "200000", "--loop", "3", "--json");
        assertEquals(0, send.exitCode(), send.err());
        final JsonNode result = new ObjectMapper().readTree(send.out());
        assertEquals(3 * REPORTS, result.get("framesSent").asLong(), send.out());
        assertEquals(0, result.get("framesNotTaken").asLong());
        assertEquals(200_000, result.get("targetPps").asLong());
        assertTrue(result.get("achievedPps").asLong() > 0, send.out());
        assertTrue(result.get("lastBurstNanos").asLong() >= result.get("firstBurstNanos").asLong());

        final List<byte[]> in = frames(reports);
        final List<byte[]> sent = frames(out);
        assertEquals(3 * in.size(), sent.size());
        for (int i = 0; i < sent.size(); i++)
        {
            assertArrayEquals(in.get(i % in.size()), sent.get(i), "frame " + i);
        }
    }

    @Test
    void shouldRefuseARateBelowOne()
    {
        final CliRunner.Result send = CliRunner.run("send", "--in", dir.resolve("none.pcap").toString(), "--pps", "0");
        assertEquals(2, send.exitCode());
        assertTrue(send.err().contains("--pps must be at least 1"), send.err());
    }

    private static List<byte[]> frames(final Path capture) throws Exception
    {
        final List<byte[]> frames = new ArrayList<>();
        try (PcapReader reader = PcapReader.open(capture))
        {
            while (reader.next())
            {
                final byte[] frame = new byte[reader.capturedLength()];
                reader.buffer().getBytes(reader.offset(), frame);
                frames.add(Arrays.copyOf(frame, frame.length));
            }
        }
        return frames;
    }
}
