package io.dta.appliance.dpdk;

import io.dta.appliance.engine.TranslatorEngine;
import io.dta.codec.UdpFlyweight;
import io.dta.dpdk.EthQueue;
import io.dta.dpdk.MbufArray;
import io.dta.dpdk.Mempool;
import io.dta.dpdk.RxFrames;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * One worker of the data plane, the same object in {@code dta run}, {@code dta bench --io dpdk} and their
 * {@code --workers} forms: its duty cycle is DPDK's three hops, rx burst → engine → tx burst, on its own queue of
 * each port. Responses (the queues that do not carry reports) are read first, so that after a stall of the thread
 * what waits in their ring is seen before the engine's timers declare an ACK timeout; then the engine's timers and
 * hand-offs run ({@link TranslatorEngine#poll}); then the reports; then one tx burst per queue. Each frame goes to the
 * engine in place (an {@link UnsafeBuffer} over the mbuf's data), the burst is freed in one call. Frames that are not
 * a report's or an acknowledgement's (ARP, connection set-up), and every frame before the worker has an engine, go to
 * {@link ControlFrames}. No allocation per packet.
 * <p>
 * The engine may come later than the loop ({@link #start}): in {@code dta run} worker 0 builds every worker's engine
 * once connection set-up is over, and until then reports wait in their rings. A drain ({@link #drain()}) flushes the
 * engine at the next duty cycle and stops reading reports; {@link #stop()} ends {@link #run}.
 */
public final class WorkerAgent implements Agent
{
    private static final long PUBLISH_NANOS = 50_000_000L;
    private static final int TASKS = 64;
    private static final int ETHER_TYPE_ARP = 0x0806;
    private static final int ETHER_TYPE_VLAN = 0x8100;
    private static final int ETHER_TYPE_QINQ = 0x88A8;
    private static final int BTH_OPCODE_RC_ACKNOWLEDGE = 0x11;
    private static final int BTH_OPCODE_RC_ATOMIC_ACKNOWLEDGE = 0x12;

    private final EthQueue[] rx;
    private final int[] roles;
    private final boolean[] reports;
    private final TxQueue[] tx;
    private final ControlFrames control;
    private final NanoClock clock;
    private final int burst;
    private final MbufArray mbufs;
    private final RxFrames frames;
    private final UnsafeBuffer frame = new UnsafeBuffer(0, 0);
    // Changes to the engine's QPs that worker 0's connection set-up asks for (a stop, a re-arm): rare, run between
    // duty cycles' hops on this worker's thread.
    private final OneToOneConcurrentArrayQueue<Runnable> tasks = new OneToOneConcurrentArrayQueue<>(TASKS);
    private volatile TranslatorEngine engine;
    private volatile LatencySampler latency;
    private volatile boolean draining;
    private volatile boolean stopped;
    private volatile boolean quiescent = true;
    private boolean flushed;
    private boolean reportsHeld;
    private long nextPublishNanos;
    // Written on the worker's thread only, read by worker 0's stats tick.
    private volatile long controlDrops;
    private volatile long framesBeforeEngine;
    private long framesIn;
    private long lastNanos;

    /**
     * @param rx      its rx queue of each distinct port.
     * @param roles   the role of each rx queue's port, handed to {@code control} with its control frames.
     * @param reports which rx queues carry reports (read after the timers; not read while draining).
     * @param tx      its tx queues, flushed every duty cycle (those the engine's {@link MbufFrameSink} fills).
     * @param control where frames that are not the engine's go; null for a worker with no control plane (a bench),
     *                whose engine takes every frame and counts what it is.
     * @param burst   packets per rx burst (32 is DPDK's usual).
     * @param clock   the engine clock.
     */
    public WorkerAgent(
        final EthQueue[] rx,
        final int[] roles,
        final boolean[] reports,
        final TxQueue[] tx,
        final ControlFrames control,
        final int burst,
        final NanoClock clock)
    {
        if (rx.length != roles.length || rx.length != reports.length)
        {
            throw new IllegalArgumentException("one role and one reports flag per rx queue");
        }
        this.rx = rx.clone();
        this.roles = roles.clone();
        this.reports = reports.clone();
        this.tx = tx.clone();
        this.control = control;
        this.burst = burst;
        this.clock = clock;
        this.mbufs = new MbufArray(burst);
        this.frames = new RxFrames(burst);
    }

    /**
     * A worker with one input queue, of reports, one output queue and no control plane: a bench's (its engine counts
     * an ARP or set-up frame as it counts any frame that is not a report's).
     *
     * @param engine the engine, built over a {@link MbufFrameSink} on {@code out}.
     * @param in     the reports.
     * @param out    where the engine's frames go.
     * @param burst  packets per rx burst.
     * @param clock  the engine clock.
     * @return the worker, started.
     */
    public static WorkerAgent of(
        final TranslatorEngine engine, final EthQueue in, final TxQueue out, final int burst, final NanoClock clock)
    {
        final WorkerAgent worker = new WorkerAgent(new EthQueue[] { in }, new int[] { 0 }, new boolean[] { true },
            new TxQueue[] { out }, null, burst, clock);
        worker.start(engine);
        return worker;
    }

    /**
     * Gives the worker its engine.
     *
     * @param engine the worker's engine (joined to the others' when there are several).
     */
    public void start(final TranslatorEngine engine)
    {
        this.quiescent = false;
        this.engine = engine;
    }

    /**
     * Runs duty cycles until {@link #stop()}, on the calling (lcore) thread, then sends what is queued and publishes
     * the engine's counters.
     *
     * @param idle the idle strategy.
     */
    public void run(final IdleStrategy idle)
    {
        while (!stopped)
        {
            idle.idle(doWork());
        }
        flushTx();
        final TranslatorEngine e = engine;
        if (null != e)
        {
            e.counters().publish();
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int doWork()
    {
        return doWork(Integer.MAX_VALUE);
    }

    /**
     * A duty cycle that takes at most {@code maxReportFrames} frames from the reports queues (each burst shortened to
     * what is left), so that a bench receives exactly the frames it counts: its last burst partial.
     *
     * @param maxReportFrames the most frames to take from the reports queues.
     * @return the work done.
     */
    public int doWork(final int maxReportFrames)
    {
        final long now = clock.nanoTime();
        lastNanos = now;
        final TranslatorEngine e = engine;
        int work = 0;
        for (int q = 0; q < rx.length; q++)
        {
            if (!reports[q] && rx[q].port().started())
            {
                work += receive(q, e, now, burst);
            }
        }
        if (null != e)
        {
            work += timers(e, now);
        }
        final LatencySampler sampler = latency;
        boolean sampled = false;
        int left = maxReportFrames;
        for (int q = 0; q < rx.length && left > 0; q++)
        {
            // Reports wait in their ring until the engine exists, and stop being read at a drain.
            if (reports[q] && !reportsHeld && !draining && null != e && rx[q].port().started())
            {
                final int n = receive(q, e, now, Math.min(burst, left));
                sampled |= null != sampler && n > 0 && sampler.due(n);
                work += n;
                left -= n;
            }
        }
        work += flushTx();
        if (sampled)
        {
            sampler.record(clock.nanoTime() - now);
        }
        if (null != e && draining)
        {
            quiescent = e.isQuiescent();
        }
        return work;
    }

    private int timers(final TranslatorEngine e, final long now)
    {
        int work = 0;
        if (!tasks.isEmpty())
        {
            Runnable task;
            while (null != (task = tasks.poll()))
            {
                task.run();
                work++;
            }
        }
        work += e.poll(now);
        if (now - nextPublishNanos >= 0)
        {
            // The worker's counters are published on its own thread; dta stat adds the workers' up.
            nextPublishNanos = now + PUBLISH_NANOS;
            e.counters().publish();
        }
        if (draining && !flushed)
        {
            flushed = true;
            e.flush(now);
        }
        return work;
    }

    private int receive(final int q, final TranslatorEngine e, final long now, final int most)
    {
        final int n = rx[q].rxBurst(mbufs, frames, most);
        for (int i = 0; i < n; i++)
        {
            frame.wrap(frames.address(i), frames.length(i));
            final int length = frame.capacity();
            final boolean controlFrame = isControl(frame, length);
            if (null != e && (!controlFrame || null == control))
            {
                e.onFrame(frame, 0, length, now);
            }
            else if (null == control || !control.offer(roles[q], frame, 0, length))
            {
                if (controlFrame)
                {
                    controlDrops++;
                }
                else
                {
                    // Before the engine exists (connection set-up) control counts what it cannot use.
                    framesBeforeEngine++;
                }
            }
        }
        Mempool.freeBulk(mbufs, n);
        framesIn += n;
        return n;
    }

    private int flushTx()
    {
        int sent = 0;
        for (final TxQueue queue : tx)
        {
            sent += queue.flush();
        }
        return sent;
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
     * Flushes partial batches, cached postcards and held frames, and sends them.
     */
    @Override
    public void onClose()
    {
        final TranslatorEngine e = engine;
        if (null != e)
        {
            e.flush(clock.nanoTime());
        }
        flushTx();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String roleName()
    {
        return "dta-worker";
    }

    /**
     * Samples the latency of this worker's reports from now on (set before the worker's thread starts).
     *
     * @param sampler where the samples go.
     */
    public void sampleLatency(final LatencySampler sampler)
    {
        latency = sampler;
    }

    /**
     * Holds the reports in their rings (a link not up yet) or reads them again; called on the worker's thread.
     *
     * @param held true to leave the reports queues unread.
     */
    public void holdReports(final boolean held)
    {
        reportsHeld = held;
    }

    /**
     * Flushes the engine at its next duty cycle and stops reading reports.
     */
    public void drain()
    {
        draining = true;
    }

    /**
     * @return true once draining and the engine is quiescent (or it never got one).
     */
    public boolean drained()
    {
        return quiescent;
    }

    /**
     * Ends {@link #run} after the current duty cycle.
     */
    public void stop()
    {
        stopped = true;
    }

    /**
     * @return the worker's engine, or null before {@link #start}.
     */
    public TranslatorEngine engine()
    {
        return engine;
    }

    /**
     * @return frames received on all its queues.
     */
    public long framesIn()
    {
        return framesIn;
    }

    /**
     * Runs a change to the engine's QPs on this worker's thread, at its next duty cycle (one thread offers: worker
     * 0's, whose connection set-up reconnects every worker's QPs).
     *
     * @param task the change.
     * @return false when 64 tasks wait already: offer it again later.
     */
    public boolean offer(final Runnable task)
    {
        return tasks.offer(task);
    }

    /**
     * @return the engine clock at the last duty cycle.
     */
    public long lastNanos()
    {
        return lastNanos;
    }

    /**
     * @return control frames dropped because {@link ControlFrames} did not take them.
     */
    public long controlDrops()
    {
        return controlDrops;
    }

    /**
     * @return frames of the other queues that arrived before the worker had an engine and that control refused.
     */
    public long framesBeforeEngine()
    {
        return framesBeforeEngine;
    }
}
