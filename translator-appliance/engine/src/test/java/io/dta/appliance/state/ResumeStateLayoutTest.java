package io.dta.appliance.state;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class ResumeStateLayoutTest
{
    @Test
    void shouldPlaceEntriesAsTheLayoutTableSays()
    {
        assertEquals(64, ResumeStateLayout.listEntryOffset(0));
        assertEquals(64 + 2 * 64 + 32, ResumeStateLayout.positionOffset(2));
        assertEquals(64 + 3 * 64 + 32, ResumeStateLayout.qpEntryOffset(3, 1));
        assertEquals(64 + 3 * 64 + 2 * 32, ResumeStateLayout.fileLength(3, 2));
        assertEquals(0x315453494C415444L, new UnsafeBuffer("DTALIST1".getBytes(java.nio.charset.StandardCharsets
            .US_ASCII)).getLong(0, ByteOrder.LITTLE_ENDIAN), "the magic reads \"DTALIST1\"");
    }

    /** The CRC covers what never changes while the file is in use, and nothing else. */
    @Test
    void shouldChecksumTheStaticBytesOnly()
    {
        final int lists = 2;
        final int qps = 2;
        final UnsafeBuffer b = new UnsafeBuffer(new byte[ResumeStateLayout.fileLength(lists, qps)]);
        final SplittableRandom random = new SplittableRandom(0xC0C);
        for (int i = 0; i < b.capacity(); i++)
        {
            b.putByte(i, (byte)random.nextInt());
        }
        final int crc = ResumeStateLayout.crc(b, ResumeStateLayout.VERSION, lists, qps);
        final int[] changing = {ResumeStateLayout.CRC_OFFSET, ResumeStateLayout.PID_OFFSET,
            ResumeStateLayout.PROCESS_START_OFFSET, ResumeStateLayout.CREATED_OFFSET, ResumeStateLayout.CLOSED_OFFSET,
            ResumeStateLayout.positionOffset(1), ResumeStateLayout.listEntryOffset(0) + 40,
            ResumeStateLayout.qpEntryOffset(lists, 1) + ResumeStateLayout.QP_NEXT_PSN_OFFSET,
            ResumeStateLayout.qpEntryOffset(lists, 0) + 28};
        for (final int at : changing)
        {
            b.putByte(at, (byte)(b.getByte(at) ^ 0x5A));
            assertEquals(crc, ResumeStateLayout.crc(b, ResumeStateLayout.VERSION, lists, qps), "offset " + at);
        }
        final int[] checked = {ResumeStateLayout.MAGIC_OFFSET, ResumeStateLayout.VERSION_OFFSET,
            ResumeStateLayout.COUNT_OFFSET, ResumeStateLayout.QP_COUNT_OFFSET,
            ResumeStateLayout.QP_ENTRY_LENGTH_OFFSET + 3, ResumeStateLayout.listEntryOffset(1) + 31,
            ResumeStateLayout.qpEntryOffset(lists, 1) + ResumeStateLayout.QP_NAME_HASH_OFFSET};
        for (final int at : checked)
        {
            b.putByte(at, (byte)(b.getByte(at) ^ 0x5A));
            assertNotEquals(crc, ResumeStateLayout.crc(b, ResumeStateLayout.VERSION, lists, qps), "offset " + at);
            b.putByte(at, (byte)(b.getByte(at) ^ 0x5A));
        }
        // Version 1 has no QP part: its bytes do not count.
        final int v1 = ResumeStateLayout.crc(b, ResumeStateLayout.VERSION_LISTS_ONLY, lists, 0);
        b.putByte(ResumeStateLayout.QP_COUNT_OFFSET, (byte)(b.getByte(ResumeStateLayout.QP_COUNT_OFFSET) ^ 1));
        assertEquals(v1, ResumeStateLayout.crc(b, ResumeStateLayout.VERSION_LISTS_ONLY, lists, 0));
    }
}
