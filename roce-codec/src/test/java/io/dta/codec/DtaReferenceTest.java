package io.dta.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * dta-reference §2.2 key hash table and the §3.5 worked frames, with the correct ICRCs quoted there.
 */
class DtaReferenceTest
{
    private static final long BASE_VA = 0x00007F0000000000L;
    private static final int SLOTS = 256;

    private final KeyHash keyHash = new KeyHash();
    private final RoceFrameEncoder encoder = new RoceFrameEncoder();
    private final FrameDecoder decoder = new FrameDecoder();

    @Test
    void shouldReproduceTheKeyHashTable()
    {
        final long[][] table = {
            { 0, 0x2144DF1CL, 0xC622F71DL, 0xB125C78BL, 0x282C9631L, 0x5F2BA6A7L },
            { 1, 0x99F8B879L, 0xFB42DEADL, 0x8C45EE3BL, 0x154CBF81L, 0x624B8F17L },
            { 2, 0x8B4D1797L, 0xBCE2A47DL, 0xCBE594EBL, 0x52ECC551L, 0x25EBF5C7L },
            { 123456789, 0x18DF6C9EL, 0xC5AD8EA2L, 0xB2AABE34L, 0x2BA3EF8EL, 0x5CA4DF18L },
        };
        for (final long[] row : table)
        {
            assertEquals(row[1], keyHash.checksum(row[0]), "checksum key " + row[0]);
            for (int n = 0; n < 4; n++)
            {
                assertEquals(row[2 + n], keyHash.slotHash(row[0], n), "slot hash key " + row[0] + " n " + n);
            }
        }
        assertEquals(173, keyHash.slotIndex(1, 0, SLOTS));
        assertEquals(59, keyHash.slotIndex(1, 1, SLOTS));
    }

    private void configureReference(final int ttl, final int psn, final long va)
    {
        encoder.dstMac(0xb8cef6d212c7L).srcMac(0xb8cef6d21326L).tos(0).identification(0x2c75).dontFragment(true)
            .ttl(ttl).srcIp(Ipv4Address.parse("10.0.0.101")).dstIp(Ipv4Address.parse("10.0.0.51"))
            .srcPort(10000).opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).migReq(true).pKey(0xFFFF).destQp(0x456)
            .ackReq(false).psn(psn).virtualAddress(va).rKey(0x1234).dmaLength(-1);
    }

    private String encodeKeyWrite(final int n, final int psn)
    {
        final long key = 1;
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[8]);
        payload.putInt(0, (int)keyHash.checksum(key), ByteOrder.LITTLE_ENDIAN);
        payload.putInt(4, 1, ByteOrder.BIG_ENDIAN);
        configureReference(64, psn, BASE_VA + 8L * keyHash.slotIndex(key, n, SLOTS));
        encoder.payload(payload, 0, 8);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[128]);
        final int length = encoder.encode(out, 0);
        assertEquals(82, length);
        final byte[] bytes = new byte[length];
        out.getBytes(0, bytes);
        return TestFrames.toHex(bytes);
    }

    @Test
    void shouldBuildKeyWriteCopiesExactly()
    {
        final String common = "b8cef6d212c7b8cef6d21326080045000044 2c754000 4011f99c0a0000650a000033" +
            "271012b700300000 0a40ffff00000456 00";
        assertEquals(TestFrames.toHex(TestFrames.hex(common + "000100 00007f0000000568 00001234 00000008" +
            "79b8f899 00000001 7752287e")), encodeKeyWrite(0, 0x100));
        assertEquals(TestFrames.toHex(TestFrames.hex(common + "000101 00007f00000001d8 00001234 00000008" +
            "79b8f899 00000001 10757553")), encodeKeyWrite(1, 0x101));
    }

    @Test
    void shouldBuildAppendBatchExactly()
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
        for (int i = 0; i < 4; i++)
        {
            payload.putInt(4 * i, i + 1, ByteOrder.LITTLE_ENDIAN);
        }
        configureReference(63, 0x200, BASE_VA);
        encoder.payload(payload, 0, 16);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[128]);
        final int length = encoder.encode(out, 0);
        final byte[] bytes = new byte[length];
        out.getBytes(0, bytes);
        final String expected = "b8cef6d212c7 b8cef6d21326 0800 4500 004c 2c75 4000 3f 11 fa94 0a000065 0a000033" +
            "2710 12b7 0038 0000 0a 40 ffff 00 000456 00 000200 00007f0000000000 00001234 00000010" +
            "01000000 02000000 03000000 04000000 81fede9d";
        assertEquals(TestFrames.toHex(TestFrames.hex(expected)), TestFrames.toHex(bytes));

        assertEquals(FrameKind.ROCE, decoder.decode(out, 0, length));
        assertTrue(decoder.icrcValid());
        assertTrue(decoder.ipChecksumValid());
        assertEquals(16, decoder.reth().dmaLength());
        assertEquals(16, decoder.payloadLength());
    }

    @Test
    void shouldDecodeReferenceReportsInBothForms()
    {
        // Variant A Key-Write (generators): 54 bytes, padded to 60 on the wire.
        final TestFrames.DtaReportBuilder builder = new TestFrames.DtaReportBuilder();
        builder.subHeader = TestFrames.hex("02 00000001 00000001");
        builder.ethernetPadTo = 60;
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        int length = builder.build(buffer, 0);
        assertEquals(60, length);
        assertEquals(FrameKind.DTA, decoder.decode(buffer, 0, length));
        assertEquals(20, decoder.udpLength());
        assertEquals(40, decoder.ipv4().totalLength());
        assertEquals(45, decoder.payloadOffset());
        assertEquals(2, decoder.keyWrite().redundancy());
        assertEquals(1, decoder.keyWrite().key());
        assertEquals(1, decoder.keyWrite().data());

        // Variant B Key-Write (Reporter P4): IPv4 length 39, UDP length 19.
        builder.form = DtaBaseHeaderForm.TWO;
        length = builder.build(buffer, 0);
        decoder.baseHeaderForm(DtaBaseHeaderForm.AUTO);
        assertEquals(FrameKind.DTA, decoder.decode(buffer, 0, length));
        assertEquals(DtaBaseHeaderForm.TWO, decoder.dtaBaseHeaderForm());
        assertEquals(19, decoder.udpLength());
        assertEquals(39, decoder.ipv4().totalLength());
        assertEquals(44, decoder.payloadOffset());
        assertEquals(1, decoder.keyWrite().key());
    }

    @Test
    void shouldGiveReferenceUdpLengths()
    {
        final int[][] expected = {
            { DtaOpcode.KEY_WRITE, 12, 11 }, { DtaOpcode.KEY_INCREMENT, 16, 15 },
            { DtaOpcode.APPEND, 11, 10 }, { DtaOpcode.POSTCARD, 12, 11 },
        };
        for (final int[] row : expected)
        {
            assertEquals(row[1], DtaOpcode.udpPayloadLength(row[0], 3, 4));
            assertEquals(row[2], DtaOpcode.udpPayloadLength(row[0], 2, 4));
        }
        assertEquals(3 + 5 + 12, DtaOpcode.udpPayloadLength(DtaOpcode.KEY_WRITE, 3, 12));
        assertEquals(-1, DtaOpcode.udpPayloadLength(DtaOpcode.SKETCH_MERGE, 3, 4));
        assertEquals(-1, DtaOpcode.udpPayloadLength(0x77, 3, 4));
    }
}
