package io.dta.appliance.replay;

import io.dta.appliance.cli.CollectorCommand;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.gen.ReportGenerator;
import io.dta.codec.pcap.PcapFormatException;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code dta replay} of reports captured with Linux cooked headers ({@code tcpdump -i any}: SLL, SLL2) or as bare
 * IP packets (scapy: RAW, IPV4) must write byte-identical RoCEv2 captures, with identical counters, to the replay
 * of the same reports, at the same timestamps, as an Ethernet capture. Raw IP packets carry no MAC, so their
 * Ethernet twin has the documented synthetic source MAC (where reporter NACKs go); cooked packets carry the sender's
 * MAC, so their twin is the generated capture itself. The captures are written byte by byte here and, when scapy is
 * installed, by scapy too.
 */
class LinkTypeReplayTest
{
    private static final long SEED = 0x5112_2025L;
    private static final int REPORTS = 500;
    private static final int ETHERNET = 1;
    private static final int RAW = 101;
    private static final int SLL = 113;
    private static final int IPV4 = 228;
    private static final int SLL2 = 276;
    /** 02:44:54:41:00:01, the documented source MAC of frames made of packets without one. */
    private static final byte[] SYNTHETIC_SOURCE = { 0x02, 0x44, 0x54, 0x41, 0x00, 0x01 };

    private static final String SCAPY_SCRIPT = """
        import sys
        from scapy.all import rdpcap, wrpcap, CookedLinux, CookedLinuxV2, IP, Raw
        packets = rdpcap(sys.argv[1])
        out = sys.argv[2]
        def timed(made, original):
            made.time = original.time
            return made
        sll, sll2, raw = [], [], []
        for p in packets:
            b = bytes(p)
            proto = int.from_bytes(b[12:14], 'big')
            sll.append(timed(CookedLinux(pkttype=0, lladdrtype=1, lladdrlen=6, src=b[6:12] + b'\\0\\0',
                proto=proto) / Raw(b[14:]), p))
            sll2.append(timed(CookedLinuxV2(proto=proto, ifindex=2, lladdrtype=1, pkttype=0, lladdrlen=6,
                src=b[6:12] + b'\\0\\0') / Raw(b[14:]), p))
            raw.append(timed(IP(b[14:]), p))
        wrpcap(out + '/sll.pcap', sll, nano=True)
        wrpcap(out + '/sll2.pcap', sll2, nano=True)
        wrpcap(out + '/raw.pcap', raw, nano=True, linktype=101)
        wrpcap(out + '/ipv4.pcap', raw, nano=True)
        """;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = { SLL, SLL2, RAW, IPV4 })
    void shouldReplayTheSameFramesAsFromEthernet(final int linkType) throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final List<Packet> reports = generate(config);
        final Path ethernet = dir.resolve("ethernet.pcap");
        writeCapture(ethernet, ETHERNET, twins(reports, linkType));
        final Path other = dir.resolve("link-" + linkType + ".pcap");
        writeCapture(other, linkType, encapsulate(reports, linkType));

        final Path expected = dir.resolve("from-ethernet.pcap");
        final TranslatorEngine reference = Replay.run(config, ethernet, null, expected);
        assertTrue(countFrames(expected) > REPORTS / 2, "frames out: " + countFrames(expected));
        assertSameReplay(config, reference, expected, other, null, "link type " + linkType);
    }

    @Test
    void shouldTakeResponsesCapturedWithCookedHeaders() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final List<Packet> reports = generate(config);
        final Path ethernet = dir.resolve("reports.pcap");
        writeCapture(ethernet, ETHERNET, reports);
        final Path roce = dir.resolve("roce.pcap");
        Replay.run(config, ethernet, null, roce);
        final Path responses = dir.resolve("responses.pcap");
        final StringWriter err = new StringWriter();
        assertEquals(0, new CommandLine(new CollectorCommand()).setOut(new PrintWriter(new StringWriter(), true))
            .setErr(new PrintWriter(err, true)).execute("--in", roce.toString(), "--out", responses.toString(),
            "--store", dir.resolve("store").toString()), err.toString());
        final List<Packet> answers = read(responses);
        assertTrue(answers.size() > 10, "responses: " + answers.size());

        final Path sllReports = dir.resolve("reports-sll.pcap");
        writeCapture(sllReports, SLL, encapsulate(reports, SLL));
        final Path sll2Responses = dir.resolve("responses-sll2.pcap");
        writeCapture(sll2Responses, SLL2, encapsulate(answers, SLL2));

        final Path expected = dir.resolve("closed-loop-ethernet.pcap");
        final TranslatorEngine reference = Replay.run(config, ethernet, responses, expected);
        assertTrue(reference.counters().get(EngineCounter.ACKS_IN) > 0 &&
            reference.counters().get(EngineCounter.ACKS_IN) + reference.counters().get(EngineCounter.ATOMIC_ACKS_IN) >
            100, "the responses are taken");
        assertSameReplay(config, reference, expected, sllReports, sll2Responses, "SLL reports, SLL2 responses");
    }

    @Test
    void shouldReadPcapngInterfacesOfDifferentLinkTypes() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final List<Packet> reports = generate(config);
        // Interface 0 SLL, 1 RAW, 2 Ethernet, 3 SLL2, in turn; a RAW packet's Ethernet twin has the synthetic MAC.
        final int[] interfaces = { SLL, RAW, ETHERNET, SLL2 };
        final List<Packet> twins = new ArrayList<>();
        final ByteArrayOutputStream pcapng = new ByteArrayOutputStream();
        block(pcapng, 0x0A0D0D0A, le(16).putInt(0x1A2B3C4D).putShort((short)1).putShort((short)0).putLong(-1));
        for (final int linkType : interfaces)
        {
            block(pcapng, 1, le(16).putShort((short)linkType).putShort((short)0).putInt(0)
                .putShort((short)9).putShort((short)1).put((byte)9).put(new byte[3])); // if_tsresol: nanoseconds
        }
        for (int i = 0; i < reports.size(); i++)
        {
            final int id = i % interfaces.length;
            final Packet report = reports.get(i);
            final byte[] data = encapsulate(List.of(report), interfaces[id]).get(0).bytes();
            final ByteBuffer epb = le(20 + ((data.length + 3) & ~3)).putInt(id)
                .putInt((int)(report.timestampNanos() >>> 32)).putInt((int)report.timestampNanos())
                .putInt(data.length).putInt(data.length).put(data);
            block(pcapng, 6, epb.position(epb.capacity()));
            twins.add(twins(List.of(report), interfaces[id]).get(0));
        }
        final Path mixed = dir.resolve("mixed.pcapng");
        Files.write(mixed, pcapng.toByteArray());
        final Path ethernet = dir.resolve("ethernet.pcap");
        writeCapture(ethernet, ETHERNET, twins);

        final Path expected = dir.resolve("from-ethernet.pcap");
        final TranslatorEngine reference = Replay.run(config, ethernet, null, expected);
        assertSameReplay(config, reference, expected, mixed, null, "pcapng of four link types");
    }

    @Test
    void shouldCountRecordsShorterThanTheirLinkHeaderAsMalformed() throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final List<Packet> reports = generate(config).subList(0, 50);
        for (final int linkType : new int[] { SLL, SLL2, RAW, IPV4 })
        {
            final List<Packet> packets = new ArrayList<>(encapsulate(reports, linkType));
            final int header = SLL == linkType ? 16 : SLL2 == linkType ? 20 : 0;
            final long last = reports.get(reports.size() - 1).timestampNanos();
            for (int cut = 0; cut < Math.max(header, 1); cut++)
            {
                packets.add(new Packet(last + 1 + cut, Arrays.copyOf(packets.get(cut).bytes(), cut)));
            }
            final Path capture = dir.resolve("short-" + linkType + ".pcap");
            writeCapture(capture, linkType, packets);
            final TranslatorEngine clean = Replay.run(
                config, writeCapture(dir.resolve("clean-" + linkType + ".pcap"), linkType,
                encapsulate(reports, linkType)), null, dir.resolve("clean-out.pcap"));

            final TranslatorEngine engine = Replay.run(config, capture, null, dir.resolve("short-out.pcap"));
            final int cuts = Math.max(header, 1);
            assertEquals(reports.size() + cuts, engine.counters().get(EngineCounter.FRAMES_IN), "link " + linkType);
            assertEquals(clean.counters().get(EngineCounter.DROP_MALFORMED) + cuts,
                engine.counters().get(EngineCounter.DROP_MALFORMED), "link type " + linkType);
            assertEquals(clean.counters().get(EngineCounter.REPORTS_IN),
                engine.counters().get(EngineCounter.REPORTS_IN), "link type " + linkType);
        }
    }

    @Test
    void shouldRefuseOtherLinkTypesListingTheSupportedOnes() throws Exception
    {
        final Path wifi = writeCapture(dir.resolve("wifi.pcap"), 105, List.of());
        final PcapFormatException ex = assertThrows(PcapFormatException.class,
            () -> Replay.run(ConfigDefaults.load(), wifi, null, dir.resolve("out.pcap")));
        assertTrue(ex.getMessage().contains("unsupported link type 105") &&
            ex.getMessage().contains("113 (Linux cooked SLL), 276 (Linux cooked SLL2), 101 (raw IP) and 228 (IPv4)"),
            ex.getMessage());
    }

    @Test
    void shouldReplayCapturesWrittenByScapyAsFromEthernet() throws Exception
    {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "no /usr/bin/python3");
        final Process probe = new ProcessBuilder("/usr/bin/python3", "-c", "import scapy").redirectErrorStream(true)
            .start();
        probe.getInputStream().readAllBytes();
        assumeTrue(probe.waitFor(60, TimeUnit.SECONDS) && 0 == probe.exitValue(), "scapy is not installed");

        final ApplianceConfig config = ConfigDefaults.load();
        final List<Packet> reports = generate(config);
        final Path ethernet = dir.resolve("ethernet.pcap");
        writeCapture(ethernet, ETHERNET, reports);
        final Path script = dir.resolve("encapsulate.py");
        Files.writeString(script, SCAPY_SCRIPT, StandardCharsets.UTF_8);
        final Process scapy = new ProcessBuilder("/usr/bin/python3", script.toString(), ethernet.toString(),
            dir.toString()).redirectErrorStream(true).start();
        final String output = new String(scapy.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(scapy.waitFor(300, TimeUnit.SECONDS), "scapy timed out");
        assertEquals(0, scapy.exitValue(), output);

        final Path expected = dir.resolve("from-ethernet.pcap");
        final TranslatorEngine reference = Replay.run(config, ethernet, null, expected);
        assertSameReplay(config, reference, expected, dir.resolve("sll.pcap"), null, "scapy SLL");
        assertSameReplay(config, reference, expected, dir.resolve("sll2.pcap"), null, "scapy SLL2");

        final Path rawTwins = dir.resolve("raw-twins.pcap");
        writeCapture(rawTwins, ETHERNET, twins(reports, RAW));
        final Path rawExpected = dir.resolve("from-raw-twins.pcap");
        final TranslatorEngine rawReference = Replay.run(config, rawTwins, null, rawExpected);
        assertSameReplay(config, rawReference, rawExpected, dir.resolve("raw.pcap"), null, "scapy RAW");
        assertSameReplay(config, rawReference, rawExpected, dir.resolve("ipv4.pcap"), null, "scapy IPV4");
        assertEquals(RAW, linkTypeOf(dir.resolve("raw.pcap")));
        assertEquals(IPV4, linkTypeOf(dir.resolve("ipv4.pcap")));
        assertEquals(SLL, linkTypeOf(dir.resolve("sll.pcap")));
        assertEquals(SLL2, linkTypeOf(dir.resolve("sll2.pcap")));
    }

    private void assertSameReplay(
        final ApplianceConfig config,
        final TranslatorEngine reference,
        final Path expected,
        final Path reports,
        final Path responses,
        final String what) throws IOException
    {
        final Path actual = dir.resolve("replay-" + System.nanoTime() + ".pcap");
        final TranslatorEngine engine = Replay.run(config, reports, responses, actual);
        for (final EngineCounter counter : EngineCounter.values())
        {
            assertEquals(reference.counters().get(counter), engine.counters().get(counter),
                counter + " of " + what + ", seed " + SEED);
        }
        assertEquals(-1, Files.mismatch(expected, actual), "replay of " + what + " differs, seed " + SEED);
    }

    private static List<Packet> generate(final ApplianceConfig config)
    {
        final GeneratorSettings settings = new GeneratorSettings().seed(SEED)
            .mix("keywrite=40,keyincrement=20,append=20,postcard=20").redundancy("1-4").reporters(7)
            .essentialFraction(0.2).retransmittable(true).badFraction(0.03).spacingNanos(333);
        final ReportGenerator generator = new ReportGenerator(config, settings);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[ReportGenerator.MAX_FRAME_LENGTH]);
        final List<Packet> packets = new ArrayList<>();
        for (int i = 0; i < REPORTS; i++)
        {
            final int length = generator.next(frame, 0);
            final byte[] bytes = new byte[length];
            frame.getBytes(0, bytes);
            packets.add(new Packet(generator.timestampNanos(), bytes));
        }
        return packets;
    }

    /**
     * The Ethernet frames as the link type keeps them: cooked headers keep the sender's MAC, raw IP loses it.
     */
    private static List<Packet> twins(final List<Packet> frames, final int linkType)
    {
        if (RAW != linkType && IPV4 != linkType)
        {
            return frames;
        }
        final List<Packet> twins = new ArrayList<>();
        for (final Packet frame : frames)
        {
            final byte[] bytes = frame.bytes().clone();
            System.arraycopy(SYNTHETIC_SOURCE, 0, bytes, 6, 6);
            twins.add(new Packet(frame.timestampNanos(), bytes));
        }
        return twins;
    }

    /**
     * The Ethernet frames as packets of another link type, the way Linux and libpcap write them: the SLL protocol
     * is the EtherType and the address the source MAC; raw IP is the frame without its Ethernet header.
     */
    private static List<Packet> encapsulate(final List<Packet> frames, final int linkType)
    {
        final List<Packet> packets = new ArrayList<>();
        for (final Packet frame : frames)
        {
            final byte[] f = frame.bytes();
            final byte[] payload = Arrays.copyOfRange(f, 14, f.length);
            final ByteBuffer packet;
            switch (linkType)
            {
                case SLL -> packet = ByteBuffer.allocate(16 + payload.length)
                    .putShort((short)0).putShort((short)1).putShort((short)6).put(f, 6, 6).putShort((short)0)
                    .put(f, 12, 2).put(payload);
                case SLL2 -> packet = ByteBuffer.allocate(20 + payload.length)
                    .put(f, 12, 2).putShort((short)0).putInt(2).putShort((short)1).put((byte)0).put((byte)6)
                    .put(f, 6, 6).putShort((short)0).put(payload);
                case RAW, IPV4 -> packet = ByteBuffer.wrap(payload);
                case ETHERNET -> packet = ByteBuffer.wrap(f);
                default -> throw new IllegalArgumentException("link type " + linkType);
            }
            packets.add(new Packet(frame.timestampNanos(), packet.array()));
        }
        return packets;
    }

    /**
     * A little-endian nanosecond classic capture of the given link type, written byte by byte.
     */
    private static Path writeCapture(final Path path, final int linkType, final List<Packet> packets)
        throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(le(24).putInt(0xA1B23C4D).putShort((short)2).putShort((short)4).putInt(0).putInt(0)
            .putInt(262144).putInt(linkType).array());
        for (final Packet packet : packets)
        {
            out.writeBytes(le(16).putInt((int)(packet.timestampNanos() / 1_000_000_000L))
                .putInt((int)(packet.timestampNanos() % 1_000_000_000L)).putInt(packet.bytes().length)
                .putInt(packet.bytes().length).array());
            out.writeBytes(packet.bytes());
        }
        Files.write(path, out.toByteArray());
        return path;
    }

    private static List<Packet> read(final Path capture) throws IOException
    {
        final List<Packet> packets = new ArrayList<>();
        try (PcapReader reader = PcapReader.open(capture))
        {
            while (reader.next())
            {
                final byte[] bytes = new byte[reader.capturedLength()];
                reader.buffer().getBytes(reader.offset(), bytes);
                packets.add(new Packet(reader.timestampNanos(), bytes));
            }
        }
        return packets;
    }

    private static int linkTypeOf(final Path capture) throws IOException
    {
        try (PcapReader reader = PcapReader.open(capture))
        {
            return reader.linkType();
        }
    }

    private static long countFrames(final Path capture) throws IOException
    {
        return read(capture).size();
    }

    private static ByteBuffer le(final int length)
    {
        return ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void block(final ByteArrayOutputStream out, final int type, final ByteBuffer body)
    {
        final int total = 12 + body.position();
        out.writeBytes(le(total).putInt(type).putInt(total).put(body.array(), 0, body.position()).putInt(total)
            .array());
    }

    private record Packet(long timestampNanos, byte[] bytes)
    {
    }
}
