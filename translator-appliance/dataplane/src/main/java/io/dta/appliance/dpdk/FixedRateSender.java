package io.dta.appliance.dpdk;

import io.dta.dpdk.EthQueue;
import io.dta.dpdk.Mbuf;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.Mempool;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Sends frames at a fixed rate from memory ({@code dta send}): the frames, loaded once, are copied into fresh mbufs a
 * burst at a time, each burst at its due time ({@code start + k · burst / rate}, spinning until then), so the rate
 * holds within a burst's worth up to what one core can copy and the device take. A wait longer than
 * {@link #PARK_ABOVE_NANOS} (rates below about 5,000 frames per second) sleeps until {@link #SPIN_NANOS} before the
 * due time and spins only the rest, so a slow sender leaves its CPU to the processes it feeds. A burst the device does not take
 * whole is not offered again (that would shift every later burst): the rest is freed and counted as not taken.
 * The achieved rate is the frames of every burst but the last over the time from the first burst to the last.
 */
public final class FixedRateSender
{
    /** The most frames per burst. */
    public static final int MAX_BURST = 32;

    /** A wait for the next burst longer than this sleeps first. */
    static final long PARK_ABOVE_NANOS = 200_000;

    /** How long before the due time a sleeping sender wakes to spin (the sleep's own lateness is below it). */
    static final long SPIN_NANOS = 100_000;

    private FixedRateSender()
    {
    }

    /**
     * What a run sent.
     *
     * @param sent        frames the device took.
     * @param notTaken    frames the device did not take (freed).
     * @param firstNanos  when the first burst went ({@code System.nanoTime}).
     * @param lastNanos   when the last burst went.
     * @param achievedPps frames per second from the first burst to the last, or 0 with one burst.
     */
    public record Result(long sent, long notTaken, long firstNanos, long lastNanos, double achievedPps)
    {
    }

    /**
     * Frames per burst for a rate: one burst in about every 10 µs, 1 to {@link #MAX_BURST} frames.
     *
     * @param pps frames per second.
     * @return the burst.
     */
    public static int burstFor(final long pps)
    {
        return (int)Math.max(1, Math.min(MAX_BURST, pps / 100_000));
    }

    /**
     * Sends {@code total} frames (the frames in order, again and again) at {@code pps}, or until {@code stop} says so.
     *
     * @param queue  the tx queue.
     * @param pool   where the mbufs come from (its data room holds the longest frame).
     * @param frames the frames.
     * @param pps    frames per second, at least 1.
     * @param total  frames to send.
     * @param stop   polled between bursts (a signal, a duration).
     * @return what was sent.
     */
    public static Result send(
        final EthQueue queue,
        final Mempool pool,
        final List<byte[]> frames,
        final long pps,
        final long total,
        final BooleanSupplier stop)
    {
        final int burst = burstFor(pps);
        final double burstNanos = burst * 1e9 / pps;
        final MbufArray mbufs = new MbufArray(burst);
        final Mbuf mbuf = new Mbuf();
        final UnsafeBuffer room = new UnsafeBuffer(0, 0);
        long sent = 0;
        long offered = 0;
        long lastBurstTaken = 0;
        long first = 0;
        long last = 0;
        long bursts = 0;
        int next = 0;
        final long start = System.nanoTime();
        while (offered < total && !stop.getAsBoolean())
        {
            final long due = start + (long)(bursts * burstNanos);
            long now = System.nanoTime();
            if (due - now > PARK_ABOVE_NANOS)
            {
                LockSupport.parkNanos(due - now - SPIN_NANOS);
            }
            while ((now = System.nanoTime()) - due < 0)
            {
                Thread.onSpinWait();
            }
            final int n = (int)Math.min(burst, total - offered);
            if (!pool.allocBulk(mbufs, n))
            {
                continue;
            }
            for (int i = 0; i < n; i++)
            {
                final byte[] frame = frames.get(next);
                next = next + 1 == frames.size() ? 0 : next + 1;
                mbuf.wrap(mbufs.get(i)).wrapRoom(room);
                room.putBytes(0, frame);
                mbuf.length(frame.length);
            }
            lastBurstTaken = queue.txBurstOrFree(mbufs, n);
            sent += lastBurstTaken;
            offered += n;
            first = 0 == bursts ? now : first;
            last = now;
            bursts++;
        }
        final double achieved = last > first ? (sent - lastBurstTaken) * 1e9 / (last - first) : 0;
        return new Result(sent, offered - sent, first, last, achieved);
    }
}
