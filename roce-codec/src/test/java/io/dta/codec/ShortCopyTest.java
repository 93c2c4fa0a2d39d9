package io.dta.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ShortCopyTest
{
    @Test
    void shouldCopyExactlyTheBytesPutBytesCopiesForEveryLengthAndAlignment()
    {
        final long seed = 0x5107C0B1L;
        final SplittableRandom random = new SplittableRandom(seed);
        final UnsafeBuffer src = new UnsafeBuffer(ByteBuffer.allocateDirect(512));
        final UnsafeBuffer expected = new UnsafeBuffer(new byte[512]);
        final UnsafeBuffer actual = new UnsafeBuffer(new byte[512]);
        for (int i = 0; i < 512; i++)
        {
            src.putByte(i, (byte)random.nextInt());
        }
        for (int run = 0; run < 5000; run++)
        {
            final int length = random.nextInt(0, 200);
            final int from = random.nextInt(0, 512 - length + 1);
            final int to = random.nextInt(0, 512 - length + 1);
            final byte fill = (byte)random.nextInt();
            expected.setMemory(0, 512, fill);
            actual.setMemory(0, 512, fill);
            expected.putBytes(to, src, from, length);
            ShortCopy.copy(actual, to, src, from, length);
            assertEquals(0, expected.compareTo(actual),
                "seed " + seed + ", run " + run + ": " + length + " bytes from " + from + " to " + to);
        }
    }
}
