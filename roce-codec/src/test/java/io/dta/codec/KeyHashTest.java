package io.dta.codec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class KeyHashTest
{
    private static final long SEED = 0x6b657968L;

    @Test
    void shouldMatchTheJdkCrc32ForRandomKeysAndCopyIndices()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final KeyHash keyHash = new KeyHash();
        final ByteBuffer bytes = ByteBuffer.allocate(5).order(ByteOrder.LITTLE_ENDIAN);
        final CRC32 jdk = new CRC32();
        for (int i = 0; i < 20_000; i++)
        {
            // Repeated keys exercise the kept register; the edges are the all-zero and all-one keys.
            final long key = switch (i % 4)
            {
                case 0 -> 0L;
                case 1 -> 0xFFFF_FFFFL;
                default -> random.nextLong(1L << 32);
            };
            bytes.clear();
            bytes.putInt((int)key);
            jdk.reset();
            jdk.update(bytes.array(), 0, 4);
            assertEquals(jdk.getValue(), keyHash.checksum(key), "checksum of key " + key + ", seed " + SEED);
            final int n = random.nextInt(256);
            bytes.put(4, (byte)n);
            jdk.reset();
            jdk.update(bytes.array(), 0, 5);
            assertEquals(jdk.getValue(), keyHash.slotHash(key, n), "slot hash of key " + key + " n " + n +
                ", seed " + SEED);
        }
    }
}
