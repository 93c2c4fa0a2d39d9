package io.dta.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Truncated, random, mutated and deliberately broken frames: the decoder never throws, never reports an internal
 * error, and names a sensible reason.
 */
class MalformedFrameTest
{
    private static final long SEED = 0xBADF00DL;

    private final FrameDecoder decoder = new FrameDecoder();

    private static final class Sample
    {
        final String name;
        final byte[] bytes;
        final DtaBaseHeaderForm form;
        final boolean roce;

        Sample(final String name, final byte[] bytes, final DtaBaseHeaderForm form, final boolean roce)
        {
            this.name = name;
            this.bytes = bytes;
            this.form = form;
            this.roce = roce;
        }
    }

    private static List<Sample> samples() throws Exception
    {
        final List<Sample> samples = new ArrayList<>();
        for (final var entry : TestFrames.hexVectors().entrySet())
        {
            samples.add(new Sample(entry.getKey(), entry.getValue()[0], DtaBaseHeaderForm.THREE, true));
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        for (int opcode = 1; opcode <= 4; opcode++)
        {
            for (final DtaBaseHeaderForm form : new DtaBaseHeaderForm[] { DtaBaseHeaderForm.THREE,
                DtaBaseHeaderForm.TWO })
            {
                for (int tags = 0; tags <= 2; tags++)
                {
                    final TestFrames.DtaReportBuilder builder = new TestFrames.DtaReportBuilder();
                    builder.opcode = opcode;
                    builder.form = form;
                    builder.vlanIds = new int[tags];
                    builder.vlanPcps = new int[tags];
                    builder.ipOptionWords = tags;
                    builder.subHeader = new byte[DtaOpcode.subHeaderLength(opcode, 4)];
                    java.util.Arrays.fill(builder.subHeader, (byte)1);
                    final int length = builder.build(buffer, 0);
                    final byte[] bytes = new byte[length];
                    buffer.getBytes(0, bytes);
                    samples.add(new Sample("dta op " + opcode + " " + form + " tags " + tags, bytes, form, false));
                }
            }
        }
        return samples;
    }

    @Test
    void shouldReportTruncationAtEveryByteOffset() throws Exception
    {
        for (final Sample sample : samples())
        {
            decoder.baseHeaderForm(sample.form);
            final UnsafeBuffer frame = new UnsafeBuffer(sample.bytes);
            assertEquals(sample.roce ? FrameKind.ROCE : FrameKind.DTA, decoder.decode(frame, 0, sample.bytes.length),
                sample.name);
            final int ipOffset = decoder.ipOffset();
            for (int cut = 0; cut < sample.bytes.length; cut++)
            {
                final String msg = sample.name + " cut " + cut;
                assertEquals(FrameKind.MALFORMED, decoder.decode(frame, 0, cut), msg);
                final MalformedReason expected = cut < ipOffset ? MalformedReason.TRUNCATED_ETHERNET :
                    MalformedReason.TRUNCATED_IPV4;
                assertEquals(expected, decoder.malformedReason(), msg);
            }
        }
    }

    @Test
    void shouldReportShortDatagramsWithConsistentLengths() throws Exception
    {
        final Set<MalformedReason> roceReasons = EnumSet.of(
            MalformedReason.TRUNCATED_BTH, MalformedReason.TRUNCATED_ROCE_HEADERS, MalformedReason.BAD_PAD);
        for (final Sample sample : samples())
        {
            decoder.baseHeaderForm(sample.form);
            decoder.decode(new UnsafeBuffer(sample.bytes), 0, sample.bytes.length);
            final int ipOffset = decoder.ipOffset();
            final int ipHeader = decoder.ipv4().headerLength();
            final int udpOffset = decoder.udpOffset();
            for (int cut = ipOffset + ipHeader; cut < sample.bytes.length; cut++)
            {
                final String msg = sample.name + " cut " + cut;
                final UnsafeBuffer frame = new UnsafeBuffer(sample.bytes.clone());
                final Ipv4Flyweight ip = new Ipv4Flyweight().wrap(frame, ipOffset);
                ip.totalLength(cut - ipOffset).updateChecksum();
                if (cut - udpOffset >= 8)
                {
                    new UdpFlyweight().wrap(frame, udpOffset).length(cut - udpOffset);
                }
                final FrameKind kind = decoder.decode(frame, 0, cut);
                assertTrue(decoder.ipChecksumValid(), msg);
                if (cut - udpOffset < 8)
                {
                    assertEquals(FrameKind.MALFORMED, kind, msg);
                    assertEquals(MalformedReason.TRUNCATED_UDP, decoder.malformedReason(), msg);
                }
                else if (!sample.roce)
                {
                    assertEquals(FrameKind.MALFORMED, kind, msg);
                    assertEquals(MalformedReason.TRUNCATED_DTA, decoder.malformedReason(), msg);
                }
                else if (kind == FrameKind.ROCE)
                {
                    // Cutting into the payload can leave a consistent but shorter packet: the ICRC catches it.
                    assertFalse(decoder.icrcValid(), msg);
                }
                else
                {
                    assertEquals(FrameKind.MALFORMED, kind, msg);
                    assertTrue(roceReasons.contains(decoder.malformedReason()), msg + " " + decoder.malformedReason());
                }
            }
        }
    }

    @Test
    void shouldSurviveRandomBytes()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final byte[] bytes = new byte[512];
        final UnsafeBuffer frame = new UnsafeBuffer(bytes);
        for (int i = 0; i < 20_000; i++)
        {
            final String msg = "seed " + SEED + " case " + i;
            random.nextBytes(bytes);
            final int length = random.nextInt(bytes.length + 1);
            if (random.nextBoolean())
            {
                // Steer into the deeper layers: IPv4 / UDP to one of our ports, lengths mostly consistent.
                frame.putShort(12, (short)0x0800, ByteOrder.BIG_ENDIAN);
                frame.putByte(14, (byte)(0x45 + (random.nextInt(8) == 0 ? random.nextInt(11) : 0)));
                frame.putByte(23, (byte)17);
                frame.putShort(20, (short)(random.nextInt(4) == 0 ? random.nextInt(0x10000) : 0x4000),
                    ByteOrder.BIG_ENDIAN);
                frame.putShort(36, (short)(random.nextBoolean() ? 4791 : 40040), ByteOrder.BIG_ENDIAN);
                if (random.nextInt(4) != 0 && length >= 42)
                {
                    frame.putShort(16, (short)(length - 14), ByteOrder.BIG_ENDIAN);
                    frame.putShort(38, (short)(length - 34), ByteOrder.BIG_ENDIAN);
                }
            }
            decoder.baseHeaderForm(DtaBaseHeaderForm.values()[random.nextInt(3)]);
            decoder.verifyUdpChecksum(random.nextBoolean());
            final FrameKind kind = decoder.decode(frame, 0, length);
            assertNotEquals(MalformedReason.INTERNAL_ERROR, decoder.malformedReason(), msg);
            assertEquals(kind == FrameKind.MALFORMED, decoder.malformedReason() != MalformedReason.NONE, msg);
            decoder.icrcValid();
            decoder.ipChecksumValid();
            decoder.udpChecksumValid();
        }
        decoder.verifyUdpChecksum(false);
    }

    @Test
    void shouldSurviveMutatedValidFrames() throws Exception
    {
        final SplittableRandom random = new SplittableRandom(SEED + 1);
        final List<Sample> samples = samples();
        for (int i = 0; i < 20_000; i++)
        {
            final String msg = "seed " + (SEED + 1) + " case " + i;
            final Sample sample = samples.get(random.nextInt(samples.size()));
            final byte[] bytes = sample.bytes.clone();
            final int mutations = 1 + random.nextInt(4);
            for (int m = 0; m < mutations; m++)
            {
                bytes[random.nextInt(bytes.length)] = (byte)random.nextInt(256);
            }
            decoder.baseHeaderForm(DtaBaseHeaderForm.values()[random.nextInt(3)]);
            decoder.decode(new UnsafeBuffer(bytes), 0, random.nextInt(bytes.length + 1));
            assertNotEquals(MalformedReason.INTERNAL_ERROR, decoder.malformedReason(), msg);
            decoder.icrcValid();
        }
    }

    private UnsafeBuffer roce(final String name) throws Exception
    {
        return new UnsafeBuffer(TestFrames.hexVectors().get(name)[0].clone());
    }

    private UnsafeBuffer keyWriteReport()
    {
        final TestFrames.DtaReportBuilder builder = new TestFrames.DtaReportBuilder();
        builder.subHeader = TestFrames.hex("01 00000001 00000002");
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[54]);
        assertEquals(54, builder.build(buffer, 0));
        return buffer;
    }

    private void assertMalformed(final UnsafeBuffer frame, final MalformedReason reason)
    {
        assertEquals(FrameKind.MALFORMED, decoder.decode(frame, 0, frame.capacity()), reason.name());
        assertEquals(reason, decoder.malformedReason());
    }

    @Test
    void shouldNameIpAndUdpProblems() throws Exception
    {
        for (int ihl = 0; ihl < 5; ihl++)
        {
            final UnsafeBuffer frame = keyWriteReport();
            frame.putByte(14, (byte)(0x40 | ihl));
            assertMalformed(frame, MalformedReason.BAD_IHL);
        }
        UnsafeBuffer frame = keyWriteReport();
        frame.putByte(14, (byte)0x4F);
        assertMalformed(frame, MalformedReason.TRUNCATED_IPV4);

        frame = keyWriteReport();
        frame.putByte(14, (byte)0x65);
        assertMalformed(frame, MalformedReason.BAD_IP_VERSION);

        frame = keyWriteReport();
        frame.putShort(16, (short)19, ByteOrder.BIG_ENDIAN);
        assertMalformed(frame, MalformedReason.BAD_IP_TOTAL_LENGTH);

        frame = keyWriteReport();
        frame.putShort(16, (short)41, ByteOrder.BIG_ENDIAN);
        assertMalformed(frame, MalformedReason.TRUNCATED_IPV4);

        frame = keyWriteReport();
        frame.putShort(20, (short)0x2000, ByteOrder.BIG_ENDIAN);
        assertMalformed(frame, MalformedReason.FRAGMENTED);
        frame.putShort(20, (short)0x0010, ByteOrder.BIG_ENDIAN);
        assertMalformed(frame, MalformedReason.FRAGMENTED);

        frame = keyWriteReport();
        frame.putShort(38, (short)7, ByteOrder.BIG_ENDIAN);
        assertMalformed(frame, MalformedReason.BAD_UDP_LENGTH);
        frame.putShort(38, (short)21, ByteOrder.BIG_ENDIAN);
        assertMalformed(frame, MalformedReason.BAD_UDP_LENGTH);

        frame = keyWriteReport();
        frame.putShort(40, (short)0x1234, ByteOrder.BIG_ENDIAN);
        assertEquals(FrameKind.DTA, decoder.decode(frame, 0, frame.capacity()));
        assertFalse(decoder.udpChecksumValid());
        decoder.verifyUdpChecksum(true);
        assertMalformed(frame, MalformedReason.BAD_UDP_CHECKSUM);
        frame.putShort(40, (short)UdpFlyweight.computeIpv4Checksum(frame, 14, 34, 20), ByteOrder.BIG_ENDIAN);
        assertEquals(FrameKind.DTA, decoder.decode(frame, 0, frame.capacity()));
        decoder.verifyUdpChecksum(false);

        assertEquals(FrameKind.MALFORMED, decoder.decode(frame, 10, frame.capacity()));
        assertEquals(MalformedReason.FRAME_OUT_OF_BUFFER, decoder.malformedReason());
        assertEquals(FrameKind.MALFORMED, decoder.decode(frame, -1, 10));
        assertEquals(FrameKind.MALFORMED, decoder.decode(null, 0, 10));
        assertEquals(MalformedReason.FRAME_OUT_OF_BUFFER, decoder.malformedReason());
    }

    @Test
    void shouldNameDtaProblems()
    {
        UnsafeBuffer frame = keyWriteReport();
        frame.putByte(42, (byte)0x06);
        assertMalformed(frame, MalformedReason.UNKNOWN_DTA_OPCODE);
        assertEquals(6, decoder.dtaOpcode());

        frame = keyWriteReport();
        decoder.keyWriteDataLength(12);
        assertMalformed(frame, MalformedReason.TRUNCATED_DTA);
        decoder.keyWriteDataLength(4);

        // AUTO: a Key-Write whose payload fits neither form.
        final TestFrames.DtaReportBuilder builder = new TestFrames.DtaReportBuilder();
        builder.subHeader = new byte[9 + 5];
        frame = new UnsafeBuffer(new byte[100]);
        final int length = builder.build(frame, 0);
        decoder.baseHeaderForm(DtaBaseHeaderForm.AUTO);
        assertEquals(FrameKind.MALFORMED, decoder.decode(frame, 0, length));
        assertEquals(MalformedReason.BAD_DTA_LENGTH, decoder.malformedReason());
        builder.subHeader = new byte[5];
        final int shortLength = builder.build(frame, 0);
        assertEquals(FrameKind.MALFORMED, decoder.decode(frame, 0, shortLength));
        assertEquals(MalformedReason.TRUNCATED_DTA, decoder.malformedReason());
        // In a fixed form, a Key-Write may carry more data than the shortest slot's (its store checks the length);
        // any other primitive longer than its size is a bad length.
        decoder.baseHeaderForm(DtaBaseHeaderForm.THREE);
        builder.subHeader = new byte[9 + 5];
        assertEquals(length, builder.build(frame, 0));
        assertEquals(FrameKind.DTA, decoder.decode(frame, 0, length));
        assertEquals(9 + 5, decoder.payloadLength());
        builder.opcode = DtaOpcode.APPEND;
        builder.subHeader = new byte[8 + 1];
        final int appendLength = builder.build(frame, 0);
        assertEquals(FrameKind.MALFORMED, decoder.decode(frame, 0, appendLength));
        assertEquals(MalformedReason.BAD_DTA_LENGTH, decoder.malformedReason());
        decoder.baseHeaderForm(DtaBaseHeaderForm.TWO);
        builder.subHeader = new byte[8];
        assertEquals(FrameKind.MALFORMED, decoder.decode(frame, 0, builder.build(frame, 0)),
            "a three-byte-form Append under the two-byte form");
        assertEquals(MalformedReason.BAD_DTA_LENGTH, decoder.malformedReason());
    }

    @Test
    void shouldNameRoceProblems() throws Exception
    {
        UnsafeBuffer frame = roce("ack");
        frame.putByte(42, (byte)0x15);
        assertMalformed(frame, MalformedReason.UNKNOWN_ROCE_OPCODE);
        assertEquals(0x15, decoder.roceOpcode());

        frame = roce("ack");
        frame.putByte(43, (byte)0x41);
        assertMalformed(frame, MalformedReason.BAD_TVER);

        frame = roce("ack");
        frame.putByte(43, (byte)0x50);
        assertMalformed(frame, MalformedReason.BAD_PAD);

        // An ACK relabelled as a FETCH_ADD has too few bytes for its AtomicETH.
        frame = roce("ack");
        frame.putByte(42, (byte)RoceOpcode.RC_FETCH_ADD);
        assertMalformed(frame, MalformedReason.TRUNCATED_ROCE_HEADERS);

        // A FETCH_ADD relabelled as an ACK has 24 unexpected bytes.
        frame = roce("fetch_add");
        frame.putByte(42, (byte)RoceOpcode.RC_ACKNOWLEDGE);
        assertMalformed(frame, MalformedReason.UNEXPECTED_ROCE_PAYLOAD);

        // WRITE ONLY with 13 payload bytes + 3 pad: claiming PadCnt 3 on a 2-byte payload is impossible.
        frame = roce("write_only");
        final int udpLength = 56 - 14;
        frame.putShort(38, (short)udpLength, ByteOrder.BIG_ENDIAN);
        frame.putShort(16, (short)(udpLength + 20), ByteOrder.BIG_ENDIAN);
        assertEquals(FrameKind.MALFORMED, decoder.decode(frame, 0, 14 + 20 + udpLength));
        assertEquals(MalformedReason.BAD_PAD, decoder.malformedReason());
    }

    @Test
    void shouldLeaveForeignTrafficAsOther() throws Exception
    {
        UnsafeBuffer frame = keyWriteReport();
        frame.putShort(12, (short)EthernetFlyweight.ETHER_TYPE_ARP, ByteOrder.BIG_ENDIAN);
        assertEquals(FrameKind.OTHER, decoder.decode(frame, 0, frame.capacity()));
        frame.putShort(12, (short)EthernetFlyweight.ETHER_TYPE_IPV6, ByteOrder.BIG_ENDIAN);
        assertEquals(FrameKind.OTHER, decoder.decode(frame, 0, frame.capacity()));

        frame = keyWriteReport();
        frame.putByte(23, (byte)Ipv4Flyweight.PROTOCOL_TCP);
        assertEquals(FrameKind.OTHER, decoder.decode(frame, 0, frame.capacity()));
        assertEquals(MalformedReason.NONE, decoder.malformedReason());

        frame = keyWriteReport();
        frame.putShort(36, (short)53, ByteOrder.BIG_ENDIAN);
        assertEquals(FrameKind.OTHER, decoder.decode(frame, 0, frame.capacity()));

        // Cut at a capture's snap length: the IPv4 header is whole and names another protocol, so it is someone
        // else's traffic however much of it the capture kept (tcpdump -s 64 of a TCP segment, ICMP, GRE, ...).
        for (final int protocol : new int[] { Ipv4Flyweight.PROTOCOL_TCP, 1, 47 })
        {
            frame = keyWriteReport();
            frame.putByte(23, (byte)protocol);
            frame.putShort(16, (short)1500, ByteOrder.BIG_ENDIAN);
            for (int cut = 34; cut <= frame.capacity(); cut++)
            {
                assertEquals(FrameKind.OTHER, decoder.decode(frame, 0, cut), "protocol " + protocol + " cut " + cut);
                assertEquals(MalformedReason.NONE, decoder.malformedReason());
            }
        }

        // Cut UDP fragments are classified as whole ones: a first fragment to another port is someone else's, a
        // first fragment to the reports port and any later fragment are dropped as fragmented.
        // { UDP destination port, IPv4 flags and fragment offset, 1 when someone else's traffic }
        final int[][] fragments =
            { { 2049, 0x2000, 1 }, { 40040, 0x2000, 0 }, { 2049, 0x2010, 0 }, { 40040, 0x0010, 0 } };
        for (final int[] f : fragments)
        {
            frame = keyWriteReport();
            frame.putShort(36, (short)f[0], ByteOrder.BIG_ENDIAN);
            frame.putShort(20, (short)f[1], ByteOrder.BIG_ENDIAN);
            final String ctx = "port " + f[0] + " flags/offset 0x" + Integer.toHexString(f[1]);
            final FrameKind whole = decoder.decode(frame, 0, frame.capacity());
            final MalformedReason wholeReason = decoder.malformedReason();
            assertEquals(1 == f[2] ? FrameKind.OTHER : FrameKind.MALFORMED, whole, ctx);
            assertEquals(1 == f[2] ? MalformedReason.NONE : MalformedReason.FRAGMENTED, wholeReason, ctx);
            frame.putShort(16, (short)1500, ByteOrder.BIG_ENDIAN);
            for (int cut = 42; cut <= frame.capacity(); cut++)
            {
                assertEquals(whole, decoder.decode(frame, 0, cut), ctx + " cut " + cut);
                assertEquals(wholeReason, decoder.malformedReason(), ctx + " cut " + cut);
            }
            // Cut inside the UDP header, its port unseen: a fragment still, dropped as one.
            for (int cut = 34; cut < 42; cut++)
            {
                assertEquals(FrameKind.MALFORMED, decoder.decode(frame, 0, cut), ctx + " cut " + cut);
                assertEquals(MalformedReason.FRAGMENTED, decoder.malformedReason(), ctx + " cut " + cut);
            }
        }

        // Three VLAN tags: beyond what the appliance accepts, not ours.
        final byte[] tagged = new byte[12 + 12 + 2];
        final UnsafeBuffer triple = new UnsafeBuffer(tagged);
        for (int t = 0; t < 3; t++)
        {
            triple.putShort(12 + 4 * t, (short)0x8100, ByteOrder.BIG_ENDIAN);
        }
        triple.putShort(24, (short)0x0800, ByteOrder.BIG_ENDIAN);
        assertEquals(FrameKind.OTHER, decoder.decode(triple, 0, tagged.length));

        // A RoCE frame on the DTA port is judged as DTA: opcode 0x0A is unknown there.
        frame = roce("write_only");
        frame.putShort(36, (short)40040, ByteOrder.BIG_ENDIAN);
        assertMalformed(frame, MalformedReason.UNKNOWN_DTA_OPCODE);
    }
}
