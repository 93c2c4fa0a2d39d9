package io.dta.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RepeatedHeaderIcrcTest
{
    private static final long SEED = 0x1C4CL;
    private static final int IP = 14;
    /** Header bytes the ICRC masks: TOS, TTL, IPv4 checksum, UDP checksum, BTH byte 4. */
    private static final int[] MASKED = {1, 8, 10, 11, 26, 27, 32};
    /** Header bytes that vary within one QP's responses: IPv4 identification, BTH AckReq byte and PSN. */
    private static final int[] VARIABLE = {4, 5, 36, 37, 38, 39};

    @Test
    void shouldAgreeWithTheFullComputationOnRepeatedChangedAndCorruptedFrames()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final RepeatedHeaderIcrc cached = new RepeatedHeaderIcrc();
        final Icrc oracle = new Icrc();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final byte[] header = randomHeader(random);
        byte[] previousKey = null;
        long expectedChanges = 0;
        int valid = 0;
        int invalid = 0;
        for (int i = 0; i < 20_000; i++)
        {
            if (random.nextInt(5) == 0)
            {
                // A header byte the responder does not vary: another QP, opcode, length, address...
                final int at = random.nextInt(Icrc.MASKED_HEADER_LENGTH);
                header[at] = (byte)random.nextInt(256);
                header[0] = 0x45;
            }
            final byte[] frame = header.clone();
            for (final int at : VARIABLE)
            {
                frame[at] = (byte)random.nextInt(256);
            }
            for (final int at : MASKED)
            {
                frame[at] = (byte)random.nextInt(256);
            }
            final int tail = random.nextInt(41);
            final int end = IP + Icrc.MASKED_HEADER_LENGTH + tail + Icrc.LENGTH;
            buffer.setMemory(0, buffer.capacity(), (byte)0);
            buffer.putBytes(IP, frame);
            for (int b = IP + Icrc.MASKED_HEADER_LENGTH; b < end - Icrc.LENGTH; b++)
            {
                buffer.putByte(b, (byte)random.nextInt(256));
            }
            buffer.putInt(end - Icrc.LENGTH, Icrc.computeIcrc(buffer, IP, end - Icrc.LENGTH), ByteOrder.LITTLE_ENDIAN);
            if (random.nextInt(3) == 0)
            {
                final int at = IP + random.nextInt(end - IP);
                buffer.putByte(at, (byte)(buffer.getByte(at) ^ (1 << random.nextInt(8))));
            }

            final byte[] key = key(buffer);
            if (0x45 == buffer.getByte(IP))
            {
                if (!Arrays.equals(key, previousKey))
                {
                    expectedChanges++;
                }
                previousKey = key;
            }
            final boolean expected = oracle.verify(buffer, IP, end);
            final int frameIndex = i;
            assertEquals(expected, cached.verify(buffer, IP, end), () -> "seed " + SEED + ", frame " + frameIndex);
            if (expected)
            {
                valid++;
            }
            else
            {
                invalid++;
            }
        }
        assertTrue(valid > 10_000 && invalid > 5_000, valid + " valid, " + invalid + " invalid");
        // The kept header was replaced exactly when an unmasked, invariant byte changed: variable and masked bytes
        // never forced the full computation, and a repeated header never missed.
        assertEquals(expectedChanges, cached.headerChanges());
        assertTrue(expectedChanges < 20_000 / 2, "most frames repeat their header: " + expectedChanges);
    }

    @Test
    void shouldRefuseWhatTheFullComputationCannotVerify()
    {
        final RepeatedHeaderIcrc cached = new RepeatedHeaderIcrc();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        buffer.putByte(IP, (byte)0x46); // IHL 6: not verifiable
        assertFalse(cached.verify(buffer, IP, IP + 60));
        buffer.putByte(IP, (byte)0x45);
        assertFalse(cached.verify(buffer, IP, IP + Icrc.MASKED_HEADER_LENGTH + 3)); // shorter than header + ICRC
        assertFalse(cached.verify(buffer, IP, 200)); // beyond the buffer
        assertEquals(0, cached.headerChanges());
    }

    private static byte[] randomHeader(final SplittableRandom random)
    {
        final byte[] header = new byte[Icrc.MASKED_HEADER_LENGTH];
        for (int i = 0; i < header.length; i++)
        {
            header[i] = (byte)random.nextInt(256);
        }
        header[0] = 0x45;
        return header;
    }

    /** The header as the kept copy sees it: masked bytes as ones, variable bytes as zeros. */
    private static byte[] key(final UnsafeBuffer buffer)
    {
        final byte[] key = new byte[Icrc.MASKED_HEADER_LENGTH];
        buffer.getBytes(IP, key);
        for (final int at : MASKED)
        {
            key[at] = (byte)0xFF;
        }
        for (final int at : VARIABLE)
        {
            key[at] = 0;
        }
        return key;
    }
}
