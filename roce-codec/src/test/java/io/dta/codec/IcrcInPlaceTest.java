package io.dta.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IcrcInPlaceTest
{
    @Test
    void shouldWriteTheSameIcrcInPlaceAndLeaveTheVariantFieldsAlone()
    {
        final SplittableRandom random = new SplittableRandom(7);
        final Icrc icrc = new Icrc();
        final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final UnsafeBuffer onHeap = new UnsafeBuffer(new byte[2048]);
        for (int i = 0; i < 3000; i++)
        {
            final int length = 14 + 40 + 4 + random.nextInt(400);
            for (int b = 0; b < length; b++)
            {
                frame.putByte(b, (byte)random.nextInt());
            }
            frame.putByte(14, (byte)0x45);
            onHeap.putBytes(0, frame, 0, length);
            final int icrcOffset = length - 4;
            final int expected = icrc.compute(frame, 14, icrcOffset);
            final byte[] before = new byte[icrcOffset];
            frame.getBytes(0, before);
            icrc.writeInPlace(frame, 14, icrcOffset);
            icrc.writeInPlace(onHeap, 14, icrcOffset);
            assertEquals(expected, frame.getInt(icrcOffset, ByteOrder.LITTLE_ENDIAN));
            assertEquals(expected, onHeap.getInt(icrcOffset, ByteOrder.LITTLE_ENDIAN));
            final byte[] after = new byte[icrcOffset];
            frame.getBytes(0, after);
            assertEquals(java.util.HexFormat.of().formatHex(before), java.util.HexFormat.of().formatHex(after));
            assertTrue(icrc.verify(frame, 14, length));
        }
    }
}
