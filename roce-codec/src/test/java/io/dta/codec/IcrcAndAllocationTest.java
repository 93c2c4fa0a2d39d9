package io.dta.codec;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ICRC over every kind of buffer backing (byte array, heap and direct ByteBuffer with offsets, raw address),
 * against a naive copy-and-mask reference, and steady-state zero allocation of the hot paths.
 */
class IcrcAndAllocationTest
{
    private static final long SEED = 0x1C2CL;

    private static long naiveIcrc(final byte[] frame, final int ipOffset, final int icrcOffset)
    {
        final byte[] masked = new byte[8 + icrcOffset - ipOffset];
        java.util.Arrays.fill(masked, 0, 8, (byte)0xFF);
        System.arraycopy(frame, ipOffset, masked, 8, icrcOffset - ipOffset);
        masked[8 + 1] = (byte)0xFF;
        masked[8 + 8] = (byte)0xFF;
        masked[8 + 10] = (byte)0xFF;
        masked[8 + 11] = (byte)0xFF;
        masked[8 + 26] = (byte)0xFF;
        masked[8 + 27] = (byte)0xFF;
        masked[8 + 32] = (byte)0xFF;
        final CRC32 crc = new CRC32();
        crc.update(masked);
        return crc.getValue();
    }

    @Test
    void shouldGiveTheSameIcrcForEveryBufferBacking()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final Icrc icrc = new Icrc();
        final ByteBuffer direct = ByteBuffer.allocateDirect(4096);
        final ByteBuffer heap = ByteBuffer.allocate(4096);
        final long raw = BufferUtil.address(direct);
        for (int i = 0; i < 2_000; i++)
        {
            final String msg = "seed " + SEED + " case " + i;
            final int length = 14 + 40 + random.nextInt(1500) + 4;
            final byte[] frame = new byte[length];
            random.nextBytes(frame);
            final int ipOffset = 14;
            final int icrcOffset = length - 4;
            final int expected = (int)naiveIcrc(frame, ipOffset, icrcOffset);
            final int shift = random.nextInt(64);

            assertEquals(expected, icrc.compute(new UnsafeBuffer(frame), ipOffset, icrcOffset), msg + " byte[]");

            final byte[] larger = new byte[length + shift];
            System.arraycopy(frame, 0, larger, shift, length);
            assertEquals(expected, icrc.compute(new UnsafeBuffer(larger, shift, length), ipOffset, icrcOffset),
                msg + " byte[] offset");

            direct.clear();
            direct.position(shift);
            direct.put(frame);
            assertEquals(expected, icrc.compute(new UnsafeBuffer(direct, shift, length), ipOffset, icrcOffset),
                msg + " direct");
            final ByteBuffer slice = direct.duplicate().position(shift).limit(shift + length).slice();
            assertEquals(expected, icrc.compute(new UnsafeBuffer(slice), ipOffset, icrcOffset), msg + " slice");

            heap.clear();
            heap.position(shift);
            heap.put(frame);
            final ByteBuffer heapSlice = heap.duplicate().position(shift).limit(shift + length).slice();
            assertEquals(expected, icrc.compute(new UnsafeBuffer(heapSlice), ipOffset, icrcOffset), msg + " heap");

            assertEquals(expected, icrc.compute(new UnsafeBuffer(raw + shift, length), ipOffset, icrcOffset),
                msg + " raw address");
        }
    }

    @Test
    void shouldRefuseToVerifyIpOptionsOrShortDatagrams() throws Exception
    {
        final byte[] ack = TestFrames.hexVectors().get("ack")[0];
        final UnsafeBuffer frame = new UnsafeBuffer(ack.clone());
        final Icrc icrc = new Icrc();
        assertTrue(icrc.verify(frame, 14, ack.length));
        assertFalse(icrc.verify(frame, 14, 14 + 43));
        frame.putByte(14, (byte)0x46);
        assertFalse(Icrc.isVerifiable(frame, 14, ack.length));
        assertFalse(icrc.verify(frame, 14, ack.length));
    }

    private static long allocatedBytes()
    {
        return ((com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void shouldNotAllocateInSteadyState() throws Exception
    {
        final FrameDecoder decoder = new FrameDecoder().baseHeaderForm(DtaBaseHeaderForm.AUTO);
        final RoceFrameEncoder encoder = new RoceFrameEncoder();
        final KeyHash keyHash = new KeyHash();
        final UnsafeBuffer heapFrame = new UnsafeBuffer(TestFrames.hexVectors().get("write_only")[0]);
        final ByteBuffer directBytes = ByteBuffer.allocateDirect(256);
        directBytes.put(TestFrames.hexVectors().get("fetch_add")[0]);
        final UnsafeBuffer directFrame = new UnsafeBuffer(directBytes, 0, 86);
        final UnsafeBuffer out = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[1024]);
        final UnsafeBuffer report = new UnsafeBuffer(new byte[128]);
        final TestFrames.DtaReportBuilder builder = new TestFrames.DtaReportBuilder();
        builder.subHeader = new byte[9];
        final int reportLength = builder.build(report, 0);

        long sink = 0;
        for (int round = 0; round < 3; round++)
        {
            final long before = allocatedBytes();
            for (int i = 0; i < 20_000; i++)
            {
                decoder.decode(heapFrame, 0, heapFrame.capacity());
                sink += decoder.icrcValid() ? 1 : 0;
                decoder.decode(directFrame, 0, 86);
                sink += decoder.icrcValid() ? 1 : 0;
                sink += decoder.ipChecksumValid() ? 1 : 0;
                decoder.decode(report, 0, reportLength);
                sink += decoder.keyWrite().key();
                encoder.opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).psn(i).payload(payload, 0, 8 + (i & 511));
                sink += encoder.encode(out, 0);
                sink += keyHash.slotIndex(i, i & 3, 1024);
            }
            final long allocated = allocatedBytes() - before;
            if (round == 2)
            {
                // The measurement itself may allocate a few bytes; 80,000 operations must not.
                assertTrue(allocated < 1024, "allocated " + allocated + " bytes (sink " + sink + ")");
            }
        }
    }
}
