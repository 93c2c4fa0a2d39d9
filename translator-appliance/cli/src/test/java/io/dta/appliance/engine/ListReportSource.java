package io.dta.appliance.engine;

import io.dta.appliance.demo.ClosedLoopDemo;
import io.dta.appliance.io.FrameSource;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * Report frames held in a list, fed to a {@link ClosedLoopDemo} 500 ns apart from 1 ms on, or at the times given.
 */
final class ListReportSource implements FrameSource
{
    private final List<byte[]> frames;
    private final long[] timesNanos;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[0]);
    private int index = -1;

    /**
     * @param frames the report frames, in the order to feed them.
     */
    ListReportSource(final List<byte[]> frames)
    {
        this(frames, null);
    }

    /**
     * @param frames     the report frames, in the order to feed them.
     * @param timesNanos the time of each, or null for 500 ns apart from 1 ms on.
     */
    ListReportSource(final List<byte[]> frames, final long[] timesNanos)
    {
        this.frames = frames;
        this.timesNanos = timesNanos;
    }

    @Override
    public boolean next()
    {
        if (++index >= frames.size())
        {
            return false;
        }
        buffer.wrap(frames.get(index));
        return true;
    }

    @Override
    public DirectBuffer buffer()
    {
        return buffer;
    }

    @Override
    public int offset()
    {
        return 0;
    }

    @Override
    public int length()
    {
        return frames.get(index).length;
    }

    @Override
    public long timeNanos()
    {
        return null == timesNanos ? 1_000_000L + index * 500L : timesNanos[index];
    }
}
