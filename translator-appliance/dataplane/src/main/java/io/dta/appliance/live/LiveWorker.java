package io.dta.appliance.live;

import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.engine.worker.HandOffQueues;
import io.dta.codec.UdpFlyweight;
import io.dta.dpdk.EthQueue;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.Mempool;
import io.dta.dpdk.RxFrames;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * One of the workers 1..W-1 of a live translator, on an EAL lcore of its own (worker 0 is the {@link LiveAgent}
 * itself, which also does what must happen in one place). Its duty cycle is the data plane's three hops: an rx burst
 * from its own queue of each port, each frame to its engine in place, one tx burst per port on its own queue; its
 * engine's timers and hand-offs run at the start of each cycle. Frames that are not the engine's (ARP, connection
 * set-up: anything but a report or an RC acknowledgement) go to worker 0 over a control hand-off queue, so ARP and
 * connection set-up happen in one place. Worker 0 builds this worker's engine and publishes it ({@link #start}); a
 * drain ({@link #drain()}) flushes it and stops reading reports; {@link #stop()} ends the loop.
 */
final class LiveWorker
{
    private static final long PUBLISH_NANOS = 50_000_000L;
    private static final int ETHER_TYPE_ARP = 0x0806;
    private static final int ETHER_TYPE_VLAN = 0x8100;
    private static final int ETHER_TYPE_QINQ = 0x88A8;
    private static final int BTH_OPCODE_RC_ACKNOWLEDGE = 0x11;
    private static final int BTH_OPCODE_RC_ATOMIC_ACKNOWLEDGE = 0x12;

    private final int index;
    private final EthQueue[] rx;
    private final boolean[] reports;
    private final int[] roles;
    private final TxQueue[] tx;
    private final HandOffQueues control;
    private final int burst;
    private final MbufArray mbufs;
    private final RxFrames frames;
    private final UnsafeBuffer frame = new UnsafeBuffer(0, 0);
    private volatile TranslatorEngine engine;
    private volatile boolean draining;
    private volatile boolean stopped;
    private volatile boolean quiescent = true;
    private boolean flushed;
    private long nextPublishNanos;
    private long controlDrops;
    private long framesBeforeEngine;

    /**
     * @param index   this worker's index, 1 or more.
     * @param rx      its rx queue of each distinct port.
     * @param roles   the role index each rx queue's frames are handed to worker 0 under.
     * @param reports which rx queues carry reports (not read while draining).
     * @param tx      its tx queues, flushed every duty cycle.
     * @param control the queues to worker 0.
     * @param burst   packets per rx burst.
     */
    LiveWorker(
        final int index,
        final EthQueue[] rx,
        final int[] roles,
        final boolean[] reports,
        final TxQueue[] tx,
        final HandOffQueues control,
        final int burst)
    {
        this.index = index;
        this.rx = rx.clone();
        this.roles = roles.clone();
        this.reports = reports.clone();
        this.tx = tx.clone();
        this.control = control;
        this.burst = burst;
        this.mbufs = new MbufArray(burst);
        this.frames = new RxFrames(burst);
    }

    /**
     * Gives the worker its engine (worker 0, once connection set-up is over).
     *
     * @param engine the worker's engine, joined to the others.
     */
    void start(final TranslatorEngine engine)
    {
        this.quiescent = false;
        this.engine = engine;
    }

    /**
     * Runs duty cycles until {@link #stop()}, on the calling (lcore) thread.
     *
     * @param idle the idle strategy.
     */
    void run(final IdleStrategy idle)
    {
        while (!stopped)
        {
            idle.idle(doWork());
        }
        for (final TxQueue queue : tx)
        {
            queue.flush();
        }
        final TranslatorEngine e = engine;
        if (null != e)
        {
            e.counters().publish();
        }
    }

    int doWork()
    {
        final long now = System.nanoTime();
        final TranslatorEngine e = engine;
        int work = 0;
        if (null != e)
        {
            work += e.poll(now);
            if (now - nextPublishNanos >= 0)
            {
                // This worker's counters are published on its own thread; worker 0 adds them up for dta stat.
                nextPublishNanos = now + PUBLISH_NANOS;
                e.counters().publish();
            }
            if (draining && !flushed)
            {
                flushed = true;
                e.flush(now);
            }
        }
        for (int q = 0; q < rx.length; q++)
        {
            // Reports wait in their ring until the engine exists, and stop being read at a drain.
            if (!((draining || null == e) && reports[q]) && rx[q].port().started())
            {
                work += receive(q, e, now);
            }
        }
        for (final TxQueue queue : tx)
        {
            work += queue.flush();
        }
        if (null != e && draining)
        {
            quiescent = e.isQuiescent();
        }
        return work;
    }

    private int receive(final int q, final TranslatorEngine e, final long now)
    {
        final int n = rx[q].rxBurst(mbufs, frames, burst);
        for (int i = 0; i < n; i++)
        {
            frame.wrap(frames.address(i), frames.length(i));
            final int length = frame.capacity();
            if (isControl(frame, length))
            {
                if (!control.offer(index, 0, 1 + roles[q], frame, 0, length))
                {
                    controlDrops++;
                }
            }
            else if (null != e)
            {
                e.onFrame(frame, 0, length, now);
            }
            else
            {
                framesBeforeEngine++;
            }
        }
        Mempool.freeBulk(mbufs, n);
        return n;
    }

    /**
     * @return true for a frame that is not a report's or an acknowledgement's: ARP, and RoCEv2 frames other than RC
     * ACKNOWLEDGE and ATOMIC ACKNOWLEDGE (connection set-up's MADs and SENDs).
     */
    static boolean isControl(final UnsafeBuffer frame, final int length)
    {
        if (length < 14)
        {
            return false;
        }
        int at = 12;
        int etherType = frame.getShort(at, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        while ((ETHER_TYPE_VLAN == etherType || ETHER_TYPE_QINQ == etherType) && at + 6 <= length)
        {
            at += 4;
            etherType = frame.getShort(at, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        if (ETHER_TYPE_ARP == etherType)
        {
            return true;
        }
        final int ip = at + 2;
        if (0x0800 != etherType || ip + 20 > length || 17 != (frame.getByte(ip + 9) & 0xFF))
        {
            return false;
        }
        final int udp = ip + ((frame.getByte(ip) & 0x0F) << 2);
        if (udp + 9 > length ||
            UdpFlyweight.ROCEV2_PORT != (frame.getShort(udp + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF))
        {
            return false;
        }
        final int opcode = frame.getByte(udp + 8) & 0xFF;
        return BTH_OPCODE_RC_ACKNOWLEDGE != opcode && BTH_OPCODE_RC_ATOMIC_ACKNOWLEDGE != opcode;
    }

    /**
     * Flushes the engine at its next duty cycle and stops reading reports.
     */
    void drain()
    {
        draining = true;
    }

    /**
     * @return true once draining and the engine is quiescent (or it never got one).
     */
    boolean drained()
    {
        return quiescent;
    }

    /**
     * Ends the loop after the current duty cycle.
     */
    void stop()
    {
        stopped = true;
    }

    /**
     * @return this worker's engine, or null before {@link #start}.
     */
    TranslatorEngine engine()
    {
        return engine;
    }

    /**
     * @return frames for worker 0 dropped because its control queue was full.
     */
    long controlDrops()
    {
        return controlDrops;
    }

    /**
     * @return frames that arrived before the worker had an engine.
     */
    long framesBeforeEngine()
    {
        return framesBeforeEngine;
    }
}
