package io.dta.appliance.demo;

import io.dta.appliance.engine.FrameLimits;
import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.SendOutcome;
import io.dta.collector.responder.ResponseSink;
import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * One direction of the demo's link: a FIFO with a fixed one-way delay that drops each frame with probability
 * {@code loss} (seeded, so a demo run is reproducible). Frames are copied into a preallocated ring of slots, each
 * large enough for the largest frame of the configuration's path MTUs; a frame larger than its slot is counted as an
 * overflow, never cut.
 * It is the engine's {@link FrameSink} on the way to the collector and the responder's {@link ResponseSink} on
 * the way back.
 */
final class LossyLink implements FrameSink, ResponseSink
{
    /** Ring memory per direction, whatever the slot size: the number of slots shrinks as slots grow. */
    static final int RING_BYTES = 128 * 1024 * 1024;

    private static final int MIN_SLOT = 2048;

    private final int slot;

    private final UnsafeBuffer ring;
    private final long[] arrival;
    private final int[] length;
    private final int capacity;
    private final double loss;
    private final long delayNanos;
    private final SplittableRandom random;
    private long head;
    private long tail;
    private long nowNanos;
    private long offered;
    private long dropped;
    private long overflowed;

    /**
     * @param largestFrame the longest frame of the configuration ({@link FrameLimits#largestFrame}): one fits a slot.
     */
    LossyLink(final int largestFrame, final double loss, final long delayNanos, final long seed)
    {
        this.slot = slotFor(largestFrame);
        this.capacity = RING_BYTES / slot;
        this.ring = new UnsafeBuffer(ByteBuffer.allocateDirect(RING_BYTES));
        this.arrival = new long[capacity];
        this.length = new int[capacity];
        this.loss = loss;
        this.delayNanos = delayNanos;
        this.random = new SplittableRandom(seed);
    }

    /**
     * @param largestFrame the longest frame to carry.
     * @return the slot size that holds it: a power of two, at least 2048.
     */
    static int slotFor(final int largestFrame)
    {
        return Math.max(MIN_SLOT, BitUtil.findNextPositivePowerOfTwo(largestFrame));
    }

    void now(final long timeNanos)
    {
        nowNanos = timeNanos;
    }

    @Override
    public MutableDirectBuffer buffer()
    {
        return ring;
    }

    @Override
    public int claim(final int maxLength)
    {
        if (tail - head >= capacity || maxLength > slot)
        {
            overflowed++;
            return -1;
        }
        return (int)(tail % capacity) * slot;
    }

    @Override
    public SendOutcome commit(
        final int offset, final int frameLength, final long timeNanos, final OutFrameKind kind, final int reports)
    {
        // A frame lost on the link left the translator: sent, as far as the translator can tell.
        carry(frameLength, timeNanos);
        return SendOutcome.SENT;
    }

    private void carry(final int frameLength, final long timeNanos)
    {
        offered++;
        if (random.nextDouble() < loss)
        {
            dropped++;
            return;
        }
        final int slot = (int)(tail % capacity);
        arrival[slot] = timeNanos + delayNanos;
        length[slot] = frameLength;
        tail++;
    }

    @Override
    public void onResponse(final DirectBuffer buffer, final int offset, final int frameLength)
    {
        final int at = claim(frameLength);
        if (at >= 0)
        {
            ring.putBytes(at, buffer, offset, frameLength);
            carry(frameLength, nowNanos);
        }
    }

    boolean isEmpty()
    {
        return head == tail;
    }

    long nextArrival()
    {
        return head == tail ? Long.MAX_VALUE : arrival[(int)(head % capacity)];
    }

    int headOffset()
    {
        return (int)(head % capacity) * slot;
    }

    int headLength()
    {
        return length[(int)(head % capacity)];
    }

    DirectBuffer ring()
    {
        return ring;
    }

    void pop()
    {
        head++;
    }

    long offered()
    {
        return offered;
    }

    long dropped()
    {
        return dropped;
    }

    long overflowed()
    {
        return overflowed;
    }
}
