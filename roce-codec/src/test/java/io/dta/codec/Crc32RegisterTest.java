package io.dta.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;

class Crc32RegisterTest
{
    private static final long SEED = 0x5EED_C0DEL;

    @Test
    void shouldMatchTheJdkCrc32ForEveryLengthAndAlignment()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final byte[] bytes = new byte[600];
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(bytes.length));
        final CRC32 jdk = new CRC32();
        for (int i = 0; i < 5000; i++)
        {
            random.nextBytes(bytes);
            direct.putBytes(0, bytes);
            final int offset = random.nextInt(64);
            final int length = random.nextInt(bytes.length - offset);
            jdk.reset();
            jdk.update(bytes, offset, length);
            final int register = Crc32Register.update(Crc32Register.INITIAL, direct, offset, length);
            assertEquals((int)jdk.getValue(), Crc32Register.value(register),
                "seed " + SEED + " case " + i + " offset " + offset + " length " + length);
        }
    }

    @Test
    void shouldFeedLongsIntsAndBytesAlike()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 1);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        for (int i = 0; i < 10_000; i++)
        {
            final int register = random.nextInt();
            final long value = random.nextLong();
            buffer.putLong(0, value, ByteOrder.LITTLE_ENDIAN);
            int bytewise = register;
            for (int b = 0; b < 8; b++)
            {
                bytewise = Crc32Register.updateByte(bytewise, buffer.getByte(b));
            }
            assertEquals(bytewise, Crc32Register.updateLong(register, value), "seed " + (SEED + 1) + " case " + i);
            assertEquals(bytewise, Crc32Register.updateInt(
                Crc32Register.updateInt(register, (int)value), (int)(value >>> 32)), "seed " + (SEED + 1));
        }
    }

    @Test
    void shouldAdvanceOverZerosAsFeedingZeroBytesWould()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 2);
        for (int i = 0; i < 2000; i++)
        {
            final int register = random.nextInt();
            final int count = random.nextInt(2000);
            int fed = register;
            for (int b = 0; b < count; b++)
            {
                fed = Crc32Register.updateByte(fed, 0);
            }
            assertEquals(fed, Crc32Register.zeros(register, count), "seed " + (SEED + 2) + " count " + count);
        }
    }

    @Test
    void shouldPatchARegisterWithADistanceTableEntry()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 3);
        final byte[] bytes = new byte[100];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        for (int i = 0; i < 500; i++)
        {
            random.nextBytes(bytes);
            final int position = random.nextInt(bytes.length);
            final int distance = bytes.length - 1 - position;
            final int[] table = Crc32Register.distanceTable(distance);
            final int original = bytes[position] & 0xFF;
            bytes[position] = 0;
            final int zeroed = Crc32Register.update(Crc32Register.INITIAL, buffer, 0, bytes.length);
            bytes[position] = (byte)original;
            final int expected = Crc32Register.update(Crc32Register.INITIAL, buffer, 0, bytes.length);
            assertEquals(expected, zeroed ^ table[original], "seed " + (SEED + 3) + " position " + position);
        }
    }
}
