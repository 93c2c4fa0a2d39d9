package io.dta.codec;

import io.dta.codec.pcap.PcapWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CM DREQ and DREP (disconnection): field round trips, byte-exact MADs written from the IBA layout by hand, and
 * Wireshark's InfiniBand CM dissector as an independent reader (skipped when {@code tshark} is not installed).
 */
class CmDisconnectTest
{
    private static final long SEED = 0xD15C_0001L;

    /** MAD header (CM, class version 2, Send) with transaction ID 0x0123456789ABCDEF and attribute DREQ. */
    private static final String DREQ_MAD =
        "01070203 0000 0000 0123456789abcdef 0015 0000 00000000" +
        "11223344" + "55667788" + "abcdef" + "00" + "00".repeat(220);
    /** The DREP answering it: the communication IDs swapped. */
    private static final String DREP_MAD =
        "01070203 0000 0000 0123456789abcdef 0016 0000 00000000" +
        "55667788" + "11223344" + "00".repeat(224);

    @TempDir
    Path dir;

    private final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
    private final FrameDecoder decoder = new FrameDecoder();
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();

    private static CmFrameEncoder encoder()
    {
        final CmFrameEncoder cm = new CmFrameEncoder();
        cm.encoder().dstMac(0x02000a000033L).srcMac(0x02000a000065L).srcIp(0x0a000065).dstIp(0x0a000033)
            .srcPort(0xC000).tos(0).ttl(64).identification(0).migReq(true).pKey(0xFFFF).psn(0x10);
        return cm;
    }

    private int dreqFrame(final CmFrameEncoder cm)
    {
        cm.begin(frame, 0, MadHeaderFlyweight.ATTRIBUTE_DREQ, 0x0123456789ABCDEFL, 0);
        cm.dreq().localCommId(0x11223344L).remoteCommId(0x55667788L).remoteQpn(0xABCDEF);
        return cm.finish(frame, 0);
    }

    private int drepFrame(final CmFrameEncoder cm)
    {
        cm.begin(frame, 0, MadHeaderFlyweight.ATTRIBUTE_DREP, 0x0123456789ABCDEFL, 0);
        cm.drep().localCommId(0x55667788L).remoteCommId(0x11223344L);
        return cm.finish(frame, 0);
    }

    @Test
    void shouldWriteTheDreqAndDrepMadsByteForByte()
    {
        final CmFrameEncoder cm = encoder();
        assertMad(DREQ_MAD, dreqFrame(cm));
        assertMad(DREP_MAD, drepFrame(cm));
    }

    private void assertMad(final String expectedHex, final int length)
    {
        final byte[] expected = TestFrames.hex(expectedHex);
        assertEquals(MadHeaderFlyweight.MAD_LENGTH, expected.length);
        assertEquals(CmFrameEncoder.FRAME_LENGTH, length);
        final byte[] actual = new byte[MadHeaderFlyweight.MAD_LENGTH];
        frame.getBytes(CmFrameEncoder.MAD_OFFSET, actual);
        assertArrayEquals(expected, actual);
        assertEquals(FrameKind.ROCE, decoder.decode(frame, 0, length));
        assertTrue(decoder.icrcValid());
        assertEquals(RoceOpcode.UD_SEND_ONLY, decoder.roceOpcode());
        assertEquals(DethFlyweight.GSI_QPN, decoder.bth().destQp());
        assertEquals(DethFlyweight.GSI_Q_KEY, decoder.deth().qKey());
    }

    @Test
    void shouldNotTouchTheReservedByteAfterTheRemoteQpn()
    {
        final UnsafeBuffer body = new UnsafeBuffer(new byte[CmDreqFlyweight.LENGTH]);
        body.setMemory(0, body.capacity(), (byte)0x5A);
        final CmDreqFlyweight dreq = new CmDreqFlyweight().wrap(body, 0);
        dreq.remoteQpn(0x000102);
        assertEquals(0x000102, dreq.remoteQpn());
        assertEquals(0x5A, body.getByte(11) & 0xFF);
        assertEquals(0x5A, body.getByte(7) & 0xFF);
        assertEquals(12, dreq.privateDataOffset());
        assertEquals(8, new CmDrepFlyweight().wrap(body, 0).privateDataOffset());
        assertEquals(MadHeaderFlyweight.DATA_LENGTH,
            CmDreqFlyweight.PRIVATE_DATA_OFFSET + CmDreqFlyweight.PRIVATE_DATA_LENGTH);
        assertEquals(MadHeaderFlyweight.DATA_LENGTH,
            CmDrepFlyweight.PRIVATE_DATA_OFFSET + CmDrepFlyweight.PRIVATE_DATA_LENGTH);
    }

    @Test
    void shouldRoundTripDreqAndDrepFieldsAtRandom()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final CmFrameEncoder cm = encoder();
        final CmDreqFlyweight dreq = new CmDreqFlyweight();
        final CmDrepFlyweight drep = new CmDrepFlyweight();
        for (int i = 0; i < 5000; i++)
        {
            final String where = "case " + i + " (seed " + SEED + ")";
            final long tid = random.nextLong();
            final long local = random.nextLong() & 0xFFFF_FFFFL;
            final long remote = random.nextLong() & 0xFFFF_FFFFL;
            final int qpn = random.nextInt(1 << 24);
            final boolean isDreq = random.nextBoolean();
            cm.encoder().srcIp(random.nextInt()).dstIp(random.nextInt()).psn(random.nextInt(1 << 24));
            cm.begin(frame, 0, isDreq ? MadHeaderFlyweight.ATTRIBUTE_DREQ : MadHeaderFlyweight.ATTRIBUTE_DREP, tid, 0);
            if (isDreq)
            {
                cm.dreq().localCommId(local).remoteCommId(remote).remoteQpn(qpn);
            }
            else
            {
                cm.drep().localCommId(local).remoteCommId(remote);
            }
            final int length = cm.finish(frame, 0);
            assertEquals(FrameKind.ROCE, decoder.decode(frame, 0, length), where);
            assertTrue(decoder.icrcValid(), where);
            mad.wrap(frame, decoder.payloadOffset());
            assertTrue(mad.isCmSend(), where);
            assertEquals(tid, mad.transactionId(), where);
            if (isDreq)
            {
                assertEquals(MadHeaderFlyweight.ATTRIBUTE_DREQ, mad.attributeId(), where);
                dreq.wrap(frame, mad.dataOffset());
                assertEquals(local, dreq.localCommId(), where);
                assertEquals(remote, dreq.remoteCommId(), where);
                assertEquals(qpn, dreq.remoteQpn(), where);
                assertEquals(0, frame.getByte(mad.dataOffset() + 11), where);
            }
            else
            {
                assertEquals(MadHeaderFlyweight.ATTRIBUTE_DREP, mad.attributeId(), where);
                drep.wrap(frame, mad.dataOffset());
                assertEquals(local, drep.localCommId(), where);
                assertEquals(remote, drep.remoteCommId(), where);
            }
            for (int b = isDreq ? 12 : 8; b < MadHeaderFlyweight.DATA_LENGTH; b++)
            {
                assertEquals(0, frame.getByte(mad.dataOffset() + b), where + " private data byte " + b);
            }
        }
    }

    @Test
    void shouldBeDecodedByWiresharksInfinibandCmDissector() throws Exception
    {
        final boolean installed = Files.isExecutable(Path.of("/usr/bin/tshark")) ||
            Files.isExecutable(Path.of("/usr/local/bin/tshark"));
        Assumptions.assumeTrue(installed, "tshark not installed");

        final SplittableRandom random = new SplittableRandom(SEED);
        final int frames = 50;
        final long[][] expected = new long[frames][];
        final Path file = dir.resolve("disconnect.pcap");
        final CmFrameEncoder cm = encoder();
        try (PcapWriter writer = new PcapWriter(file))
        {
            for (int i = 0; i < frames; i++)
            {
                final long tid = random.nextLong() & Long.MAX_VALUE;
                final long local = random.nextLong() & 0xFFFF_FFFFL;
                final long remote = random.nextLong() & 0xFFFF_FFFFL;
                final int qpn = random.nextInt(1 << 24);
                final boolean isDreq = 0 == (i & 1);
                cm.begin(frame, 0, isDreq ? MadHeaderFlyweight.ATTRIBUTE_DREQ : MadHeaderFlyweight.ATTRIBUTE_DREP,
                    tid, 0);
                if (isDreq)
                {
                    cm.dreq().localCommId(local).remoteCommId(remote).remoteQpn(qpn);
                }
                else
                {
                    cm.drep().localCommId(local).remoteCommId(remote);
                }
                writer.write(i * 1000L, frame, 0, cm.finish(frame, 0));
                expected[i] = new long[] { isDreq ? 0x15 : 0x16, tid, local, remote, isDreq ? qpn : -1 };
            }
        }

        final List<String> lines = tshark(file, "infiniband.mad.attributeid", "infiniband.mad.transactionid",
            "infiniband.cm.dreq.localcommid", "infiniband.cm.dreq.remotecommid", "infiniband.cm.req.remoteqpneecn",
            "infiniband.cm.drsp.localcommid", "infiniband.cm.drsp.remotecommid");
        assertEquals(frames, lines.size(), String.join("\n", lines));
        for (int i = 0; i < frames; i++)
        {
            final String[] f = lines.get(i).split("\t", -1);
            final String where = "frame " + i + " (seed " + SEED + "): " + lines.get(i);
            final long[] e = expected[i];
            assertEquals(e[0], Long.decode(f[0]), where);
            assertEquals(e[1], Long.decode(f[1]), where);
            if (0x15 == e[0])
            {
                assertEquals(e[2], Long.decode(f[2]), where);
                assertEquals(e[3], Long.decode(f[3]), where);
                assertEquals(e[4], Long.decode(f[4]), where);
                assertEquals("", f[5], where);
            }
            else
            {
                assertEquals(e[2], Long.decode(f[5]), where);
                assertEquals(e[3], Long.decode(f[6]), where);
                assertEquals("", f[2], where);
            }
        }
    }

    private List<String> tshark(final Path file, final String... fields) throws Exception
    {
        return Tshark.fields(file, dir, fields);
    }
}
