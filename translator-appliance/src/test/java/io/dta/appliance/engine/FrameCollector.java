package io.dta.appliance.engine;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Test {@link FrameSink} that keeps a copy of every committed frame with its timestamp, so tests can assert on
 * exactly what the engine put on the wire. {@link #refuseClaims(boolean)} simulates a full transmit queue.
 */
public final class FrameCollector implements FrameSink
{
    /**
     * One frame that left the engine.
     *
     * @param bytes     the frame bytes (a private copy).
     * @param timeNanos engine clock at commit.
     */
    public record Frame(byte[] bytes, long timeNanos)
    {
    }

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024));
    private final List<Frame> frames = new ArrayList<>();
    private boolean refuse;

    /**
     * {@inheritDoc}
     */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * {@inheritDoc}
     */
    public int claim(final int maxLength)
    {
        return refuse ? -1 : 128;
    }

    /**
     * {@inheritDoc}
     */
    public void commit(final int offset, final int length, final long timeNanos)
    {
        final byte[] copy = new byte[length];
        buffer.getBytes(offset, copy);
        frames.add(new Frame(copy, timeNanos));
    }

    /**
     * @param refuse true to make every claim fail.
     */
    public void refuseClaims(final boolean refuse)
    {
        this.refuse = refuse;
    }

    /**
     * @return every frame so far, in order.
     */
    public List<Frame> frames()
    {
        return frames;
    }

    /**
     * @return number of frames so far.
     */
    public int size()
    {
        return frames.size();
    }

    /**
     * Removes and returns every frame so far.
     *
     * @return the frames, in order.
     */
    public List<Frame> drain()
    {
        final List<Frame> out = new ArrayList<>(frames);
        frames.clear();
        return out;
    }

    /**
     * Removes and returns every frame so far, parsed as RoCEv2 requests.
     *
     * @return the requests, in order.
     */
    public List<TestFrames.Request> drainRequests()
    {
        final List<TestFrames.Request> out = new ArrayList<>();
        for (final Frame f : drain())
        {
            out.add(TestFrames.parseRequest(f.bytes()));
        }
        return out;
    }
}
