package io.dta.codec.oracle;

import io.dta.codec.CmFrameEncoder;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.codec.pcap.PcapReader;
import io.dta.codec.pcap.PcapWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Cross-checks our ICRC and RoCEv2 codec against an independent implementation: scapy's {@code contrib.roce}
 * (Debian's python3-scapy, installed by .ci/run) run under /usr/bin/python3.
 */
class ScapyOracleTest
{
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final long SEED = 0x5eed_1234L;
    private static Path script;

    @TempDir
    Path dir;

    @BeforeAll
    static void findScapy() throws Exception
    {
        assumeTrue(Files.isExecutable(PYTHON), "/usr/bin/python3 missing");
        final Process probe = new ProcessBuilder(PYTHON.toString(), "-c", "import scapy.contrib.roce")
            .redirectErrorStream(true).start();
        assumeTrue(probe.waitFor(60, TimeUnit.SECONDS) && 0 == probe.exitValue(), "python3-scapy missing");
        script = Path.of("src", "test", "resources", "oracle", "scapy_roce.py").toAbsolutePath();
    }

    private static List<String> python(final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(PYTHON.toString());
        command.add(script.toString());
        command.addAll(List.of(args));
        final Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "scapy oracle timed out");
        assertEquals(0, p.exitValue(), "scapy oracle failed");
        return out.lines().toList();
    }

    @Test
    void shouldProduceFramesWhoseIcrcScapyAccepts() throws Exception
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final int count = 2000;
        final Path good = dir.resolve("good.pcap");
        final Path bad = dir.resolve("bad.pcap");
        final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[1024]);
        final RoceFrameEncoder encoder = new RoceFrameEncoder();
        final FrameDecoder decoder = new FrameDecoder();
        final int[] opcodes = {
            RoceOpcode.RC_RDMA_WRITE_ONLY, RoceOpcode.RC_FETCH_ADD, RoceOpcode.RC_ACKNOWLEDGE,
            RoceOpcode.RC_ATOMIC_ACKNOWLEDGE };
        try (PcapWriter goodOut = new PcapWriter(good); PcapWriter badOut = new PcapWriter(bad))
        {
            for (int i = 0; i < count; i++)
            {
                final int opcode = opcodes[random.nextInt(opcodes.length)];
                final int length = random.nextInt(300);
                for (int b = 0; b < length; b++)
                {
                    payload.putByte(b, (byte)random.nextInt());
                }
                encoder.dstMac(random.nextLong() & 0xFEFF_FFFF_FFFFL).srcMac(0x020000000001L)
                    .tos(random.nextInt(256)).identification(random.nextInt(65536)).dontFragment(true)
                    .ttl(1 + random.nextInt(255)).srcIp(random.nextInt()).dstIp(random.nextInt())
                    .srcPort(0xC000 | random.nextInt(0x4000)).dstPort(4791).opcode(opcode).migReq(true)
                    .pKey(0xFFFF).destQp(random.nextInt(1 << 24)).ackReq(random.nextBoolean())
                    .psn(random.nextInt(1 << 24)).virtualAddress(random.nextLong() & ~7L)
                    .rKey(random.nextLong() & 0xFFFFFFFFL).dmaLength(-1).swapAddData(random.nextLong())
                    .compareData(0).syndrome(0x1F).msn(random.nextInt(1 << 24)).originalValue(random.nextLong());
                if (RoceOpcode.carriesPayload(opcode))
                {
                    encoder.payload(payload, 0, length);
                }
                else
                {
                    encoder.noPayload();
                }
                final int frameLength = encoder.encode(frame, 0);
                goodOut.write(i, frame, 0, frameLength);
                // Corrupt one byte the ICRC covers: the BTH DestQP, the PSN or anything after the BTH.
                final int at = 14 + 20 + 8 + 5 + random.nextInt(frameLength - 4 - (14 + 20 + 8 + 5));
                frame.putByte(at, (byte)(frame.getByte(at) ^ (1 << random.nextInt(8))));
                badOut.write(i, frame, 0, frameLength);
            }
        }
        final List<String> goodVerdicts = python("check", good.toString());
        assertEquals(count, goodVerdicts.size());
        for (final String line : goodVerdicts)
        {
            assertTrue(line.endsWith(" ok"), "scapy rejects our ICRC: frame " + line + " (seed " + SEED + ")");
        }
        final List<String> badVerdicts = python("check", bad.toString());
        int index = 0;
        try (PcapReader reader = PcapReader.open(bad))
        {
            while (reader.next())
            {
                final String verdict = badVerdicts.get(index++);
                final FrameKind kind = decoder.decode(reader.buffer(), reader.offset(), reader.capturedLength());
                if (verdict.endsWith(" bad") && FrameKind.ROCE == kind)
                {
                    assertFalse(decoder.icrcValid(), "we accept a frame scapy rejects: " + verdict);
                }
                assertFalse(verdict.endsWith(" ok"), "scapy accepts a corrupted frame: " + verdict);
            }
        }
    }

    @Test
    void shouldAcceptEveryFrameScapyBuilds() throws Exception
    {
        final Path file = dir.resolve("scapy.pcap");
        final List<String> expected = python("gen", file.toString(), "2000", Long.toString(SEED));
        final FrameDecoder decoder = new FrameDecoder();
        int index = 0;
        try (PcapReader reader = PcapReader.open(file))
        {
            while (reader.next())
            {
                final String[] fields = expected.get(index++).split(" ");
                assertEquals(FrameKind.ROCE, decoder.decode(reader.buffer(), reader.offset(), reader.capturedLength()),
                    "frame " + index + " " + decoder.malformedReason());
                assertTrue(decoder.icrcValid(), "frame " + index);
                assertTrue(decoder.ipChecksumValid(), "frame " + index);
                final int opcode = Integer.parseInt(fields[0]);
                assertEquals(opcode, decoder.roceOpcode());
                assertEquals(Integer.parseInt(fields[1]), decoder.bth().destQp());
                assertEquals(Integer.parseInt(fields[2]), decoder.bth().psn());
                assertEquals("1".equals(fields[3]), decoder.bth().ackReq());
                final long field = Long.parseUnsignedLong(fields[4]);
                switch (opcode)
                {
                    case RoceOpcode.RC_RDMA_WRITE_ONLY -> assertEquals(field, decoder.reth().virtualAddress());
                    case RoceOpcode.RC_FETCH_ADD -> assertEquals(field, decoder.atomicEth().swapAddData());
                    case RoceOpcode.RC_ACKNOWLEDGE -> assertEquals(field, decoder.aeth().syndrome());
                    default -> assertEquals(field, decoder.atomicAckEth().originalValue());
                }
            }
        }
        assertEquals(2000, index);
    }

    @Test
    void shouldProduceConnectionFramesWhoseIcrcScapyAccepts() throws Exception
    {
        final SplittableRandom random = new SplittableRandom(SEED + 4);
        final Path file = dir.resolve("cm.pcap");
        final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final UnsafeBuffer metadata = new UnsafeBuffer(new byte[16]);
        final CmFrameEncoder cm = new CmFrameEncoder();
        final RoceFrameEncoder encoder = new RoceFrameEncoder();
        final int count = 400;
        try (PcapWriter out = new PcapWriter(file))
        {
            for (int i = 0; i < count; i++)
            {
                final int length;
                if (i % 5 < 4)
                {
                    final int[] attributes = { MadHeaderFlyweight.ATTRIBUTE_REQ, MadHeaderFlyweight.ATTRIBUTE_REP,
                        MadHeaderFlyweight.ATTRIBUTE_RTU, MadHeaderFlyweight.ATTRIBUTE_REJ };
                    final int attribute = attributes[i % 5];
                    cm.encoder().dstMac(0x020000000002L).srcMac(0x020000000001L).srcIp(random.nextInt())
                        .dstIp(random.nextInt()).tos(random.nextInt(256)).ttl(1 + random.nextInt(255))
                        .identification(random.nextInt(65536)).psn(random.nextInt(1 << 24));
                    cm.begin(frame, 0, attribute, random.nextLong(), 0);
                    cm.req().localCommId(random.nextLong() & 0xFFFFFFFFL).localQpn(random.nextInt(1 << 24))
                        .startingPsn(random.nextInt(1 << 24));
                    length = cm.finish(frame, 0);
                }
                else
                {
                    metadata.putLong(0, random.nextLong());
                    metadata.putLong(8, random.nextLong());
                    final boolean send = random.nextBoolean();
                    encoder.dstMac(0x020000000002L).srcMac(0x020000000001L).srcIp(random.nextInt())
                        .dstIp(random.nextInt()).opcode(send ? RoceOpcode.RC_SEND_ONLY : RoceOpcode.RC_ACKNOWLEDGE)
                        .destQp(random.nextInt(1 << 24)).psn(random.nextInt(1 << 24)).ackReq(send).msn(1)
                        .syndrome(0x1F);
                    if (send)
                    {
                        encoder.payload(metadata, 0, 16);
                    }
                    else
                    {
                        encoder.noPayload();
                    }
                    length = encoder.encode(frame, 0);
                }
                out.write(i, frame, 0, length);
            }
        }
        final List<String> verdicts = python("check", file.toString());
        assertEquals(count, verdicts.size());
        for (final String line : verdicts)
        {
            assertTrue(line.endsWith(" ok"), "scapy rejects our ICRC: frame " + line + " (seed " + (SEED + 4) + ")");
        }
    }
}
