package io.dta.codec.pcap;

import static io.dta.codec.pcap.PcapReaderFormatTest.assertContains;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Captures of Linux cooked (SLL, SLL2) and raw IP (RAW, IPV4) link types, written byte by byte here, must read as
 * the Ethernet frames the mapping documented in {@link LinkLayerAdapter} gives; the expected frames are built here
 * from the documented rules, not with the adapter.
 */
class LinkTypeReaderTest
{
    private static final int SLL = 113;
    private static final int SLL2 = 276;
    private static final int RAW = 101;
    private static final int IPV4 = 228;
    private static final byte[] SYNTHETIC_SOURCE = mac("02:44:54:41:00:01");
    private static final byte[] DEFAULT_DESTINATION = mac("02:44:54:41:00:02");
    private static final byte[] APPLIANCE = mac("0a:1b:2c:3d:4e:5f");
    private static final byte[] SENDER = mac("3c:fd:fe:01:02:03");
    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void shouldPresentSllPacketsAsEthernetFrames() throws Exception
    {
        final byte[] ip = PcapFileBuilder.pattern(80, 1);
        final byte[] tagged = concat(new byte[] { 0x20, 0x64, 0x08, 0x00 }, ip); // TCI (PCP 1, VLAN 100), IPv4
        final byte[] file = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 262144, SLL)
            .record(10, 1, sll(0, 1, 6, SENDER, 0x0800, ip))
            .record(10, 2, sll(4, 65534, 0, new byte[0], 0x0800, ip)) // tun: no address, sent by this host
            .record(10, 3, sll(0, 1, 6, SENDER, 0x8100, tagged)) // tag re-inserted by libpcap
            .record(10, 4, sll(0, 824, 0, new byte[0], 0x0000, ip)) // netlink: the protocol is a family
            .record(10, 5, sll(0, 778, 4, new byte[] { 10, 0, 0, 1 }, 0x0800, ip)) // GRE: a 4-byte address
            .record(10, 6, 16 + ip.length, 9000, sll(1, 1, 6, SENDER, 0x0806, ip)) // original longer
            .toByteArray();

        try (PcapReader reader = open(file))
        {
            assertEquals(SLL, reader.linkType());
            final DirectBuffer buffer = reader.buffer();
            assertFrame(reader, concat(DEFAULT_DESTINATION, SENDER, bytes(0x08, 0x00), ip));
            assertEquals(SLL, reader.linkType());
            assertEquals(94, reader.originalLength());
            assertEquals(10 * SECOND + 1_000, reader.timestampNanos());
            reader.destinationMac(0x0a1b_2c3d_4e5fL);
            assertFrame(reader, concat(APPLIANCE, SYNTHETIC_SOURCE, bytes(0x08, 0x00), ip));
            assertFrame(reader, concat(APPLIANCE, SENDER, bytes(0x81, 0x00), tagged));
            assertFrame(reader, concat(APPLIANCE, SYNTHETIC_SOURCE, bytes(0x00, 0x00), ip));
            assertFrame(reader, concat(APPLIANCE, SYNTHETIC_SOURCE, bytes(0x08, 0x00), ip));
            assertFrame(reader, concat(APPLIANCE, SENDER, bytes(0x08, 0x06), ip));
            assertEquals(9000 - 2, reader.originalLength());
            assertSame(buffer, reader.buffer());
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldPresentSll2PacketsAsEthernetFrames() throws Exception
    {
        final byte[] ip = PcapFileBuilder.pattern(70, 2);
        final byte[] file = new PcapFileBuilder(ByteOrder.BIG_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_NANOSECONDS, 262144, SLL2)
            .record(20, 7, sll2(0x0800, 3, 1, 0, 6, SENDER, ip))
            .record(20, 8, sll2(0x0800, 9, 65534, 4, 0, new byte[0], ip))
            .record(20, 9, sll2(0x86DD, 3, 1, 3, 6, SENDER, ip))
            .toByteArray();

        try (PcapReader reader = open(file))
        {
            assertFrame(reader, concat(DEFAULT_DESTINATION, SENDER, bytes(0x08, 0x00), ip));
            assertEquals(SLL2, reader.linkType());
            assertEquals(20 * SECOND + 7, reader.timestampNanos());
            assertEquals(84, reader.originalLength());
            assertFrame(reader, concat(DEFAULT_DESTINATION, SYNTHETIC_SOURCE, bytes(0x08, 0x00), ip));
            assertFrame(reader, concat(DEFAULT_DESTINATION, SENDER, bytes(0x86, 0xDD), ip));
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldPresentRawAndIpv4PacketsAsEthernetFrames() throws Exception
    {
        final byte[] v4 = PcapFileBuilder.pattern(60, 3);
        v4[0] = 0x45;
        final byte[] v6 = PcapFileBuilder.pattern(60, 4);
        v6[0] = 0x60;
        final byte[] v5 = PcapFileBuilder.pattern(60, 5);
        v5[0] = 0x55;
        final byte[] raw = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, RAW)
            .record(1, 0, v4).record(1, 1, v6).record(1, 2, v5).record(1, 3, new byte[0])
            .toByteArray();
        try (PcapReader reader = open(raw))
        {
            reader.destinationMac(0x0a1b_2c3d_4e5fL);
            assertFrame(reader, concat(APPLIANCE, SYNTHETIC_SOURCE, bytes(0x08, 0x00), v4));
            assertEquals(RAW, reader.linkType());
            assertEquals(74, reader.originalLength());
            assertFrame(reader, concat(APPLIANCE, SYNTHETIC_SOURCE, bytes(0x86, 0xDD), v6));
            assertFrame(reader, concat(APPLIANCE, SYNTHETIC_SOURCE, bytes(0x08, 0x00), v5));
            assertFrame(reader, concat(APPLIANCE, SYNTHETIC_SOURCE, bytes(0x08, 0x00)));
            assertFalse(reader.next());
        }

        final byte[] ipv4 = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, IPV4)
            .record(1, 0, v4).record(1, 1, v6)
            .toByteArray();
        try (PcapReader reader = open(ipv4))
        {
            assertFrame(reader, concat(DEFAULT_DESTINATION, SYNTHETIC_SOURCE, bytes(0x08, 0x00), v4));
            assertEquals(IPV4, reader.linkType());
            // IPV4 says the packet is IPv4 whatever its first byte: the engine finds it malformed.
            assertFrame(reader, concat(DEFAULT_DESTINATION, SYNTHETIC_SOURCE, bytes(0x08, 0x00), v6));
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldGiveEmptyFramesForRecordsShorterThanTheirCookedHeader() throws Exception
    {
        final byte[] ip = PcapFileBuilder.pattern(50, 6);
        final byte[] sll = sll(0, 1, 6, SENDER, 0x0800, ip);
        final byte[] file = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, SLL)
            .record(1, 0, new byte[0])
            .record(1, 1, 15, 66, java.util.Arrays.copyOf(sll, 15))
            .record(1, 2, sll)
            .toByteArray();
        try (PcapReader reader = open(file))
        {
            assertFrame(reader, new byte[0]);
            assertFrame(reader, new byte[0]);
            assertEquals(64, reader.originalLength());
            assertFrame(reader, concat(DEFAULT_DESTINATION, SENDER, bytes(0x08, 0x00), ip));
            assertFalse(reader.next());
        }

        final byte[] sll2 = sll2(0x0800, 1, 1, 0, 6, SENDER, ip);
        final byte[] file2 = new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, SLL2)
            .record(1, 0, java.util.Arrays.copyOf(sll2, 19))
            .record(1, 1, java.util.Arrays.copyOf(sll2, 20))
            .toByteArray();
        try (PcapReader reader = open(file2))
        {
            assertFrame(reader, new byte[0]);
            assertFrame(reader, concat(DEFAULT_DESTINATION, SENDER, bytes(0x08, 0x00)));
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldReadPcapngInterfacesOfDifferentLinkTypes() throws Exception
    {
        final byte[] ip = PcapFileBuilder.pattern(90, 7);
        ip[0] = 0x45;
        final byte[] ethernet = concat(mac("00:11:22:33:44:55"), SENDER, bytes(0x08, 0x00), ip);
        final PcapngFileBuilder builder = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .section(ByteOrder.LITTLE_ENDIAN);
        builder.interfaceDescription(SLL, 0, builder.tsresol(9))
            .interfaceDescription(RAW, 0)
            .interfaceDescription(1, 0)
            .enhancedPacket(0, 5 * SECOND + 1, sll(0, 1, 6, SENDER, 0x0800, ip))
            .enhancedPacket(1, 6_000_000L, ip)
            .enhancedPacket(2, 7_000_000L, ethernet)
            .enhancedPacket(0, 8 * SECOND, java.util.Arrays.copyOf(sll(0, 1, 6, SENDER, 0x0800, ip), 12))
            .enhancedPacket(1, 9_000_000L, ip)
            .section(ByteOrder.BIG_ENDIAN);
        builder.interfaceDescription(IPV4, 0)
            .enhancedPacket(0, 10_000_000L, ip);

        try (PcapReader reader = open(builder.toByteArray()))
        {
            final DirectBuffer buffer = reader.buffer();
            assertFrame(reader, concat(DEFAULT_DESTINATION, SENDER, bytes(0x08, 0x00), ip));
            assertEquals(SLL, reader.linkType());
            assertEquals(5 * SECOND + 1, reader.timestampNanos());
            assertTrue(reader.nanosecondResolution());
            assertFrame(reader, concat(DEFAULT_DESTINATION, SYNTHETIC_SOURCE, bytes(0x08, 0x00), ip));
            assertEquals(RAW, reader.linkType());
            assertEquals(6 * SECOND, reader.timestampNanos());
            assertFrame(reader, ethernet);
            assertEquals(1, reader.linkType());
            assertFrame(reader, new byte[0]);
            assertFrame(reader, concat(DEFAULT_DESTINATION, SYNTHETIC_SOURCE, bytes(0x08, 0x00), ip));
            assertFrame(reader, concat(DEFAULT_DESTINATION, SYNTHETIC_SOURCE, bytes(0x08, 0x00), ip));
            assertEquals(IPV4, reader.linkType());
            assertEquals(10 * SECOND, reader.timestampNanos());
            assertSame(buffer, reader.buffer());
            assertFalse(reader.next());
        }
    }

    @Test
    void shouldRefuseCookedInterfacesWithAnFcs() throws Exception
    {
        final PcapngFileBuilder builder = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .section(ByteOrder.LITTLE_ENDIAN);
        builder.interfaceDescription(SLL, 0, builder.option(13, new byte[] { 4 }))
            .enhancedPacket(0, 1, sll(0, 1, 6, SENDER, 0x0800, new byte[20]));
        try (PcapReader reader = open(builder.toByteArray()))
        {
            assertContains(assertThrows(PcapFormatException.class, reader::next),
                "unsupported link type 113 with a 4-byte FCS of interface 0");
        }
    }

    /**
     * Thousands of random packets of the four link types, mixed on the interfaces of one pcapng file larger than
     * the read buffer, so the buffer is compacted and refilled under the frames written after it.
     */
    @Test
    void shouldMapRandomPacketsOfEveryLinkType() throws Exception
    {
        // Fixed, so that a failure can be replayed: this seed once cut a RAW packet that started with nibble 6 to
        // nothing (the model looked at the uncut packet's version).
        final long seed = 26378630514775L;
        final SplittableRandom random = new SplittableRandom(seed);
        final int[] linkTypes = { SLL, SLL2, RAW, IPV4, 1 };
        final PcapngFileBuilder builder = new PcapngFileBuilder(ByteOrder.BIG_ENDIAN).section(ByteOrder.BIG_ENDIAN);
        for (final int linkType : linkTypes)
        {
            builder.interfaceDescription(linkType, 0, builder.tsresol(9));
        }
        final List<byte[]> expected = new ArrayList<>();
        final List<Integer> types = new ArrayList<>();
        final long destination = random.nextLong(1L << 48);
        final byte[] destinationBytes = mac(destination);
        for (int i = 0; i < 4000; i++)
        {
            final int id = random.nextInt(linkTypes.length);
            final byte[] payload = new byte[random.nextInt(0, random.nextInt(8) == 0 ? 9000 : 1500)];
            random.nextBytes(payload);
            final byte[] address = new byte[8];
            random.nextBytes(address);
            final int addressLength = random.nextBoolean() ? 6 : random.nextInt(0, 9);
            final int protocol = random.nextInt(0x10000);
            final int cut = random.nextInt(10) == 0 ? random.nextInt(0, 21) : Integer.MAX_VALUE;
            final byte[] packet;
            final byte[] frame;
            final byte[] source = 6 == addressLength ? java.util.Arrays.copyOf(address, 6) : SYNTHETIC_SOURCE;
            switch (linkTypes[id])
            {
                case SLL ->
                {
                    packet = sll(random.nextInt(5), random.nextInt(0x10000), addressLength, address, protocol,
                        payload);
                    frame = concat(destinationBytes, source, bytes(protocol >>> 8, protocol), payload);
                }
                case SLL2 ->
                {
                    packet = sll2(protocol, random.nextInt(), random.nextInt(0x10000), random.nextInt(5),
                        addressLength, address, payload);
                    frame = concat(destinationBytes, source, bytes(protocol >>> 8, protocol), payload);
                }
                case RAW ->
                {
                    packet = payload;
                    // The version is read from what was captured: a packet cut to nothing has none.
                    final boolean six = payload.length > 0 && cut > 0 && 6 == (payload[0] & 0xF0) >>> 4;
                    frame = concat(destinationBytes, SYNTHETIC_SOURCE, six ? bytes(0x86, 0xDD) : bytes(0x08, 0x00),
                        payload);
                }
                case IPV4 ->
                {
                    packet = payload;
                    frame = concat(destinationBytes, SYNTHETIC_SOURCE, bytes(0x08, 0x00), payload);
                }
                default ->
                {
                    packet = payload;
                    frame = payload;
                }
            }
            final byte[] captured = java.util.Arrays.copyOf(packet, Math.min(packet.length, cut));
            final int header = SLL == linkTypes[id] ? 16 : SLL2 == linkTypes[id] ? 20 : 0;
            final byte[] expectedFrame = captured.length < header ? new byte[0] :
                java.util.Arrays.copyOf(frame, frame.length - (packet.length - captured.length));
            builder.enhancedPacket(id, i, captured.length, packet.length, captured);
            expected.add(expectedFrame);
            types.add(linkTypes[id]);
        }
        final byte[] file = builder.toByteArray();
        assertTrue(file.length > 3 * PcapReader.MIN_BUFFER_CAPACITY, "file of " + file.length + " bytes");

        final Path path = dir.resolve("random.pcapng");
        Files.write(path, file);
        try (PcapReader reader = PcapReader.open(path, PcapReader.MIN_BUFFER_CAPACITY).destinationMac(destination))
        {
            for (int i = 0; i < expected.size(); i++)
            {
                assertTrue(reader.next(), "packet " + i + ", seed " + seed);
                assertEquals((int)types.get(i), reader.linkType(), "packet " + i + ", seed " + seed);
                assertEquals(i, reader.timestampNanos(), "seed " + seed);
                final byte[] actual = new byte[reader.capturedLength()];
                reader.buffer().getBytes(reader.offset(), actual);
                final int index = i;
                assertArrayEquals(expected.get(i), actual, () -> "packet " + index + " of link type " +
                    types.get(index) + ", seed " + seed + "\nexpected " + HexFormat.of().formatHex(
                    expected.get(index)) + "\nactual   " + HexFormat.of().formatHex(actual));
            }
            assertFalse(reader.next(), "seed " + seed);
        }
    }

    @Test
    void shouldTellWhichCapturesNeedNormalizingAndWriteTheirEthernetCopy() throws Exception
    {
        final byte[] ip = PcapFileBuilder.pattern(64, 8);
        ip[0] = 0x45;
        final byte[] ethernet = concat(mac("00:11:22:33:44:55"), SENDER, bytes(0x08, 0x00), ip);
        final Path classicEthernet = write("ethernet.pcap", new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, 1).record(1, 2, ethernet).toByteArray());
        final Path classicSll = write("sll.pcap", new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, SLL).toByteArray());
        final PcapngFileBuilder ethernetOnly = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .section(ByteOrder.LITTLE_ENDIAN).interfaceDescription(1, 0).interfaceDescription(RAW, 0)
            .enhancedPacket(0, 1, ethernet);
        final Path pcapngEthernet = write("ethernet.pcapng", ethernetOnly.toByteArray());
        final PcapngFileBuilder mixedBuilder = new PcapngFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .section(ByteOrder.LITTLE_ENDIAN);
        mixedBuilder.interfaceDescription(1, 0).interfaceDescription(SLL2, 0, mixedBuilder.tsresol(9))
            .enhancedPacket(0, 3_000_001L, ethernet)
            .enhancedPacket(1, 4 * SECOND + 7, sll2(0x0800, 2, 1, 0, 6, SENDER, ip))
            .enhancedPacket(1, 5 * SECOND, java.util.Arrays.copyOf(sll2(0x0800, 2, 1, 0, 6, SENDER, ip), 10));
        final Path mixed = write("mixed.pcapng", mixedBuilder.toByteArray());

        assertFalse(PcapNormalizer.needsNormalizing(classicEthernet));
        assertTrue(PcapNormalizer.needsNormalizing(classicSll));
        // Any pcapng: libpcap reads pcapng otherwise than PcapReader (snap length of the first interface, one link
        // type for all), so net_pcap gets a classic copy.
        assertTrue(PcapNormalizer.needsNormalizing(pcapngEthernet));
        assertTrue(PcapNormalizer.needsNormalizing(mixed));

        final Path copy = dir.resolve("copy.pcap");
        assertEquals(3, PcapNormalizer.normalize(mixed, copy, 0x0a1b_2c3d_4e5fL));
        try (PcapReader reader = PcapReader.open(copy))
        {
            assertFalse(reader.pcapng());
            assertEquals(1, reader.linkType());
            assertTrue(reader.nanosecondResolution());
            assertFrame(reader, ethernet);
            assertEquals(3 * SECOND + 1_000, reader.timestampNanos());
            assertFrame(reader, concat(APPLIANCE, SENDER, bytes(0x08, 0x00), ip));
            assertEquals(4 * SECOND + 7, reader.timestampNanos());
            assertFrame(reader, new byte[0]);
            assertEquals(5 * SECOND, reader.timestampNanos());
            assertFalse(reader.next());
        }

        final Path unsupported = write("wifi.pcap", new PcapFileBuilder(ByteOrder.LITTLE_ENDIAN)
            .globalHeader(PcapFormat.MAGIC_MICROSECONDS, 65535, 105).toByteArray());
        assertContains(assertThrows(PcapFormatException.class, () -> PcapNormalizer.needsNormalizing(unsupported)),
            "unsupported link type 105");
    }

    private Path write(final String name, final byte[] bytes) throws Exception
    {
        final Path path = dir.resolve(name);
        Files.write(path, bytes);
        return path;
    }

    private PcapReader open(final byte[] file) throws Exception
    {
        return PcapReader.open(write("capture-" + System.nanoTime(), file));
    }

    private static void assertFrame(final PcapReader reader, final byte[] expected) throws Exception
    {
        assertTrue(reader.next(), "another packet");
        final byte[] actual = new byte[reader.capturedLength()];
        reader.buffer().getBytes(reader.offset(), actual);
        assertEquals(HexFormat.of().formatHex(expected), HexFormat.of().formatHex(actual));
        assertTrue(reader.originalLength() >= reader.capturedLength());
    }

    static byte[] sll(
        final int packetType,
        final int arphrd,
        final int addressLength,
        final byte[] address,
        final int protocol,
        final byte[] payload)
    {
        final ByteBuffer header = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN)
            .putShort((short)packetType).putShort((short)arphrd).putShort((short)addressLength)
            .put(java.util.Arrays.copyOf(address, 8)).putShort((short)protocol);
        return concat(header.array(), payload);
    }

    static byte[] sll2(
        final int protocol,
        final int interfaceIndex,
        final int arphrd,
        final int packetType,
        final int addressLength,
        final byte[] address,
        final byte[] payload)
    {
        final ByteBuffer header = ByteBuffer.allocate(20).order(ByteOrder.BIG_ENDIAN)
            .putShort((short)protocol).putShort((short)0).putInt(interfaceIndex).putShort((short)arphrd)
            .put((byte)packetType).put((byte)addressLength).put(java.util.Arrays.copyOf(address, 8));
        return concat(header.array(), payload);
    }

    private static byte[] mac(final String text)
    {
        return HexFormat.ofDelimiter(":").parseHex(text);
    }

    private static byte[] mac(final long value)
    {
        final byte[] bytes = new byte[6];
        for (int i = 0; i < 6; i++)
        {
            bytes[i] = (byte)(value >>> (40 - 8 * i));
        }
        return bytes;
    }

    private static byte[] bytes(final int... values)
    {
        final byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++)
        {
            bytes[i] = (byte)values[i];
        }
        return bytes;
    }

    private static byte[] concat(final byte[]... parts)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (final byte[] part : parts)
        {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
