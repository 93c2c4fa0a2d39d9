package io.dta.appliance.connect;

import io.dta.appliance.engine.FrameSink;
import io.dta.appliance.engine.OutFrameKind;
import io.dta.appliance.engine.SendOutcome;
import io.dta.collector.responder.ResponseSink;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * A seeded one-way test link that loses, duplicates and reorders frames (each copy gets its own random delay).
 */
final class SimLink implements FrameSink, ResponseSink
{
    record Arrival(long timeNanos, long sequence, byte[] bytes)
    {
    }

    private final UnsafeBuffer staging = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
    private final PriorityQueue<Arrival> queue = new PriorityQueue<>((a, b) -> a.timeNanos != b.timeNanos ?
        Long.compare(a.timeNanos, b.timeNanos) : Long.compare(a.sequence, b.sequence));
    private final SplittableRandom random;
    private final double loss;
    private final double duplication;
    private final long delayNanos;
    private final long jitterNanos;
    private long sequence;
    private long now;
    long offered;
    long lost;
    long duplicated;

    SimLink(final long seed, final double loss, final double duplication, final long delayNanos,
        final long jitterNanos)
    {
        this.random = new SplittableRandom(seed);
        this.loss = loss;
        this.duplication = duplication;
        this.delayNanos = delayNanos;
        this.jitterNanos = jitterNanos;
    }

    void now(final long timeNanos)
    {
        now = timeNanos;
    }

    @Override
    public MutableDirectBuffer buffer()
    {
        return staging;
    }

    @Override
    public int claim(final int maxLength)
    {
        return 0;
    }

    @Override
    public SendOutcome commit(
        final int offset, final int length, final long timeNanos, final OutFrameKind kind, final int reports)
    {
        offer(staging, offset, length, timeNanos);
        return SendOutcome.SENT;
    }

    @Override
    public void onResponse(final DirectBuffer buffer, final int offset, final int length)
    {
        offer(buffer, offset, length, now);
    }

    private void offer(final DirectBuffer buffer, final int offset, final int length, final long timeNanos)
    {
        offered++;
        if (random.nextDouble() < loss)
        {
            lost++;
            return;
        }
        final int copies = random.nextDouble() < duplication ? 2 : 1;
        duplicated += copies - 1;
        for (int i = 0; i < copies; i++)
        {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            final long jitter = jitterNanos > 0 ? random.nextLong(jitterNanos) : 0;
            queue.add(new Arrival(timeNanos + delayNanos + jitter, sequence++, bytes));
        }
    }

    long nextArrival()
    {
        return queue.isEmpty() ? Long.MAX_VALUE : queue.peek().timeNanos();
    }

    Arrival poll()
    {
        return queue.poll();
    }

    boolean isEmpty()
    {
        return queue.isEmpty();
    }
}
