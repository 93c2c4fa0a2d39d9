package io.dta.appliance.bench;

import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.HeldFrame;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * A {@link FrameSink} that takes every frame and throws it away, counting frames and bytes: the engine's cost
 * alone, without I/O.
 */
public final class DiscardingSink implements FrameSink
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024));
    private long frames;
    private long bytes;

    /**
     * {@inheritDoc}
     */
    @Override
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int claim(final int maxLength)
    {
        return 0;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void commit(final int offset, final int length, final long timeNanos)
    {
        frames++;
        bytes += length;
    }

    /**
     * Lets the sender build its held frames in its own staging buffer: they are discarded, so nothing is copied.
     */
    @Override
    public boolean claimHeld(final HeldFrame frame, final int maxLength)
    {
        frame.useStaging();
        return true;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void commitHeld(final HeldFrame frame, final int length, final long timeNanos)
    {
        commit(0, length, timeNanos);
    }

    /**
     * @return frames taken.
     */
    public long frames()
    {
        return frames;
    }

    /**
     * @return bytes taken.
     */
    public long bytes()
    {
        return bytes;
    }
}
