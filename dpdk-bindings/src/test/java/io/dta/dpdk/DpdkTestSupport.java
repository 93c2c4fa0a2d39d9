package io.dta.dpdk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Helpers for the EAL tests: a tiny nanosecond pcap writer/reader, independent of the code under test, and the EAL
 * clean-up check.
 */
final class DpdkTestSupport
{
    private DpdkTestSupport()
    {
    }

    /**
     * Closes a test's EAL and checks that its runtime directory is gone.
     */
    static void closeAndCheckRuntimeDirectory(final Eal eal)
    {
        final Path runtimeDirectory = eal.runtimeDirectory();
        eal.close();
        if (Files.exists(runtimeDirectory))
        {
            throw new AssertionError("EAL runtime directory left behind: " + runtimeDirectory);
        }
    }

    record Frame(long timestampNanos, byte[] data)
    {
    }

    static List<Frame> randomFrames(final long seed, final int count)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Frame> frames = new ArrayList<>(count);
        long t = 1_700_000_000_000_000_000L;
        for (int i = 0; i < count; i++)
        {
            final byte[] data = new byte[60 + random.nextInt(1400)];
            random.nextBytes(data);
            t += 1 + random.nextInt(5_000);
            frames.add(new Frame(t, data));
        }
        return frames;
    }

    static void writeNanoPcap(final Path file, final List<Frame> frames) throws IOException
    {
        int size = 24;
        for (final Frame f : frames)
        {
            size += 16 + f.data().length;
        }
        final ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(0xA1B23C4D).putShort((short)2).putShort((short)4).putInt(0).putInt(0).putInt(65535).putInt(1);
        for (final Frame f : frames)
        {
            out.putInt((int)(f.timestampNanos() / 1_000_000_000L)).putInt((int)(f.timestampNanos() % 1_000_000_000L))
                .putInt(f.data().length).putInt(f.data().length).put(f.data());
        }
        Files.write(file, out.array());
    }

    static List<Frame> readPcap(final Path file) throws IOException
    {
        final ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        final int magic = in.getInt();
        final long fraction = 0xA1B23C4D == magic ? 1 : 1000;
        in.position(24);
        final List<Frame> frames = new ArrayList<>();
        while (in.remaining() >= 16)
        {
            final long seconds = in.getInt() & 0xFFFF_FFFFL;
            final long sub = in.getInt() & 0xFFFF_FFFFL;
            final int captured = in.getInt();
            in.getInt();
            final byte[] data = new byte[captured];
            in.get(data);
            frames.add(new Frame(seconds * 1_000_000_000L + sub * fraction, data));
        }
        return frames;
    }
}
